//go:build amd64 && !purego && !noasm

#include "textflag.h"

// The quantisation kernel of q8_amd64.go (the product tiles are in
// q8tile_amd64.s).

// func q8QuantizeAVX512(dst *uint8, ldd int, x *float32, ldx int, rows, k int, scale *float32, zero *int32)
// quantizeRow row by row: the range (lo, hi) by VMINPS/VMAXPS with 0, the
// scale, the zero point and the offset in scalar float32, then 16 values a
// step: trunc(x·inv + off) clamped to 0..255, narrowed to bytes.
TEXT ·q8QuantizeAVX512(SB), NOSPLIT, $0-64
	MOVQ dst+0(FP), DI
	MOVQ ldd+8(FP), R8
	MOVQ x+16(FP), SI
	MOVQ ldx+24(FP), R9
	SHLQ $2, R9
	MOVQ rows+32(FP), R10
	MOVQ k+40(FP), R11
	MOVQ scale+48(FP), R12
	MOVQ zero+56(FP), R13
	MOVL $0x437f0000, AX // 255.0
	VMOVD AX, X5
	MOVL $0x3f000000, AX // 0.5
	VMOVD AX, X9
	MOVL $255, AX
	VPBROADCASTD AX, Z10
	VPXORD Z12, Z12, Z12
q8qrow:
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	MOVQ SI, BX
	MOVQ R11, CX
q8qrange:
	VMINPS (BX), Z0, Z0
	VMAXPS (BX), Z1, Z1
	ADDQ $64, BX
	SUBQ $16, CX
	JNZ q8qrange
	VEXTRACTF32X8 $1, Z0, Y2
	VMINPS Y2, Y0, Y0
	VEXTRACTF32X8 $1, Z1, Y3
	VMAXPS Y3, Y1, Y1
	VEXTRACTF128 $1, Y0, X2
	VMINPS X2, X0, X0
	VEXTRACTF128 $1, Y1, X3
	VMAXPS X3, X1, X1
	VMOVHLPS X0, X0, X2
	VMINPS X2, X0, X0
	VMOVHLPS X1, X1, X3
	VMAXPS X3, X1, X1
	VMOVSHDUP X0, X2
	VMINSS X2, X0, X0
	VMOVSHDUP X1, X3
	VMAXSS X3, X1, X1
	VSUBSS X0, X1, X3 // d = hi - lo
	VUCOMISS X12, X3
	JEQ q8qzero
	VDIVSS X5, X3, X4 // scale = d / 255
	VDIVSS X3, X5, X6 // inv = 255 / d
	VMULSS X6, X0, X7 // lo*inv
	VSUBSS X7, X9, X7 // 0.5 - lo*inv
	VCVTTSS2SI X7, AX
	XORL DX, DX
	CMPL AX, $0
	CMOVLLT DX, AX
	MOVL $255, DX
	CMPL AX, $255
	CMOVLGT DX, AX
	VCVTSI2SSL AX, X8, X8
	VADDSS X9, X8, X8 // off = float32(zero) + 0.5
	VMOVSS X4, (R12)
	MOVL AX, (R13)
	VBROADCASTSS X6, Z6
	VBROADCASTSS X8, Z8
	MOVQ SI, BX
	MOVQ DI, DX
	MOVQ R11, CX
q8qconv:
	VMULPS (BX), Z6, Z11
	VADDPS Z8, Z11, Z11
	VCVTTPS2DQ Z11, Z11
	VPMAXSD Z12, Z11, Z11
	VPMINSD Z10, Z11, Z11
	VPMOVDB Z11, (DX)
	ADDQ $64, BX
	ADDQ $16, DX
	SUBQ $16, CX
	JNZ q8qconv
	JMP q8qnext
q8qzero:
	MOVL $0, (R12)
	MOVL $0, (R13)
	MOVQ DI, DX
	MOVQ R11, CX
q8qclear:
	VMOVDQU8 X12, (DX)
	ADDQ $16, DX
	SUBQ $16, CX
	JNZ q8qclear
q8qnext:
	ADDQ R9, SI
	ADDQ R8, DI
	ADDQ $4, R12
	ADDQ $4, R13
	DECQ R10
	JNZ q8qrow
	VZEROUPPER
	RET
