//go:build !linux

package kernels

import "time"

// processCPU is unavailable on this platform.
func processCPU() (time.Duration, bool) { return 0, false }
