//go:build amd64 && !purego && !noasm

package kernels

// q8AMX computes Q8Gemm for mblocks·16 rows, nblocks·64 columns and
// kchunks·64 bytes of a row on the AMX tiles, with the stores of the VNNI
// tiles (q8amx_amd64.s): a holds the rows (lda bytes apart), w the packed
// weights (groups of ldw bytes), scratch 2048 int32.
//
//go:noescape
func q8AMX(a *uint8, lda int, w *int8, ldw int, kchunks, mblocks, nblocks int, rowScale *float32, rowZero *int32, colScale *float32, colSum *int32, bias *float32, c *float32, ldc int, relu int32, res *float32, scratch *int32)

// q8AMXGemm runs Q8Gemm on AMX in blocks of 16 rows, for n a multiple of
// 64 and rows of a multiple of 64 bytes (k rounded up to 4), the last rows
// (fewer than 16) and the other shapes on the AVX-512 VNNI tiles: the same
// result bit for bit.
func q8AMXGemm(m int, q *Q8Rows, p *PackedQ8, bias []float32, relu bool, res, c []float32, ldc int) bool {
	n, kp := p.n, q.kp
	mb := m / 16
	if n%64 != 0 || kp%64 != 0 || mb == 0 {
		return tilesAVX512VNNI.gemm(0, m, q, p, bias, relu, res, c, ldc)
	}
	q.amx = grow(q.amx, 2*16*64)
	var rp *float32
	if res != nil {
		rp = &res[0]
	}
	q8AMX(&q.data[0], kp, &p.data[0], 4*n, kp/64, mb, n/64, &q.scale[0], &q.zero[0], &p.scale[0], &p.colSum[0], &bias[0], &c[0], ldc, b2i32(relu), rp, &q.amx[0])
	if mb*16 < m {
		tilesAVX512VNNI.gemm(mb*16, m, q, p, bias, relu, res, c, ldc)
	}
	return true
}

func b2i32(b bool) int32 {
	if b {
		return 1
	}
	return 0
}
