package cputime

import (
	"runtime"
	"testing"
	"time"
)

// TestProcessGrows: on unix the CPU time is reported and grows with work.
func TestProcessGrows(t *testing.T) {
	t0, ok := Process()
	if !ok {
		if runtime.GOOS != "windows" && runtime.GOOS != "plan9" && runtime.GOOS != "js" && runtime.GOOS != "wasip1" {
			t.Fatalf("no CPU time on %s", runtime.GOOS)
		}
		t.Skipf("no CPU time on %s", runtime.GOOS)
	}
	x := 0.0
	for deadline := time.Now().Add(20 * time.Millisecond); time.Now().Before(deadline); {
		for i := range 1000 {
			x += float64(i)
		}
	}
	if t1, _ := Process(); t1 <= t0 || x == 0 {
		t.Errorf("CPU time %v after %v of work", t1, t0)
	}
}
