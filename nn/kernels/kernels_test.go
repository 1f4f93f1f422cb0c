package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// forEachBackend runs f once under every back-end of this build, restoring
// the default afterwards.
func forEachBackend(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	saved := Backend()
	defer Use(saved)
	for _, name := range Backends() {
		if err := Use(name); err != nil {
			t.Fatal(err)
		}
		t.Run(name, f)
	}
}

// gemmCase is one Sgemm call: sizes, transposes, scalars and the extra
// stride beyond each stored row.
type gemmCase struct {
	transA, transB bool
	m, n, k        int
	alpha, beta    float32
	padA, padB     int
	padC           int
}

func (c gemmCase) String() string {
	t := func(b bool) string {
		if b {
			return "T"
		}
		return "N"
	}
	return fmt.Sprintf("%s%s m=%d n=%d k=%d alpha=%g beta=%g pads=%d,%d,%d", t(c.transA), t(c.transB), c.m, c.n, c.k, c.alpha, c.beta, c.padA, c.padB, c.padC)
}

// guard fills the gaps between C's rows and the tail after it; Sgemm must leave it alone.
const guard = -12345.5

// checkGemm runs one case on the back-end in use and compares it with a
// float64 reference. The bound is the classic one for a sum of k products
// in float32, |error| <= (k+4)·u·(|alpha|·Σ|a·b| + |beta·c|) with u = 2⁻²⁴
// (k roundings in the sum, a few more for alpha and beta), plus 1e-30 so
// that exact zeros compare.
func checkGemm(t *testing.T, rng *rand.Rand, tc gemmCase) {
	t.Helper()
	ra, ca := tc.m, tc.k
	if tc.transA {
		ra, ca = tc.k, tc.m
	}
	rb, cb := tc.k, tc.n
	if tc.transB {
		rb, cb = tc.n, tc.k
	}
	lda, ldb, ldc := ca+tc.padA, cb+tc.padB, tc.n+tc.padC
	a := randSlice(rng, max(0, (ra-1)*lda+ca))
	b := randSlice(rng, max(0, (rb-1)*ldb+cb))
	c := make([]float32, tc.m*ldc+7)
	for i := range c {
		c[i] = guard
	}
	c0 := make([]float32, len(c))
	for i := 0; i < tc.m; i++ {
		for j := 0; j < tc.n; j++ {
			if tc.beta == 0 {
				c[i*ldc+j] = float32(math.NaN()) // beta 0 must not read C
			} else {
				c[i*ldc+j] = rng.Float32()*2 - 1
			}
		}
	}
	copy(c0, c)
	Sgemm(tc.transA, tc.transB, tc.m, tc.n, tc.k, tc.alpha, a, max(lda, 1), b, max(ldb, 1), tc.beta, c, max(ldc, 1))
	opA := func(i, p int) float64 {
		if tc.transA {
			return float64(a[p*lda+i])
		}
		return float64(a[i*lda+p])
	}
	opB := func(p, j int) float64 {
		if tc.transB {
			return float64(b[j*ldb+p])
		}
		return float64(b[p*ldb+j])
	}
	const u = 1.0 / (1 << 24)
	for i := 0; i < tc.m; i++ {
		for j := 0; j < tc.n; j++ {
			var s, sa float64
			for p := 0; p < tc.k; p++ {
				s += opA(i, p) * opB(p, j)
				sa += math.Abs(opA(i, p) * opB(p, j))
			}
			want := float64(tc.alpha) * s
			bound := math.Abs(float64(tc.alpha)) * sa
			if tc.beta != 0 {
				want += float64(tc.beta) * float64(c0[i*ldc+j])
				bound += math.Abs(float64(tc.beta) * float64(c0[i*ldc+j]))
			}
			tol := float64(tc.k+4)*u*bound + 1e-30
			got := float64(c[i*ldc+j])
			if !(math.Abs(got-want) <= tol) {
				t.Fatalf("%v: C[%d][%d] = %g, want %g (tolerance %g)", tc, i, j, got, want, tol)
			}
		}
	}
	for i := range c {
		if i/ldc < tc.m && i%ldc < tc.n {
			continue
		}
		if c[i] != guard {
			t.Fatalf("%v: Sgemm wrote outside C at index %d", tc, i)
		}
	}
}

func randSlice(rng *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = rng.Float32()*2 - 1
	}
	return s
}

// sizes hits every tail of both tiles (MR 6 and 8, NR 16 and 32, the gemv
// widths 8, 16, 64 and 128) and both sides of the kc block of 256.
var (
	mSizes = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 17, 31, 48, 64, 65, 100, 250}
	nSizes = []int{1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 256, 300}
	kSizes = []int{0, 1, 2, 3, 7, 16, 17, 100, 256, 257, 300}
)

func TestSgemmAgreesWithReference(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(1, 2))
		alphas := []float32{1, -0.5, 0, 2}
		betas := []float32{0, 1, 0.25}
		cases := 400
		if testing.Short() {
			cases = 100
		}
		for range cases {
			tc := gemmCase{
				transA: rng.IntN(2) == 1, transB: rng.IntN(2) == 1,
				m: mSizes[rng.IntN(len(mSizes))], n: nSizes[rng.IntN(len(nSizes))], k: kSizes[rng.IntN(len(kSizes))],
				alpha: alphas[rng.IntN(len(alphas))], beta: betas[rng.IntN(len(betas))],
				padA: rng.IntN(3) * rng.IntN(5), padB: rng.IntN(3) * rng.IntN(5), padC: rng.IntN(3) * rng.IntN(5),
			}
			checkGemm(t, rng, tc)
		}
	})
}

// TestSgemmNetworkShapes checks the products of a 3×256 MLP on the compact
// encoding (input 17), forward and backward, on every back-end.
func TestSgemmNetworkShapes(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(3, 4))
		for _, batch := range []int{1, 64, 130} {
			for _, in := range []int{17, 256} {
				checkGemm(t, rng, gemmCase{m: batch, n: 256, k: in, alpha: 1})                               // forward
				checkGemm(t, rng, gemmCase{transA: true, m: in, n: 256, k: batch, alpha: 1, beta: 1})        // weight gradient
				checkGemm(t, rng, gemmCase{transB: true, m: batch, n: in, k: 256, alpha: 1})                 // input gradient
				checkGemm(t, rng, gemmCase{transB: true, m: batch, n: 256, k: in, alpha: 1, padB: 3})        // weights stored out×in
				checkGemm(t, rng, gemmCase{transA: true, transB: true, m: in, n: 256, k: batch, alpha: 0.5}) // both
			}
		}
	})
}

func TestSgemmEmpty(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := []float32{1, 2, 3, 4}
		Sgemm(false, false, 2, 2, 0, 1, nil, 0, nil, 2, 0.5, c, 2)
		if c[0] != 0.5 || c[3] != 2 {
			t.Fatalf("k=0 must scale C by beta, got %v", c)
		}
		Sgemm(false, false, 0, 2, 3, 1, nil, 3, make([]float32, 6), 2, 0, nil, 2)
	})
}

func TestSgemmPanicsOnShortSlices(t *testing.T) {
	for _, f := range []func(){
		func() {
			Sgemm(false, false, 2, 2, 2, 1, make([]float32, 3), 2, make([]float32, 4), 2, 0, make([]float32, 4), 2)
		},
		func() {
			Sgemm(false, false, 2, 2, 2, 1, make([]float32, 4), 1, make([]float32, 4), 2, 0, make([]float32, 4), 2)
		},
		func() { Sgemm(false, false, -1, 2, 2, 1, nil, 2, nil, 2, 0, nil, 2) },
		func() {
			Sgemm(false, true, 2, 3, 2, 1, make([]float32, 4), 2, make([]float32, 5), 2, 0, make([]float32, 6), 3)
		},
	} {
		func() {
			defer func() {
				r := recover()
				if s, ok := r.(string); !ok || !strings.HasPrefix(s, "kernels: ") {
					t.Errorf("want a kernels panic, got %v", r)
				}
			}()
			f()
		}()
	}
}

func TestUseUnknownBackend(t *testing.T) {
	saved := Backend()
	err := Use("tpu")
	if err == nil || !strings.Contains(err.Error(), "generic") {
		t.Fatalf("Use(tpu) = %v, want an error listing the back-ends", err)
	}
	if Backend() != saved {
		t.Fatalf("a failed Use changed the back-end to %s", Backend())
	}
}

func TestSgemmAllocatesNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	a, b, c := randSlice(rng, 300*300), randSlice(rng, 300*300), make([]float32, 300*300)
	forEachBackend(t, func(t *testing.T) {
		for _, tc := range []gemmCase{
			{m: 1, n: 256, k: 17}, {m: 2, n: 256, k: 256, transB: true}, {m: 64, n: 3, k: 256},
			{m: 64, n: 256, k: 256}, {m: 67, n: 100, k: 300, transA: true, transB: true},
		} {
			call := func() { Sgemm(tc.transA, tc.transB, tc.m, tc.n, tc.k, 1, a, 300, b, 300, 0, c, 300) }
			call()
			runtime.GC() // the workspaces must survive collections
			runtime.GC()
			allocs := testing.AllocsPerRun(20, call)
			if allocs != 0 {
				t.Errorf("%v: %v allocations per call", tc, allocs)
			}
		}
	})
}

// TestSgemmConcurrent runs products from several goroutines at once (each
// takes its own workspace) and checks each against the same product run alone.
func TestSgemmConcurrent(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(7, 7))
		const m, n, k, workers = 70, 90, 260, 4
		a, b := randSlice(rng, m*k), randSlice(rng, k*n)
		want := make([]float32, m*n)
		Sgemm(false, true, m, n, k, 1, a, k, b, k, 0, want, n)
		var wg sync.WaitGroup
		got := make([][]float32, workers)
		for w := range got {
			got[w] = make([]float32, m*n)
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 20 {
					Sgemm(false, true, m, n, k, 1, a, k, b, k, 0, got[w], n)
				}
			}()
		}
		wg.Wait()
		for w := range got {
			for i := range want {
				if got[w][i] != want[i] {
					t.Fatalf("worker %d: C[%d] = %g, want %g", w, i, got[w][i], want[i])
				}
			}
		}
	})
}
