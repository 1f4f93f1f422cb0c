//go:build amd64 && !purego && !noasm

package kernels

import (
	"math/rand/v2"
	"testing"
)

func TestTranspose(t *testing.T) {
	if !hasAVX2FMA {
		t.Skip("no AVX2 on this CPU")
	}
	rng := rand.New(rand.NewPCG(21, 22))
	for _, rows := range []int{1, 7, 8, 9, 16, 23} {
		for _, cols := range []int{1, 5, 8, 15, 16, 17, 40} {
			lds, ldd := cols+rng.IntN(3), rows+rng.IntN(3)
			src := randSlice(rng, (rows-1)*lds+cols)
			dst := make([]float32, (cols-1)*ldd+rows+5)
			for i := range dst {
				dst[i] = guard
			}
			transpose(dst, ldd, src, lds, rows, cols)
			for i := range dst {
				c, r := i/ldd, i%ldd
				want := float32(guard)
				if c < cols && r < rows {
					want = src[r*lds+c]
				}
				if dst[i] != want {
					t.Fatalf("%d×%d: dst[%d] = %g, want %g", rows, cols, i, dst[i], want)
				}
			}
		}
	}
}
