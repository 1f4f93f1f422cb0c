// Package kernels holds the hot numeric products of the networks in package nn:
// a row-major single-precision matrix product and the element-wise loops around it.
//
// # Back-ends
//
// Sgemm runs on one of several back-ends, all giving the same results up to
// float rounding:
//
//   - "generic": plain Go, on every platform and under the build tags purego and noasm;
//   - "avx2": Go assembly for AVX2 and FMA (6×16 register tiles);
//   - "avx512": Go assembly for AVX-512F (8×32 register tiles);
//   - "avxvnni": avx2, with the int8 products (Q8Gemm) on AVX-VNNI (VEX-encoded VPDPBUSD on YMM registers);
//   - "avx512vnni": avx512, with the int8 products on AVX-512 VNNI (VPDPBUSD on ZMM registers);
//   - "avx512amx": avx512, with the int8 products on the AMX tiles (TDPBUSD, blocks of 16 rows; the
//     last rows and the shapes AMX does not take on AVX-512 VNNI), where Linux grants the tiles' state;
//   - "openblas": OpenBLAS's cblas_sgemm through cgo, in builds with the tag openblas.
//
// The int8 products of the other back-ends run in plain Go, with the same
// result bit for bit (q8.go). The CPU's features come from golang.org/x/sys/cpu.
//
// The fastest one present is chosen at start-up from the CPU's features (and
// the build tags); the environment variable URIM_KERNELS (see EnvVar) forces
// another, and Use switches at run time. Backend names the one in use.
//
// # How the assembly back-ends run a product
//
// Products of four rows or more are blocked: op(B) is packed into panels of
// NR columns (or read in place when it is not transposed and C has at most
// 256 rows), op(A) is read in place, and a register-tile micro-kernel adds
// each MR×NR tile of C (with beta 0 it stores over C without reading it).
// Products of one to three rows run row by row with kernels that keep up to
// 256 columns of the row in registers (the batch-1 forward pass). Narrow
// products (fewer than NR/2 columns) run as dot products, except that with A
// transposed and at most MR columns (the weight gradient Xᵀ·dY of a small
// head) the micro-kernel computes Cᵀ, so that X is read once. A B used for
// many products (the weights, during inference) can be packed once into a
// PackedB: SgemmPacked then reads its panels (or, for narrow B, its
// transpose) without packing or strided reads, with the same result bit for
// bit; SgemmPackedBias also adds a bias row and a ReLU, in the AVX-512
// micro-kernel's stores (so that C is written once), as AddBias or
// AddBiasReLU would after the product. Buffers come from a free list: nothing is allocated once
// warm, and concurrent calls each take their own.
//
// The element-wise kernels (AddBias, ReLU, ColSum, Axpy, AdamW, ...) use AVX2
// assembly whenever the back-end is not "generic" and the CPU has AVX2 and FMA.
//
// Every function here panics when its slices are too short for the sizes it
// is given: that is a bug in the caller, never a property of the data. No
// function allocates once its internal buffers are warm.
package kernels

import (
	"fmt"
	"os"
	"strings"
)

// EnvVar names the environment variable that forces a back-end at start-up:
// one of the names Backends lists ("generic", "avx2", "avxvnni", "avx512",
// "avx512vnni", "avx512amx", "openblas"),
// or "check", which runs the default back-end and compares every product with
// a float64 reference, panicking on a result outside float32 rounding (slow:
// for debugging).
// An unknown or unavailable name leaves the default back-end in place and is
// reported by EnvError, with a message naming the back-ends this build and CPU
// offer; commands check it at start-up and refuse to run, so that a benchmark
// never silently measures another path.
const EnvVar = "URIM_KERNELS"

// backend is one implementation of Sgemm.
type backend struct {
	name  string
	sgemm func(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int)
	// simd reports whether the element-wise kernels use assembly under this back-end.
	simd bool
	// ymmOnly keeps the element-wise kernels on AVX2 on a CPU with AVX-512
	// (avx2, avxvnni).
	ymmOnly bool
	// q8 runs the int8 products (Q8Gemm) on one block of columns; nil:
	// q8Generic.
	q8 q8Func
	// pack, when set, packs a k×n row-major B (stride ldb) for packed
	// products into dst (resized) and returns it, or returns nil when this
	// back-end gains nothing from packing that shape; packed computes
	// C = alpha*A*B + beta*C from such a pack, or reports false (doing
	// nothing) for a product it does not take packed (see PackedB).
	pack func(dst, b []float32, ldb, k, n int) []float32
	// packT is pack for B = bᵀ, b stored n×k (stride ldb).
	packT  func(dst, b []float32, ldb, k, n int) []float32
	packed func(m, n, k int, alpha float32, a []float32, lda int, bp []float32, beta float32, c []float32, ldc int) bool
	// blockRows is the number of rows per block BlockRows advises (0:
	// defaultBlockRows).
	blockRows int
	// packedBias is packed with alpha 1 and beta 0 followed by
	// AddBiasReLU (relu) or AddBias, in one pass where it can.
	packedBias func(m, n, k int, a []float32, lda int, bp, bias []float32, relu bool, c []float32, ldc int) bool
}

var (
	// backends lists the back-ends of this build on this CPU, slowest first.
	backends []backend
	// checker is the "check" back-end, wrapping the default one.
	checker backend
	// cur is the back-end in use.
	cur backend
	// envErr is the error of the back-end EnvVar named at start-up.
	envErr error
)

func init() {
	backends = append([]backend{{name: "generic", sgemm: sgemmGeneric}}, archBackends()...)
	if blas := blasBackends(); len(blas) > 0 {
		// OpenBLAS has no int8 product: it takes the fastest assembly one.
		for i := range blas {
			blas[i].q8 = backends[len(backends)-1].q8
		}
		backends = append(backends, blas...)
	}
	cur = backends[len(backends)-1]
	checker = checkBackend(cur)
	if name := os.Getenv(EnvVar); name != "" {
		if err := Use(name); err != nil {
			envErr = fmt.Errorf("%w (set by %s)", err, EnvVar)
		}
	}
}

// EnvError returns the error of the back-end that EnvVar named at start-up
// (unknown, or not available in this build or on this CPU), or nil when EnvVar
// is unset or named one that is now in use. The default back-end stays in use
// after such an error; a command should report it and stop.
func EnvError() error { return envErr }

// Sgemm computes C = alpha*op(A)*op(B) + beta*C for row-major matrices, where
// op(X) is X or its transpose. op(A) is m×k, op(B) is k×n and C is m×n; lda,
// ldb and ldc are the row strides of A, B and C as stored (A is stored m×k, or
// k×m when transA; B is stored k×n, or n×k when transB). When beta is 0, C is
// overwritten without being read. It panics on negative sizes, on a stride
// shorter than its row, or on a slice too short for its matrix.
func Sgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if m < 0 || n < 0 || k < 0 {
		panic(fmt.Sprintf("kernels: Sgemm with negative size m=%d n=%d k=%d", m, n, k))
	}
	ra, ca := m, k
	if transA {
		ra, ca = k, m
	}
	rb, cb := k, n
	if transB {
		rb, cb = n, k
	}
	checkMatrix("A", ra, ca, a, lda)
	checkMatrix("B", rb, cb, b, ldb)
	checkMatrix("C", m, n, c, ldc)
	if m == 0 || n == 0 {
		return
	}
	cur.sgemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// checkMatrix panics unless s holds a rows×cols row-major matrix of stride ld.
func checkMatrix(name string, rows, cols int, s []float32, ld int) {
	if ld < cols {
		panic(fmt.Sprintf("kernels: Sgemm: stride of %s is %d, shorter than its %d columns", name, ld, cols))
	}
	if rows > 0 && cols > 0 && len(s) < (rows-1)*ld+cols {
		panic(fmt.Sprintf("kernels: Sgemm: %s has %d elements, a %d×%d matrix of stride %d needs %d", name, len(s), rows, cols, ld, (rows-1)*ld+cols))
	}
}

// defaultBlockRows is BlockRows for the back-ends that do not set it.
const defaultBlockRows = 128

// BlockRows returns the number of rows per block for a caller that cuts a
// batch into blocks of rows, one product per block (package nn's networks):
// 128 for the assembly back-ends, whose products read packed weights, and
// 256 for OpenBLAS, which packs both operands (and clears C) on every call
// and so gains from fewer, larger products. A caller keeps the value it
// read for a given set of buffers, so that its results do not change with
// a later Use.
func BlockRows() int {
	if cur.blockRows > 0 {
		return cur.blockRows
	}
	return defaultBlockRows
}

// Backend names the implementation Sgemm uses now: "generic", "avx2",
// "avxvnni", "avx512", "avx512vnni", "avx512amx", "openblas" or "check".
func Backend() string { return cur.name }

// Backends lists the back-ends this build offers on this CPU, slowest first;
// the last one is the default.
func Backends() []string {
	names := make([]string, len(backends))
	for i, b := range backends {
		names[i] = b.name
	}
	return names
}

// Use switches Sgemm and the element-wise kernels to the named back-end, one
// of Backends or "check" (the default back-end, each product compared with a
// float64 reference: a debugging aid, see EnvVar). It returns an error naming the available ones when name is not
// among them. Use is meant for start-up, tests and benchmarks: it must not run
// concurrently with any other function of this package.
func Use(name string) error {
	if name == checkName {
		cur = checker
		return nil
	}
	for _, b := range backends {
		if b.name == name {
			cur = b
			return nil
		}
	}
	return fmt.Errorf("kernels: back-end %q is not available in this build on this CPU (available: %s, or check)", name, strings.Join(Backends(), ", "))
}
