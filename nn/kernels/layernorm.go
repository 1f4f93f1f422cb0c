package kernels

import "math"

// Layer normalisation over the rows of a row-major matrix of n = len(gain)
// columns, forward and backward, each in one call per block of rows (the SIMD
// versions keep a row in the first level of cache across their passes). The
// generic and SIMD versions compute the same formulas; their sums run in
// different orders (and the SIMD ones fuse multiply-adds), so results differ
// by rounding. Each version depends on its inputs alone. SIMD runs when the
// element-wise kernels use it and n is a multiple of 8.

// LayerNorm normalises each of the rows = len(mean) rows of x, with n =
// len(gain) columns, into y:
//
//	mean[r] = Σ_j x[r][j] / n
//	rstd[r] = float32(1 / sqrt(float64(Σ_j (x[r][j]-mean[r])² / n) + eps))
//	y[r][j] = gain[j]·((x[r][j]-mean[r])·rstd[r]) + bias[j], then max(·, 0) with relu
//
// where the ReLU gives 0 for a NaN, as ReLU does. x and y hold rows·n
// values; gain and bias n; mean and rstd rows.
func LayerNorm(y, x, gain, bias, mean, rstd []float32, eps float64, relu bool) {
	n, rows := len(gain), len(mean)
	checkLen("LayerNorm", len(bias), n)
	checkLen("LayerNorm", len(rstd), rows)
	checkLen("LayerNorm", len(x), rows*n)
	checkLen("LayerNorm", len(y), rows*n)
	if rows == 0 || n == 0 {
		return
	}
	if simdOn() && n%8 == 0 {
		layerNormSIMD(y, x, gain, bias, mean, rstd, eps, relu)
		return
	}
	for r := 0; r < rows; r++ {
		xr, yr := x[r*n:(r+1)*n], y[r*n:(r+1)*n]
		m := sum8(xr) / float32(n)
		q := sqDev8(xr, m)
		s := float32(1 / math.Sqrt(float64(q/float32(n))+eps))
		mean[r], rstd[r] = m, s
		for j, v := range xr {
			o := gain[j]*((v-m)*s) + bias[j]
			if relu {
				o = reluOf(o)
			}
			yr[j] = o
		}
	}
}

// reluOf is max(v, 0), 0 for a NaN.
func reluOf(v float32) float32 {
	if v > 0 {
		return v
	}
	return 0
}

// LayerNormBackward back-propagates through LayerNorm, given the rows' mean
// and rstd (as LayerNorm returned them), its input x, its gain and bias and
// the gradient dy of its output. With relu, the gradient passes only where
// the output was positive: where gain·x̂+bias, recomputed as LayerNorm
// computed it (so the same bits on the same back-end), is greater than 0.
// With g = dy·gain (0 where the ReLU blocks) and x̂ = (x-mean)·rstd per row,
//
//	dx[r][j] = rstd[r]·(g[r][j] - Σ_j g[r][j]/n - x̂[r][j]·Σ_j g[r][j]·x̂[r][j]/n)
//
// is written into dx (added to it with acc), and the rows' contributions to
// the gain's and bias's gradients are added to dg and db, rows in order:
//
//	dg[j] += d[r][j]·x̂[r][j]
//	db[j] += d[r][j]
//
// where d is dy after the ReLU. dy is only read. The slices hold rows·n
// values (x, dy, dx), n (gain, bias, dg, db) and rows (mean, rstd), rows =
// len(mean), n = len(gain).
func LayerNormBackward(dx, dy, x, gain, bias, mean, rstd, dg, db []float32, relu, acc bool) {
	n, rows := len(gain), len(mean)
	checkLen("LayerNormBackward", len(bias), n)
	checkLen("LayerNormBackward", len(rstd), rows)
	checkLen("LayerNormBackward", len(dg), n)
	checkLen("LayerNormBackward", len(db), n)
	checkLen("LayerNormBackward", len(x), rows*n)
	checkLen("LayerNormBackward", len(dx), rows*n)
	checkLen("LayerNormBackward", len(dy), rows*n)
	if rows == 0 || n == 0 {
		return
	}
	if simdOn() && n%8 == 0 {
		layerNormBackwardSIMD(dx, dy, x, gain, bias, mean, rstd, dg, db, relu, acc)
		return
	}
	inv := 1 / float32(n)
	for r := 0; r < rows; r++ {
		xr, dyr, dxr := x[r*n:(r+1)*n], dy[r*n:(r+1)*n], dx[r*n:(r+1)*n]
		m, s := mean[r], rstd[r]
		// d is dy after the ReLU, as LayerNorm's output saw it.
		d := func(j int, v float32) float32 {
			if relu && !(gain[j]*((v-m)*s)+bias[j] > 0) {
				return 0
			}
			return dyr[j]
		}
		var a, b float32
		for j, v := range xr {
			xh := (v - m) * s
			dj := d(j, v)
			g := dj * gain[j]
			a += g
			b += g * xh
			dg[j] += dj * xh
			db[j] += dj
		}
		s1, s2 := a*inv, b*inv
		for j, v := range xr {
			xh := (v - m) * s
			o := s * (d(j, v)*gain[j] - s1 - xh*s2)
			if acc {
				dxr[j] += o
			} else {
				dxr[j] = o
			}
		}
	}
}

// sum8 returns the sum of x, added as eight partial sums over the indices
// of each residue mod 8, then combined pairwise.
func sum8(x []float32) float32 {
	var s0, s1, s2, s3, s4, s5, s6, s7 float32
	j := 0
	for ; j+8 <= len(x); j += 8 {
		v := x[j : j+8 : j+8]
		s0 += v[0]
		s1 += v[1]
		s2 += v[2]
		s3 += v[3]
		s4 += v[4]
		s5 += v[5]
		s6 += v[6]
		s7 += v[7]
	}
	for ; j < len(x); j++ {
		s0 += x[j]
	}
	return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
}

// sqDev8 returns the sum of (x−mean)², in sum8's order.
func sqDev8(x []float32, mean float32) float32 {
	var s0, s1, s2, s3, s4, s5, s6, s7 float32
	j := 0
	for ; j+8 <= len(x); j += 8 {
		v := x[j : j+8 : j+8]
		d0, d1, d2, d3 := v[0]-mean, v[1]-mean, v[2]-mean, v[3]-mean
		d4, d5, d6, d7 := v[4]-mean, v[5]-mean, v[6]-mean, v[7]-mean
		s0 += d0 * d0
		s1 += d1 * d1
		s2 += d2 * d2
		s3 += d3 * d3
		s4 += d4 * d4
		s5 += d5 * d5
		s6 += d6 * d6
		s7 += d7 * d7
	}
	for ; j < len(x); j++ {
		d := x[j] - mean
		s0 += d * d
	}
	return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
}
