package tablebase

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/urim-rl/urim/env"
)

// Sample returns a position with n seeds on the board (0 < n ≤ K) drawn
// uniformly: the board uniformly among those with no pit over capacity,
// either player to move, and the captured seeds split between the stores
// uniformly among the splits the rules allow. The history is fresh.
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
	store := lo + r.IntN(hi-lo+1)
	var sb strings.Builder
	p := t.r.p
	for i := 0; i < 2*p; i++ {
		switch {
		case i == p:
			sb.WriteByte('/')
		case i > 0:
			sb.WriteByte(',')
		}
		// Canonical pit i is absolute pit i + mover·P.
		sb.WriteString(strconv.Itoa(int(b[(i+p*(2-mover))%(2*p)])))
	}
	stores := [2]int{}
	stores[mover], stores[1-mover] = store, rest-store
	fmt.Fprintf(&sb, " %d-%d %c 0", stores[0], stores[1], "SN"[mover])
	return g.ParsePosition(sb.String())
}
