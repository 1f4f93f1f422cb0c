package evaluate

import (
	"hash/fnv"

	"github.com/urim-rl/urim/internal/splitmix"
)

// derive combines a seed with further values into a new seed.
func derive(seed uint64, parts ...uint64) uint64 { return splitmix.Derive(seed, parts...) }

// hashString is a stable 64-bit hash of s (FNV-1a), the same on every
// platform and run.
func hashString(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// GameSeed returns the seed of game index of the pairing of the agents with
// specs a and b in a tournament seeded with seed. The order of a and b does
// not matter, so the same pairing gets the same games whatever the order of
// the agent list and whichever other agents take part.
func GameSeed(seed uint64, a, b string, index int) uint64 {
	a, b = CanonicalSpec(a), CanonicalSpec(b)
	if b < a {
		a, b = b, a
	}
	return derive(seed, 0x67616d65, hashString(a), hashString(b), uint64(index))
}

// agentSeed returns the seed of the agent in seat (0 South, 1 North) of the
// game seeded with gameSeed.
func agentSeed(gameSeed uint64, seat int) uint64 { return derive(gameSeed, 0x7365617430+uint64(seat)) }
