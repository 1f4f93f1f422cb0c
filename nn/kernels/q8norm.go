package kernels

import "fmt"

// q8NormTile is LayerNormQ8's tile: rows normalised into q.tile, then
// quantised, while they are still in the first level of cache (8 rows of
// 128 floats are 4 KiB).
const q8NormTile = 8

// LayerNormQ8 is LayerNorm (with n = len(gain) columns, rows = len(mean)
// rows of x) followed by Quantize of its output, without the float32
// output going out to memory: with the ReLU, on the AVX-512 back-ends and
// for n a multiple of 16, one kernel does both, four rows at a time
// (q8norm_amd64.s; the last rows%4 as below); otherwise the rows are
// normalised a tile at a time into q's scratch and quantised from there.
// It gives q, mean and rstd bit for bit what LayerNorm then Quantize give,
// on every back-end. It panics on the sizes LayerNorm and Quantize refuse.
func (q *Q8Rows) LayerNormQ8(x, gain, bias, mean, rstd []float32, eps float64, relu bool) {
	n, rows := len(gain), len(mean)
	if n < 1 {
		panic(fmt.Sprintf("kernels: Q8Rows.LayerNormQ8 with %d columns", n))
	}
	checkLen("LayerNormQ8", len(bias), n)
	checkLen("LayerNormQ8", len(rstd), rows)
	checkLen("LayerNormQ8", len(x), rows*n)
	kp := (n + 3) / 4 * 4
	q.m, q.k, q.kp = rows, n, kp
	q.data = grow(q.data, rows*kp)
	q.scale = grow(q.scale, rows)
	q.zero = grow(q.zero, rows)
	if rows == 0 {
		return
	}
	done := layerNormQ8SIMD(q, x, gain, bias, mean, rstd, eps, relu)
	q.tile = grow(q.tile, q8NormTile*n)
	for r0 := done; r0 < rows; r0 += q8NormTile {
		r1 := min(r0+q8NormTile, rows)
		t := q.tile[:(r1-r0)*n]
		LayerNorm(t, x[r0*n:r1*n], gain, bias, mean[r0:r1], rstd[r0:r1], eps, relu)
		q.quantizeRows(r0, r1-r0, t, n)
	}
}
