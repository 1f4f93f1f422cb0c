package env_test

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/urim-rl/urim/env"
)

// TestNewVecRefusesHugeBatches: 10^8 games would die out of memory inside
// NewVec; they are refused up front with the figure.
func TestNewVecRefusesHugeBatches(t *testing.T) {
	g := env.MustGame(env.Urim)
	for _, n := range []int{100_000_000, 1 << 62} {
		_, err := env.NewVec(g, n, env.VecOptions{})
		if err == nil || !strings.Contains(err.Error(), "GB of memory") || !strings.Contains(err.Error(), "env.VecMaxBytes") {
			t.Errorf("n=%d: %v", n, err)
		}
	}
	// The estimate is what NewVec allocates, within a quarter (the rest:
	// workers, encoder tables).
	const n = 4096
	opt := env.VecOptions{Workers: 1}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	v, err := env.NewVec(g, n, opt)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	got, est := int64(after.TotalAlloc-before.TotalAlloc), env.VecBytes(g, n, opt)
	if est < got*3/4 || est > got*5/4 {
		t.Errorf("VecBytes(%d) = %d, NewVec allocated %d", n, est, got)
	}
}

// TestVecMustFitInMemory: a batch under VecMaxBytes that does not fit in
// the memory the process may use (here Go's memory limit, 1 GiB) is
// refused before it is allocated.
func TestVecMustFitInMemory(t *testing.T) {
	old := debug.SetMemoryLimit(1 << 30)
	defer debug.SetMemoryLimit(old)
	_, err := env.NewVec(env.MustGame(env.Urim), 2_000_000, env.VecOptions{})
	if err == nil || !strings.Contains(err.Error(), "more than the 1.1 GB") {
		t.Fatalf("2,000,000 games under 1 GiB: %v", err)
	}
}
