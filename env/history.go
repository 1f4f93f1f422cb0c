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
	// seen is a Bloom filter of every stored key: a clear bit proves a key
	// new without scanning, which is most of the time.
	seen [4]uint64
}

// bloomBit picks the filter bit of k.
func bloomBit(k posKey) (word int, bit uint64) {
	h := (k[0] ^ k[1]*0x9E3779B97F4A7C15) * 0xBF58476D1CE4E5B9
	return int(h >> 62), 1 << (h >> 56 & 63)
}

func (h *history) len() int { return int(h.n) + int(h.chunks)*histWindow }

func (h *history) reset() {
	h.n = 0
	h.chunks = 0
	h.older = nil
	h.seen = [4]uint64{}
}

// scan reports whether k is among the stored keys. Keys alternate between
// the players, so only every other one (those with k's player) is compared.
func (h *history) scan(k posKey) bool {
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

// push stores k, whose filter bit is b of word w (from bloomBit).
func (h *history) push(k posKey, w int, b uint64) {
	if int(h.n) == histWindow {
		c := &histChunk{keys: h.recent, prev: h.older}
		h.older = c
		h.chunks++
		h.n = 0
	}
	h.recent[h.n] = k
	h.n++
	h.seen[w] |= b
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
