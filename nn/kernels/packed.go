package kernels

import "fmt"

// PackedB is the right operand B of products C = alpha·A·B + beta·C (B
// stored k×n, row-major, not transposed) packed once into the layout the
// back-end's micro-kernels read: for the assembly back-ends, panels of NR
// columns (wide B) or Bᵀ (B of fewer than NR/2 columns, which run as dot
// products). A network's inference multiplies many batches by the same
// weights, so it packs each weight matrix once per change of the weights
// instead of once per product (see SgemmPacked). The zero value is a 0×0
// matrix; Pack fills it.
//
// A PackedB keeps a reference to the B it was packed from, for the products
// it does not take packed (fewer than four rows, or a back-end switched by
// Use since packing): B must not change while the pack is in use; pack it
// again after any change.
type PackedB struct {
	k, n    int
	src     []float32 // B as given
	ldb     int
	trans   bool      // src holds Bᵀ (PackTransposed)
	backend string    // the back-end packed for; "" when data holds nothing
	data    []float32 // the packed B, reused by the next Pack
}

// Pack packs the k×n matrix b (row stride ldb) for the back-end in use,
// reusing p's storage: it allocates only when p's storage is short. It
// panics on negative sizes, a stride shorter than n or b too short.
func (p *PackedB) Pack(k, n int, b []float32, ldb int) { p.pack("Pack", k, n, b, ldb, false) }

// PackTransposed packs B = bᵀ, the transpose of the n×k matrix b (row
// stride ldb), as Pack packs a B stored k×n: the products on p then give,
// bit for bit, Sgemm's result with transB set on b (the input gradient
// dY·Wᵀ of a layer, say, with W packed once per step). It panics as Pack
// does.
func (p *PackedB) PackTransposed(k, n int, b []float32, ldb int) {
	p.pack("PackTransposed", k, n, b, ldb, true)
}

// pack implements Pack and PackTransposed (trans: b holds Bᵀ, n×k).
func (p *PackedB) pack(what string, k, n int, b []float32, ldb int, trans bool) {
	if k < 0 || n < 0 {
		panic(fmt.Sprintf("kernels: PackedB.%s with negative size k=%d n=%d", what, k, n))
	}
	pack := cur.pack
	if trans {
		checkMatrix("B", n, k, b, ldb)
		pack = cur.packT
	} else {
		checkMatrix("B", k, n, b, ldb)
	}
	p.k, p.n, p.src, p.ldb, p.trans, p.backend = k, n, b, ldb, trans, ""
	if pack == nil || k == 0 || n == 0 {
		return
	}
	if d := pack(p.data[:0], b, ldb, k, n); d != nil {
		p.data, p.backend = d, cur.name
	}
}

// Dims returns the k×n shape of the packed B.
func (p *PackedB) Dims() (k, n int) { return p.k, p.n }

// SgemmPacked computes C = alpha·A·B + beta·C, with A m×k (row stride lda),
// C m×n (row stride ldc) and B the k×n matrix packed in p. Its result is
// bit for bit that of Sgemm(false, false, m, n, k, alpha, a, lda, B, ldb,
// beta, c, ldc) on the B p was packed from (the same kernels add the same
// products in the same order; only the reads of B differ). When beta is 0,
// C is overwritten without being read. It panics on a negative m or when a
// slice is too short for its matrix.
func SgemmPacked(m int, alpha float32, a []float32, lda int, p *PackedB, beta float32, c []float32, ldc int) {
	if m < 0 {
		panic(fmt.Sprintf("kernels: SgemmPacked with negative size m=%d", m))
	}
	n, k := p.n, p.k
	checkMatrix("A", m, k, a, lda)
	checkMatrix("C", m, n, c, ldc)
	if m == 0 || n == 0 {
		return
	}
	if p.backend != "" && p.backend == cur.name && cur.packed(m, n, k, alpha, a, lda, p.data, beta, c, ldc) {
		return
	}
	Sgemm(false, p.trans, m, n, k, alpha, a, lda, p.src, p.ldb, beta, c, ldc)
}

// SgemmPackedBias computes C = act(A·B + bias), with A m×k (row stride
// lda), C m×n (row stride ldc), B the k×n matrix packed in p, bias n
// values added to every row, and act a ReLU when relu is set, the identity
// otherwise. Its result is bit for bit that of SgemmPacked (alpha 1, beta
// 0) followed by AddBiasReLU or AddBias on C's rows, which it does in the
// micro-kernel's stores where the back-end can (the AVX-512 kernel, on a
// wide B of at most 256 rows), so that C is written once. It panics when a
// slice is too short for its matrix or bias is not n long.
func SgemmPackedBias(m int, a []float32, lda int, p *PackedB, bias []float32, relu bool, c []float32, ldc int) {
	n, k := p.n, p.k
	if len(bias) != n {
		panic(fmt.Sprintf("kernels: SgemmPackedBias: %d bias values for %d columns", len(bias), n))
	}
	if m < 0 {
		panic(fmt.Sprintf("kernels: SgemmPackedBias with negative size m=%d", m))
	}
	checkMatrix("A", m, k, a, lda)
	checkMatrix("C", m, n, c, ldc)
	if m == 0 || n == 0 {
		return
	}
	if p.backend != "" && p.backend == cur.name && cur.packedBias(m, n, k, a, lda, p.data, bias, relu, c, ldc) {
		return
	}
	SgemmPacked(m, 1, a, lda, p, 0, c, ldc)
	addBiasRows(m, n, c, ldc, bias, relu)
}

// addBiasRows runs AddBiasReLU (relu) or AddBias on each row of the m×n
// matrix C (row stride ldc), or on all of them at once when they are
// contiguous.
func addBiasRows(m, n int, c []float32, ldc int, bias []float32, relu bool) {
	f := AddBias
	if relu {
		f = AddBiasReLU
	}
	if ldc == n {
		f(c[:m*n], bias)
		return
	}
	for i := 0; i < m; i++ {
		f(c[i*ldc:i*ldc+n], bias)
	}
}
