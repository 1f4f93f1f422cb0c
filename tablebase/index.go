package tablebase

// The index is a perfect combinatorial ranking of seed distributions: the
// boards holding exactly n seeds over N pits, in lexicographic order of
// their pit counts (pit 0 first), are numbered 0 … D(n, N)-1, where
// D(n, N) = C(n+N-1, N-1) is the number of such distributions.

// index ranks and unranks distributions of up to k seeds over n pits.
type index struct {
	pits int
	k    int
	// dist[s][m] is D(s, m): distributions of s seeds over m pits.
	dist [][]uint64
	// below[m][s][b] is the number of distributions of s seeds over m pits
	// whose first pit holds fewer than b seeds: Σ_{v<b} D(s-v, m-1).
	below [][][]uint64
}

func newIndex(pits, k int) *index {
	x := &index{pits: pits, k: k}
	x.dist = make([][]uint64, k+1)
	for s := 0; s <= k; s++ {
		x.dist[s] = make([]uint64, pits+1)
		for m := 1; m <= pits; m++ {
			if m == 1 || s == 0 {
				x.dist[s][m] = 1
				continue
			}
			// D(s, m) = Σ_{v=0}^{s} D(s-v, m-1).
			var t uint64
			for v := 0; v <= s; v++ {
				t += x.dist[s-v][m-1]
			}
			x.dist[s][m] = t
		}
	}
	x.below = make([][][]uint64, pits+1)
	for m := 2; m <= pits; m++ {
		x.below[m] = make([][]uint64, k+1)
		for s := 0; s <= k; s++ {
			row := make([]uint64, s+2)
			for b := 1; b <= s+1; b++ {
				row[b] = row[b-1] + x.dist[s-(b-1)][m-1]
			}
			x.below[m][s] = row
		}
	}
	return x
}

// boards returns D(n, pits), the number of boards holding n seeds.
func (x *index) boards(n int) uint64 { return x.dist[n][x.pits] }

// rank returns the position of board b (holding n seeds) in its layer.
func (x *index) rank(b *[16]uint8, n int) uint64 {
	var r uint64
	s := n
	for i := 0; i < x.pits-1; i++ {
		v := int(b[i])
		r += x.below[x.pits-i][s][v]
		s -= v
	}
	return r
}

// unrank writes the board of rank r in layer n into b.
func (x *index) unrank(r uint64, n int, b *[16]uint8) {
	*b = [16]uint8{}
	s := n
	for i := 0; i < x.pits-1; i++ {
		row := x.below[x.pits-i][s]
		v := 0
		for v < s && row[v+1] <= r {
			v++
		}
		r -= row[v]
		b[i] = uint8(v)
		s -= v
	}
	b[x.pits-1] = uint8(s)
}

// next advances b to the next board of its layer in rank order and reports
// whether there was one.
func (x *index) next(b *[16]uint8) bool {
	// The successor grows the rightmost pit i before the last one that has
	// seeds to its right, and leaves the rest of those seeds in the last pit
	// (the smallest tail).
	last := x.pits - 1
	tail := int(b[last])
	for i := last - 1; i >= 0; i-- {
		if tail > 0 {
			b[i]++
			for j := i + 1; j < last; j++ {
				b[j] = 0
			}
			b[last] = uint8(tail - 1)
			return true
		}
		tail += int(b[i])
	}
	return false
}
