//go:build amd64 && !purego && !noasm

package kernels

// The int8 micro-kernels compute one tile of Q8Gemm's C, rows × NR columns,
// as q8Generic does (the same integer sums, the same float32 operations):
// a holds the tile's quantised rows (lda bytes apart), w the tile's first
// column of the packed weights (groups of ldw bytes), rowScale and rowZero
// the rows' σ and z, colScale, colSum and bias the columns', relu 1 for a
// ReLU (else 0), and res nil or the matrix added to the result
// (Q8GemmAdd; stride ldc, as c). q8tile_amd64.s has them.

// q8TileRx64AVX512 (R = 1 to 6) are the AVX-512 VNNI kernels of R rows × 64
// columns: 4·R ZMM accumulators (eight for one row, see q8tile_amd64.s),
// four for the weights, two for broadcasts.
//
//go:noescape
func q8Tile1x64AVX512(a *uint8, lda int, w *int8, ldw int, groups int, rowScale *float32, rowZero *int32, colScale *float32, colSum *int32, bias *float32, c *float32, ldc int, relu int32, res *float32)

//
//go:noescape
func q8Tile2x64AVX512(a *uint8, lda int, w *int8, ldw int, groups int, rowScale *float32, rowZero *int32, colScale *float32, colSum *int32, bias *float32, c *float32, ldc int, relu int32, res *float32)

//
//go:noescape
func q8Tile3x64AVX512(a *uint8, lda int, w *int8, ldw int, groups int, rowScale *float32, rowZero *int32, colScale *float32, colSum *int32, bias *float32, c *float32, ldc int, relu int32, res *float32)

//
//go:noescape
func q8Tile4x64AVX512(a *uint8, lda int, w *int8, ldw int, groups int, rowScale *float32, rowZero *int32, colScale *float32, colSum *int32, bias *float32, c *float32, ldc int, relu int32, res *float32)

//
//go:noescape
func q8Tile5x64AVX512(a *uint8, lda int, w *int8, ldw int, groups int, rowScale *float32, rowZero *int32, colScale *float32, colSum *int32, bias *float32, c *float32, ldc int, relu int32, res *float32)

//
//go:noescape
func q8Tile6x64AVX512(a *uint8, lda int, w *int8, ldw int, groups int, rowScale *float32, rowZero *int32, colScale *float32, colSum *int32, bias *float32, c *float32, ldc int, relu int32, res *float32)

// q8Tile2x32AVXVNNI is the AVX-VNNI kernel (VEX-encoded VPDPBUSD on YMM
// registers) of 2 rows × 32 columns: eight YMM accumulators, four for the
// weights, two for broadcasts.
//
//go:noescape
func q8Tile2x32AVXVNNI(a *uint8, lda int, w *int8, ldw int, groups int, rowScale *float32, rowZero *int32, colScale *float32, colSum *int32, bias *float32, c *float32, ldc int, relu int32, res *float32)

// q8Tile1x32AVXVNNI is q8Tile2x32AVXVNNI for one row.
//
//go:noescape
func q8Tile1x32AVXVNNI(a *uint8, lda int, w *int8, ldw int, groups int, rowScale *float32, rowZero *int32, colScale *float32, colSum *int32, bias *float32, c *float32, ldc int, relu int32, res *float32)

// q8QuantizeAVX512 is Q8Rows.Quantize's loop over rows (quantizeRow, row by
// row) for k a multiple of 16: dst holds rows of k bytes, ldd apart.
//
//go:noescape
func q8QuantizeAVX512(dst *uint8, ldd int, x *float32, ldx int, rows, k int, scale *float32, zero *int32)

// q8Tile is the signature of the assembly tiles: rows of a (u8, lda
// apart) against a panel of w, written to c with the scales, zero points,
// column sums, bias, ReLU and res applied.
type q8Tile func(a *uint8, lda int, w *int8, ldw int, groups int, rowScale *float32, rowZero *int32, colScale *float32, colSum *int32, bias *float32, c *float32, ldc int, relu int32, res *float32)

// q8Tiles is one back-end's tiles: tile[r] covers r rows (1 to rows), all
// width columns.
type q8Tiles struct {
	rows, width int
	tile        []q8Tile
}

var (
	tilesAVX512VNNI = q8Tiles{rows: 6, width: 64, tile: []q8Tile{nil, q8Tile1x64AVX512, q8Tile2x64AVX512, q8Tile3x64AVX512, q8Tile4x64AVX512, q8Tile5x64AVX512, q8Tile6x64AVX512}}
	tilesAVXVNNI    = q8Tiles{rows: 2, width: 32, tile: []q8Tile{nil, q8Tile1x32AVXVNNI, q8Tile2x32AVXVNNI}}
)

// q8AVX512VNNI runs Q8Gemm on the AVX-512 VNNI kernels, for n a multiple
// of 64.
func q8AVX512VNNI(m int, q *Q8Rows, p *PackedQ8, bias []float32, relu bool, res, c []float32, ldc int) bool {
	return tilesAVX512VNNI.gemm(0, m, q, p, bias, relu, res, c, ldc)
}

// q8AVXVNNI runs Q8Gemm on the AVX-VNNI kernels, for n a multiple of 32.
func q8AVXVNNI(m int, q *Q8Rows, p *PackedQ8, bias []float32, relu bool, res, c []float32, ldc int) bool {
	return tilesAVXVNNI.gemm(0, m, q, p, bias, relu, res, c, ldc)
}

// gemm drives the tiles over rows i0 to m of c, panel by panel of t.width
// columns and t.rows rows at a time, the last rows (fewer) in one smaller
// tile; false when n is not a multiple of t.width.
func (t q8Tiles) gemm(i0, m int, q *Q8Rows, p *PackedQ8, bias []float32, relu bool, res, c []float32, ldc int) bool {
	n, kp := p.n, q.kp
	if n%t.width != 0 {
		return false
	}
	r32 := b2i32(relu)
	for j := 0; j < n; j += t.width {
		w := &p.data[j*4]
		for i := i0; i < m; i += t.rows {
			r := min(t.rows, m-i)
			var rp *float32
			if res != nil {
				rp = &res[i*ldc+j]
			}
			t.tile[r](&q.data[i*kp], kp, w, 4*n, p.groups, &q.scale[i], &q.zero[i], &p.scale[j], &p.colSum[j], &bias[j], &c[i*ldc+j], ldc, r32, rp)
		}
	}
	return true
}

// quantizeSIMD runs quantizeRows (rows i0 to i0+m of q) in AVX-512
// assembly, for k a multiple of 16 on a back-end that is not kept to YMM
// registers, or reports false.
func quantizeSIMD(i0, m, k int, x []float32, ldx int, q *Q8Rows) bool {
	if !hasAVX512 || cur.ymmOnly || !cur.simd || k%16 != 0 {
		return false
	}
	q8QuantizeAVX512(&q.data[i0*q.kp], q.kp, &x[0], ldx, m, k, &q.scale[i0], &q.zero[i0])
	return true
}
