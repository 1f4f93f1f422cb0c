package capi

import (
	"time"

	"github.com/urim-rl/urim/internal/cputime"
)

// cpuSeconds returns the process's CPU time (the clock of Python's
// time.process_time), or the wall clock where the platform has none.
func cpuSeconds() float64 {
	if d, ok := cputime.Process(); ok {
		return d.Seconds()
	}
	return float64(time.Now().UnixNano()) / 1e9
}
