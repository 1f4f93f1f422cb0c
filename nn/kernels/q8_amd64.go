//go:build amd64 && !purego && !noasm

package kernels

// The int8 micro-kernels compute one tile of Q8Gemm's C, rows × NR columns,
// as q8Generic does (the same integer sums, the same float32 operations):
// a holds the tile's quantised rows (lda bytes apart), w the tile's first
// column of the packed weights (groups of ldw bytes), rowScale and rowZero
// the rows' σ and z, colScale, colSum and bias the columns', and floor the
// ReLU's bound or -Inf.

// q8Tile6x64AVX512 is the AVX-512 VNNI kernel of 6 rows × 64 columns:
// twenty-four ZMM accumulators, four for the weights, two for broadcasts.
//
//go:noescape
func q8Tile6x64AVX512(a *uint8, lda int, w *int8, ldw int, groups int, rowScale *float32, rowZero *int32, colScale *float32, colSum *int32, bias *float32, c *float32, ldc int, floor float32)

// q8Tile1x64AVX512 is q8Tile6x64AVX512 for one row.
//
//go:noescape
func q8Tile1x64AVX512(a *uint8, lda int, w *int8, ldw int, groups int, rowScale *float32, rowZero *int32, colScale *float32, colSum *int32, bias *float32, c *float32, ldc int, floor float32)

// q8Tile2x32AVXVNNI is the AVX-VNNI kernel (VEX-encoded VPDPBUSD on YMM
// registers) of 2 rows × 32 columns: eight YMM accumulators, four for the
// weights, two for broadcasts.
//
//go:noescape
func q8Tile2x32AVXVNNI(a *uint8, lda int, w *int8, ldw int, groups int, rowScale *float32, rowZero *int32, colScale *float32, colSum *int32, bias *float32, c *float32, ldc int, floor float32)

// q8Tile1x32AVXVNNI is q8Tile2x32AVXVNNI for one row.
//
//go:noescape
func q8Tile1x32AVXVNNI(a *uint8, lda int, w *int8, ldw int, groups int, rowScale *float32, rowZero *int32, colScale *float32, colSum *int32, bias *float32, c *float32, ldc int, floor float32)

// q8QuantizeAVX512 is Q8Rows.Quantize's loop over rows (quantizeRow, row by
// row) for k a multiple of 16: dst holds rows of k bytes, ldd apart.
//
//go:noescape
func q8QuantizeAVX512(dst *uint8, ldd int, x *float32, ldx int, rows, k int, scale *float32, zero *int32)

// q8AVX512VNNI runs Q8Gemm on the AVX-512 VNNI kernels, for n a multiple
// of 64.
func q8AVX512VNNI(m int, q *Q8Rows, p *PackedQ8, bias []float32, floor float32, c []float32, ldc int) bool {
	n, kp := p.n, q.kp
	if n%64 != 0 {
		return false
	}
	for j := 0; j < n; j += 64 {
		w := &p.data[j*4]
		i := 0
		for ; i+6 <= m; i += 6 {
			q8Tile6x64AVX512(&q.data[i*kp], kp, w, 4*n, p.groups, &q.scale[i], &q.zero[i], &p.scale[j], &p.colSum[j], &bias[j], &c[i*ldc+j], ldc, floor)
		}
		for ; i < m; i++ {
			q8Tile1x64AVX512(&q.data[i*kp], kp, w, 4*n, p.groups, &q.scale[i], &q.zero[i], &p.scale[j], &p.colSum[j], &bias[j], &c[i*ldc+j], ldc, floor)
		}
	}
	return true
}

// q8AVXVNNI runs Q8Gemm on the AVX-VNNI kernels, for n a multiple of 32.
func q8AVXVNNI(m int, q *Q8Rows, p *PackedQ8, bias []float32, floor float32, c []float32, ldc int) bool {
	n, kp := p.n, q.kp
	if n%32 != 0 {
		return false
	}
	for j := 0; j < n; j += 32 {
		w := &p.data[j*4]
		i := 0
		for ; i+2 <= m; i += 2 {
			q8Tile2x32AVXVNNI(&q.data[i*kp], kp, w, 4*n, p.groups, &q.scale[i], &q.zero[i], &p.scale[j], &p.colSum[j], &bias[j], &c[i*ldc+j], ldc, floor)
		}
		if i < m {
			q8Tile1x32AVXVNNI(&q.data[i*kp], kp, w, 4*n, p.groups, &q.scale[i], &q.zero[i], &p.scale[j], &p.colSum[j], &bias[j], &c[i*ldc+j], ldc, floor)
		}
	}
	return true
}

// quantizeSIMD runs Quantize's rows in AVX-512 assembly, for k a multiple of
// 16 on a back-end that is not kept to YMM registers, or reports false.
func quantizeSIMD(m, k int, x []float32, ldx int, q *Q8Rows) bool {
	if !hasAVX512 || cur.ymmOnly || !cur.simd || k%16 != 0 {
		return false
	}
	q8QuantizeAVX512(&q.data[0], q.kp, &x[0], ldx, m, k, &q.scale[0], &q.zero[0])
	return true
}
