//go:build amd64 && !purego && !noasm

package kernels

// Cache blocking of the driver: a kc×n block of op(B) is packed into panels of
// NR columns (a 256×32 panel is 32 KiB, so it stays in L1 while the kernel
// sweeps up to mc rows of op(A) past it; with kc = 256 the layers of 256
// units take one block, so each tile of C is written once).
const (
	kcBlock = 256
	mcBlock = 240 // a multiple of both tiles' MR (6 and 8)
	// inPlaceMaxM is the most rows of C for which the kernel reads the full
	// panels of an untransposed B in place: packing costs a pass over B that
	// few rows do not repay (measured: 64×256·256×256 runs 25% faster in
	// place, 512 rows 5% slower).
	inPlaceMaxM = 256
)

// sgemm is Sgemm on the kernels of g. It picks the blocked, packed path for
// four rows or more and at least NR/2 columns (unless A is transposed and C has
// at most MR columns), which applies beta itself; otherwise it scales C by
// beta and picks the row-at-a-time path for one to three rows (B not
// transposed), the transposed product for narrow C with A transposed, and the
// dot-product path for the rest.
func (g *gemmImpl) sgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if k == 0 || alpha == 0 {
		scaleC(beta, m, n, c, ldc)
		return
	}
	ws := getWorkspace()
	if m >= 4 && n >= g.nr/2 && !(transA && n <= g.mr) {
		g.blocked(ws, transA, transB, m, n, k, alpha, a, lda, b, ldb, nil, beta, c, ldc, nil, 0)
		putWorkspace(ws)
		return
	}
	scaleC(beta, m, n, c, ldc)
	switch {
	case m < 4 && !transB:
		g.rowsGemv(transA, m, n, k, alpha, a, lda, b, ldb, c, ldc)
	case transA && n <= g.mr:
		g.narrowTN(ws, transB, m, n, k, alpha, a, lda, b, ldb, c, ldc)
	default:
		g.rowsDot(ws, transA, transB, m, n, k, alpha, a, lda, b, ldb, c, ldc)
	}
	putWorkspace(ws)
}

// rowsGemv adds alpha*op(A)[i]*B to each row i of C, keeping blocks of the row
// in registers while it walks down B (B not transposed).
func (g *gemmImpl) rowsGemv(transA bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	for i := 0; i < m; i++ {
		var ap *float32
		as := 1
		if transA {
			ap, as = &a[i], lda
		} else {
			ap = &a[i*lda]
		}
		crow := c[i*ldc : i*ldc+n]
		j := 0
		if g.gemvW2 != nil {
			for ; j+g.wide2 <= n; j += g.wide2 {
				g.gemvW2(k, ap, as, &b[j], ldb, &crow[j], alpha)
			}
		}
		for ; j+g.wide <= n; j += g.wide {
			g.gemvW(k, ap, as, &b[j], ldb, &crow[j], alpha)
		}
		for ; j+g.vec <= n; j += g.vec {
			g.gemvV(k, ap, as, &b[j], ldb, &crow[j], alpha)
		}
		if j < n {
			g.gemvM(k, ap, as, &b[j], ldb, &crow[j], alpha, n-j)
		}
	}
}

// rowsDot sets each C[i][j] += alpha * (row i of op(A)) · (column j of op(B)),
// gathering or packing whichever of the two is not contiguous.
func (g *gemmImpl) rowsDot(ws *workspace, transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	bt, ldbt := b, ldb // rows of op(B)ᵀ
	if !transB {
		ws.b = grow(ws.b, n*k)
		transpose(ws.b, k, b, ldb, k, n)
		bt, ldbt = ws.b, k
	}
	at, ldat := a, lda // rows of op(A)
	if transA {
		ws.a = grow(ws.a, m*k)
		transpose(ws.a, k, a, lda, k, m)
		at, ldat = ws.a, k
	}
	for i := 0; i < m; i++ {
		arow := at[i*ldat : i*ldat+k]
		g.dots(k, &arow[0], &bt[0], ldbt, n, &c[i*ldc], alpha)
	}
}

// narrowTN is the path for C of at most MR columns with A transposed (the
// weight gradient of a narrow layer, Xᵀ·dY): it computes Cᵀ = op(B)ᵀ·op(A)ᵀ
// with the micro-kernel, whose A operand is op(B)ᵀ packed (at most MR rows)
// and whose B operand is A read in place (its rows run along C's rows), so A
// is read once. Each tile of Cᵀ is added transposed to C.
func (g *gemmImpl) narrowTN(ws *workspace, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	mr, nr := g.mr, g.nr
	ws.a = grow(ws.a, k*mr)
	clear(ws.a)
	if transB {
		transpose(ws.a, mr, b, ldb, n, k)
	} else {
		for p := 0; p < k; p++ {
			copy(ws.a[p*mr:p*mr+n], b[p*ldb:p*ldb+n])
		}
	}
	ws.tile = grow(ws.tile, mr*nr)
	tile := ws.tile
	for i0 := 0; i0 < m; i0 += nr {
		w := min(nr, m-i0)
		bp, bs := &a[i0], lda
		if w < nr {
			ws.b = grow(ws.b, k*nr)
			for p := 0; p < k; p++ {
				row := ws.b[p*nr : p*nr+nr]
				copy(row, a[p*lda+i0:p*lda+i0+w])
				clear(row[w:])
			}
			bp, bs = &ws.b[0], nr
		}
		g.kern(k, &ws.a[0], 1, mr, bp, bs, &tile[0], nr, alpha, 0, nil)
		for ii := 0; ii < w; ii++ {
			crow := c[(i0+ii)*ldc : (i0+ii)*ldc+n]
			for j := range crow {
				crow[j] += tile[j*nr+ii]
			}
		}
	}
}

// blocked is the packed path: for each kc-block of the inner dimension it packs
// op(B) into zero-padded panels of NR columns (or, for few rows and B not
// transposed, packs only the last, partial panel and reads the others in place), then runs the micro-kernel on
// every MR×NR tile of C, reading op(A) in place (full tiles) or from a
// zero-padded copy (the last rows when MR does not divide m). Tiles that
// overhang C are computed into a scratch tile and added. With beta 0 the first
// block stores its tiles over C without reading it. When pre is not nil it
// holds op(B) packed whole by pack, and b is not read. With epi 2 or 3
// (kernels with fused set; beta 0 and k at most kcBlock) each tile of C
// gets bias added and, with 2, a ReLU, as AddBiasReLU or AddBias would
// after the product.
func (g *gemmImpl) blocked(ws *workspace, transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, pre []float32, beta float32, c []float32, ldc int, bias []float32, epi int) {
	if beta != 0 && beta != 1 {
		scaleC(beta, m, n, c, ldc)
	}
	mr, nr := g.mr, g.nr
	np := (n + nr - 1) / nr
	mFull := m - m%mr
	ws.tile = grow(ws.tile, mr*nr)
	inPlace := !transB && m <= inPlaceMaxM && pre == nil
	for p0 := 0; p0 < k; p0 += kcBlock {
		kb := min(kcBlock, k-p0)
		add := 1 // the first block overwrites C when beta is 0, so C is never read
		if p0 == 0 && beta == 0 {
			add = 0
		}
		full := add // the mode of full tiles: the fused epilogue, if asked
		if epi != 0 {
			full = epi
		}
		var bp []float32 // this block's panels
		switch {
		case pre != nil:
			bp = pre[p0*np*nr : (p0+kb)*np*nr]
		case inPlace:
			ws.b = grow(ws.b, np*kb*nr)
			bp = ws.b
			if n%nr != 0 {
				packB(bp, transB, b, ldb, p0, kb, n, nr)
			}
		default:
			ws.b = grow(ws.b, np*kb*nr)
			bp = ws.b
			packB(bp, transB, b, ldb, p0, kb, n, nr)
		}
		if mFull < m {
			ws.a = grow(ws.a, kb*mr)
			packEdgeA(ws.a, transA, a, lda, p0, kb, mFull, m, mr)
		}
		for i0 := 0; i0 < m; i0 += mcBlock {
			iEnd := min(i0+mcBlock, m)
			for jp := 0; jp < np; jp++ {
				j0 := jp * nr
				pan, bs := &bp[jp*kb*nr], nr
				wide := j0+nr <= n
				if inPlace && wide {
					pan, bs = &b[p0*ldb+j0], ldb
				}
				for i := i0; i < iEnd; i += mr {
					var ap *float32
					rs, cs := lda, 1
					if i < mFull {
						if transA {
							ap, rs, cs = &a[p0*lda+i], 1, lda
						} else {
							ap = &a[i*lda+p0]
						}
					} else {
						ap, rs, cs = &ws.a[0], 1, mr
					}
					if wide && i < mFull {
						var bj *float32
						if epi != 0 {
							bj = &bias[j0]
						}
						g.kern(kb, ap, rs, cs, pan, bs, &c[i*ldc+j0], ldc, alpha, full, bj)
						continue
					}
					tile := ws.tile
					g.kern(kb, ap, rs, cs, pan, bs, &tile[0], nr, alpha, 0, nil)
					rows, cols := min(mr, m-i), min(nr, n-j0)
					for ii := 0; ii < rows; ii++ {
						crow := c[(i+ii)*ldc+j0 : (i+ii)*ldc+j0+cols]
						if add == 0 {
							copy(crow, tile[ii*nr:])
							switch epi {
							case 2:
								AddBiasReLU(crow, bias[j0:j0+cols])
							case 3:
								AddBias(crow, bias[j0:j0+cols])
							}
							continue
						}
						for jj, v := range tile[ii*nr : ii*nr+cols] {
							crow[jj] += v
						}
					}
				}
			}
		}
	}
}

// pack packs the k×n matrix b (stride ldb) for packed: for at least nr/2
// columns, blocks of kcBlock rows one after the other (block p0 at offset
// p0·⌈n/nr⌉·nr), each laid out as packB lays a block; for fewer columns, bᵀ
// (n×k), the operand of the dot products.
func (g *gemmImpl) pack(dst, b []float32, ldb, k, n int) []float32 {
	if n < g.nr/2 {
		dst = grow(dst, n*k)
		transpose(dst, k, b, ldb, k, n)
		return dst
	}
	nr := g.nr
	np := (n + nr - 1) / nr
	dst = grow(dst, k*np*nr)
	for p0 := 0; p0 < k; p0 += kcBlock {
		packB(dst[p0*np*nr:], false, b, ldb, p0, min(kcBlock, k-p0), n, nr)
	}
	return dst
}

// packT is pack for B = bᵀ, b stored n×k (stride ldb): for at least nr/2
// columns the panels the blocked path packs from a transposed B, for fewer
// b itself (the dot products' operand Bᵀ), with stride k.
func (g *gemmImpl) packT(dst, b []float32, ldb, k, n int) []float32 {
	if n < g.nr/2 {
		dst = grow(dst, n*k)
		for j := 0; j < n; j++ {
			copy(dst[j*k:(j+1)*k], b[j*ldb:j*ldb+k])
		}
		return dst
	}
	nr := g.nr
	np := (n + nr - 1) / nr
	dst = grow(dst, k*np*nr)
	for p0 := 0; p0 < k; p0 += kcBlock {
		packB(dst[p0*np*nr:], true, b, ldb, p0, min(kcBlock, k-p0), n, nr)
	}
	return dst
}

// packed is sgemm (A and B not transposed) on a B packed by pack, for the
// products sgemm runs blocked or as dot products: four rows or more. It
// reports false, doing nothing, for the others, which read B as stored.
func (g *gemmImpl) packed(m, n, k int, alpha float32, a []float32, lda int, bp []float32, beta float32, c []float32, ldc int) bool {
	if m < 4 || k == 0 || alpha == 0 {
		return false
	}
	if n < g.nr/2 {
		scaleC(beta, m, n, c, ldc)
		for i := 0; i < m; i++ {
			g.dots(k, &a[i*lda], &bp[0], k, n, &c[i*ldc], alpha)
		}
		return true
	}
	ws := getWorkspace()
	g.blocked(ws, false, false, m, n, k, alpha, a, lda, nil, 0, bp, beta, c, ldc, nil, 0)
	putWorkspace(ws)
	return true
}

// packedBias is packed with alpha 1 and beta 0, followed by AddBiasReLU
// (relu) or AddBias with bias, fused into the micro-kernel's stores where
// the kernels can (a wide B of at most kcBlock rows). It reports false,
// doing nothing, where packed would.
func (g *gemmImpl) packedBias(m, n, k int, a []float32, lda int, bp, bias []float32, relu bool, c []float32, ldc int) bool {
	if !g.fused || n < g.nr/2 || k > kcBlock {
		if !g.packed(m, n, k, 1, a, lda, bp, 0, c, ldc) {
			return false
		}
		addBiasRows(m, n, c, ldc, bias, relu)
		return true
	}
	if m < 4 || k == 0 {
		return false
	}
	epi := 3
	if relu {
		epi = 2
	}
	ws := getWorkspace()
	g.blocked(ws, false, false, m, n, k, 1, a, lda, nil, 0, bp, 0, c, ldc, bias, epi)
	putWorkspace(ws)
	return true
}

// packB copies the kb×n block of op(B) starting at inner index p0 into dst as
// ⌈n/nr⌉ panels, each kb rows of nr columns, zero-padded on the right.
func packB(dst []float32, transB bool, b []float32, ldb, p0, kb, n, nr int) {
	for j0 := 0; j0 < n; j0 += nr {
		w := min(nr, n-j0)
		pan := dst[(j0/nr)*kb*nr : (j0/nr+1)*kb*nr]
		if !transB {
			for p := 0; p < kb; p++ {
				row := pan[p*nr : p*nr+nr]
				copy(row, b[(p0+p)*ldb+j0:(p0+p)*ldb+j0+w])
				clear(row[w:])
			}
			continue
		}
		transpose(pan, nr, b[j0*ldb+p0:], ldb, w, kb)
		if w < nr {
			for p := 0; p < kb; p++ {
				clear(pan[p*nr+w : p*nr+nr])
			}
		}
	}
}

// packEdgeA copies rows i0..m-1 (fewer than mr) of the kb columns of op(A)
// starting at p0 into dst, laid out p by p with mr values each, zero-padded.
func packEdgeA(dst []float32, transA bool, a []float32, lda, p0, kb, i0, m, mr int) {
	clear(dst)
	rows := m - i0
	if transA {
		for p := 0; p < kb; p++ {
			copy(dst[p*mr:p*mr+rows], a[(p0+p)*lda+i0:])
		}
		return
	}
	transpose(dst, mr, a[i0*lda+p0:], lda, rows, kb)
}
