package evaluate

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"
)

// TestRunJobsOrderedNoDeadlock runs many games of random length in ordered
// mode, where games finished out of order wait for their turn; the window
// of started games must never fill with games that wait for one that cannot
// start.
func TestRunJobsOrderedNoDeadlock(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 500
	}
	done := make(chan error, 1)
	got := make([]int, 0, n)
	go func() {
		done <- runJobs(context.Background(), n, 4, true,
			func(ctx context.Context, i int) (Record, error) {
				// A few slow games among many fast ones.
				if rand.IntN(50) == 0 {
					time.Sleep(200 * time.Microsecond)
				}
				return Record{Index: i}, nil
			},
			func(i int, rec Record) bool {
				got = append(got, rec.Index)
				return false
			})
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("runJobs deadlocked")
	}
	for i, k := range got {
		if i != k {
			t.Fatalf("delivery %d was game %d", i, k)
		}
	}
	if len(got) != n {
		t.Fatalf("%d games delivered, want %d", len(got), n)
	}
}

func TestRunJobsStopAndError(t *testing.T) {
	var seen int
	err := runJobs(context.Background(), -1, 3, true,
		func(ctx context.Context, i int) (Record, error) { return Record{Index: i}, nil },
		func(i int, rec Record) bool { seen++; return i == 99 })
	if err != nil || seen != 100 {
		t.Fatalf("stop at 100: %d delivered, error %v", seen, err)
	}
	boom := errors.New("boom")
	err = runJobs(context.Background(), 50, 2, false,
		func(ctx context.Context, i int) (Record, error) {
			if i == 20 {
				return Record{}, boom
			}
			return Record{}, nil
		},
		func(int, Record) bool { return false })
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want boom", err)
	}
}
