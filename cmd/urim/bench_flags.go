package main

import (
	"runtime"
	"time"
)

// Flag checks shared by the "urim bench" commands, run before any
// measurement: a zero duration gives NaN and infinite rates that JSON cannot
// hold, and a thousand workers spend minutes in the cpu-scaling probe.

// benchMinDuration and benchMaxDuration bound every duration flag of a
// benchmark: below 10ms a timed run may finish no game at all.
const (
	benchMinDuration = 10 * time.Millisecond
	benchMaxDuration = time.Hour
)

// checkBenchDuration checks a duration flag.
func checkBenchDuration(name string, d time.Duration) error {
	if d < benchMinDuration || d > benchMaxDuration {
		return usageErrorf("--%s %v: want %v to %v", name, d, benchMinDuration, benchMaxDuration)
	}
	return nil
}

// benchMaxWorkers is the most goroutines a benchmark runs at once: four per
// usable core (at least 8). More only measure the scheduler, and they
// multiply the time of the cpu-scaling probe.
func benchMaxWorkers() int { return max(8, 4*runtime.GOMAXPROCS(0)) }

// checkBenchWorkers checks a worker or thread count.
func checkBenchWorkers(name string, n int) error {
	if n < 1 || n > benchMaxWorkers() {
		return usageErrorf("--%s %d: want 1 to %d (4 per core, GOMAXPROCS %d)", name, n, benchMaxWorkers(), runtime.GOMAXPROCS(0))
	}
	return nil
}
