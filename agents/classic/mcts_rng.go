package classic

import "github.com/urim-rl/urim/internal/splitmix"

// Xorshift is a xorshift64 generator (the mcts tree's and the neural agent's): a few shifts per draw, no allocation,
// inlined into the search loops. Its state is never 0.
type Xorshift uint64

// NewXorshift seeds a generator from seed through a splitmix64 step, so
// nearby seeds (0, 1, 2, ... for threads) give unrelated streams.
func NewXorshift(seed uint64) Xorshift {
	z := splitmix.Mix(seed)
	if z == 0 {
		z = 0x2545F4914F6CDD1D
	}
	return Xorshift(z)
}

// Next advances the generator and returns the new state.
func (r *Xorshift) Next() uint64 {
	x := uint64(*r)
	x ^= x << 13
	x ^= x >> 7
	x ^= x << 17
	*r = Xorshift(x)
	return x
}

// intn returns a number in [0, n) by multiply-shift (no division; the bias is
// below 2^-29 for the n ≤ 7 used here).
func (r *Xorshift) intn(n int) int {
	return int((r.Next() >> 32) * uint64(n) >> 32)
}

// splitSeed derives the seed of the i-th sub-generator (a search thread, a
// rollout evaluator) from an agent's seed.
func splitSeed(seed uint64, i int) uint64 {
	return seed ^ (uint64(i)+1)*0xD1B54A32D192ED03
}
