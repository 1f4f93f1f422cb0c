//go:build amd64 && !purego && !noasm

package kernels

// The micro-kernels below compute one register tile of C. In each, A[i][p]
// is read at a[i*rs+p*cs] (so rs=lda, cs=1 reads A as stored and rs=1,
// cs=lda reads its transpose), B[p][j] at b[p*bs+j], and the tile is added
// to C, whose rows are ldc apart (add=1) or stored over it (add=0: C is not
// read):
//
//	for i := 0; i < MR; i++ {
//		for j := 0; j < NR; j++ {
//			var s float32
//			for p := 0; p < k; p++ {
//				s += a[i*rs+p*cs] * b[p*bs+j]
//			}
//			if add != 0 {
//				c[i*ldc+j] += alpha * s
//			} else {
//				c[i*ldc+j] = alpha * s
//			}
//		}
//	}

// gemm8x32AVX512 is the micro-kernel above with MR=8, NR=32: sixteen ZMM
// accumulators, two for B and two for broadcasts of A.
//
//go:noescape
func gemm8x32AVX512(k int, a *float32, rs, cs int, b *float32, bs int, c *float32, ldc int, alpha float32, add int)

// gemm6x16AVX2 is the micro-kernel above with MR=6, NR=16: twelve YMM
// accumulators, two for B and two for broadcasts of A.
//
//go:noescape
func gemm6x16AVX2(k int, a *float32, rs, cs int, b *float32, bs int, c *float32, ldc int, alpha float32, add int)

// The gemv kernels add alpha times a row vector times a block of B to a
// block of one row of C, keeping the block of C in registers over all k:
//
//	for j := 0; j < W; j++ {
//		var s float32
//		for p := 0; p < k; p++ {
//			s += a[p*as] * b[p*ldb+j]
//		}
//		c[j] += alpha * s
//	}

// gemvN256AVX512 is the gemv kernel with W=256 (sixteen ZMM accumulators):
// it reads each row of the block of B as one contiguous kilobyte.
//
//go:noescape
func gemvN256AVX512(k int, a *float32, as int, b *float32, ldb int, c *float32, alpha float32)

// gemvN128AVX512 is the gemv kernel with W=128 (eight ZMM accumulators).
//
//go:noescape
func gemvN128AVX512(k int, a *float32, as int, b *float32, ldb int, c *float32, alpha float32)

// gemvN16AVX512 is the gemv kernel with W=16.
//
//go:noescape
func gemvN16AVX512(k int, a *float32, as int, b *float32, ldb int, c *float32, alpha float32)

// gemvN64AVX2 is the gemv kernel with W=64 (eight YMM accumulators).
//
//go:noescape
func gemvN64AVX2(k int, a *float32, as int, b *float32, ldb int, c *float32, alpha float32)

// gemvN8AVX2 is the gemv kernel with W=8.
//
//go:noescape
func gemvN8AVX2(k int, a *float32, as int, b *float32, ldb int, c *float32, alpha float32)

// gemvNMaskAVX512 is the gemv kernel for the last n < 16 columns, with W=n
// (masked loads and stores: nothing past column n is touched).
//
//go:noescape
func gemvNMaskAVX512(k int, a *float32, as int, b *float32, ldb int, c *float32, alpha float32, n int)

// gemvNMaskAVX2 is the gemv kernel for the last n < 8 columns, with W=n.
//
//go:noescape
func gemvNMaskAVX2(k int, a *float32, as int, b *float32, ldb int, c *float32, alpha float32, n int)

// dotsAVX512 adds alpha times the dot products of x with n rows of bt to c:
//
//	for j := 0; j < n; j++ {
//		var s float32
//		for p := 0; p < k; p++ {
//			s += x[p] * bt[j*ldbt+p]
//		}
//		c[j] += alpha * s
//	}
//
// It takes four rows at a time (one load of x for four FMAs) and masks the
// last k%16 values, touching nothing past them.
//
//go:noescape
func dotsAVX512(k int, x *float32, bt *float32, ldbt int, n int, c *float32, alpha float32)

// dotsAVX2 is dotsAVX512 for AVX2 and FMA (masking the last k%8 values).
//
//go:noescape
func dotsAVX2(k int, x *float32, bt *float32, ldbt int, n int, c *float32, alpha float32)

// dotAVX512 returns the dot product of x[:n] and y[:n]:
//
//	var s float32
//	for i := 0; i < n; i++ {
//		s += x[i] * y[i]
//	}
//	return s
//
//go:noescape
func dotAVX512(n int, x, y *float32) float32

// dotAVX2 is dotAVX512 for AVX2 and FMA.
//
//go:noescape
func dotAVX2(n int, x, y *float32) float32

// gemmImpl describes one family of assembly kernels for the blocked driver.
type gemmImpl struct {
	mr, nr int // register tile
	kern   func(k int, a *float32, rs, cs int, b *float32, bs int, c *float32, ldc int, alpha float32, add int)
	wide2  int // width of gemvW2 (0: none)
	gemvW2 func(k int, a *float32, as int, b *float32, ldb int, c *float32, alpha float32)
	wide   int // width of gemvW
	gemvW  func(k int, a *float32, as int, b *float32, ldb int, c *float32, alpha float32)
	vec    int // width of gemvV, one vector
	gemvV  func(k int, a *float32, as int, b *float32, ldb int, c *float32, alpha float32)
	gemvM  func(k int, a *float32, as int, b *float32, ldb int, c *float32, alpha float32, n int) // n < vec columns
	dot    func(n int, x, y *float32) float32
	dots   func(k int, x *float32, bt *float32, ldbt int, n int, c *float32, alpha float32)
}

var (
	avx512Gemm = &gemmImpl{mr: 8, nr: 32, kern: gemm8x32AVX512, wide: 128, gemvW: gemvN128AVX512, wide2: 256, gemvW2: gemvN256AVX512, vec: 16, gemvV: gemvN16AVX512, gemvM: gemvNMaskAVX512, dot: dotAVX512, dots: dotsAVX512}
	avx2Gemm   = &gemmImpl{mr: 6, nr: 16, kern: gemm6x16AVX2, wide: 64, gemvW: gemvN64AVX2, vec: 8, gemvV: gemvN8AVX2, gemvM: gemvNMaskAVX2, dot: dotAVX2, dots: dotsAVX2}
)
