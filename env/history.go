package env

// The repetition rule needs every position since the last capture. A State
// keeps them without a list of positions: it holds the board right after the
// last capture (the anchor) and the actions played since, four bits each,
// from which any earlier position can be rebuilt by sowing again (no capture
// happened in between, by definition). A Bloom filter over the positions
// answers "certainly new" for almost every move; only when it cannot, the
// run is replayed from the anchor to decide exactly.
//
// histMoves actions fit inline, which covers every run without a capture
// seen in 80,000 random games (the longest was 255 plies). A longer run moves
// full blocks into immutable chunks shared between copies of the state, so a
// copied State stays independent and the common case allocates nothing.
const histMoves = 256

const (
	movesPerWord = 16 // four bits per action
	bloomWords   = 32 // 2048 bits
)

// moveChunk is a full, immutable block of older actions.
type moveChunk struct {
	moves [histMoves / movesPerWord]uint64
	prev  *moveChunk
}

// history holds what the repetition rule needs: the anchor, the actions
// since, and a filter of the positions seen.
type history struct {
	anchor [16]uint8 // the pits after the last capture, or at the start
	n      uint16    // actions in moves
	chunks uint16    // full blocks behind older
	moves  [histMoves / movesPerWord]uint64
	older  *moveChunk
	bloom  [bloomWords]uint64
}

// posKey is a repetition key: the 16 pit bytes with the player to move
// folded into the top bit. Within one run without a capture the stores are
// fixed, so the key tells positions apart exactly. It is a struct, not an
// array, so the compiler keeps it in registers (a [2]uint64 goes through the
// stack, where its 16-byte reload waits on the two 8-byte stores).
type posKey struct{ lo, hi uint64 }

// bloomBits returns the filter word of k and the three bits it sets there.
// All of a key's bits share one word (a blocked Bloom filter), so a test is
// one load and one compare.
func bloomBits(k posKey) (word int, bits uint64) {
	h := (k.lo ^ k.hi*0x9E3779B97F4A7C15) * 0xBF58476D1CE4E5B9
	h ^= h >> 31
	return int(h >> 59), 1<<(h&63) | 1<<(h>>6&63) | 1<<(h>>12&63)
}

// quiet returns the number of actions since the anchor.
func (h *history) quiet() int { return int(h.n) + int(h.chunks)*histMoves }

// restart makes pits the anchor of a new run, after a capture or at the
// start.
func (h *history) restart(k posKey, pits *[16]uint8) {
	h.anchor = *pits
	h.n, h.chunks, h.older = 0, 0, nil
	h.bloom = [bloomWords]uint64{}
	w, b := bloomBits(k)
	h.bloom[w] = b
}

// record appends action a, which led to a position whose filter word and
// bits (from bloomBits) are w and b.
func (h *history) record(a int, w int, b uint64) {
	if int(h.n) == histMoves {
		h.older = &moveChunk{moves: h.moves, prev: h.older}
		h.chunks++
		h.n = 0
	}
	// Overwrite the nibble: the words keep stale actions of earlier runs.
	shift := 4 * (h.n % movesPerWord)
	m := &h.moves[h.n/movesPerWord]
	*m = *m&^(15<<shift) | uint64(a)<<shift
	h.n++
	h.bloom[w] |= b
}

// replay rebuilds the run from the anchor, one position at a time, looking
// for a target position.
type replay struct {
	g      *Game
	pits   [16]uint8
	player int
	i      int // actions applied so far
	total  int // actions in the run
	target *[16]uint8
}

// step applies action a to the replayed board, first checking the position
// before it. It reports whether to go on.
func (r *replay) step(a int) (found, more bool) {
	// Position i has the target's player to move when total-i is even;
	// position total-1 and later cannot match an earlier position.
	if (r.total-r.i)%2 == 0 && r.pits == *r.target {
		return true, false
	}
	if r.i >= r.total-1 {
		return false, false
	}
	sowPits(r.g, &r.pits, r.player*r.g.p+a)
	r.player ^= 1
	r.i++
	return false, true
}

// block replays n actions packed in moves.
func (r *replay) block(moves *[histMoves / movesPerWord]uint64, n int) (found, more bool) {
	for j := 0; j < n; j++ {
		if found, more = r.step(int(moves[j/movesPerWord] >> (4 * (j % movesPerWord)) & 15)); !more {
			return found, false
		}
	}
	return false, true
}

// chunks replays the full blocks from the oldest to c.
func (r *replay) chunks(c *moveChunk) (found, more bool) {
	if c == nil {
		return false, true
	}
	if found, more = r.chunks(c.prev); !more {
		return found, false
	}
	return r.block(&c.moves, histMoves)
}

// repeats reports whether the current position of s (pits and player to
// move), reached by the last recorded action, occurred earlier in the run.
// The caller has checked the filter; this replays the run from the anchor.
func (s *State) repeats() bool {
	h := &s.hist
	r := replay{g: s.g, pits: h.anchor, total: h.quiet(), target: &s.pits}
	r.player = int(s.toMove) ^ r.total&1
	found, more := r.chunks(h.older)
	if more {
		found, _ = r.block(&h.moves, int(h.n))
	}
	return found
}

// actions returns every action since the anchor, oldest first.
func (h *history) actions() []int {
	var out []int
	var walk func(c *moveChunk)
	walk = func(c *moveChunk) {
		if c != nil {
			walk(c.prev)
			out = appendActions(out, &c.moves, histMoves)
		}
	}
	walk(h.older)
	return appendActions(out, &h.moves, int(h.n))
}

func appendActions(out []int, moves *[histMoves / movesPerWord]uint64, n int) []int {
	for j := 0; j < n; j++ {
		out = append(out, int(moves[j/movesPerWord]>>(4*(j%movesPerWord))&15))
	}
	return out
}
