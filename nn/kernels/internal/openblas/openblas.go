//go:build cgo && openblas

package openblas

/*
#cgo LDFLAGS: -lopenblas
#include <cblas.h>

// Declared here as well, in case cblas.h comes from another BLAS.
void openblas_set_num_threads(int);
*/
import "C"

import "math"

// SetNumThreads sets the number of threads OpenBLAS runs each call on.
func SetNumThreads(n int) { C.openblas_set_num_threads(C.int(n)) }

// Sgemm calls cblas_sgemm in row-major order: C = alpha*op(A)*op(B) + beta*C.
// The caller has checked the sizes, and m, n and k are positive (so that the
// slices are not empty). It panics when a size exceeds OpenBLAS's 32-bit integers.
func Sgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	for _, v := range [...]int{m, n, k, lda, ldb, ldc} {
		if v > math.MaxInt32 {
			panic("kernels: Sgemm: a size or stride exceeds OpenBLAS's 32-bit integers")
		}
	}
	ta, tb := uint32(C.CblasNoTrans), uint32(C.CblasNoTrans)
	if transA {
		ta = C.CblasTrans
	}
	if transB {
		tb = C.CblasTrans
	}
	C.cblas_sgemm(C.CblasRowMajor, C.enum_CBLAS_TRANSPOSE(ta), C.enum_CBLAS_TRANSPOSE(tb), C.int(m), C.int(n), C.int(k), C.float(alpha),
		(*C.float)(&a[0]), C.int(lda), (*C.float)(&b[0]), C.int(ldb), C.float(beta), (*C.float)(&c[0]), C.int(ldc))
}
