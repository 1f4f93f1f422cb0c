//go:build amd64 && !purego && !noasm

package kernels

import "golang.org/x/sys/cpu"

// Features of this CPU and OS, read once by golang.org/x/sys/cpu (which
// checks that the OS saves the vector states, XCR0, as well as the CPUID
// bits).
var (
	hasAVX2FMA = cpu.X86.HasAVX && cpu.X86.HasAVX2 && cpu.X86.HasFMA // with the YMM state saved
	hasAVX512  = hasAVX2FMA && cpu.X86.HasAVX512F                    // with the opmask and ZMM states saved
	// hasAVX512VNNI: VPDPBUSD on ZMM registers (the avx512vnni back-end's
	// int8 products).
	hasAVX512VNNI = hasAVX512 && cpu.X86.HasAVX512VNNI
	// hasAVXVNNI: VPDPBUSD in its VEX encoding on YMM registers (the
	// avxvnni back-end's int8 products).
	hasAVXVNNI = hasAVX2FMA && cpu.X86.HasAVXVNNI
	// hasAMX: the AMX tiles' int8 products (TDPBUSD; the avx512amx
	// back-end), with the OS's leave to use their state (amxPermitted).
	hasAMX = hasAVX512VNNI && cpu.X86.HasAMXTile && cpu.X86.HasAMXInt8 && amxPermitted()
)

// archBackends returns the assembly back-ends this CPU can run, slowest first.
func archBackends() []backend {
	var bs []backend
	avx2 := backend{name: "avx2", sgemm: avx2Gemm.sgemm, simd: true, ymmOnly: true, pack: avx2Gemm.pack, packT: avx2Gemm.packT, packed: avx2Gemm.packed, packedBias: avx2Gemm.packedBias, q8: q8Generic}
	avx512 := backend{name: "avx512", sgemm: avx512Gemm.sgemm, simd: true, pack: avx512Gemm.pack, packT: avx512Gemm.packT, packed: avx512Gemm.packed, packedBias: avx512Gemm.packedBias, q8: q8Generic}
	if hasAVX2FMA {
		bs = append(bs, avx2)
	}
	if hasAVXVNNI {
		// AVX2's float kernels, AVX-VNNI's int8 products
		b := avx2
		b.name, b.q8 = "avxvnni", q8AVXVNNI
		bs = append(bs, b)
	}
	if hasAVX512 {
		bs = append(bs, avx512)
	}
	if hasAVX512VNNI {
		b := avx512
		b.name, b.q8 = "avx512vnni", q8AVX512VNNI
		bs = append(bs, b)
	}
	if hasAMX {
		// AVX-512's float kernels, the int8 products on the AMX tiles
		b := avx512
		b.name, b.q8 = "avx512amx", q8AMXGemm
		bs = append(bs, b)
	}
	return bs
}

// blasSIMD reports whether the element-wise kernels may use assembly beside
// a non-assembly Sgemm back-end (OpenBLAS).
func blasSIMD() bool { return hasAVX2FMA }
