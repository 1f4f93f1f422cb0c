package env

import "math/bits"

// RandomActions writes into dst[i] a random legal action of legal[i], for
// every i, drawing 16 bits per game from the xorshift64* generator held in
// *rng (which must not be 0). The choice is uniform up to a bias below
// 2⁻¹³; a game with no legal action gets 0, which [Vec.Step] ignores for a
// finished game. It allocates nothing: it is the random player of
// benchmarks and baselines, cheap enough not to weigh on a step. dst must
// be at least as long as legal.
func RandomActions(dst []int32, legal []Mask, rng *uint64) {
	dst = dst[:len(legal)]
	x := *rng
	var r uint64
	for i, m := range legal {
		if i&3 == 0 {
			x ^= x >> 12
			x ^= x << 25
			x ^= x >> 27
			r = x * 0x2545F4914F6CDD1D
		}
		// Multiply-shift maps 16 random bits onto [0, count).
		k := (r & 0xFFFF) * uint64(bits.OnesCount8(uint8(m))) >> 16
		r >>= 16
		dst[i] = int32(m.nth(int(k)))
	}
	*rng = x
}
