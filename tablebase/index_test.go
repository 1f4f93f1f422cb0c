package tablebase

import "testing"

// TestIndexBijection walks every board of every layer in rank order and
// checks that rank and unrank invert each other and that the count is
// C(n+N-1, N-1).
func TestIndexBijection(t *testing.T) {
	for _, c := range []struct{ pits, k int }{{4, 9}, {12, 6}, {14, 5}} {
		if testing.Short() && c.k > 5 {
			c.k = 5
		}
		x := newIndex(c.pits, c.k)
		for n := 0; n <= c.k; n++ {
			want := binomial(n+c.pits-1, c.pits-1)
			if x.boards(n) != want {
				t.Fatalf("%d pits, %d seeds: %d boards, want C(%d,%d) = %d", c.pits, n, x.boards(n), n+c.pits-1, c.pits-1, want)
			}
			var b, u [16]uint8
			x.unrank(0, n, &b)
			seen := uint64(0)
			for {
				if r := x.rank(&b, n); r != seen {
					t.Fatalf("%d pits, %d seeds: board %v has rank %d, want %d", c.pits, n, b[:c.pits], r, seen)
				}
				x.unrank(seen, n, &u)
				if u != b {
					t.Fatalf("%d pits, %d seeds: unrank(%d) = %v, want %v", c.pits, n, seen, u[:c.pits], b[:c.pits])
				}
				sum := 0
				for _, v := range b {
					sum += int(v)
				}
				if sum != n {
					t.Fatalf("board %v holds %d seeds, want %d", b[:c.pits], sum, n)
				}
				seen++
				if !x.next(&b) {
					break
				}
			}
			if seen != want {
				t.Fatalf("%d pits, %d seeds: walked %d boards, want %d", c.pits, n, seen, want)
			}
		}
	}
}

func binomial(n, k int) uint64 {
	r := uint64(1)
	for i := 1; i <= k; i++ {
		r = r * uint64(n-k+i) / uint64(i)
	}
	return r
}
