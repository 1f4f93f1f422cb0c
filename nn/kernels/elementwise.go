package kernels

import (
	"fmt"
	"math"
)

// The element-wise kernels of the networks' hot path. Each states the formula
// it computes; the generic (Go) and SIMD (AVX2 assembly) versions agree up to
// float rounding, and exactly where the comment says so. SIMD runs whenever
// the back-end in use is not "generic" and the CPU has AVX2 and FMA.

// simdOn reports whether the element-wise kernels take their assembly path.
func simdOn() bool { return cur.simd }

// AddBias adds the bias b to every row of x, a row-major matrix of len(b)
// columns:
//
//	x[i*len(b)+j] += b[j]
//
// The result is exact in both versions (one addition each). It panics unless
// len(x) is a multiple of len(b).
func AddBias(x, b []float32) {
	rows := checkRows("AddBias", x, b)
	if rows == 0 {
		return
	}
	if simdOn() {
		addBiasSIMD(x, b)
		return
	}
	n := len(b)
	for i := 0; i < rows; i++ {
		row := x[i*n : i*n+n]
		for j, v := range b {
			row[j] += v
		}
	}
}

// AddBiasReLU adds the bias b to every row of x (as AddBias) and applies ReLU,
// in one pass:
//
//	v := x[i*len(b)+j] + b[j]
//	x[i*len(b)+j] = v if v > 0, else 0   (a NaN gives 0)
//
// Both versions give identical results.
func AddBiasReLU(x, b []float32) {
	rows := checkRows("AddBiasReLU", x, b)
	if rows == 0 {
		return
	}
	if simdOn() {
		addBiasReLUSIMD(x, b)
		return
	}
	n := len(b)
	for i := 0; i < rows; i++ {
		row := x[i*n : i*n+n]
		for j, v := range b {
			row[j] = relu(row[j] + v)
		}
	}
}

// ReLU sets dst[i] = x[i] if x[i] > 0, else 0 (a NaN gives 0). dst and x have
// the same length and may be the same slice. Both versions give identical results.
func ReLU(dst, x []float32) {
	checkLen("ReLU", len(dst), len(x))
	if simdOn() && len(x) > 0 {
		reluSIMD(dst, x)
		return
	}
	for i, v := range x {
		dst[i] = relu(v)
	}
}

func relu(v float32) float32 {
	if v > 0 {
		return v
	}
	return 0
}

// ReLUBackward passes the gradient through a ReLU, given its output (or its
// input: only the sign is read):
//
//	dx[i] = dy[i] if y[i] > 0, else 0
//
// dx may be the same slice as dy. Both versions give identical results.
func ReLUBackward(dx, dy, y []float32) {
	checkLen("ReLUBackward", len(dx), len(dy))
	checkLen("ReLUBackward", len(dx), len(y))
	if simdOn() && len(dx) > 0 {
		reluBackwardSIMD(dx, dy, y)
		return
	}
	for i, v := range y {
		if v > 0 {
			dx[i] = dy[i]
		} else {
			dx[i] = 0
		}
	}
}

// ColSum adds the column sums of x, a row-major matrix of len(dst) columns, to
// dst (the gradient of a bias):
//
//	dst[j] += x[0*n+j] + x[1*n+j] + ... (rows in order, n = len(dst))
//
// The additions run in the same order in both versions, so their results are
// identical. It panics unless len(x) is a multiple of len(dst).
func ColSum(dst, x []float32) {
	rows := checkRows("ColSum", x, dst)
	if rows == 0 {
		return
	}
	if simdOn() {
		colSumSIMD(dst, x)
		return
	}
	n := len(dst)
	for i := 0; i < rows; i++ {
		for j, v := range x[i*n : i*n+n] {
			dst[j] += v
		}
	}
}

// Add sets dst[i] = a[i] + b[i]; dst, a and b have the same length (dst
// may be a or b). Both versions give identical results.
func Add(dst, a, b []float32) {
	checkLen("Add", len(dst), len(a))
	checkLen("Add", len(dst), len(b))
	if simdOn() && len(dst) > 0 {
		addSIMD(dst, a, b)
		return
	}
	for i, v := range a {
		dst[i] = v + b[i]
	}
}

// Axpy sets y[i] += alpha*x[i]. The SIMD version fuses the multiply-add
// (one rounding instead of two). x and y have the same length.
func Axpy(alpha float32, x, y []float32) {
	checkLen("Axpy", len(x), len(y))
	if simdOn() && len(x) > 0 {
		axpySIMD(alpha, x, y)
		return
	}
	for i, v := range x {
		y[i] += alpha * v
	}
}

// Scale sets x[i] *= alpha; both versions give identical results.
func Scale(alpha float32, x []float32) {
	if simdOn() && len(x) > 0 {
		scaleSIMD(alpha, x)
		return
	}
	for i := range x {
		x[i] *= alpha
	}
}

// Dot returns the sum of x[i]*y[i]. The SIMD version sums in another order
// (several partial sums, fused multiply-adds), so results differ by rounding.
func Dot(x, y []float32) float32 {
	checkLen("Dot", len(x), len(y))
	if simdOn() && len(x) > 0 {
		return dotSIMD(x, y)
	}
	var s float32
	for i, v := range x {
		s += v * y[i]
	}
	return s
}

// AdamW takes one step of Adam with decoupled weight decay on the weights w,
// given their gradient g and the moment estimates m and v (all the same
// length), with bc1 = 1-beta1^t and bc2 = 1-beta2^t the bias corrections of
// step t (pass 1 and 1 to skip them). For every i, in float32:
//
//	m[i] = beta1*m[i] + (1-beta1)*g[i]
//	v[i] = beta2*v[i] + (1-beta2)*g[i]*g[i]
//	w[i] = w[i] - lr*(wd*w[i] + (m[i]*(1/bc1)) / (sqrt(v[i]*(1/bc2)) + eps))
//
// where 1-beta1, 1-beta2, 1/bc1 and 1/bc2 are computed once. This is
// PyTorch's AdamW (w ← w - lr·wd·w, then the Adam step) with the decay taken
// from the weights before the step, which is the same. The SIMD version fuses
// multiply-adds, so results differ by rounding.
func AdamW(w, g, m, v []float32, lr, beta1, beta2, eps, wd, bc1, bc2 float32) {
	checkLen("AdamW", len(w), len(g))
	checkLen("AdamW", len(w), len(m))
	checkLen("AdamW", len(w), len(v))
	c1, c2 := 1-beta1, 1-beta2
	rbc1, rbc2 := 1/bc1, 1/bc2
	if simdOn() && len(w) > 0 {
		adamWSIMD(w, g, m, v, beta1, c1, beta2, c2, lr, eps, wd, rbc1, rbc2)
		return
	}
	for i, gi := range g {
		mi := beta1*m[i] + c1*gi
		vi := beta2*v[i] + c2*gi*gi
		m[i], v[i] = mi, vi
		den := float32(math.Sqrt(float64(vi*rbc2))) + eps
		w[i] -= lr * (wd*w[i] + mi*rbc1/den)
	}
}

// checkLen panics unless two lengths agree.
func checkLen(name string, a, b int) {
	if a != b {
		panic(fmt.Sprintf("kernels: %s: slices of lengths %d and %d", name, a, b))
	}
}

// checkRows returns len(x)/len(row), panicking unless it divides evenly.
func checkRows(name string, x, row []float32) int {
	if len(row) == 0 {
		if len(x) != 0 {
			panic(fmt.Sprintf("kernels: %s: %d values but rows of length 0", name, len(x)))
		}
		return 0
	}
	if len(x)%len(row) != 0 {
		panic(fmt.Sprintf("kernels: %s: %d values are not whole rows of %d", name, len(x), len(row)))
	}
	return len(x) / len(row)
}
