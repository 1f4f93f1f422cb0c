package kernels

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestCheckBackendPassesGoodProducts(t *testing.T) {
	saved := Backend()
	defer Use(saved)
	if err := Use("check"); err != nil {
		t.Fatal(err)
	}
	if Backend() != "check" {
		t.Fatalf("Backend() = %s after Use(check)", Backend())
	}
	rng := rand.New(rand.NewPCG(23, 24))
	for range 40 {
		checkGemm(t, rng, gemmCase{
			transA: rng.IntN(2) == 1, transB: rng.IntN(2) == 1,
			m: mSizes[rng.IntN(len(mSizes))], n: nSizes[rng.IntN(len(nSizes))], k: kSizes[rng.IntN(len(kSizes))],
			alpha: 1.5, beta: 0.5, padC: 2,
		})
	}
}

func TestCheckBackendCatchesAWrongProduct(t *testing.T) {
	broken := checkBackend(backend{name: "broken", sgemm: func(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
		sgemmGeneric(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		c[ldc+1] += 1e-3 // one element off by far more than rounding
	}})
	rng := rand.New(rand.NewPCG(25, 26))
	a, b, c := randSlice(rng, 3*4), randSlice(rng, 4*5), make([]float32, 3*5)
	defer func() {
		r, _ := recover().(string)
		if !strings.Contains(r, "check: back-end broken gives C[1][1]") {
			t.Fatalf("want a panic naming the back-end and C[1][1], got %q", r)
		}
	}()
	broken.sgemm(false, false, 3, 5, 4, 1, a, 4, b, 5, 0, c, 5)
}
