//go:build amd64 && !purego && !noasm

package kernels

// transpose8AVX2 transposes rows8×cols8 blocks of 8×8 values:
//
//	for r := 0; r < 8*rows8; r++ {
//		for c := 0; c < 8*cols8; c++ {
//			dst[c*ldd+r] = src[r*lds+c]
//		}
//	}
//
//go:noescape
func transpose8AVX2(rows8, cols8 int, src *float32, lds int, dst *float32, ldd int)

// transpose sets dst[c*ldd+r] = src[r*lds+c] for r < rows and c < cols, the
// whole 8×8 blocks in assembly and the borders in Go.
func transpose(dst []float32, ldd int, src []float32, lds, rows, cols int) {
	if rows <= 0 || cols <= 0 {
		return
	}
	_ = src[(rows-1)*lds+cols-1] // bounds for the assembly
	_ = dst[(cols-1)*ldd+rows-1]
	r8, c8 := rows/8, cols/8
	if r8 > 0 && c8 > 0 {
		transpose8AVX2(r8, c8, &src[0], lds, &dst[0], ldd)
	}
	for r := 0; r < rows; r++ {
		c0 := 8 * c8
		if r >= 8*r8 {
			c0 = 0
		}
		for c, v := range src[r*lds+c0 : r*lds+cols] {
			dst[(c0+c)*ldd+r] = v
		}
	}
}
