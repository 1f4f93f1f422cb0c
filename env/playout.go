package env

// Playout plays random legal moves from s to the end of the game, in place,
// drawing from a xorshift generator held in *rng (which must not be 0), and
// returns the number of moves played. It allocates nothing; it is the inner
// loop of random-rollout search and of the engine benchmark.
func Playout(s *State, rng *uint64) int {
	n := 0
	for s.end == Ongoing {
		m := s.legal
		x := *rng
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		*rng = x
		// Multiply-shift maps x onto [0, count) without a division.
		k := int((x >> 32) * uint64(m.Count()) >> 32)
		s.Play(m.nth(k))
		n++
	}
	return n
}
