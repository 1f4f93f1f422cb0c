// Go assembly for the layer-norm kernels of package kernels, maintained by
// hand like elementwise_amd64.s; layernorm.go gives each formula in Go. The
// rows have n columns, a multiple of 8.

//go:build amd64 && !purego && !noasm

#include "textflag.h"

// func layerNormAVX2(y, x, gain, bias, mean, rstd *float32, rows, n int, fn float32, eps float64, relu int)
// Per row: the sum and the sum of squared deviations over four YMM
// accumulators (32 columns a step, then 8), then the output in one pass.
// Requires: AVX, AVX2, FMA3
TEXT ·layerNormAVX2(SB), NOSPLIT, $0-88
	MOVQ y+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ gain+16(FP), R8
	MOVQ bias+24(FP), R9
	MOVQ mean+32(FP), R10
	MOVQ rstd+40(FP), R11
	MOVQ rows+48(FP), BX
	MOVQ n+56(FP), DX
	VMOVSS fn+64(FP), X13
	VMOVSD eps+72(FP), X14
	MOVQ relu+80(FP), R12
	VXORPS Y15, Y15, Y15
	SHLQ $2, DX // n in bytes

lnRow:
	// Pass 1: the sum.
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	XORQ CX, CX
	MOVQ DX, AX
	ANDQ $-128, AX
	JE lnSum8
lnSum32:
	VADDPS 0(SI)(CX*1), Y0, Y0
	VADDPS 32(SI)(CX*1), Y1, Y1
	VADDPS 64(SI)(CX*1), Y2, Y2
	VADDPS 96(SI)(CX*1), Y3, Y3
	ADDQ $128, CX
	CMPQ CX, AX
	JLT lnSum32
lnSum8:
	CMPQ CX, DX
	JGE lnSumH
	VADDPS 0(SI)(CX*1), Y0, Y0
	ADDQ $32, CX
	JMP lnSum8
lnSumH:
	VADDPS Y1, Y0, Y0
	VADDPS Y3, Y2, Y2
	VADDPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	VDIVSS X13, X0, X0
	VMOVSS X0, (R10)
	VBROADCASTSS X0, Y4

	// Pass 2: the sum of squared deviations.
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	XORQ CX, CX
	TESTQ AX, AX
	JE lnSq8
lnSq32:
	VMOVUPS 0(SI)(CX*1), Y5
	VMOVUPS 32(SI)(CX*1), Y6
	VMOVUPS 64(SI)(CX*1), Y7
	VMOVUPS 96(SI)(CX*1), Y8
	VSUBPS Y4, Y5, Y5
	VSUBPS Y4, Y6, Y6
	VSUBPS Y4, Y7, Y7
	VSUBPS Y4, Y8, Y8
	VFMADD231PS Y5, Y5, Y0
	VFMADD231PS Y6, Y6, Y1
	VFMADD231PS Y7, Y7, Y2
	VFMADD231PS Y8, Y8, Y3
	ADDQ $128, CX
	CMPQ CX, AX
	JLT lnSq32
lnSq8:
	CMPQ CX, DX
	JGE lnSqH
	VMOVUPS 0(SI)(CX*1), Y5
	VSUBPS Y4, Y5, Y5
	VFMADD231PS Y5, Y5, Y0
	ADDQ $32, CX
	JMP lnSq8
lnSqH:
	VADDPS Y1, Y0, Y0
	VADDPS Y3, Y2, Y2
	VADDPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	// rstd = float32(1 / sqrt(float64(q/n) + eps))
	VDIVSS X13, X0, X0
	VCVTSS2SD X0, X0, X0
	VADDSD X14, X0, X0
	VSQRTSD X0, X0, X0
	MOVQ $0x3ff0000000000000, CX
	VMOVQ CX, X1
	VDIVSD X0, X1, X0
	VCVTSD2SS X0, X0, X0
	VMOVSS X0, (R11)
	VBROADCASTSS X0, Y5

	// Pass 3: y = gain*((x-mean)*rstd) + bias, then the ReLU if asked.
	XORQ CX, CX
	TESTQ R12, R12
	JNE lnOutReLU
lnOut:
	VMOVUPS 0(SI)(CX*1), Y6
	VSUBPS Y4, Y6, Y6
	VMULPS Y5, Y6, Y6
	VMOVUPS 0(R9)(CX*1), Y7
	VFMADD231PS 0(R8)(CX*1), Y6, Y7
	VMOVUPS Y7, 0(DI)(CX*1)
	ADDQ $32, CX
	CMPQ CX, DX
	JLT lnOut
	JMP lnNext
lnOutReLU:
	VMOVUPS 0(SI)(CX*1), Y6
	VSUBPS Y4, Y6, Y6
	VMULPS Y5, Y6, Y6
	VMOVUPS 0(R9)(CX*1), Y7
	VFMADD231PS 0(R8)(CX*1), Y6, Y7
	VMAXPS Y15, Y7, Y7
	VMOVUPS Y7, 0(DI)(CX*1)
	ADDQ $32, CX
	CMPQ CX, DX
	JLT lnOutReLU

lnNext:
	ADDQ DX, SI
	ADDQ DX, DI
	ADDQ $4, R10
	ADDQ $4, R11
	DECQ BX
	JNE lnRow
	VZEROUPPER
	RET

// func layerNormBackwardAVX2(dx, dy, x, gain, bias, mean, rstd, dg, db *float32, rows, n int, inv float32, relu, acc int)
// Per row: pass 1 takes dy where the output was positive (relu: the
// pre-activation gain*x̂+bias recomputed as layerNormAVX2 computed it), sums
// g = dy*gain and g*x̂ and adds dy*x̂ and dy to dg and db; pass 2 writes or
// adds dx, masking dy again. dy is only read.
// Requires: AVX, AVX2, FMA3
TEXT ·layerNormBackwardAVX2(SB), NOSPLIT, $0-112
	MOVQ dx+0(FP), DI
	MOVQ dy+8(FP), SI
	MOVQ x+16(FP), R8
	MOVQ gain+24(FP), R10
	MOVQ bias+32(FP), R9
	MOVQ mean+40(FP), R11
	MOVQ rstd+48(FP), R12
	MOVQ dg+56(FP), R13
	MOVQ db+64(FP), R14
	MOVQ rows+72(FP), BX
	MOVQ n+80(FP), DX
	VBROADCASTSS inv+88(FP), Y13
	MOVQ relu+96(FP), AX
	VXORPS Y15, Y15, Y15
	VPCMPEQD Y14, Y14, Y14 // all lanes, unless relu masks them
	SHLQ $2, DX // n in bytes

lnbRow:
	VBROADCASTSS (R11), Y4 // mean
	VBROADCASTSS (R12), Y5 // rstd
	VXORPS Y0, Y0, Y0      // Σ g
	VXORPS Y1, Y1, Y1      // Σ g·x̂
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	XORQ CX, CX
lnbP1:
	VMOVUPS 0(R8)(CX*1), Y7  // x
	VSUBPS Y4, Y7, Y7
	VMULPS Y5, Y7, Y7        // x̂
	VMOVUPS 0(R10)(CX*1), Y11 // gain
	TESTQ AX, AX
	JE lnbM1
	VMOVUPS 0(R9)(CX*1), Y14
	VFMADD231PS Y11, Y7, Y14 // gain*x̂ + bias
	VCMPPS $0x1e, Y15, Y14, Y14 // > 0, false for a NaN
lnbM1:
	VANDPS 0(SI)(CX*1), Y14, Y6
	VMULPS Y11, Y6, Y8 // g
	VADDPS Y8, Y0, Y0
	VFMADD231PS Y8, Y7, Y1
	VMOVUPS 0(R13)(CX*1), Y9
	VFMADD231PS Y6, Y7, Y9
	VMOVUPS Y9, 0(R13)(CX*1)
	VADDPS 0(R14)(CX*1), Y6, Y10
	VMOVUPS Y10, 0(R14)(CX*1)
	ADDQ $32, CX
	CMPQ CX, DX
	JGE lnbH
	VMOVUPS 0(R8)(CX*1), Y7  // x
	VSUBPS Y4, Y7, Y7
	VMULPS Y5, Y7, Y7        // x̂
	VMOVUPS 0(R10)(CX*1), Y11 // gain
	TESTQ AX, AX
	JE lnbM2
	VMOVUPS 0(R9)(CX*1), Y14
	VFMADD231PS Y11, Y7, Y14 // gain*x̂ + bias
	VCMPPS $0x1e, Y15, Y14, Y14 // > 0, false for a NaN
lnbM2:
	VANDPS 0(SI)(CX*1), Y14, Y6
	VMULPS Y11, Y6, Y8 // g
	VADDPS Y8, Y2, Y2
	VFMADD231PS Y8, Y7, Y3
	VMOVUPS 0(R13)(CX*1), Y9
	VFMADD231PS Y6, Y7, Y9
	VMOVUPS Y9, 0(R13)(CX*1)
	VADDPS 0(R14)(CX*1), Y6, Y10
	VMOVUPS Y10, 0(R14)(CX*1)
	ADDQ $32, CX
	CMPQ CX, DX
	JLT lnbP1
lnbH:
	VADDPS Y2, Y0, Y0
	VADDPS Y3, Y1, Y1
	VEXTRACTF128 $1, Y0, X2
	VADDPS X2, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	VEXTRACTF128 $1, Y1, X3
	VADDPS X3, X1, X1
	VHADDPS X1, X1, X1
	VHADDPS X1, X1, X1
	VMULSS X13, X0, X0
	VMULSS X13, X1, X1
	VBROADCASTSS X0, Y12 // s1
	VBROADCASTSS X1, Y13 // s2, in place of inv: reloaded below

	// Pass 2: dx = rstd*((g - s1) - x̂*s2), added with acc.
	XORQ CX, CX
lnbP2:
	VMOVUPS 0(R8)(CX*1), Y7
	VSUBPS Y4, Y7, Y7
	VMULPS Y5, Y7, Y7 // x̂
	VMOVUPS 0(R10)(CX*1), Y11 // gain
	TESTQ AX, AX
	JE lnbM3
	VMOVUPS 0(R9)(CX*1), Y14
	VFMADD231PS Y11, Y7, Y14 // gain*x̂ + bias
	VCMPPS $0x1e, Y15, Y14, Y14 // > 0, false for a NaN
lnbM3:
	VANDPS 0(SI)(CX*1), Y14, Y6
	VMULPS Y11, Y6, Y6
	VSUBPS Y12, Y6, Y6
	VFNMADD231PS Y13, Y7, Y6
	VMULPS Y5, Y6, Y6
	CMPQ acc+104(FP), $0
	JE lnbSet
	VADDPS 0(DI)(CX*1), Y6, Y6
lnbSet:
	VMOVUPS Y6, 0(DI)(CX*1)
	ADDQ $32, CX
	CMPQ CX, DX
	JLT lnbP2

	VBROADCASTSS inv+88(FP), Y13
	ADDQ DX, SI
	ADDQ DX, R8
	ADDQ DX, DI
	ADDQ $4, R11
	ADDQ $4, R12
	DECQ BX
	JNE lnbRow
	VZEROUPPER
	RET


// func layerNormAVX512(y, x, gain, bias, mean, rstd *float32, rows, n int, fn float32, eps float64, relu int)
// layerNormAVX2 with ZMM vectors; n is a multiple of 16.
// Requires: AVX512F
TEXT ·layerNormAVX512(SB), NOSPLIT, $0-88
	MOVQ y+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ gain+16(FP), R8
	MOVQ bias+24(FP), R9
	MOVQ mean+32(FP), R10
	MOVQ rstd+40(FP), R11
	MOVQ rows+48(FP), BX
	MOVQ n+56(FP), DX
	VMOVSS fn+64(FP), X13
	VMOVSD eps+72(FP), X14
	MOVQ relu+80(FP), R12
	VPXORD Z15, Z15, Z15
	SHLQ $2, DX // n in bytes

ln5Row:
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	XORQ CX, CX
	MOVQ DX, AX
	ANDQ $-256, AX
	JE ln5Sum16
ln5Sum64:
	VADDPS 0(SI)(CX*1), Z0, Z0
	VADDPS 64(SI)(CX*1), Z1, Z1
	VADDPS 128(SI)(CX*1), Z2, Z2
	VADDPS 192(SI)(CX*1), Z3, Z3
	ADDQ $256, CX
	CMPQ CX, AX
	JLT ln5Sum64
ln5Sum16:
	CMPQ CX, DX
	JGE ln5SumH
	VADDPS 0(SI)(CX*1), Z0, Z0
	ADDQ $64, CX
	JMP ln5Sum16
ln5SumH:
	VADDPS Z1, Z0, Z0
	VADDPS Z3, Z2, Z2
	VADDPS Z2, Z0, Z0
	VEXTRACTF32X8 $1, Z0, Y1
	VADDPS Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	VDIVSS X13, X0, X0
	VMOVSS X0, (R10)
	VBROADCASTSS X0, Z4

	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	XORQ CX, CX
	TESTQ AX, AX
	JE ln5Sq16
ln5Sq64:
	// mean - x: the same square as x - mean
	VSUBPS 0(SI)(CX*1), Z4, Z5
	VSUBPS 64(SI)(CX*1), Z4, Z6
	VSUBPS 128(SI)(CX*1), Z4, Z7
	VSUBPS 192(SI)(CX*1), Z4, Z8
	VFMADD231PS Z5, Z5, Z0
	VFMADD231PS Z6, Z6, Z1
	VFMADD231PS Z7, Z7, Z2
	VFMADD231PS Z8, Z8, Z3
	ADDQ $256, CX
	CMPQ CX, AX
	JLT ln5Sq64
ln5Sq16:
	CMPQ CX, DX
	JGE ln5SqH
	VSUBPS 0(SI)(CX*1), Z4, Z5
	VFMADD231PS Z5, Z5, Z0
	ADDQ $64, CX
	JMP ln5Sq16
ln5SqH:
	VADDPS Z1, Z0, Z0
	VADDPS Z3, Z2, Z2
	VADDPS Z2, Z0, Z0
	VEXTRACTF32X8 $1, Z0, Y1
	VADDPS Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	VDIVSS X13, X0, X0
	VCVTSS2SD X0, X0, X0
	VADDSD X14, X0, X0
	VSQRTSD X0, X0, X0
	MOVQ $0x3ff0000000000000, CX
	VMOVQ CX, X1
	VDIVSD X0, X1, X0
	VCVTSD2SS X0, X0, X0
	VMOVSS X0, (R11)
	VBROADCASTSS X0, Z5

	XORQ CX, CX
	TESTQ R12, R12
	JNE ln5OutReLU
ln5Out:
	VMOVUPS 0(SI)(CX*1), Z6
	VSUBPS Z4, Z6, Z6
	VMULPS Z5, Z6, Z6
	VMOVUPS 0(R9)(CX*1), Z7
	VFMADD231PS 0(R8)(CX*1), Z6, Z7
	VMOVUPS Z7, 0(DI)(CX*1)
	ADDQ $64, CX
	CMPQ CX, DX
	JLT ln5Out
	JMP ln5Next
ln5OutReLU:
	VMOVUPS 0(SI)(CX*1), Z6
	VSUBPS Z4, Z6, Z6
	VMULPS Z5, Z6, Z6
	VMOVUPS 0(R9)(CX*1), Z7
	VFMADD231PS 0(R8)(CX*1), Z6, Z7
	VMAXPS Z15, Z7, Z7
	VMOVUPS Z7, 0(DI)(CX*1)
	ADDQ $64, CX
	CMPQ CX, DX
	JLT ln5OutReLU

ln5Next:
	ADDQ DX, SI
	ADDQ DX, DI
	ADDQ $4, R10
	ADDQ $4, R11
	DECQ BX
	JNE ln5Row
	VZEROUPPER
	RET

// func layerNormBackwardAVX512(dx, dy, x, gain, bias, mean, rstd, dg, db *float32, rows, n int, inv float32, relu, acc int)
// layerNormBackwardAVX2 with ZMM vectors and an opmask for the ReLU; n is a
// multiple of 16.
// Requires: AVX512F
TEXT ·layerNormBackwardAVX512(SB), NOSPLIT, $0-112
	MOVQ dx+0(FP), DI
	MOVQ dy+8(FP), SI
	MOVQ x+16(FP), R8
	MOVQ gain+24(FP), R10
	MOVQ bias+32(FP), R9
	MOVQ mean+40(FP), R11
	MOVQ rstd+48(FP), R12
	MOVQ dg+56(FP), R13
	MOVQ db+64(FP), R14
	MOVQ rows+72(FP), BX
	MOVQ n+80(FP), DX
	VBROADCASTSS inv+88(FP), Z13
	MOVQ relu+96(FP), AX
	VPXORD Z15, Z15, Z15
	KXNORW K1, K1, K1 // all lanes, unless relu masks them
	SHLQ $2, DX // n in bytes

lnb5Row:
	VBROADCASTSS (R11), Z4 // mean
	VBROADCASTSS (R12), Z5 // rstd
	VPXORD Z0, Z0, Z0      // Σ g
	VPXORD Z1, Z1, Z1      // Σ g·x̂
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	XORQ CX, CX
lnb5P1:
	VMOVUPS 0(R8)(CX*1), Z7  // x
	VSUBPS Z4, Z7, Z7
	VMULPS Z5, Z7, Z7        // x̂
	VMOVUPS 0(R10)(CX*1), Z21 // gain
	TESTQ AX, AX
	JE lnb5M1
	VMOVUPS 0(R9)(CX*1), Z22
	VFMADD231PS Z21, Z7, Z22 // gain*x̂ + bias
	VCMPPS $0x1e, Z15, Z22, K1 // > 0, false for a NaN
lnb5M1:
	VMOVUPS.Z 0(SI)(CX*1), K1, Z6
	VMULPS Z21, Z6, Z8 // g
	VADDPS Z8, Z0, Z0
	VFMADD231PS Z8, Z7, Z1
	VMOVUPS 0(R13)(CX*1), Z9
	VFMADD231PS Z6, Z7, Z9
	VMOVUPS Z9, 0(R13)(CX*1)
	VADDPS 0(R14)(CX*1), Z6, Z10
	VMOVUPS Z10, 0(R14)(CX*1)
	ADDQ $64, CX
	CMPQ CX, DX
	JGE lnb5H
	VMOVUPS 0(R8)(CX*1), Z17  // x
	VSUBPS Z4, Z17, Z17
	VMULPS Z5, Z17, Z17        // x̂
	VMOVUPS 0(R10)(CX*1), Z21 // gain
	TESTQ AX, AX
	JE lnb5M2
	VMOVUPS 0(R9)(CX*1), Z22
	VFMADD231PS Z21, Z17, Z22 // gain*x̂ + bias
	VCMPPS $0x1e, Z15, Z22, K1 // > 0, false for a NaN
lnb5M2:
	VMOVUPS.Z 0(SI)(CX*1), K1, Z16
	VMULPS Z21, Z16, Z18 // g
	VADDPS Z18, Z2, Z2
	VFMADD231PS Z18, Z17, Z3
	VMOVUPS 0(R13)(CX*1), Z19
	VFMADD231PS Z16, Z17, Z19
	VMOVUPS Z19, 0(R13)(CX*1)
	VADDPS 0(R14)(CX*1), Z16, Z20
	VMOVUPS Z20, 0(R14)(CX*1)
	ADDQ $64, CX
	CMPQ CX, DX
	JLT lnb5P1
lnb5H:
	VADDPS Z2, Z0, Z0
	VADDPS Z3, Z1, Z1
	VEXTRACTF32X8 $1, Z0, Y2
	VADDPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X2
	VADDPS X2, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	VEXTRACTF32X8 $1, Z1, Y3
	VADDPS Y3, Y1, Y1
	VEXTRACTF128 $1, Y1, X3
	VADDPS X3, X1, X1
	VHADDPS X1, X1, X1
	VHADDPS X1, X1, X1
	VMULSS X13, X0, X0
	VMULSS X13, X1, X1
	VBROADCASTSS X0, Z11 // s1
	VBROADCASTSS X1, Z12 // s2

	// Pass 2: dx = rstd*((g - s1) - x̂*s2), added with acc.
	XORQ CX, CX
lnb5P2:
	VMOVUPS 0(R8)(CX*1), Z7
	VSUBPS Z4, Z7, Z7
	VMULPS Z5, Z7, Z7 // x̂
	VMOVUPS 0(R10)(CX*1), Z21 // gain
	TESTQ AX, AX
	JE lnb5M3
	VMOVUPS 0(R9)(CX*1), Z22
	VFMADD231PS Z21, Z7, Z22 // gain*x̂ + bias
	VCMPPS $0x1e, Z15, Z22, K1 // > 0, false for a NaN
lnb5M3:
	VMOVUPS.Z 0(SI)(CX*1), K1, Z6
	VMULPS Z21, Z6, Z6
	VSUBPS Z11, Z6, Z6
	VFNMADD231PS Z12, Z7, Z6
	VMULPS Z5, Z6, Z6
	CMPQ acc+104(FP), $0
	JE lnb5Set
	VADDPS 0(DI)(CX*1), Z6, Z6
lnb5Set:
	VMOVUPS Z6, 0(DI)(CX*1)
	ADDQ $64, CX
	CMPQ CX, DX
	JLT lnb5P2

	ADDQ DX, SI
	ADDQ DX, R8
	ADDQ DX, DI
	ADDQ $4, R11
	ADDQ $4, R12
	DECQ BX
	JNE lnb5Row
	VZEROUPPER
	RET

