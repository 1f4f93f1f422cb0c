package classic

import (
	"context"
	"hash/fnv"
	"math"
	"testing"

	"github.com/urim-rl/urim/env"
)

// selfPlayDigest plays games of self-play with cfg on the linear network
// and returns a digest of every move's search: moves, visits, policy
// targets, Q and root values, bit for bit.
func selfPlayDigest(t *testing.T, cfg LockstepConfig) uint64 {
	t.Helper()
	h := fnv.New64a()
	var b [4]byte
	put := func(x uint32) {
		b[0], b[1], b[2], b[3] = byte(x), byte(x>>8), byte(x>>16), byte(x>>24)
		h.Write(b[:])
	}
	l := linearLockstep(t, env.MustGame(env.Urim), cfg, 9)
	err := l.Play(context.Background(), 6, func(m *SelfPlayMove) error {
		put(uint32(m.Action))
		for a := range m.Search.Visits {
			put(uint32(m.Search.Visits[a]))
			put(math.Float32bits(m.Search.Policy[a]))
			put(math.Float32bits(m.Search.Q[a]))
		}
		put(math.Float32bits(m.Search.Value))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return h.Sum64()
}

// digestConfig is a self-play config with root noise, playout-cap
// randomization, temperatures and batched leaves.
func digestConfig() LockstepConfig {
	return LockstepConfig{Games: 3, Search: MCTSConfig{Sims: 48, Batch: 4, Rule: PUCT}, NoiseAlpha: 0.5, NoiseFrac: 0.25,
		Moves: SelfPlayPolicy{FastSims: 12, FullProb: 0.5, Temperature: 1, TempPlies: 12}}
}

// TestKataGoExtrasOffAreToday: with forced playouts and the root policy
// temperature at their zero values (off), self-play searches and plays
// exactly as it did before they existed: the digest was taken from the
// search of commit 03cc3be.
func TestKataGoExtrasOffAreToday(t *testing.T) {
	const want = 0x373c026201faf6b6
	if got := selfPlayDigest(t, digestConfig()); got != want {
		t.Fatalf("digest %#x, want %#x", got, want)
	}
}
