# generates nn/kernels/q8norm_amd64.s
out = []
def e(s=""): out.append(s)

def reduce4(op, a, b, c, d, t1, t2):
    e(f"\tVSHUFF32X4 $0x44, {b}, {a}, {t1}")
    e(f"\tVSHUFF32X4 $0xEE, {b}, {a}, {t2}")
    e(f"\t{op} {t2}, {t1}, {a}")
    e(f"\tVSHUFF32X4 $0x44, {d}, {c}, {t1}")
    e(f"\tVSHUFF32X4 $0xEE, {d}, {c}, {t2}")
    e(f"\t{op} {t2}, {t1}, {c}")
    e(f"\tVSHUFF32X4 $0x88, {c}, {a}, {t1}")
    e(f"\tVSHUFF32X4 $0xDD, {c}, {a}, {t2}")
    e(f"\t{op} {t2}, {t1}, {a}")
    e(f"\tVSHUFPS $0xB1, {a}, {a}, {t1}")
    e(f"\t{op} {t1}, {a}, {a}")
    e(f"\tVSHUFPS $0x4E, {a}, {a}, {t1}")
    e(f"\t{op} {t1}, {a}, {a}")

X = ["SI", "R10", "R11", "R12"]  # the group's four rows of x

def rowptrs():
    e("\tLEAQ (SI)(DX*1), R10")
    e("\tLEAQ (SI)(DX*2), R11")
    e("\tLEAQ (R10)(DX*2), R12")

def tree(k):
    a = 4*k
    e(f"\tVADDPS Z{a+1}, Z{a}, Z{a}")
    e(f"\tVADDPS Z{a+3}, Z{a+2}, Z{a+2}")
    e(f"\tVADDPS Z{a+2}, Z{a}, Z{a}")

e("""//go:build amd64 && !purego && !noasm

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
q8lnStats:""")
rowptrs()
for r in range(16):
    e(f"\tVPXORD Z{r}, Z{r}, Z{r}")
e("\tXORQ CX, CX")
e("\tTESTQ AX, AX")
e("\tJE q8lnSum16")
e("q8lnSum64:")
for v in range(4):
    for k in range(4):
        e(f"\tVADDPS {64*v}({X[k]})(CX*1), Z{4*k+v}, Z{4*k+v}")
e("\tADDQ $256, CX")
e("\tCMPQ CX, AX")
e("\tJLT q8lnSum64")
e("q8lnSum16:")
e("\tCMPQ CX, DX")
e("\tJGE q8lnSumH")
for k in range(4):
    e(f"\tVADDPS ({X[k]})(CX*1), Z{4*k}, Z{4*k}")
e("\tADDQ $64, CX")
e("\tJMP q8lnSum16")
e("q8lnSumH:")
for k in range(4):
    tree(k)
reduce4("VADDPS", "Z0", "Z4", "Z8", "Z12", "Z16", "Z17")
e("""	VPERMPS Z0, Z30, Z0
	VDIVPS X29, X0, X0 // the four means
	MOVQ mean+48(FP), R13
	VMOVUPS X0, (R13)
	VBROADCASTSS 0(R13), Z16
	VBROADCASTSS 4(R13), Z17
	VBROADCASTSS 8(R13), Z18
	VBROADCASTSS 12(R13), Z19
	ADDQ $16, R13
	MOVQ R13, mean+48(FP)""")
for r in range(16):
    e(f"\tVPXORD Z{r}, Z{r}, Z{r}")
e("\tXORQ CX, CX")
e("\tTESTQ AX, AX")
e("\tJE q8lnSq16")
e("q8lnSq64:")
for v in range(4):
    for k in range(4):
        e(f"\tVSUBPS {64*v}({X[k]})(CX*1), Z{16+k}, Z{20+k} // mean - x: the same square")
    for k in range(4):
        e(f"\tVFMADD231PS Z{20+k}, Z{20+k}, Z{4*k+v}")
e("\tADDQ $256, CX")
e("\tCMPQ CX, AX")
e("\tJLT q8lnSq64")
e("q8lnSq16:")
e("\tCMPQ CX, DX")
e("\tJGE q8lnSqH")
for k in range(4):
    e(f"\tVSUBPS ({X[k]})(CX*1), Z{16+k}, Z{20+k}")
for k in range(4):
    e(f"\tVFMADD231PS Z{20+k}, Z{20+k}, Z{4*k}")
e("\tADDQ $64, CX")
e("\tJMP q8lnSq16")
e("q8lnSqH:")
for k in range(4):
    tree(k)
reduce4("VADDPS", "Z0", "Z4", "Z8", "Z12", "Z20", "Z21")
e("""	VPERMPS Z0, Z30, Z0
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
q8lnRows:""")
rowptrs()
e("\tMOVQ 16(SP), R13")
for k in range(4):
    e(f"\tVBROADCASTSS {4*k}(R13), Z{16+k}")
e("\tADDQ $16, R13")
e("\tMOVQ R13, 16(SP)")
e("\tMOVQ 24(SP), R13")
for k in range(4):
    e(f"\tVBROADCASTSS {4*k}(R13), Z{20+k}")
e("\tADDQ $16, R13")
e("\tMOVQ R13, 24(SP)")
for k in range(4):
    e(f"\tVPXORD Z{4+k}, Z{4+k}, Z{4+k}")
e("\tXORQ CX, CX")
e("q8lnOut:")
e("\tVMOVUPS (R8)(CX*1), Z9")
for k in range(4):
    e(f"\tVSUBPS ({X[k]})(CX*1), Z{16+k}, Z{k} // mean - x")
for k in range(4):
    e(f"\tVMULPS Z{20+k}, Z{k}, Z{k} // -(x - mean)·rstd")
for k in range(4):
    e(f"\tVFNMADD213PS (R9)(CX*1), Z9, Z{k} // gain·(x - mean)·rstd + bias")
for k in range(4):
    e(f"\tVMAXPS Z{4+k}, Z{k}, Z{4+k} // the maximum, after the ReLU (NaN leaves it)")
for k in range(4):
    e(f"\tVMOVUPS Z{k}, {64*k}(R14)(CX*4)")
e("\tADDQ $64, CX")
e("\tCMPQ CX, DX")
e("\tJLT q8lnOut")
reduce4("VMAXPS", "Z4", "Z5", "Z6", "Z7", "Z8", "Z9")
e("""	VPERMPS Z4, Z30, Z4 // the four rows' hi (lo is 0)
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
q8lnConv64:""")
P = ["R13", "R10", "R11", "R12"]
for k in range(4):
    base = 4*k
    for v in range(4):
        e(f"\tVMULPS {256*v + 64*k}(R14)(CX*4), Z{16+k}, Z{base+v}")
    for v in range(4):
        e(f"\tVADDPS Z28, Z{base+v}, Z{base+v}")
    for v in range(4):
        e(f"\tVCVTTPS2DQ Z{base+v}, Z{base+v}")
    e(f"\tVPACKUSDW Z{base+1}, Z{base}, Z{base}")
    e(f"\tVPACKUSDW Z{base+3}, Z{base+2}, Z{base+2}")
    e(f"\tVPACKUSWB Z{base+2}, Z{base}, Z{base}")
    e(f"\tVPERMD Z{base}, Z26, Z{base}")
    e(f"\tVMOVDQU32 Z{base}, ({P[k]})")
for k in range(4):
    e(f"\tADDQ $64, {P[k]}")
e("\tADDQ $256, CX")
e("\tCMPQ CX, AX")
e("\tJLT q8lnConv64")
e("q8lnConv16:")
e("\tCMPQ CX, DX")
e("\tJGE q8lnNext")
for k in range(4):
    e(f"\tVMULPS {64*k}(R14)(CX*4), Z{16+k}, Z{k}")
for k in range(4):
    e(f"\tVADDPS Z28, Z{k}, Z{k}")
for k in range(4):
    e(f"\tVCVTTPS2DQ Z{k}, Z{k}")
for k in range(4):
    e(f"\tVPMAXSD Z31, Z{k}, Z{k}")
for k in range(4):
    e(f"\tVPMOVUSDB Z{k}, ({P[k]})")
for k in range(4):
    e(f"\tADDQ $16, {P[k]}")
e("\tADDQ $64, CX")
e("\tJMP q8lnConv16")
e("""q8lnNext:
	ADDQ DX, DI // four rows of n bytes
	LEAQ (SI)(DX*4), SI
	DECQ BX
	JNE q8lnRows
	CMPQ 0(SP), $0
	JNE q8lnBlock
	VZEROUPPER
	RET""")
print("\n".join(out))
