//go:build race

package dataset

// raceEnabled is true when the race detector is on: it makes allocations
// that allocation tests must not count.
const raceEnabled = true
