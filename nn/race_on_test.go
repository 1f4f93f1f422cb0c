//go:build race

package nn

// raceEnabled: the race detector makes sync.Pool drop items, so allocation
// counts mean nothing under it.
const raceEnabled = true
