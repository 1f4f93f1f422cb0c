//go:build unix

package capi

import (
	"syscall"
	"time"
)

// cpuSeconds returns the CPU time the process has used, all threads (the
// clock of Python's time.process_time).
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return float64(time.Now().UnixNano()) / 1e9
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
