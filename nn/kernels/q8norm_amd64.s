//go:build amd64 && !purego && !noasm

#include "textflag.h"

// q8lnIdx gathers the lanes 0, 4, 8 and 12 of a vector into its first four
// (VPERMPS): the four rows' results of a reduction by quads.
DATA q8lnIdx<>+0(SB)/4, $0
DATA q8lnIdx<>+4(SB)/4, $4
DATA q8lnIdx<>+8(SB)/4, $8
DATA q8lnIdx<>+12(SB)/4, $12
DATA q8lnIdx<>+16(SB)/8, $0
DATA q8lnIdx<>+24(SB)/8, $0
DATA q8lnIdx<>+32(SB)/8, $0
DATA q8lnIdx<>+40(SB)/8, $0
DATA q8lnIdx<>+48(SB)/8, $0
DATA q8lnIdx<>+56(SB)/8, $0
GLOBL q8lnIdx<>(SB), RODATA|NOPTR, $64

// q8lnBytes puts the 64 bytes VPACKUSDW and VPACKUSWB made of four vectors
// A, B, C, D (in each 128-bit lane l: A's, B's, C's and D's four values of
// lane l) back in the order A, B, C, D (VPERMD: a 4×4 transpose of dwords).
DATA q8lnBytes<>+0(SB)/4, $0
DATA q8lnBytes<>+4(SB)/4, $4
DATA q8lnBytes<>+8(SB)/4, $8
DATA q8lnBytes<>+12(SB)/4, $12
DATA q8lnBytes<>+16(SB)/4, $1
DATA q8lnBytes<>+20(SB)/4, $5
DATA q8lnBytes<>+24(SB)/4, $9
DATA q8lnBytes<>+28(SB)/4, $13
DATA q8lnBytes<>+32(SB)/4, $2
DATA q8lnBytes<>+36(SB)/4, $6
DATA q8lnBytes<>+40(SB)/4, $10
DATA q8lnBytes<>+44(SB)/4, $14
DATA q8lnBytes<>+48(SB)/4, $3
DATA q8lnBytes<>+52(SB)/4, $7
DATA q8lnBytes<>+56(SB)/4, $11
DATA q8lnBytes<>+60(SB)/4, $15
GLOBL q8lnBytes<>(SB), RODATA|NOPTR, $64

// func q8LayerNormReLUAVX512(dst *uint8, x *float32, rows, n int, gain, bias, mean, rstd *float32, fn float32, eps float64, scale *float32, zero *int32, tile *float32)
//
// layerNormAVX512 with the ReLU, then q8QuantizeAVX512 of its output: the
// same float32 and float64 operations on each value, in the same order, so
// the same bits. The work is laid out for throughput instead of one row
// after the other: blocks of up to 16 rows, each in two passes over groups
// of four rows, the first the rows' means and 1/stds, the second their
// output (so that one group's long chains of dependent reductions overlap
// the next group's work). In a group the four rows' horizontal reductions
// are folded together (reduce by quads: the same additions per row). The
// second pass normalises a group into tile (4·n floats, the first level of
// cache), taking each row's maximum as it goes (its range after the ReLU
// is 0 to that maximum, so the zero point is 0), then converts:
// trunc(v·inv + 0.5), whose values are 0 to 255 or, for NaN and infinities
// and for negative v (the ReLU, applied here: those give at most 0), at
// most 0, narrowed to bytes by saturating packs. rows is a multiple of 4, n
// of 16; dst gets rows of n bytes; tile holds 4·n+4 floats.
// Requires: AVX512F, AVX512BW
TEXT ·q8LayerNormReLUAVX512(SB), NOSPLIT, $48-104
	// 0(SP): rows left; 8(SP): the block's x; 16(SP), 24(SP): its means and
	// 1/stds; 32(SP): its groups
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ rows+16(FP), BX
	MOVQ BX, 0(SP)
	MOVQ n+24(FP), DX
	SHLQ $2, DX // a row of floats in bytes
	MOVQ gain+32(FP), R8
	MOVQ bias+40(FP), R9
	MOVQ tile+96(FP), R14
	VPXORD Z31, Z31, Z31
	VMOVDQU32 q8lnIdx<>(SB), Z30
	VBROADCASTSS fn+64(FP), Z29
	MOVL $0x3f000000, AX // 0.5
	VPBROADCASTD AX, Z28
	MOVL $0x437f0000, AX // 255.0
	VPBROADCASTD AX, Z27
	VMOVDQU32 q8lnBytes<>(SB), Z26
	MOVQ $0x3ff0000000000000, AX // 1.0
	VPBROADCASTQ AX, Z25
	VBROADCASTSD eps+72(FP), Z24
	MOVQ DX, AX
	ANDQ $-256, AX // the bytes of a row summed 64 floats a step

q8lnBlock:
	MOVQ 0(SP), BX
	CMPQ BX, $16
	JLE q8lnLast
	MOVQ $16, BX
q8lnLast:
	SUBQ BX, 0(SP)
	SHRQ $2, BX
	MOVQ BX, 32(SP)
	MOVQ SI, 8(SP)
	MOVQ mean+48(FP), R13
	MOVQ R13, 16(SP)
	MOVQ rstd+56(FP), R13
	MOVQ R13, 24(SP)

	// pass 1: the means and 1/stds of the block's rows, four at a time
q8lnStats:
	LEAQ (SI)(DX*1), R10
	LEAQ (SI)(DX*2), R11
	LEAQ (R10)(DX*2), R12
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	VPXORD Z8, Z8, Z8
	VPXORD Z9, Z9, Z9
	VPXORD Z10, Z10, Z10
	VPXORD Z11, Z11, Z11
	VPXORD Z12, Z12, Z12
	VPXORD Z13, Z13, Z13
	VPXORD Z14, Z14, Z14
	VPXORD Z15, Z15, Z15
	XORQ CX, CX
	TESTQ AX, AX
	JE q8lnSum16
q8lnSum64:
	VADDPS 0(SI)(CX*1), Z0, Z0
	VADDPS 0(R10)(CX*1), Z4, Z4
	VADDPS 0(R11)(CX*1), Z8, Z8
	VADDPS 0(R12)(CX*1), Z12, Z12
	VADDPS 64(SI)(CX*1), Z1, Z1
	VADDPS 64(R10)(CX*1), Z5, Z5
	VADDPS 64(R11)(CX*1), Z9, Z9
	VADDPS 64(R12)(CX*1), Z13, Z13
	VADDPS 128(SI)(CX*1), Z2, Z2
	VADDPS 128(R10)(CX*1), Z6, Z6
	VADDPS 128(R11)(CX*1), Z10, Z10
	VADDPS 128(R12)(CX*1), Z14, Z14
	VADDPS 192(SI)(CX*1), Z3, Z3
	VADDPS 192(R10)(CX*1), Z7, Z7
	VADDPS 192(R11)(CX*1), Z11, Z11
	VADDPS 192(R12)(CX*1), Z15, Z15
	ADDQ $256, CX
	CMPQ CX, AX
	JLT q8lnSum64
q8lnSum16:
	CMPQ CX, DX
	JGE q8lnSumH
	VADDPS (SI)(CX*1), Z0, Z0
	VADDPS (R10)(CX*1), Z4, Z4
	VADDPS (R11)(CX*1), Z8, Z8
	VADDPS (R12)(CX*1), Z12, Z12
	ADDQ $64, CX
	JMP q8lnSum16
q8lnSumH:
	VADDPS Z1, Z0, Z0
	VADDPS Z3, Z2, Z2
	VADDPS Z2, Z0, Z0
	VADDPS Z5, Z4, Z4
	VADDPS Z7, Z6, Z6
	VADDPS Z6, Z4, Z4
	VADDPS Z9, Z8, Z8
	VADDPS Z11, Z10, Z10
	VADDPS Z10, Z8, Z8
	VADDPS Z13, Z12, Z12
	VADDPS Z15, Z14, Z14
	VADDPS Z14, Z12, Z12
	VSHUFF32X4 $0x44, Z4, Z0, Z16
	VSHUFF32X4 $0xEE, Z4, Z0, Z17
	VADDPS Z17, Z16, Z0
	VSHUFF32X4 $0x44, Z12, Z8, Z16
	VSHUFF32X4 $0xEE, Z12, Z8, Z17
	VADDPS Z17, Z16, Z8
	VSHUFF32X4 $0x88, Z8, Z0, Z16
	VSHUFF32X4 $0xDD, Z8, Z0, Z17
	VADDPS Z17, Z16, Z0
	VSHUFPS $0xB1, Z0, Z0, Z16
	VADDPS Z16, Z0, Z0
	VSHUFPS $0x4E, Z0, Z0, Z16
	VADDPS Z16, Z0, Z0
	VPERMPS Z0, Z30, Z0
	VDIVPS X29, X0, X0 // the four means
	MOVQ mean+48(FP), R13
	VMOVUPS X0, (R13)
	VBROADCASTSS 0(R13), Z16
	VBROADCASTSS 4(R13), Z17
	VBROADCASTSS 8(R13), Z18
	VBROADCASTSS 12(R13), Z19
	ADDQ $16, R13
	MOVQ R13, mean+48(FP)
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	VPXORD Z8, Z8, Z8
	VPXORD Z9, Z9, Z9
	VPXORD Z10, Z10, Z10
	VPXORD Z11, Z11, Z11
	VPXORD Z12, Z12, Z12
	VPXORD Z13, Z13, Z13
	VPXORD Z14, Z14, Z14
	VPXORD Z15, Z15, Z15
	XORQ CX, CX
	TESTQ AX, AX
	JE q8lnSq16
q8lnSq64:
	VSUBPS 0(SI)(CX*1), Z16, Z20 // mean - x: the same square
	VSUBPS 0(R10)(CX*1), Z17, Z21 // mean - x: the same square
	VSUBPS 0(R11)(CX*1), Z18, Z22 // mean - x: the same square
	VSUBPS 0(R12)(CX*1), Z19, Z23 // mean - x: the same square
	VFMADD231PS Z20, Z20, Z0
	VFMADD231PS Z21, Z21, Z4
	VFMADD231PS Z22, Z22, Z8
	VFMADD231PS Z23, Z23, Z12
	VSUBPS 64(SI)(CX*1), Z16, Z20 // mean - x: the same square
	VSUBPS 64(R10)(CX*1), Z17, Z21 // mean - x: the same square
	VSUBPS 64(R11)(CX*1), Z18, Z22 // mean - x: the same square
	VSUBPS 64(R12)(CX*1), Z19, Z23 // mean - x: the same square
	VFMADD231PS Z20, Z20, Z1
	VFMADD231PS Z21, Z21, Z5
	VFMADD231PS Z22, Z22, Z9
	VFMADD231PS Z23, Z23, Z13
	VSUBPS 128(SI)(CX*1), Z16, Z20 // mean - x: the same square
	VSUBPS 128(R10)(CX*1), Z17, Z21 // mean - x: the same square
	VSUBPS 128(R11)(CX*1), Z18, Z22 // mean - x: the same square
	VSUBPS 128(R12)(CX*1), Z19, Z23 // mean - x: the same square
	VFMADD231PS Z20, Z20, Z2
	VFMADD231PS Z21, Z21, Z6
	VFMADD231PS Z22, Z22, Z10
	VFMADD231PS Z23, Z23, Z14
	VSUBPS 192(SI)(CX*1), Z16, Z20 // mean - x: the same square
	VSUBPS 192(R10)(CX*1), Z17, Z21 // mean - x: the same square
	VSUBPS 192(R11)(CX*1), Z18, Z22 // mean - x: the same square
	VSUBPS 192(R12)(CX*1), Z19, Z23 // mean - x: the same square
	VFMADD231PS Z20, Z20, Z3
	VFMADD231PS Z21, Z21, Z7
	VFMADD231PS Z22, Z22, Z11
	VFMADD231PS Z23, Z23, Z15
	ADDQ $256, CX
	CMPQ CX, AX
	JLT q8lnSq64
q8lnSq16:
	CMPQ CX, DX
	JGE q8lnSqH
	VSUBPS (SI)(CX*1), Z16, Z20
	VSUBPS (R10)(CX*1), Z17, Z21
	VSUBPS (R11)(CX*1), Z18, Z22
	VSUBPS (R12)(CX*1), Z19, Z23
	VFMADD231PS Z20, Z20, Z0
	VFMADD231PS Z21, Z21, Z4
	VFMADD231PS Z22, Z22, Z8
	VFMADD231PS Z23, Z23, Z12
	ADDQ $64, CX
	JMP q8lnSq16
q8lnSqH:
	VADDPS Z1, Z0, Z0
	VADDPS Z3, Z2, Z2
	VADDPS Z2, Z0, Z0
	VADDPS Z5, Z4, Z4
	VADDPS Z7, Z6, Z6
	VADDPS Z6, Z4, Z4
	VADDPS Z9, Z8, Z8
	VADDPS Z11, Z10, Z10
	VADDPS Z10, Z8, Z8
	VADDPS Z13, Z12, Z12
	VADDPS Z15, Z14, Z14
	VADDPS Z14, Z12, Z12
	VSHUFF32X4 $0x44, Z4, Z0, Z20
	VSHUFF32X4 $0xEE, Z4, Z0, Z21
	VADDPS Z21, Z20, Z0
	VSHUFF32X4 $0x44, Z12, Z8, Z20
	VSHUFF32X4 $0xEE, Z12, Z8, Z21
	VADDPS Z21, Z20, Z8
	VSHUFF32X4 $0x88, Z8, Z0, Z20
	VSHUFF32X4 $0xDD, Z8, Z0, Z21
	VADDPS Z21, Z20, Z0
	VSHUFPS $0xB1, Z0, Z0, Z20
	VADDPS Z20, Z0, Z0
	VSHUFPS $0x4E, Z0, Z0, Z20
	VADDPS Z20, Z0, Z0
	VPERMPS Z0, Z30, Z0
	VDIVPS X29, X0, X0
	// rstd = float32(1 / sqrt(float64(q/n) + eps)), four rows
	VCVTPS2PD X0, Y0
	VADDPD Y24, Y0, Y0
	VSQRTPD Y0, Y0
	VDIVPD Y0, Y25, Y0
	VCVTPD2PSY Y0, X0
	MOVQ rstd+56(FP), R13
	VMOVUPS X0, (R13)
	ADDQ $16, R13
	MOVQ R13, rstd+56(FP)
	LEAQ (SI)(DX*4), SI
	DECQ BX
	JNE q8lnStats

	// pass 2: the rows normalised into the tile, their ranges, their bytes
	MOVQ 8(SP), SI
	MOVQ 32(SP), BX
q8lnRows:
	LEAQ (SI)(DX*1), R10
	LEAQ (SI)(DX*2), R11
	LEAQ (R10)(DX*2), R12
	MOVQ 16(SP), R13
	VBROADCASTSS 0(R13), Z16
	VBROADCASTSS 4(R13), Z17
	VBROADCASTSS 8(R13), Z18
	VBROADCASTSS 12(R13), Z19
	ADDQ $16, R13
	MOVQ R13, 16(SP)
	MOVQ 24(SP), R13
	VBROADCASTSS 0(R13), Z20
	VBROADCASTSS 4(R13), Z21
	VBROADCASTSS 8(R13), Z22
	VBROADCASTSS 12(R13), Z23
	ADDQ $16, R13
	MOVQ R13, 24(SP)
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	XORQ CX, CX
q8lnOut:
	VMOVUPS (R8)(CX*1), Z9
	VSUBPS (SI)(CX*1), Z16, Z0 // mean - x
	VSUBPS (R10)(CX*1), Z17, Z1 // mean - x
	VSUBPS (R11)(CX*1), Z18, Z2 // mean - x
	VSUBPS (R12)(CX*1), Z19, Z3 // mean - x
	VMULPS Z20, Z0, Z0 // -(x - mean)·rstd
	VMULPS Z21, Z1, Z1 // -(x - mean)·rstd
	VMULPS Z22, Z2, Z2 // -(x - mean)·rstd
	VMULPS Z23, Z3, Z3 // -(x - mean)·rstd
	VFNMADD213PS (R9)(CX*1), Z9, Z0 // gain·(x - mean)·rstd + bias
	VFNMADD213PS (R9)(CX*1), Z9, Z1 // gain·(x - mean)·rstd + bias
	VFNMADD213PS (R9)(CX*1), Z9, Z2 // gain·(x - mean)·rstd + bias
	VFNMADD213PS (R9)(CX*1), Z9, Z3 // gain·(x - mean)·rstd + bias
	VMAXPS Z4, Z0, Z4 // the maximum, after the ReLU (NaN leaves it)
	VMAXPS Z5, Z1, Z5 // the maximum, after the ReLU (NaN leaves it)
	VMAXPS Z6, Z2, Z6 // the maximum, after the ReLU (NaN leaves it)
	VMAXPS Z7, Z3, Z7 // the maximum, after the ReLU (NaN leaves it)
	VMOVUPS Z0, 0(R14)(CX*4)
	VMOVUPS Z1, 64(R14)(CX*4)
	VMOVUPS Z2, 128(R14)(CX*4)
	VMOVUPS Z3, 192(R14)(CX*4)
	ADDQ $64, CX
	CMPQ CX, DX
	JLT q8lnOut
	VSHUFF32X4 $0x44, Z5, Z4, Z8
	VSHUFF32X4 $0xEE, Z5, Z4, Z9
	VMAXPS Z9, Z8, Z4
	VSHUFF32X4 $0x44, Z7, Z6, Z8
	VSHUFF32X4 $0xEE, Z7, Z6, Z9
	VMAXPS Z9, Z8, Z6
	VSHUFF32X4 $0x88, Z6, Z4, Z8
	VSHUFF32X4 $0xDD, Z6, Z4, Z9
	VMAXPS Z9, Z8, Z4
	VSHUFPS $0xB1, Z4, Z4, Z8
	VMAXPS Z8, Z4, Z4
	VSHUFPS $0x4E, Z4, Z4, Z8
	VMAXPS Z8, Z4, Z4
	VPERMPS Z4, Z30, Z4 // the four rows' hi (lo is 0)
	VDIVPS X27, X4, X10 // scale = hi / 255
	VDIVPS X4, X27, X11 // inv = 255 / hi
	MOVQ scale+80(FP), R13
	VMOVUPS X10, (R13)
	ADDQ $16, R13
	MOVQ R13, scale+80(FP)
	MOVQ zero+88(FP), R13
	VMOVDQU32 X31, (R13) // the zero points: 0 after a ReLU
	ADDQ $16, R13
	MOVQ R13, zero+88(FP)
	MOVQ DX, CX
	VMOVUPS X11, (R14)(CX*4) // after the tile's rows
	VBROADCASTSS 0(R14)(CX*4), Z16
	VBROADCASTSS 4(R14)(CX*4), Z17
	VBROADCASTSS 8(R14)(CX*4), Z18
	VBROADCASTSS 12(R14)(CX*4), Z19
	SHRQ $2, CX // n: a row of bytes
	MOVQ DI, R13
	LEAQ (DI)(CX*1), R10
	LEAQ (DI)(CX*2), R11
	LEAQ (R10)(CX*2), R12
	XORQ CX, CX
	TESTQ AX, AX
	JE q8lnConv16
q8lnConv64:
	VMULPS 0(R14)(CX*4), Z16, Z0
	VMULPS 256(R14)(CX*4), Z16, Z1
	VMULPS 512(R14)(CX*4), Z16, Z2
	VMULPS 768(R14)(CX*4), Z16, Z3
	VADDPS Z28, Z0, Z0
	VADDPS Z28, Z1, Z1
	VADDPS Z28, Z2, Z2
	VADDPS Z28, Z3, Z3
	VCVTTPS2DQ Z0, Z0
	VCVTTPS2DQ Z1, Z1
	VCVTTPS2DQ Z2, Z2
	VCVTTPS2DQ Z3, Z3
	VPACKUSDW Z1, Z0, Z0
	VPACKUSDW Z3, Z2, Z2
	VPACKUSWB Z2, Z0, Z0
	VPERMD Z0, Z26, Z0
	VMOVDQU32 Z0, (R13)
	VMULPS 64(R14)(CX*4), Z17, Z4
	VMULPS 320(R14)(CX*4), Z17, Z5
	VMULPS 576(R14)(CX*4), Z17, Z6
	VMULPS 832(R14)(CX*4), Z17, Z7
	VADDPS Z28, Z4, Z4
	VADDPS Z28, Z5, Z5
	VADDPS Z28, Z6, Z6
	VADDPS Z28, Z7, Z7
	VCVTTPS2DQ Z4, Z4
	VCVTTPS2DQ Z5, Z5
	VCVTTPS2DQ Z6, Z6
	VCVTTPS2DQ Z7, Z7
	VPACKUSDW Z5, Z4, Z4
	VPACKUSDW Z7, Z6, Z6
	VPACKUSWB Z6, Z4, Z4
	VPERMD Z4, Z26, Z4
	VMOVDQU32 Z4, (R10)
	VMULPS 128(R14)(CX*4), Z18, Z8
	VMULPS 384(R14)(CX*4), Z18, Z9
	VMULPS 640(R14)(CX*4), Z18, Z10
	VMULPS 896(R14)(CX*4), Z18, Z11
	VADDPS Z28, Z8, Z8
	VADDPS Z28, Z9, Z9
	VADDPS Z28, Z10, Z10
	VADDPS Z28, Z11, Z11
	VCVTTPS2DQ Z8, Z8
	VCVTTPS2DQ Z9, Z9
	VCVTTPS2DQ Z10, Z10
	VCVTTPS2DQ Z11, Z11
	VPACKUSDW Z9, Z8, Z8
	VPACKUSDW Z11, Z10, Z10
	VPACKUSWB Z10, Z8, Z8
	VPERMD Z8, Z26, Z8
	VMOVDQU32 Z8, (R11)
	VMULPS 192(R14)(CX*4), Z19, Z12
	VMULPS 448(R14)(CX*4), Z19, Z13
	VMULPS 704(R14)(CX*4), Z19, Z14
	VMULPS 960(R14)(CX*4), Z19, Z15
	VADDPS Z28, Z12, Z12
	VADDPS Z28, Z13, Z13
	VADDPS Z28, Z14, Z14
	VADDPS Z28, Z15, Z15
	VCVTTPS2DQ Z12, Z12
	VCVTTPS2DQ Z13, Z13
	VCVTTPS2DQ Z14, Z14
	VCVTTPS2DQ Z15, Z15
	VPACKUSDW Z13, Z12, Z12
	VPACKUSDW Z15, Z14, Z14
	VPACKUSWB Z14, Z12, Z12
	VPERMD Z12, Z26, Z12
	VMOVDQU32 Z12, (R12)
	ADDQ $64, R13
	ADDQ $64, R10
	ADDQ $64, R11
	ADDQ $64, R12
	ADDQ $256, CX
	CMPQ CX, AX
	JLT q8lnConv64
q8lnConv16:
	CMPQ CX, DX
	JGE q8lnNext
	VMULPS 0(R14)(CX*4), Z16, Z0
	VMULPS 64(R14)(CX*4), Z17, Z1
	VMULPS 128(R14)(CX*4), Z18, Z2
	VMULPS 192(R14)(CX*4), Z19, Z3
	VADDPS Z28, Z0, Z0
	VADDPS Z28, Z1, Z1
	VADDPS Z28, Z2, Z2
	VADDPS Z28, Z3, Z3
	VCVTTPS2DQ Z0, Z0
	VCVTTPS2DQ Z1, Z1
	VCVTTPS2DQ Z2, Z2
	VCVTTPS2DQ Z3, Z3
	VPMAXSD Z31, Z0, Z0
	VPMAXSD Z31, Z1, Z1
	VPMAXSD Z31, Z2, Z2
	VPMAXSD Z31, Z3, Z3
	VPMOVUSDB Z0, (R13)
	VPMOVUSDB Z1, (R10)
	VPMOVUSDB Z2, (R11)
	VPMOVUSDB Z3, (R12)
	ADDQ $16, R13
	ADDQ $16, R10
	ADDQ $16, R11
	ADDQ $16, R12
	ADDQ $64, CX
	JMP q8lnConv16
q8lnNext:
	ADDQ DX, DI // four rows of n bytes
	LEAQ (SI)(DX*4), SI
	DECQ BX
	JNE q8lnRows
	CMPQ 0(SP), $0
	JNE q8lnBlock
	VZEROUPPER
	RET
