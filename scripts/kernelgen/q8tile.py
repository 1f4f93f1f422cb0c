# generates nn/kernels/q8tile_amd64.s: the int8 product tiles
out = []
def e(s=""): out.append(s)

SIG = "(a *uint8, lda int, w *int8, ldw int, groups int, rowScale *float32, rowZero *int32, colScale *float32, colSum *int32, bias *float32, c *float32, ldc int, relu int32, res *float32)"
ROWADDR = ["(SI)", "(SI)(R8*1)", "(SI)(R8*2)", "(SI)(R9*1)", "(SI)(R8*4)", "(SI)(R10*1)"]

def vex_dpbusd(d, v, m):
    b2 = ((0 if d >= 8 else 1) << 7) | (1 << 6) | ((0 if m >= 8 else 1) << 5) | 0x02
    b3 = ((~v & 15) << 3) | (1 << 2) | 0x01
    b5 = 0xC0 | ((d & 7) << 3) | (m & 7)
    return f"\tBYTE $0xC4; BYTE ${b2:#04x}; BYTE ${b3:#04x}; BYTE $0x50; BYTE ${b5:#04x} // VPDPBUSD Y{m}, Y{v}, Y{d}"

def tile(name, rows, zmm, split):
    V = "Z" if zmm else "Y"
    vb = 64 if zmm else 32
    nv = 4
    W = [24, 25, 26, 27] if zmm else [8, 9, 10, 11]
    B = [28, 29] if zmm else [12, 13]
    xor = "VPXORD" if zmm else "VPXOR"
    mov = "VMOVDQU32" if zmm else "VMOVDQU"
    def dp(wr, br, acc):
        e(f"\tVPDPBUSD {V}{wr}, {V}{br}, {V}{acc}" if zmm else vex_dpbusd(acc, br, wr))
    e(f"// func {name}{SIG}")
    e(f"TEXT ·{name}(SB), NOSPLIT, $0-112")
    e("\tMOVQ a+0(FP), SI")
    e("\tMOVQ lda+8(FP), R8")
    e("\tMOVQ w+16(FP), BX")
    e("\tMOVQ ldw+24(FP), DX")
    e("\tMOVQ groups+32(FP), CX")
    if rows > 3:
        e("\tLEAQ (R8)(R8*2), R9")
    if rows > 5:
        e("\tLEAQ (R8)(R8*4), R10")
    for i in range(rows * nv * (2 if split else 1)):
        e(f"\t{xor} {V}{i}, {V}{i}, {V}{i}")
    if split:
        # one row: even groups into accumulators 0-3, odd ones into 4-7
        e("\tMOVQ CX, AX")
        e("\tSHRQ $1, CX")
        e(f"\tJZ {name}odd")
        e(f"{name}pair:")
        for half in range(2):
            for v in range(nv):
                e(f"\t{mov} {vb*v}(BX), {V}{W[v]}")
            e(f"\tVPBROADCASTD {4*half}(SI), {V}{B[half]}")
            for v in range(nv):
                dp(W[v], B[half], nv*half + v)
            e("\tADDQ DX, BX")
        e("\tADDQ $8, SI")
        e("\tDECQ CX")
        e(f"\tJNZ {name}pair")
        e(f"{name}odd:")
        e("\tTESTQ $1, AX")
        e(f"\tJZ {name}sum")
        for v in range(nv):
            e(f"\t{mov} {vb*v}(BX), {V}{W[v]}")
        e(f"\tVPBROADCASTD (SI), {V}{B[0]}")
        for v in range(nv):
            dp(W[v], B[0], v)
        e(f"{name}sum:")
        for v in range(nv):
            e(f"\tVPADDD {V}{nv+v}, {V}{v}, {V}{v}")
    else:
        e(f"{name}loop:")
        for v in range(nv):
            e(f"\t{mov} {vb*v}(BX), {V}{W[v]}")
        for r in range(rows):
            b = B[r % 2]
            e(f"\tVPBROADCASTD {ROWADDR[r]}, {V}{b}")
            for v in range(nv):
                dp(W[v], b, nv*r + v)
        e("\tADDQ $4, SI")
        e("\tADDQ DX, BX")
        e("\tDECQ CX")
        e(f"\tJNZ {name}loop")
    # the stores
    e("\tMOVQ rowScale+40(FP), AX")
    e("\tMOVQ rowZero+48(FP), R11")
    e("\tMOVQ colScale+56(FP), R12")
    e("\tMOVQ colSum+64(FP), R13")
    e("\tMOVQ bias+72(FP), R14")
    e("\tMOVQ c+80(FP), DI")
    e("\tMOVQ ldc+88(FP), DX")
    e("\tSHLQ $2, DX")
    e("\tMOVQ res+104(FP), R9")
    e("\tMOVL relu+96(FP), R10")
    F, Z, S, T = (31, 28, 29, 30) if zmm else (15, 12, 13, 14)
    e(f"\t{xor} {V}{F}, {V}{F}, {V}{F}")
    e("\tMOVL (R11), CX // the rows' zero points, or-ed: 0 when all are")
    for r in range(1, rows):
        e(f"\tORL {4*r}(R11), CX")
    e("\tTESTQ R9, R9")
    e(f"\tJNE {name}dres")
    for r in ("", "res"):
        if r:
            e(f"{name}dres:")
        e("\tTESTL CX, CX")
        e(f"\tJE {name}d{r}nozp")
        e("\tTESTL R10, R10")
        e(f"\tJNE {name}zp{r}relu")
        e(f"\tJMP {name}zp{r}")
        e(f"{name}d{r}nozp:")
        e("\tTESTL R10, R10")
        e(f"\tJNE {name}nozp{r}relu")
        e(f"\tJMP {name}nozp{r}")
    for zp in (True, False):
        for withRes in (False, True):
            for relu in (False, True):
                e(f"{name}{'zp' if zp else 'nozp'}{'res' if withRes else ''}{'relu' if relu else ''}:")
                for r in range(rows):
                    if r > 0:
                        e("\tADDQ DX, DI")
                        if withRes:
                            e("\tADDQ DX, R9")
                    if zp:
                        e(f"\tVPBROADCASTD {4*r}(R11), {V}{Z}")
                    e(f"\tVBROADCASTSS {4*r}(AX), {V}{S}")
                    for v in range(nv):
                        acc = nv*r + v
                        off = vb*v
                        if zp:
                            e(f"\tVPMULLD {off}(R13), {V}{Z}, {V}{T}")
                            e(f"\tVPSUBD {V}{T}, {V}{acc}, {V}{acc}")
                        e(f"\tVCVTDQ2PS {V}{acc}, {V}{acc}")
                        e(f"\tVMULPS {off}(R12), {V}{S}, {V}{T}")
                        e(f"\tVMULPS {V}{T}, {V}{acc}, {V}{acc}")
                        e(f"\tVADDPS {off}(R14), {V}{acc}, {V}{acc}")
                        if relu:
                            e(f"\tVMAXPS {V}{F}, {V}{acc}, {V}{acc}")
                        if withRes:
                            e(f"\tVADDPS {off}(R9), {V}{acc}, {V}{acc}")
                        e(f"\tVMOVUPS {V}{acc}, {off}(DI)")
                e("\tVZEROUPPER")
                e("\tRET")
    e("")

e("""//go:build amd64 && !purego && !noasm

#include "textflag.h"

// The int8 product tiles of q8_amd64.go, unrolled: the tiles of 1 to 6 rows
// differ only in their number of rows, and each has eight stores (with or
// without the zero points' correction, the ReLU, res) that differ only in
// those steps; edit them together. Arguments:
// a+0 lda+8 w+16 ldw+24 groups+32 rowScale+40 rowZero+48 colScale+56
// colSum+64 bias+72 c+80 ldc+88 relu+96 res+104.
//
// Each tile adds up the rows' int32 sums over the groups of four bytes,
// then stores act(float32(sum − z·colSum)·(colScale·rowScale) + bias),
// act a ReLU when relu is not 0 (max(y, 0): 0 for a NaN) and otherwise the
// identity, plus res (same stride as c) when res is not nil. The correction
// z·colSum is skipped when every row's zero point is 0 (rows quantised
// after a ReLU), which changes nothing: it is 0. The one-row tiles add the
// even and the odd groups into two sets of accumulators and those
// together (integer sums: exact in any order), to halve the chain of
// dependent VPDPBUSDs.
""")
for r in range(1, 7):
    tile(f"q8Tile{r}x64AVX512", r, True, r == 1)
tile("q8Tile2x32AVXVNNI", 2, False, False)
tile("q8Tile1x32AVXVNNI", 1, False, True)
print("\n".join(out))
