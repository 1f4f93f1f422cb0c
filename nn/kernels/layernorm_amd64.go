//go:build amd64 && !purego && !noasm

package kernels

// The layer-norm kernels compute the formulas of LayerNorm and
// LayerNormBackward over rows×n values, n a multiple of 8 (AVX2) or 16
// (AVX-512).

//go:noescape
func layerNormAVX2(y, x, gain, bias, mean, rstd *float32, rows, n int, fn float32, eps float64, relu int)

//go:noescape
func layerNormBackwardAVX2(dx, dy, x, gain, bias, mean, rstd, dg, db *float32, rows, n int, inv float32, relu, acc int)

//go:noescape
func layerNormAVX512(y, x, gain, bias, mean, rstd *float32, rows, n int, fn float32, eps float64, relu int)

//go:noescape
func layerNormBackwardAVX512(dx, dy, x, gain, bias, mean, rstd, dg, db *float32, rows, n int, inv float32, relu, acc int)

// avx512Rows reports whether rows of n columns take the AVX-512 kernels:
// on a CPU with AVX-512, unless the back-end is forced to avx2 or avxvnni, for n a
// multiple of 16.
func avx512Rows(n int) bool { return hasAVX512 && !cur.ymmOnly && n%16 == 0 }

func layerNormSIMD(y, x, gain, bias, mean, rstd []float32, eps float64, relu bool) {
	if avx512Rows(len(gain)) {
		layerNormAVX512(&y[0], &x[0], &gain[0], &bias[0], &mean[0], &rstd[0], len(mean), len(gain), float32(len(gain)), eps, b2i(relu))
		return
	}
	layerNormAVX2(&y[0], &x[0], &gain[0], &bias[0], &mean[0], &rstd[0], len(mean), len(gain), float32(len(gain)), eps, b2i(relu))
}

func layerNormBackwardSIMD(dx, dy, x, gain, bias, mean, rstd, dg, db []float32, relu, acc bool) {
	if avx512Rows(len(gain)) {
		layerNormBackwardAVX512(&dx[0], &dy[0], &x[0], &gain[0], &bias[0], &mean[0], &rstd[0], &dg[0], &db[0], len(mean), len(gain), 1/float32(len(gain)), b2i(relu), b2i(acc))
		return
	}
	layerNormBackwardAVX2(&dx[0], &dy[0], &x[0], &gain[0], &bias[0], &mean[0], &rstd[0], &dg[0], &db[0], len(mean), len(gain), 1/float32(len(gain)), b2i(relu), b2i(acc))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
