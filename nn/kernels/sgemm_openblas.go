//go:build cgo && openblas

package kernels

import (
	"os"

	"github.com/urim-rl/urim/nn/kernels/internal/openblas"
)

// blasBackends returns the OpenBLAS back-end. Unless OPENBLAS_NUM_THREADS or
// OMP_NUM_THREADS says otherwise, OpenBLAS runs each call on one thread: the
// networks split batches over goroutines themselves, and OpenBLAS's own
// threads would compete with them for the same cores.
func blasBackends() []backend {
	if os.Getenv("OPENBLAS_NUM_THREADS") == "" && os.Getenv("OMP_NUM_THREADS") == "" {
		openblas.SetNumThreads(1)
	}
	return []backend{{name: "openblas", sgemm: sgemmOpenBLAS, simd: blasSIMD(), blockRows: 256}}
}

// sgemmOpenBLAS is Sgemm through cblas_sgemm. Sgemm has checked the sizes;
// the empty products are done here, so that no empty slice reaches C.
func sgemmOpenBLAS(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if k == 0 || alpha == 0 {
		scaleC(beta, m, n, c, ldc)
		return
	}
	openblas.Sgemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}
