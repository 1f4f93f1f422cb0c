package env

// histWindow is how many repetition keys a State carries inline. Longer runs
// without a capture spill into immutable chunks shared between copies, so a
// copied State stays independent while the common case allocates nothing.
// Random games rarely go this long without a capture.
const histWindow = 24

// posKey is an exact repetition key: the 16 pit bytes with the player to move
// folded into the top bit.
type posKey [2]uint64

// histChunk is a full, immutable block of older keys.
type histChunk struct {
	keys [histWindow]posKey
	prev *histChunk
}

// history holds the keys of every position since the last capture, the
// current one included.
type history struct {
	recent [histWindow]posKey
	n      uint16 // keys used in recent
	chunks uint16 // number of chunks behind older
	older  *histChunk
}

func (h *history) len() int { return int(h.n) + int(h.chunks)*histWindow }

func (h *history) reset() {
	h.n = 0
	h.chunks = 0
	h.older = nil
}

// contains reports whether k is among the stored keys. Keys alternate between
// the players, so only every other one (those with k's player) is compared.
func (h *history) contains(k posKey) bool {
	// The newest key is recent[n-1]; same-player keys are at n-2, n-4, … in
	// total order, counting back through the chunks.
	skip := 1 // distance back from the newest key to the first candidate, parity-wise
	for i := int(h.n) - 1 - skip; i >= 0; i -= 2 {
		if h.recent[i] == k {
			return true
		}
	}
	// The first candidate in the chunks keeps the parity of the total count.
	off := (int(h.n) + skip) % 2
	for c := h.older; c != nil; c = c.prev {
		for i := histWindow - 1 - off; i >= 0; i -= 2 {
			if c.keys[i] == k {
				return true
			}
		}
		// histWindow is even, so the parity is the same in every chunk.
	}
	return false
}

func (h *history) push(k posKey) {
	if int(h.n) == histWindow {
		c := &histChunk{keys: h.recent, prev: h.older}
		h.older = c
		h.chunks++
		h.n = 0
	}
	h.recent[h.n] = k
	h.n++
}

// keys returns every stored key, oldest first.
func (h *history) keys() []posKey {
	var chunks []*histChunk
	for c := h.older; c != nil; c = c.prev {
		chunks = append(chunks, c)
	}
	out := make([]posKey, 0, h.len())
	for i := len(chunks) - 1; i >= 0; i-- {
		out = append(out, chunks[i].keys[:]...)
	}
	return append(out, h.recent[:h.n]...)
}
