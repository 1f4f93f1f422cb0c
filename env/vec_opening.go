package env

import (
	"fmt"
	"math/rand/v2"
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
		if vecRandomPlies(dst, k, &rng) {
			return
		}
		*dst = v.g.start
	}
	panic(fmt.Sprintf("env: no %d-ply opening of %s that leaves the game running in %d tries (game %d, episode %d)",
		k, v.g.Name(), vecOpeningTries, i, e))
}

// vecRandomPlies plays k random plies in s, each drawn uniformly among the
// moves that do not end the game. It reports false, leaving s partly
// played, when it reaches a position where every move ends the game.
func vecRandomPlies(s *State, k int, rng *rand.PCG) bool {
	for range k {
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
				break
			}
			m &^= 1 << uint(a) // rejection keeps the draw uniform over the rest
		}
	}
	return true
}

// vecMix is the splitmix64 finalizer: it spreads nearby integers (game
// indices, episode counters) over the whole 64-bit range.
func vecMix(x uint64) uint64 {
	x += 0x9E3779B97F4A7C15
	x = (x ^ x>>30) * 0xBF58476D1CE4E5B9
	x = (x ^ x>>27) * 0x94D049BB133111EB
	return x ^ x>>31
}
