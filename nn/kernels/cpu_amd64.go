//go:build amd64 && !purego && !noasm

package kernels

// cpuid executes CPUID with EAX=leaf and ECX=sub.
func cpuid(leaf, sub uint32) (a, b, c, d uint32)

// xgetbv0 reads XCR0, the register telling which vector states the OS saves.
func xgetbv0() (lo, hi uint32)

// Features of this CPU and OS, read once.
var (
	hasAVX2FMA bool // AVX, AVX2 and FMA, with the OS saving the YMM state
	hasAVX512  bool // AVX-512 F, with the OS saving the opmask and ZMM states
)

func init() {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return
	}
	_, _, c1, _ := cpuid(1, 0)
	const (
		fma     = 1 << 12
		osxsave = 1 << 27
		avx     = 1 << 28
	)
	if c1&(fma|osxsave|avx) != fma|osxsave|avx {
		return
	}
	xcr0, _ := xgetbv0()
	const (
		xmmYmm   = 0x6  // SSE and AVX state
		zmmState = 0xe0 // opmask, upper ZMM0-15, ZMM16-31
	)
	if xcr0&xmmYmm != xmmYmm {
		return
	}
	_, b7, _, _ := cpuid(7, 0)
	const (
		avx2    = 1 << 5
		avx512f = 1 << 16
	)
	hasAVX2FMA = b7&avx2 != 0
	hasAVX512 = hasAVX2FMA && b7&avx512f != 0 && xcr0&zmmState == zmmState
}

// archBackends returns the assembly back-ends this CPU can run, slowest first.
func archBackends() []backend {
	var bs []backend
	if hasAVX2FMA {
		bs = append(bs, backend{name: "avx2", sgemm: avx2Gemm.sgemm, simd: true, pack: avx2Gemm.pack, packT: avx2Gemm.packT, packed: avx2Gemm.packed, packedBias: avx2Gemm.packedBias})
	}
	if hasAVX512 {
		bs = append(bs, backend{name: "avx512", sgemm: avx512Gemm.sgemm, simd: true, pack: avx512Gemm.pack, packT: avx512Gemm.packT, packed: avx512Gemm.packed, packedBias: avx512Gemm.packedBias})
	}
	return bs
}

// blasSIMD reports whether the element-wise kernels may use assembly beside
// a non-assembly Sgemm back-end (OpenBLAS).
func blasSIMD() bool { return hasAVX2FMA }
