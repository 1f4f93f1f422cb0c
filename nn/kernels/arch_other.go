//go:build !amd64 || purego || noasm

package kernels

// archBackends returns no assembly back-end: this build is pure Go.
func archBackends() []backend { return nil }

// The element-wise kernels never take their SIMD branch in a pure-Go build
// (no back-end has simd set); these stand-ins keep the callers compiling.

func addBiasSIMD(x, b []float32)             { panic("kernels: no SIMD in this build") }
func addBiasReLUSIMD(x, b []float32)         { panic("kernels: no SIMD in this build") }
func reluSIMD(dst, x []float32)              { panic("kernels: no SIMD in this build") }
func reluBackwardSIMD(dx, dy, y []float32)   { panic("kernels: no SIMD in this build") }
func colSumSIMD(dst, x []float32)            { panic("kernels: no SIMD in this build") }
func addSIMD(dst, a, b []float32)            { panic("kernels: no SIMD in this build") }
func axpySIMD(alpha float32, x, y []float32) { panic("kernels: no SIMD in this build") }
func scaleSIMD(alpha float32, x []float32)   { panic("kernels: no SIMD in this build") }
func dotSIMD(x, y []float32) float32         { panic("kernels: no SIMD in this build") }
func adamWSIMD(w, g, m, v []float32, beta1, c1, beta2, c2, lr, eps, wd, rbc1, rbc2 float32) {
	panic("kernels: no SIMD in this build")
}

// blasSIMD reports whether the element-wise kernels may use assembly beside
// OpenBLAS: never in a pure-Go build.
func blasSIMD() bool { return false }

func layerNormSIMD(y, x, gain, bias, mean, rstd []float32, eps float64, relu bool) {
	panic("kernels: no SIMD in this build")
}

func layerNormBackwardSIMD(dx, dy, x, gain, bias, mean, rstd, dg, db []float32, relu, acc bool) {
	panic("kernels: no SIMD in this build")
}

// quantizeSIMD quantises in assembly: never in a pure-Go build.
func quantizeSIMD(i0, m, k int, x []float32, ldx int, q *Q8Rows) bool { return false }

// layerNormQ8SIMD runs LayerNormQ8 in assembly: never in a pure-Go build.
func layerNormQ8SIMD(q *Q8Rows, x, gain, bias, mean, rstd []float32, eps float64, relu bool) int {
	return 0
}
