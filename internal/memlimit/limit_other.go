//go:build !linux

package memlimit

// platformLimits offers nothing beyond Go's memory limit elsewhere.
func platformLimits(func(uint64, string)) {}
