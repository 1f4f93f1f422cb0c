package kernels

// sgemmGeneric is the portable Sgemm, in plain Go. For B not transposed it
// adds four rows of B at a time into a row of C (one pass over the row per
// four products); for B transposed it takes dot products with four partial sums.
func sgemmGeneric(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	scaleC(beta, m, n, c, ldc)
	if k == 0 || alpha == 0 {
		return
	}
	opA := func(i, p int) float32 {
		if transA {
			return a[p*lda+i]
		}
		return a[i*lda+p]
	}
	for i := 0; i < m; i++ {
		row := c[i*ldc : i*ldc+n]
		if transB {
			for j := range row {
				brow := b[j*ldb : j*ldb+k]
				var s0, s1, s2, s3 float32
				p := 0
				if !transA {
					arow := a[i*lda : i*lda+k]
					for ; p+4 <= k; p += 4 {
						s0 += arow[p] * brow[p]
						s1 += arow[p+1] * brow[p+1]
						s2 += arow[p+2] * brow[p+2]
						s3 += arow[p+3] * brow[p+3]
					}
				}
				for ; p < k; p++ {
					s0 += opA(i, p) * brow[p]
				}
				row[j] += alpha * ((s0 + s1) + (s2 + s3))
			}
			continue
		}
		p := 0
		for ; p+4 <= k; p += 4 {
			a0, a1, a2, a3 := alpha*opA(i, p), alpha*opA(i, p+1), alpha*opA(i, p+2), alpha*opA(i, p+3)
			b0 := b[p*ldb : p*ldb+n]
			b1 := b[(p+1)*ldb : (p+1)*ldb+n]
			b2 := b[(p+2)*ldb : (p+2)*ldb+n]
			b3 := b[(p+3)*ldb : (p+3)*ldb+n]
			for j := range row {
				row[j] += a0*b0[j] + a1*b1[j] + a2*b2[j] + a3*b3[j]
			}
		}
		for ; p < k; p++ {
			ap := alpha * opA(i, p)
			for j, v := range b[p*ldb : p*ldb+n] {
				row[j] += ap * v
			}
		}
	}
}

// scaleC sets C = beta*C, clearing it (NaNs included) when beta is 0.
func scaleC(beta float32, m, n int, c []float32, ldc int) {
	if beta == 1 {
		return
	}
	for i := 0; i < m; i++ {
		row := c[i*ldc : i*ldc+n]
		if beta == 0 {
			clear(row)
		} else {
			Scale(beta, row)
		}
	}
}
