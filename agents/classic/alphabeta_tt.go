package classic

// bound says how a stored value relates to the true negamax value.
type bound uint8

const (
	boundExact bound = 1 + iota
	boundLower       // the value is at least the stored one (a beta cutoff)
	boundUpper       // the value is at most the stored one (no move raised alpha)
)

// ttEntry is one slot of the transposition table: 16 bytes.
type ttEntry struct {
	key   uint64
	value int16
	depth int8
	bound bound
	move  int8 // best or refuting action, -1 if none
	age   uint8
	// clean marks a value computed at a node whose repetition history held
	// only the node itself (just after a capture, or at the start), so the
	// value depends on the position alone; see [AlphaBeta].
	clean bool
	_     uint8
}

// table is a fixed-size transposition table indexed by the low bits of
// env.State.Hash. It is allocated once and never grows.
type table struct {
	entries []ttEntry
	mask    uint64
	age     uint8 // bumped at every search, so stale entries give way
}

func newTable(bits int) *table {
	n := 1 << bits
	return &table{entries: make([]ttEntry, n), mask: uint64(n - 1)}
}

// probe returns the entry for key, if the table holds it.
func (t *table) probe(key uint64) (ttEntry, bool) {
	e := t.entries[key&t.mask]
	return e, e.key == key && e.bound != 0
}

// store records a search result. A slot is taken over when it holds another
// position from an older search or a shallower one; for the same position a
// clean value is never overwritten by one that depends on the history.
func (t *table) store(key uint64, depth int, value int, b bound, move int, clean bool) {
	e := &t.entries[key&t.mask]
	if e.key == key && e.bound != 0 {
		if e.clean && !clean && e.age == t.age {
			if move >= 0 {
				e.move = int8(move)
			}
			return
		}
	} else if e.bound != 0 && e.age == t.age && depth < int(e.depth) {
		return
	}
	*e = ttEntry{key: key, value: int16(value), depth: int8(depth), bound: b, move: int8(move), age: t.age, clean: clean}
}

// clear empties the table.
func (t *table) clear() {
	clear(t.entries)
	t.age = 0
}
