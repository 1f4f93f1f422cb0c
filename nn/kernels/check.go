package kernels

import (
	"fmt"
	"math"
)

// checkName is the back-end that cross-checks the default one.
const checkName = "check"

// checkBackend returns the "check" back-end: every Sgemm runs on fast and is
// then compared with a float64 reference computed from the same inputs; a
// result outside the float32 rounding bound panics with the element, both
// values and the bound. The bound is the classic one for a sum of k
// products, 2·(k+4)·2⁻²⁴·(|alpha|·Σ|a·b| + |beta·c|) (twice the worst case of
// k roundings in the sum and a few for alpha and beta). It costs a float64
// product per call and is meant for debugging: URIM_KERNELS=check.
func checkBackend(fast backend) backend {
	return backend{
		name: checkName,
		simd: fast.simd,
		// int8 products are exact in int32: nothing to cross-check
		ymmOnly: fast.ymmOnly,
		q8:      fast.q8,
		sgemm: func(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
			ws := getWorkspace()
			defer putWorkspace(ws)
			ws.check = grow(ws.check, m*n)
			c0 := ws.check
			for i := 0; i < m; i++ {
				copy(c0[i*n:i*n+n], c[i*ldc:i*ldc+n])
			}
			fast.sgemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
			const u = 1.0 / (1 << 24)
			for i := 0; i < m; i++ {
				for j := 0; j < n; j++ {
					var s, sa float64
					for p := 0; p < k; p++ {
						var x, y float64
						if transA {
							x = float64(a[p*lda+i])
						} else {
							x = float64(a[i*lda+p])
						}
						if transB {
							y = float64(b[j*ldb+p])
						} else {
							y = float64(b[p*ldb+j])
						}
						s += x * y
						sa += math.Abs(x * y)
					}
					want := float64(alpha) * s
					bound := math.Abs(float64(alpha)) * sa
					if beta != 0 {
						want += float64(beta) * float64(c0[i*n+j])
						bound += math.Abs(float64(beta) * float64(c0[i*n+j]))
					}
					tol := 2*float64(k+4)*u*bound + 1e-30
					got := float64(c[i*ldc+j])
					if math.IsNaN(want) || math.IsInf(want, 0) {
						continue // non-finite inputs: nothing to compare
					}
					if !(math.Abs(got-want) <= tol) {
						panic(fmt.Sprintf("kernels: check: back-end %s gives C[%d][%d] = %g for a %d×%d×%d product (transA=%v, transB=%v), the float64 reference %g (bound %g)",
							fast.name, i, j, got, m, n, k, transA, transB, want, tol))
					}
				}
			}
		},
	}
}
