def store(p):
    """q8StoreAVX512 inline: the block recorded at 24..40(SP) from its buffer"""
    e(f"""	// the stores of the block recorded at 24(SP) (row), 32(SP) (column
	// byte offset), 40(SP) (its sums)
	MOVQ 40(SP), SI
	MOVQ 32(SP), AX
	MOVQ colScale+72(FP), BX
	VMOVUPS 0(BX)(AX*1), Z0
	VMOVUPS 64(BX)(AX*1), Z1
	VMOVUPS 128(BX)(AX*1), Z2
	VMOVUPS 192(BX)(AX*1), Z3
	MOVQ colSum+80(FP), BX
	VMOVDQU32 0(BX)(AX*1), Z4
	VMOVDQU32 64(BX)(AX*1), Z5
	VMOVDQU32 128(BX)(AX*1), Z6
	VMOVDQU32 192(BX)(AX*1), Z7
	MOVQ bias+88(FP), BX
	VMOVUPS 0(BX)(AX*1), Z8
	VMOVUPS 64(BX)(AX*1), Z9
	VMOVUPS 128(BX)(AX*1), Z10
	VMOVUPS 192(BX)(AX*1), Z11
	MOVQ 24(SP), R10
	MOVQ rowScale+56(FP), R11
	LEAQ (R11)(R10*4), R11
	MOVQ rowZero+64(FP), R12
	LEAQ (R12)(R10*4), R12
	MOVQ ldc+104(FP), DX
	SHLQ $2, DX
	IMULQ DX, R10
	ADDQ AX, R10 // the block's offset in c (and res)
	MOVQ c+96(FP), DI
	ADDQ R10, DI
	MOVQ res+120(FP), R9
	TESTQ R9, R9
	JZ {p}nores
	ADDQ R10, R9
{p}nores:
	MOVL relu+112(FP), R10
	MOVQ $16, CX
	VMOVDQU32 (R12), Z12
	VPTESTMD Z12, Z12, K1 // the rows with a zero point
	KORTESTW K1, K1
	JNZ {p}zp
	TESTQ R9, R9
	JNE {p}dres
	TESTL R10, R10
	JNE {p}nozprelu
	JMP {p}nozp
{p}dres:
	TESTL R10, R10
	JNE {p}nozpresrelu
	JMP {p}nozpres
{p}zp:
	TESTQ R9, R9
	JNE {p}dzpres
	TESTL R10, R10
	JNE {p}zprelu
	JMP {p}zp0
{p}dzpres:
	TESTL R10, R10
	JNE {p}zpresrelu
	JMP {p}zpres""")
    for zp in (True, False):
        for withRes in (False, True):
            for relu in (False, True):
                lab = p + ("zp" if zp else "nozp") + ("res" if withRes else "") + ("relu" if relu else "")
                if lab == p + "zp":
                    lab = p + "zp0"
                e(f"{lab}:")
                e("\tVBROADCASTSS (R11), Z13")
                if zp:
                    e("\tVPBROADCASTD (R12), Z14")
                for v in range(4):
                    a, t = 15 + 2*v, 16 + 2*v
                    if zp:
                        e(f"\tVMOVDQU32 {64*v}(SI), Z{a}")
                        e(f"\tVPMULLD Z{4+v}, Z14, Z{t}")
                        e(f"\tVPSUBD Z{t}, Z{a}, Z{a}")
                        e(f"\tVCVTDQ2PS Z{a}, Z{a}")
                    else:
                        e(f"\tVCVTDQ2PS {64*v}(SI), Z{a}")
                    e(f"\tVMULPS Z{v}, Z13, Z{t}")
                    e(f"\tVMULPS Z{t}, Z{a}, Z{a}")
                    e(f"\tVADDPS Z{8+v}, Z{a}, Z{a}")
                    if relu:
                        e(f"\tVMAXPS Z31, Z{a}, Z{a}")
                    if withRes:
                        e(f"\tVADDPS {64*v}(R9), Z{a}, Z{a}")
                    e(f"\tVMOVUPS Z{a}, {64*v}(DI)")
                e("\tADDQ $256, SI")
                e("\tADDQ DX, DI")
                if withRes:
                    e("\tADDQ DX, R9")
                e("\tADDQ $4, R11")
                if zp:
                    e("\tADDQ $4, R12")
                e("\tDECQ CX")
                e(f"\tJNZ {lab}")
                e(f"\tJMP {p}done")
    e(f"{p}done:")

