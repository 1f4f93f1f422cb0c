// Package splitmix holds the SplitMix64 finaliser, the seed mixer of the
// environment's openings and the agents' generators, and the seed
// derivations built on it ([Derive]: the evaluator's and the datasets'
// game and agent seeds; [Chain]: training's streams).
package splitmix

// Mix is the SplitMix64 finaliser of x plus the golden-ratio increment: a
// bijection that spreads every input bit over the output, so nearby inputs
// (game indices, thread numbers) give unrelated seeds.
func Mix(x uint64) uint64 {
	x += 0x9E3779B97F4A7C15
	x = (x ^ x>>30) * 0xBF58476D1CE4E5B9
	x = (x ^ x>>27) * 0x94D049BB133111EB
	return x ^ x>>31
}
