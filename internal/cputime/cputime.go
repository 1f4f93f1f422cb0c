// Package cputime reads the CPU time of the process, the one reader behind
// the benchmarks' CPU-time figures (on a shared machine it measures the work
// better than the wall clock).
package cputime

import "time"

// Process returns the CPU time the process has used, user and system, all
// threads (so that work split over goroutines is counted whole), and whether
// the platform reports it (unix does; elsewhere it returns 0, false).
func Process() (time.Duration, bool) { return process() }
