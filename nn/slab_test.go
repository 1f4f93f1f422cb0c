package nn

import (
	"testing"
	"unsafe"
)

// TestSlabTakes checks that a slab's slices, small or huge-page backed,
// fit in it, start on cache lines, hold zeros and do not overlap.
func TestSlabTakes(t *testing.T) {
	for _, total := range []int{100, 333, minSlab / 4, minSlab/4 + 1000, 3 * minSlab / 4} {
		sizes := []int{1, 17, 128 * 7, total, 3}
		need := 0
		for _, n := range sizes {
			need += n + 16
		}
		s := newSlab(need)
		var parts [][]float32
		for _, n := range sizes {
			p := s.take(n)
			if len(p) != n || cap(p) != n {
				t.Fatalf("take(%d) gave len %d cap %d", n, len(p), cap(p))
			}
			if uintptr(unsafe.Pointer(&p[0]))%64 != 0 {
				t.Fatalf("slab of %d: a slice does not start on a cache line", total)
			}
			for _, v := range p {
				if v != 0 {
					t.Fatalf("slab of %d: a slice is not zero", total)
				}
			}
			for i := range p {
				p[i] = float32(len(parts) + 1)
			}
			parts = append(parts, p)
		}
		for k, p := range parts {
			for _, v := range p {
				if v != float32(k+1) {
					t.Fatalf("slab of %d: slices overlap", total)
				}
			}
		}
	}
}
