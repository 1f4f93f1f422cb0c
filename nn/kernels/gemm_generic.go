package kernels

// sgemmGeneric is the portable Sgemm: a plain Go loop, row by row of C,
// accumulating alpha*A[i][p]*B[p][:] into the row.
func sgemmGeneric(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	for i := 0; i < m; i++ {
		row := c[i*ldc : i*ldc+n]
		if beta == 0 {
			clear(row)
		} else if beta != 1 {
			for j := range row {
				row[j] *= beta
			}
		}
		for p := 0; p < k; p++ {
			var aip float32
			if transA {
				aip = a[p*lda+i]
			} else {
				aip = a[i*lda+p]
			}
			aip *= alpha
			if aip == 0 {
				continue
			}
			if transB {
				for j := range row {
					row[j] += aip * b[j*ldb+p]
				}
			} else {
				brow := b[p*ldb : p*ldb+n]
				for j, v := range brow {
					row[j] += aip * v
				}
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
