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
	backend string    // the back-end packed for; "" when data holds nothing
	data    []float32 // the packed B, reused by the next Pack
}

// Pack packs the k×n matrix b (row stride ldb) for the back-end in use,
// reusing p's storage: it allocates only when p's storage is short. It
// panics on negative sizes, a stride shorter than n or b too short.
func (p *PackedB) Pack(k, n int, b []float32, ldb int) {
	if k < 0 || n < 0 {
		panic(fmt.Sprintf("kernels: PackedB.Pack with negative size k=%d n=%d", k, n))
	}
	checkMatrix("B", k, n, b, ldb)
	p.k, p.n, p.src, p.ldb, p.backend = k, n, b, ldb, ""
	if cur.pack == nil || k == 0 || n == 0 {
		return
	}
	if d := cur.pack(p.data[:0], b, ldb, k, n); d != nil {
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
	Sgemm(false, false, m, n, k, alpha, a, lda, p.src, p.ldb, beta, c, ldc)
}
