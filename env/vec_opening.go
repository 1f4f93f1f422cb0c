package env

import (
	"math/rand/v2"

	"github.com/urim-rl/urim/internal/splitmix"
)

// vecMaxOpening bounds VecOptions.OpeningPlies: longer random openings reach
// the end of a random game too often to be an opening.
const vecMaxOpening = 100

// vecOpeningTries is how many times an opening starts over after reaching a
// position where every move ends the game, before giving up.
const vecOpeningTries = 1000

// openingInto sets *dst to the start of episode e of game i: the start
// position followed by OpeningPlies random plies. The plies come from a PCG
// seeded from (Seed, i, e) alone, so every worker count draws the same
// openings.
func (v *Vec) openingInto(dst *State, i int, e uint64) {
	*dst = v.g.start
	k := v.opt.OpeningPlies
	if k == 0 {
		return
	}
	var rng rand.PCG
	rng.Seed(vecMix(v.opt.Seed^vecMix(uint64(i))), vecMix(e))
	for try := 0; try < vecOpeningTries; try++ {
		if randomPlies(dst, k, &rng, nil) {
			return
		}
		*dst = v.g.start
	}
	// A board so small that random plies rarely stay in the game: the first
	// opening that does (rare: it allocates).
	for _, a := range v.fallbackOpening() {
		dst.Play(a)
	}
}

// fallbackOpening returns the opening of an episode whose random tries all
// failed: the first that leaves the game running, the same every time.
func (v *Vec) fallbackOpening() []int {
	moves := make([]int, v.opt.OpeningPlies)
	v.g.firstOpening(moves)
	return moves
}

// RandomOpening returns the actions of plies random plies from the start of
// g, each drawn uniformly among the moves that do not end the game, from a
// generator seeded with seed alone. It is the one opening generator: a
// [Vec]'s openings (VecOptions.OpeningPlies) and the evaluator's come from
// it. It starts over when it reaches a position where every move ends the
// game; after a thousand such starts (a small custom board; no preset comes
// near) it returns the first opening, moves in order, that stays in the
// game. It panics if none does, which [Game.CheckOpening] refuses first.
func (g *Game) RandomOpening(plies int, seed uint64) []int {
	if err := g.checkOpeningCap(plies); err != nil {
		panic("env: RandomOpening: " + err.Error()) // configs check this first
	}
	moves := make([]int, plies)
	var rng rand.PCG
	rng.Seed(splitmix.Mix(seed), 0x6f70656e)
	for try := 0; try < vecOpeningTries; try++ {
		s := g.start
		if randomPlies(&s, plies, &rng, moves) {
			return moves
		}
	}
	// A board so small that random plies rarely stay in the game: the first
	// opening that does (CheckOpening made sure there is one).
	g.firstOpening(moves)
	return moves
}

// randomPlies plays k random plies in s, each drawn uniformly among the
// moves that do not end the game, writing them to moves[:k] when moves is
// not nil. It reports false, leaving s partly played, when it reaches a
// position where every move ends the game. It allocates nothing.
func randomPlies(s *State, k int, rng *rand.PCG, moves []int) bool {
	for ply := range k {
		m := s.legal
		for {
			if m == 0 {
				return false
			}
			a := m.Nth(int(rng.Uint64() % uint64(m.Count())))
			t := *s
			t.Play(a)
			if t.end == Ongoing {
				*s = t
				if moves != nil {
					moves[ply] = a
				}
				break
			}
			m &^= 1 << uint(a) // rejection keeps the draw uniform over the rest
		}
	}
	return true
}

// vecMix spreads nearby integers (game indices, episode counters) over the
// whole 64-bit range: the SplitMix64 finaliser.
func vecMix(x uint64) uint64 { return splitmix.Mix(x) }

// Opening returns the random opening moves (VecOptions.OpeningPlies of them,
// none without) that started game i's current episode, appended to dst. It
// draws them again from the episode's seed, so it costs one opening's plies:
// call it when a game starts, not every step.
func (v *Vec) Opening(i int, dst []int) []int {
	k := v.opt.OpeningPlies
	if k == 0 {
		return dst
	}
	e := v.episode[i] - 1
	moves := make([]int, k)
	var rng rand.PCG
	rng.Seed(vecMix(v.opt.Seed^vecMix(uint64(i))), vecMix(e))
	for try := 0; try < vecOpeningTries; try++ {
		s := v.g.start
		if randomPlies(&s, k, &rng, moves) {
			return append(dst, moves...)
		}
	}
	return append(dst, v.fallbackOpening()...)
}
