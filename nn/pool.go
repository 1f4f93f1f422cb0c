package nn

import (
	"sync"
	"sync/atomic"
)

// job is a piece of work split into numbered units that may run in any order
// on any goroutine. Units write disjoint outputs, and how work is cut into
// units depends only on the sizes involved, never on the number of threads,
// so results are bit-identical for every thread count.
type job interface {
	run(unit int)
}

// pool runs jobs on a fixed set of goroutines; the caller takes part, so a
// pool of one thread runs everything inline and starts no goroutine. A pool
// is used by one goroutine at a time; dispatching allocates nothing.
type pool struct {
	threads int
	wake    chan struct{}
	wg      sync.WaitGroup
	j       job
	units   int
	next    atomic.Int64
}

func newPool(threads int) *pool {
	p := &pool{threads: max(threads, 1)}
	if p.threads > 1 {
		p.wake = make(chan struct{})
		for i := 1; i < p.threads; i++ {
			go p.worker(p.wake)
		}
	}
	return p
}

// worker runs units when woken until the pool closes. It takes the channel
// as an argument: a worker that starts after close (one never woken) must not
// read the field close clears.
func (p *pool) worker(wake <-chan struct{}) {
	for range wake {
		p.drain()
		p.wg.Done()
	}
}

func (p *pool) drain() {
	for {
		u := int(p.next.Add(1) - 1)
		if u >= p.units {
			return
		}
		p.j.run(u)
	}
}

// do runs units 0..units-1 of j and returns when all are done.
func (p *pool) do(j job, units int) {
	if p.threads == 1 || units == 1 {
		for u := 0; u < units; u++ {
			j.run(u)
		}
		return
	}
	p.j, p.units = j, units
	p.next.Store(0)
	helpers := min(p.threads-1, units-1)
	p.wg.Add(helpers)
	for i := 0; i < helpers; i++ {
		p.wake <- struct{}{}
	}
	p.drain()
	p.wg.Wait()
	p.j = nil
}

// close stops the pool's goroutines; the pool must not be used afterwards.
func (p *pool) close() {
	if p.wake != nil {
		close(p.wake)
		p.wake = nil
	}
}
