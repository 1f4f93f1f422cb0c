package kernels

import (
	"fmt"
	"math"
)

// The int8 products of inference (Q8Gemm) compute a dense layer
//
//	y = act(x·W + b)
//
// from integers: W (k×n) is quantised once per output column j, symmetric,
// to int8 w_q = round(W/s_j) with s_j = max|W[·][j]|/127 (PackedQ8); x is
// quantised per row i, dynamically, to uint8 with a zero point,
// x_q = clamp(trunc(x/σ_i + z_i + 0.5), 0, 255) with σ_i the row's range
// (its values and 0) over 255 (Q8Rows). The products x_q·w_q add up exactly
// in int32 (VPDPBUSD's four byte products per lane, in any order), and
//
//	y[i][j] = act(float32(Σ x_q·w_q − z_i·Σ_p w_q[p][j]) · (s_j·σ_i) + b[j])
//
// is the same float32 arithmetic, rounded at each step, on every back-end:
// the assembly gives bit for bit the result of the generic Go, which the
// tests hold it to.

// q8Func computes an int8 product (see Q8Gemm) or reports false, doing
// nothing, for a shape it does not take (the generic code runs it then).
// res is nil or the matrix added to the result (stride ldc).
type q8Func func(m int, q *Q8Rows, p *PackedQ8, bias []float32, relu bool, res, c []float32, ldc int) bool

// PackedQ8 is a weight matrix W (k×n, row-major) quantised per output column
// to int8 and laid out for VPDPBUSD: the rows in groups of four (zero rows
// pad k to a multiple of 4), and for each group and column the group's four
// bytes together. The zero value is a 0×0 matrix; Pack fills it.
type PackedQ8 struct {
	k, n   int
	groups int       // ceil(k/4)
	data   []int8    // groups × n × 4
	scale  []float32 // per column: s_j
	colSum []int32   // per column: the sum of its int8 weights
}

// Pack quantises the k×n matrix w (row stride ldw) into p, reusing p's
// storage (it allocates only when that is short). It panics on sizes below
// 1, a stride shorter than n, or w too short.
func (p *PackedQ8) Pack(k, n int, w []float32, ldw int) {
	if k < 1 || n < 1 {
		panic(fmt.Sprintf("kernels: PackedQ8.Pack with size k=%d n=%d", k, n))
	}
	checkMatrix("W", k, n, w, ldw)
	g := (k + 3) / 4
	p.k, p.n, p.groups = k, n, g
	p.data = grow(p.data, g*n*4)
	p.scale = grow(p.scale, n)
	p.colSum = grow(p.colSum, n)
	clear(p.data)
	for j := 0; j < n; j++ {
		var m float64
		for r := 0; r < k; r++ {
			m = math.Max(m, math.Abs(float64(w[r*ldw+j])))
		}
		var sum int32
		if m > 0 {
			for r := 0; r < k; r++ {
				q := int32(math.Round(float64(w[r*ldw+j]) * 127 / m))
				q = max(-127, min(127, q))
				p.data[((r/4)*n+j)*4+r%4] = int8(q)
				sum += q
			}
		}
		p.scale[j] = float32(m / 127)
		p.colSum[j] = sum
	}
}

// Dims returns the k×n shape of the packed W.
func (p *PackedQ8) Dims() (k, n int) { return p.k, p.n }

// Q8Rows holds a batch of activations quantised per row to uint8 with a
// zero point (see Quantize), and the scratch of the generic product. The
// zero value is empty; Quantize fills it.
type Q8Rows struct {
	m, k, kp int       // rows, columns, row stride (k rounded up to 4)
	data     []uint8   // m × kp
	scale    []float32 // per row: σ_i
	zero     []int32   // per row: z_i
	acc      []int32   // the generic product's row of sums
	amx      []int32   // the AMX product's two blocks of sums
	tile     []float32 // LayerNormQ8's normalised rows, a tile at a time
}

// Quantize quantises the m×k matrix x (row stride ldx) into q, reusing q's
// storage (it allocates only when that is short): per row, σ = (hi−lo)/255
// and z = trunc(−lo·255/(hi−lo) + 0.5) with lo and hi the least and the
// greatest of the row's values and 0, and x_q = clamp(trunc(x·255/(hi−lo)
// + (z + 0.5)), 0, 255); a row of zeros has σ = 0 and x_q = 0. It panics on
// m below 0, k below 1, or x too short.
func (q *Q8Rows) Quantize(m, k int, x []float32, ldx int) {
	if m < 0 || k < 1 {
		panic(fmt.Sprintf("kernels: Q8Rows.Quantize with size m=%d k=%d", m, k))
	}
	checkMatrix("X", m, k, x, ldx)
	kp := (k + 3) / 4 * 4
	q.m, q.k, q.kp = m, k, kp
	q.data = grow(q.data, m*kp)
	q.scale = grow(q.scale, m)
	q.zero = grow(q.zero, m)
	if m == 0 {
		return
	}
	q.quantizeRows(0, m, x, ldx)
}

// quantizeRows quantises the rows m of x (row stride ldx) into rows i0 to
// i0+m of q, which Quantize or LayerNormQ8 has sized.
func (q *Q8Rows) quantizeRows(i0, m int, x []float32, ldx int) {
	k, kp := q.k, q.kp
	if quantizeSIMD(i0, m, k, x, ldx, q) {
		return
	}
	for i := 0; i < m; i++ {
		d := q.data[(i0+i)*kp : (i0+i+1)*kp]
		q.scale[i0+i], q.zero[i0+i] = quantizeRow(d, x[i*ldx:i*ldx+k])
	}
}

// quantizeRow quantises x into dst (len(dst)-len(x) zero bytes of padding
// after it) and returns its scale and zero point: the generic code, which
// the assembly follows operation by operation.
func quantizeRow(dst []uint8, x []float32) (scale float32, zero int32) {
	var lo, hi float32
	for _, v := range x {
		lo = min(lo, v)
		hi = max(hi, v)
	}
	d := hi - lo
	if d == 0 {
		clear(dst)
		return 0, 0
	}
	scale = d / 255
	inv := 255 / d
	zero = int32(float32(0.5) - float32(lo*inv))
	zero = max(0, min(255, zero))
	off := float32(zero) + 0.5
	for p, v := range x {
		t := int32(float32(v*inv) + off)
		dst[p] = uint8(max(0, min(255, t)))
	}
	clear(dst[len(x):])
	return scale, zero
}

// Q8Gemm sets C (m×n, row stride ldc) to act(X·W + bias), X the m rows q
// holds (of p's k columns) and W the matrix p holds, act a ReLU when relu is
// set, else the identity (see the top of this file for the arithmetic). Its
// result is bit for bit the same on every back-end. It panics when q and p
// do not match, bias is shorter than n, or c is too short.
func Q8Gemm(q *Q8Rows, p *PackedQ8, bias []float32, relu bool, c []float32, ldc int) {
	q8Gemm(q, p, bias, relu, nil, c, ldc)
}

// Q8GemmAdd is Q8Gemm followed by Add of res (m×n, row stride ldc, as C):
// C = act(X·W + bias) + res, in the product's stores, with the same result
// bit for bit as Q8Gemm then Add. res may be c itself. It panics as Q8Gemm
// does, and when res is too short.
func Q8GemmAdd(q *Q8Rows, p *PackedQ8, bias []float32, relu bool, res, c []float32, ldc int) {
	checkMatrix("res", q.m, p.n, res, ldc)
	q8Gemm(q, p, bias, relu, res, c, ldc)
}

func q8Gemm(q *Q8Rows, p *PackedQ8, bias []float32, relu bool, res, c []float32, ldc int) {
	if q.k != p.k {
		panic(fmt.Sprintf("kernels: Q8Gemm: rows of %d columns times a %d×%d matrix", q.k, p.k, p.n))
	}
	if len(bias) < p.n {
		panic(fmt.Sprintf("kernels: Q8Gemm: %d biases for %d columns", len(bias), p.n))
	}
	checkMatrix("C", q.m, p.n, c, ldc)
	if q.m == 0 {
		return
	}
	if cur.q8 == nil || !cur.q8(q.m, q, p, bias, relu, res, c, ldc) {
		q8Generic(q.m, q, p, bias, relu, res, c, ldc)
	}
}

// q8Generic is Q8Gemm in plain Go: the tests' oracle.
func q8Generic(m int, q *Q8Rows, p *PackedQ8, bias []float32, relu bool, res, c []float32, ldc int) bool {
	n, kp := p.n, q.kp
	q.acc = grow(q.acc, n)
	acc := q.acc
	for i := 0; i < m; i++ {
		a := q.data[i*kp : i*kp+kp]
		clear(acc)
		for g := 0; g < p.groups; g++ {
			a0, a1, a2, a3 := int32(a[4*g]), int32(a[4*g+1]), int32(a[4*g+2]), int32(a[4*g+3])
			w := p.data[g*n*4 : (g+1)*n*4]
			for j := range acc {
				wj := w[4*j : 4*j+4]
				acc[j] += a0*int32(wj[0]) + a1*int32(wj[1]) + a2*int32(wj[2]) + a3*int32(wj[3])
			}
		}
		zp, sa := q.zero[i], q.scale[i]
		row := c[i*ldc : i*ldc+n]
		for j, s := range acc {
			f := float32(s - zp*p.colSum[j])
			y := float32(f*float32(p.scale[j]*sa)) + bias[j]
			if relu && !(y > 0) {
				y = 0 // 0 for a NaN too, as ReLU
			}
			if res != nil {
				y += res[i*ldc+j]
			}
			row[j] = y
		}
	}
	return true
}
