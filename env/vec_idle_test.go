package env

import (
	"runtime"
	"slices"
	"testing"
	"time"
)

// TestVecDroppedWithoutCloseIsCollected: a Vec that is never closed must not
// keep its worker goroutines, nor itself, alive.
func TestVecDroppedWithoutCloseIsCollected(t *testing.T) {
	g := MustGame(Urim)
	before := runtime.NumGoroutine()
	collected := make(chan struct{})
	func() {
		v, err := NewVec(g, 64, VecOptions{Workers: 4})
		if err != nil {
			t.Fatal(err)
		}
		runtime.AddCleanup(v, func(c chan struct{}) { close(c) }, collected)
		actions := make([]int32, 64)
		rng := uint64(1)
		for range 10 {
			RandomActions(actions, v.Legal(), &rng)
			if err := v.Step(actions); err != nil {
				t.Fatal(err)
			}
		}
	}()
	deadline := time.Now().Add(40 * vecIdleExit)
	for {
		runtime.GC()
		select {
		case <-collected:
			if n := runtime.NumGoroutine(); n > before {
				t.Errorf("%d goroutines after the Vec was collected, %d before it", n, before)
			}
			return
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("a Vec dropped without Close was not collected after %v (%d goroutines, %d before)",
				40*vecIdleExit, runtime.NumGoroutine(), before)
		}
		time.Sleep(vecIdleExit / 5)
	}
}

// TestVecStepsAfterIdleExit: workers that exited while the Vec was idle
// come back on the next step, and the games are those of a Vec stepped
// without a pause.
func TestVecStepsAfterIdleExit(t *testing.T) {
	g := MustGame(Urim)
	run := func(pause bool) []float32 {
		v, err := NewVec(g, 32, VecOptions{Workers: 3, OpeningPlies: 2, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		defer v.Close()
		actions := make([]int32, 32)
		rng := uint64(9)
		var out []float32
		for step := range 40 {
			if pause && step == 20 {
				// Wait until every worker has exited (a loaded machine may
				// run the timers late).
				deadline := time.Now().Add(40 * vecIdleExit)
				for k := 1; k < len(v.workers); {
					if v.workers[k].state.Load() == vecExited {
						k++
						continue
					}
					if time.Now().After(deadline) {
						t.Fatalf("worker %d still in state %d after %v idle", k, v.workers[k].state.Load(), 40*vecIdleExit)
					}
					time.Sleep(vecIdleExit / 5)
				}
			}
			RandomActions(actions, v.Legal(), &rng)
			if err := v.Step(actions); err != nil {
				t.Fatal(err)
			}
			out = append(out, v.Obs()...)
		}
		return out
	}
	if !slices.Equal(run(false), run(true)) {
		t.Error("a Vec whose workers exited while idle stepped differently")
	}
}
