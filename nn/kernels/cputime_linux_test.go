package kernels

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time this process has used (all threads, so
// that a product split over goroutines, as gonum's large ones are, is
// counted whole). On a shared machine it is steadier than wall time.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
