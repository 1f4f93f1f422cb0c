package tablebase

import (
	"fmt"
	"math/rand/v2"

	"github.com/urim-rl/urim/env"
)

// Sample returns a position with n seeds on the board (0 < n ≤ K) drawn
// uniformly: the board uniformly among those with no pit over capacity,
// either player to move, and the captured seeds split between the stores
// uniformly among the splits the rules allow. The history is fresh. It
// allocates nothing (the training's table samples draw it in each step).
func (t *Table) Sample(g *env.Game, n int, r *rand.Rand) (env.State, error) {
	if n < 0 || n > t.k {
		return env.State{}, fmt.Errorf("tablebase: cannot sample %d seeds from a table of K=%d", n, t.k)
	}
	var b [16]uint8
	for {
		t.x.unrank(r.Uint64N(t.x.boards(n)), n, &b)
		if t.r.valid(&b) {
			break
		}
	}
	mover := r.IntN(2)
	rest := t.r.total - n
	lo, hi := 0, rest // the mover's store
	if t.r.majority {
		lo, hi = t.r.half-n, t.r.half
	}
	return t.position(g, &b, mover, lo+r.IntN(hi-lo+1))
}
