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

// func layerNormBackwardAVX2(dx, dy, x, y, gain, mean, rstd, dg, db *float32, rows, n int, inv float32, relu, acc int)
// Per row: pass 1 masks dy (relu), sums g = dy*gain and g*x̂ and adds
// dy*x̂ and dy to dg and db; pass 2 writes or adds dx.
// Requires: AVX, AVX2, FMA3
TEXT ·layerNormBackwardAVX2(SB), NOSPLIT, $0-112
	MOVQ dx+0(FP), DI
	MOVQ dy+8(FP), SI
	MOVQ x+16(FP), R8
	MOVQ y+24(FP), R9
	MOVQ gain+32(FP), R10
	MOVQ mean+40(FP), R11
	MOVQ rstd+48(FP), R12
	MOVQ dg+56(FP), R13
	MOVQ db+64(FP), R14
	MOVQ rows+72(FP), BX
	MOVQ n+80(FP), DX
	VBROADCASTSS inv+88(FP), Y13
	MOVQ relu+96(FP), AX
	VXORPS Y15, Y15, Y15
	SHLQ $2, DX // n in bytes

lnbRow:
	VBROADCASTSS (R11), Y4 // mean
	VBROADCASTSS (R12), Y5 // rstd
	VXORPS Y0, Y0, Y0      // Σ g
	VXORPS Y1, Y1, Y1      // Σ g·x̂
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	XORQ CX, CX
	TESTQ AX, AX
	JE lnbP1
lnbMask:
	VMOVUPS 0(R9)(CX*1), Y7
	VCMPPS $0x1e, Y15, Y7, Y7
	VANDPS 0(SI)(CX*1), Y7, Y7
	VMOVUPS Y7, 0(SI)(CX*1)
	ADDQ $32, CX
	CMPQ CX, DX
	JLT lnbMask
	XORQ CX, CX
lnbP1:
	VMOVUPS 0(SI)(CX*1), Y6  // dy
	VMOVUPS 0(R8)(CX*1), Y7  // x
	VSUBPS Y4, Y7, Y7
	VMULPS Y5, Y7, Y7        // x̂
	VMULPS 0(R10)(CX*1), Y6, Y8 // g
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
	VMOVUPS 0(SI)(CX*1), Y6
	VMOVUPS 0(R8)(CX*1), Y7
	VSUBPS Y4, Y7, Y7
	VMULPS Y5, Y7, Y7
	VMULPS 0(R10)(CX*1), Y6, Y8
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
	VBROADCASTSS X0, Y11 // s1
	VBROADCASTSS X1, Y12 // s2

	// Pass 2: dx = rstd*((g - s1) - x̂*s2), added with acc.
	XORQ CX, CX
	CMPQ acc+104(FP), $0
	JNE lnbAcc
lnbSet:
	VMOVUPS 0(SI)(CX*1), Y6
	VMULPS 0(R10)(CX*1), Y6, Y6
	VSUBPS Y11, Y6, Y6
	VMOVUPS 0(R8)(CX*1), Y7
	VSUBPS Y4, Y7, Y7
	VMULPS Y5, Y7, Y7
	VFNMADD231PS Y12, Y7, Y6
	VMULPS Y5, Y6, Y6
	VMOVUPS Y6, 0(DI)(CX*1)
	ADDQ $32, CX
	CMPQ CX, DX
	JLT lnbSet
	JMP lnbNext
lnbAcc:
	VMOVUPS 0(SI)(CX*1), Y6
	VMULPS 0(R10)(CX*1), Y6, Y6
	VSUBPS Y11, Y6, Y6
	VMOVUPS 0(R8)(CX*1), Y7
	VSUBPS Y4, Y7, Y7
	VMULPS Y5, Y7, Y7
	VFNMADD231PS Y12, Y7, Y6
	VMULPS Y5, Y6, Y6
	VADDPS 0(DI)(CX*1), Y6, Y6
	VMOVUPS Y6, 0(DI)(CX*1)
	ADDQ $32, CX
	CMPQ CX, DX
	JLT lnbAcc

lnbNext:
	ADDQ DX, SI
	ADDQ DX, R8
	ADDQ DX, R9
	ADDQ DX, DI
	ADDQ $4, R11
	ADDQ $4, R12
	DECQ BX
	JNE lnbRow
	VZEROUPPER
	RET
