// Package kernels holds the hot numeric products of the networks in package nn:
// a row-major single-precision matrix product and the element-wise loops around it.
//
// The default build is pure Go with SIMD kernels in Go assembly chosen at run
// time from the CPU's features; the build tag "openblas" routes Sgemm through
// OpenBLAS's cblas_sgemm instead. Every back-end gives the same results up to
// float rounding.
package kernels

// Sgemm computes C = alpha*op(A)*op(B) + beta*C for row-major matrices, where
// op(X) is X or its transpose. op(A) is m×k, op(B) is k×n and C is m×n; lda,
// ldb and ldc are the row strides of A, B and C as stored.
func Sgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	sgemmGeneric(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Backend names the implementation Sgemm uses in this build on this CPU.
func Backend() string { return "go" }

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
