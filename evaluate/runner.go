package evaluate

import (
	"context"
	"sync"
	"sync/atomic"
)

// runJobs plays jobs 0 … n-1 (n < 0: until stopped) on workers goroutines
// and hands each record to deliver from the calling goroutine: in index
// order when ordered is set, else as games finish. deliver returning true
// stops the run; games still being played are cancelled and dropped. The
// first error from play stops the run and is returned.
//
// In ordered mode at most 4·workers games are started but not yet delivered,
// so a long game holds back the others only that far.
func runJobs(ctx context.Context, n, workers int, ordered bool,
	play func(ctx context.Context, i int) (Record, error),
	deliver func(i int, rec Record) (stop bool)) error {
	if n == 0 {
		return nil
	}
	if n > 0 {
		workers = min(workers, n)
	}
	workers = max(workers, 1)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	type result struct {
		i   int
		rec Record
		err error
	}
	results := make(chan result, workers)
	window := make(chan struct{}, 4*workers)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				// The slot is taken before the index, so the oldest
				// undelivered game always has a slot and the window
				// cannot fill with games waiting for it.
				select {
				case window <- struct{}{}:
				case <-ctx.Done():
					return
				}
				i := int(next.Add(1) - 1)
				if n > 0 && i >= n {
					<-window
					return
				}
				rec, err := play(ctx, i)
				select {
				case results <- result{i, rec, err}:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()

	var firstErr error
	stopped := false
	pending := map[int]result{}
	want := 0
	give := func(r result) {
		<-window
		if deliver(r.i, r.rec) {
			stopped = true
			cancel()
		}
	}
	for r := range results {
		if stopped || firstErr != nil {
			continue
		}
		if r.err != nil {
			firstErr = r.err
			cancel()
			continue
		}
		if !ordered {
			give(r)
			continue
		}
		pending[r.i] = r
		for !stopped {
			p, ok := pending[want]
			if !ok {
				break
			}
			delete(pending, want)
			want++
			give(p)
		}
	}
	if stopped {
		return nil
	}
	if firstErr != nil {
		return firstErr
	}
	// Only the caller can have cancelled ctx here.
	return ctx.Err()
}
