//go:build amd64 && !purego && !noasm

package kernels

// The layer-norm kernels compute the formulas of LayerNorm and
// LayerNormBackward over rows×n values, n a multiple of 8.

//go:noescape
func layerNormAVX2(y, x, gain, bias, mean, rstd *float32, rows, n int, fn float32, eps float64, relu int)

//go:noescape
func layerNormBackwardAVX2(dx, dy, x, y, gain, mean, rstd, dg, db *float32, rows, n int, inv float32, relu, acc int)

func layerNormSIMD(y, x, gain, bias, mean, rstd []float32, eps float64, relu bool) {
	layerNormAVX2(&y[0], &x[0], &gain[0], &bias[0], &mean[0], &rstd[0], len(mean), len(gain), float32(len(gain)), eps, b2i(relu))
}

func layerNormBackwardSIMD(dx, dy, x, y, gain, mean, rstd, dg, db []float32, relu, acc bool) {
	yp := &dy[0] // never read without relu
	if relu {
		yp = &y[0]
	}
	layerNormBackwardAVX2(&dx[0], &dy[0], &x[0], yp, &gain[0], &mean[0], &rstd[0], &dg[0], &db[0], len(mean), len(gain), 1/float32(len(gain)), b2i(relu), b2i(acc))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
