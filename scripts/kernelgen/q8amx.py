import os
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'amx_helpers.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'amx_store.py')).read())

e("""//go:build amd64 && !purego && !noasm

#include "textflag.h"

// The int8 products on AMX (q8amx_amd64.go). The Go assembler has no AMX
// mnemonics: the instructions are spelt in bytes (their VEX encodings),
// each with its mnemonic beside it.

// q8amxCfg is the tiles' configuration (LDTILECFG): palette 1, tiles 0 to
// 7 of 16 rows × 64 bytes.
DATA q8amxCfg<>+0(SB)/8, $1
DATA q8amxCfg<>+8(SB)/8, $0
DATA q8amxCfg<>+16(SB)/8, $0x0040004000400040
DATA q8amxCfg<>+24(SB)/8, $0x0040004000400040
DATA q8amxCfg<>+32(SB)/8, $0
DATA q8amxCfg<>+40(SB)/8, $0
DATA q8amxCfg<>+48(SB)/8, $0x1010101010101010
DATA q8amxCfg<>+56(SB)/8, $0
GLOBL q8amxCfg<>(SB), RODATA|NOPTR, $64

// func q8AMX(a *uint8, lda int, w *int8, ldw int, kchunks, mblocks, nblocks int, rowScale *float32, rowZero *int32, colScale *float32, colSum *int32, bias *float32, c *float32, ldc int, relu int32, res *float32, scratch *int32)
//
// Q8Gemm (see q8Generic: the same integer sums, the same float32
// operations) for mblocks·16 rows, nblocks·64 columns and kchunks·64 bytes
// of a row, block by block of 16×64: tile 4 (the block's rows, 64 bytes of
// k at a time) times tiles 5 to 7 in turn (16 groups of four rows of W by
// 16 columns, as PackedQ8 lays them out) into tiles 0 to 3 (the block's
// int32 sums, 16 columns each), which go to scratch (two buffers of 16×64
// int32 used in turn, 8 KiB) for the AVX-512 stores: the sums scaled, the
// bias, the ReLU and res added as the VNNI tiles do it. A block's stores
// run after the products of the next block are issued, so that the
// AVX-512 units work while the tile unit does.
// Requires: AMX-TILE, AMX-INT8, AVX512F
TEXT ·q8AMX(SB), NOSPLIT, $48-136
	// locals: 0(SP) the block's row (0, 16, ...), 8(SP) its column byte
	// offset (0, 256, ...), 16(SP) the buffer its sums go to; 24(SP),
	// 32(SP), 40(SP) the same of the block before, whose stores are due
	// (row -1: none)
	LEAQ q8amxCfg<>(SB), AX""")
e(ldtilecfg("AX"))
e("""	VPXORD Z31, Z31, Z31
	MOVQ $0, 0(SP)
	MOVQ $-1, 24(SP)
	MOVQ scratch+128(FP), AX
	MOVQ AX, 16(SP)

q8amxRow:
	MOVQ $0, 8(SP)
q8amxCol:
	// the products of the block at row 0(SP), columns 8(SP)/4
	MOVQ lda+8(FP), R8
	MOVQ ldw+24(FP), DX
	MOVQ 0(SP), SI
	IMULQ R8, SI
	ADDQ a+0(FP), SI
	MOVQ w+16(FP), BX
	ADDQ 8(SP), BX
	MOVQ kchunks+32(FP), CX
	MOVQ DX, R9
	SHLQ $4, R9 // 16 groups of W""")
for t in range(4):
    e(tilezero(t))
e("q8amxK:")
e(tileloadd(4, "SI", "R8"))
for j in range(4):
    b = 5 + j % 3
    e(tileloadd(b, "BX", "DX", 64 * j))
    e(tdpbusd(j, 4, b))
e("""	ADDQ $64, SI
	ADDQ R9, BX
	DECQ CX
	JNZ q8amxK
	CMPQ 24(SP), $0
	JLT q8amxSave""")
store("q8amxA")
e("""q8amxSave:
	MOVQ 16(SP), DI
	MOVQ $256, CX""")
for t in range(4):
    e(tilestored(t, "DI", "CX", 64 * t))
e("""	MOVQ 0(SP), AX
	MOVQ AX, 24(SP)
	MOVQ 8(SP), AX
	MOVQ AX, 32(SP)
	MOVQ 16(SP), AX
	MOVQ AX, 40(SP)
	SUBQ scratch+128(FP), AX
	XORQ $4096, AX // the other buffer
	ADDQ scratch+128(FP), AX
	MOVQ AX, 16(SP)
	ADDQ $256, 8(SP)
	MOVQ nblocks+48(FP), AX
	SHLQ $8, AX
	CMPQ 8(SP), AX
	JLT q8amxCol
	ADDQ $16, 0(SP)
	MOVQ mblocks+40(FP), AX
	SHLQ $4, AX
	CMPQ 0(SP), AX
	JLT q8amxRow""")
store("q8amxB")
e(TILERELEASE)
e("""	VZEROUPPER
	RET""")
print("\n".join(out))
