//go:build amd64 && !purego && !noasm

package kernels

// q8LayerNormReLUAVX512 is LayerNorm with the ReLU followed by Quantize of
// its output, for rows a multiple of 4 and n of 16, on the AVX-512 kernels'
// arithmetic (layerNormAVX512, q8QuantizeAVX512): four rows at a time, in
// one pass that keeps the normalised rows in tile (4·n floats). dst gets
// the rows' n bytes back to back.
//
//go:noescape
func q8LayerNormReLUAVX512(dst *uint8, x *float32, rows, n int, gain, bias, mean, rstd *float32, fn float32, eps float64, scale *float32, zero *int32, tile *float32)

// layerNormQ8SIMD runs LayerNormQ8's rows in one fused AVX-512 kernel when
// the back-end runs the AVX-512 layer norm and quantisation (so that the
// result is theirs, bit for bit), the norm ends in a ReLU and n is a
// multiple of 16; it returns the number of rows done (a multiple of 4; the
// caller does the rest).
func layerNormQ8SIMD(q *Q8Rows, x, gain, bias, mean, rstd []float32, eps float64, relu bool) int {
	n, rows := len(gain), len(mean)&^3
	if !relu || rows == 0 || !cur.simd || !avx512Rows(n) {
		return 0
	}
	q.tile = grow(q.tile, 4*n+4)
	q8LayerNormReLUAVX512(&q.data[0], &x[0], rows, n, &gain[0], &bias[0], &mean[0], &rstd[0], float32(n), eps, &q.scale[0], &q.zero[0], &q.tile[0])
	return rows
}
