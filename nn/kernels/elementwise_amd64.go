//go:build amd64 && !purego && !noasm

package kernels

// Each assembly kernel below computes the formula of its exported
// counterpart in elementwise.go over n elements (or rows×n).

//go:noescape
func reluAVX2(dst, x *float32, n int)

//go:noescape
func reluBackwardAVX2(dx, dy, y *float32, n int)

//go:noescape
func axpyAVX2(x, y *float32, n int, alpha float32)

//go:noescape
func scaleAVX2(x *float32, n int, alpha float32)

//go:noescape
func adamWAVX2(w, grad, m, v *float32, n int, beta1, c1, beta2, c2, lr, eps, wd, rbc1, rbc2 float32)

//go:noescape
func addBiasAVX2(x *float32, rows, n int, b *float32)

//go:noescape
func addBiasReLUAVX2(x *float32, rows, n int, b *float32)

//go:noescape
func colSumAVX2(dst, x *float32, rows, n int)

//go:noescape
func addAVX2(dst, a, b *float32, n int)

func addBiasSIMD(x, b []float32)     { addBiasAVX2(&x[0], len(x)/len(b), len(b), &b[0]) }
func addBiasReLUSIMD(x, b []float32) { addBiasReLUAVX2(&x[0], len(x)/len(b), len(b), &b[0]) }
func reluSIMD(dst, x []float32)      { reluAVX2(&dst[0], &x[0], len(x)) }
func reluBackwardSIMD(dx, dy, y []float32) {
	reluBackwardAVX2(&dx[0], &dy[0], &y[0], len(dx))
}
func addSIMD(dst, a, b []float32)            { addAVX2(&dst[0], &a[0], &b[0], len(dst)) }
func colSumSIMD(dst, x []float32)            { colSumAVX2(&dst[0], &x[0], len(x)/len(dst), len(dst)) }
func axpySIMD(alpha float32, x, y []float32) { axpyAVX2(&x[0], &y[0], len(x), alpha) }
func scaleSIMD(alpha float32, x []float32)   { scaleAVX2(&x[0], len(x), alpha) }
func dotSIMD(x, y []float32) float32 {
	if hasAVX512 && !cur.ymmOnly { // a forced avx2 or avxvnni back-end stays on AVX2
		return dotAVX512(len(x), &x[0], &y[0])
	}
	return dotAVX2(len(x), &x[0], &y[0])
}
func adamWSIMD(w, g, m, v []float32, beta1, c1, beta2, c2, lr, eps, wd, rbc1, rbc2 float32) {
	adamWAVX2(&w[0], &g[0], &m[0], &v[0], len(w), beta1, c1, beta2, c2, lr, eps, wd, rbc1, rbc2)
}
