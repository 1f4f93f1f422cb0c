package tablebase

import (
	"fmt"
	"sync/atomic"

	"github.com/urim-rl/urim/env"
)

// MaxPits is the most pits a board has (2×7).
const MaxPits = 2 * env.MaxPitsPerRow

// MaxSeeds is the largest K a table may have: the bounds of a position
// are stored as one pair code in at most two bytes.
const MaxSeeds = 64

// Table is a solved endgame table: for every position with at most K seeds
// on the board, bounds on the seeds (of those on the board) the player to
// move ends with under perfect play, and a progress rank. A Table is
// immutable and safe for concurrent use.
type Table struct {
	rules env.Rules
	r     rules
	k     int
	x     *index
	vw    int // bytes per stored bound pair: 1 or 2
	rw    int // bytes per stored rank: 1 or 2
	// data is the file's payload: every position's pair code (vw bytes,
	// little-endian), then every position's rank (rw bytes, little-endian),
	// layer after layer, in index order.
	data   []byte
	offset []uint64 // offset[n]: first position of layer n; offset[K+1] = count
	ranks  uint64   // byte offset of the ranks in data
	// analysis is the stored analysis of the moves (stored.go): movesBytes
	// a position in index order, after data in the file; nil without it.
	analysis []byte
	decodes  [][2]uint8
	matched  atomic.Pointer[env.Game] // the last game found to play by t's rules
}

func newTable(er env.Rules, c rules, k, rw int) *Table {
	t := &Table{rules: er, r: c, k: k, x: newIndex(c.n, k), rw: rw}
	t.rules.Trigger = append([]int(nil), er.Trigger...)
	t.rules.Chain = append([]int(nil), er.Chain...)
	t.vw = 1
	if pairCode(k, k) > 255 {
		t.vw = 2
	}
	t.offset = make([]uint64, k+2)
	for n := 0; n <= k; n++ {
		t.offset[n+1] = t.offset[n] + t.x.boards(n)*uint64(c.slots(n))
	}
	t.decodes = make([][2]uint8, pairCode(k, k)+1)
	for u := 0; u <= k; u++ {
		for l := 0; l <= u; l++ {
			t.decodes[pairCode(l, u)] = [2]uint8{uint8(l), uint8(u)}
		}
	}
	return t
}

// pairCode numbers the pairs 0 ≤ l ≤ u: u(u+1)/2 + l.
func pairCode(l, u int) int { return u*(u+1)/2 + l }

// positions returns the number of positions the table stores.
func (t *Table) positions() uint64 { return t.offset[t.k+1] }

// payloadSize is the size of data.
func (t *Table) payloadSize() uint64 { return t.positions() * uint64(t.vw+t.rw) }

// index sets the derived offsets once data is in place.
func (t *Table) index() { t.ranks = t.positions() * uint64(t.vw) }

// encode packs the solver's layers into a payload for t.
func (s *solver) encode(t *Table) []byte {
	data := make([]byte, t.payloadSize())
	ranks := t.positions() * uint64(t.vw)
	for n := 0; n <= s.k; n++ {
		base := t.offset[n]
		for i := range s.lo[n] {
			g := base + uint64(i)
			c := pairCode(int(s.lo[n][i]), int(s.hi[n][i]))
			if t.vw == 1 {
				data[g] = byte(c)
			} else {
				data[2*g], data[2*g+1] = byte(c), byte(c>>8)
			}
			if r := s.rk[n][i]; t.rw == 1 {
				data[ranks+g] = byte(r)
			} else {
				data[ranks+2*g], data[ranks+2*g+1] = byte(r), byte(r>>8)
			}
		}
	}
	return data
}

// Rules returns the rules the table was built for.
func (t *Table) Rules() env.Rules {
	r := t.rules
	r.Trigger = append([]int(nil), t.rules.Trigger...)
	r.Chain = append([]int(nil), t.rules.Chain...)
	return r
}

// MaxSeeds returns K: the table holds every board with at most K seeds.
func (t *Table) MaxSeeds() int { return t.k }

// Size returns the payload size in bytes (with the stored analysis of the
// moves, if any).
func (t *Table) Size() int { return len(t.data) + len(t.analysis) }

// entry returns the bounds and rank of the position at global index g.
func (t *Table) entry(g uint64) (lo, hi, rank int) {
	var c int
	if t.vw == 1 {
		c = int(t.data[g])
	} else {
		c = int(t.data[2*g]) | int(t.data[2*g+1])<<8
	}
	p := t.decodes[c]
	if t.rw == 1 {
		rank = int(t.data[t.ranks+g])
	} else {
		rank = int(t.data[t.ranks+2*g]) | int(t.data[t.ranks+2*g+1])<<8
	}
	return int(p[0]), int(p[1]), rank
}

// lookup returns the global index of a canonical board with n seeds and
// the mover's store (used only under the majority ending).
func (t *Table) lookup(b *[16]uint8, n, store int) (uint64, bool) {
	if n > t.k {
		return 0, false
	}
	slot := 0
	if t.r.majority {
		slot = store - (t.r.half - n)
		if slot < 0 || slot > n {
			return 0, false
		}
	}
	return t.offset[n] + t.x.rank(b, n)*uint64(t.r.slots(n)) + uint64(slot), true
}

// sameRules reports the first field in which a and b differ as games (the
// name is informational), or "".
func sameRules(a, b env.Rules) string {
	key, x, y := a.Diff(b)
	if key == "" {
		return ""
	}
	return fmt.Sprintf("%s: %v in the table, %v in the game", key, x, y)
}
