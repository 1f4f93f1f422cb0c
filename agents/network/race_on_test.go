//go:build race

package network_test

// raceEnabled tells the allocation tests that the race detector, whose
// instrumentation allocates, is on.
const raceEnabled = true
