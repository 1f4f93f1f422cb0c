//go:build !unix

package capi

import "time"

// cpuSeconds falls back on the wall clock where the CPU time cannot be read.
func cpuSeconds() float64 { return float64(time.Now().UnixNano()) / 1e9 }
