# amx_helpers: byte encodings of the AMX instructions and the shared emitter, for q8amx.py
out = []
def e(s=""): out.append(s)

REG = {"AX":0,"CX":1,"DX":2,"BX":3,"SP":4,"BP":5,"SI":6,"DI":7,"R8":8,"R9":9,"R10":10,"R11":11,"R12":12,"R13":13,"R14":14,"R15":15}

def vex3(R, X, B, mmmmm, W, vvvv, L, pp):
    b1 = ((0 if R else 1) << 7) | ((0 if X else 1) << 6) | ((0 if B else 1) << 5) | mmmmm
    b2 = (W << 7) | ((~vvvv & 15) << 3) | (L << 2) | pp
    return [0xC4, b1, b2]

def mem(reg, base, index, disp):
    """modrm + sib + disp for [base + index*1 + disp], reg field = reg"""
    b, x = REG[base], REG[index]
    assert b & 7 != 5 or disp != 0 or True
    if disp == 0 and (b & 7) != 5:
        mod, d = 0, []
    elif -128 <= disp < 128:
        mod, d = 1, [disp & 0xff]
    else:
        mod, d = 2, list(disp.to_bytes(4, "little", signed=True))
    modrm = (mod << 6) | ((reg & 7) << 3) | 4
    sib = (0 << 6) | ((x & 7) << 3) | (b & 7)
    return [modrm, sib] + d, x >= 8, b >= 8

def bytes_(bs, comment):
    return "\t" + "; ".join(f"BYTE ${b:#04x}" for b in bs) + " // " + comment

def tileloadd(t, base, index, disp=0):
    m, X, B = mem(t, base, index, disp)
    return bytes_(vex3(0, X, B, 2, 0, 0, 0, 3) + [0x4B] + m, f"TILELOADD tmm{t}, [{base}+{index}+{disp}]")

def tilestored(t, base, index, disp=0):
    m, X, B = mem(t, base, index, disp)
    return bytes_(vex3(0, X, B, 2, 0, 0, 0, 2) + [0x4B] + m, f"TILESTORED [{base}+{index}+{disp}], tmm{t}")

def tdpbusd(d, a, b):
    return bytes_(vex3(0, 0, 0, 2, 0, b, 0, 1) + [0x5E, 0xC0 | (d << 3) | a], f"TDPBUSD tmm{d}, tmm{a}, tmm{b}")

def tilezero(t):
    return bytes_(vex3(0, 0, 0, 2, 0, 0, 0, 3) + [0x49, 0xC0 | (t << 3)], f"TILEZERO tmm{t}")

def ldtilecfg(base):
    b = REG[base]
    return bytes_(vex3(0, 0, b >= 8, 2, 0, 0, 0, 0) + [0x49, (b & 7)], f"LDTILECFG [{base}]")

TILERELEASE = bytes_([0xC4, 0xE2, 0x78, 0x49, 0xC0], "TILERELEASE")

# self-check against binutils' encodings
assert tileloadd(4, "SI", "R8") == bytes_([0xc4,0xa2,0x7b,0x4b,0x24,0x06], "TILELOADD tmm4, [SI+R8+0]")
assert tileloadd(5, "SI", "R8", 64).startswith(bytes_([0xc4,0xa2,0x7b,0x4b,0x6c,0x06,0x40], "")[:-4])
assert tileloadd(6, "R11", "DX").startswith(bytes_([0xc4,0xc2,0x7b,0x4b,0x34,0x13], "")[:-4])
assert tdpbusd(0, 4, 6).startswith(bytes_([0xc4,0xe2,0x49,0x5e,0xc4], "")[:-4])
assert tdpbusd(3, 5, 7).startswith(bytes_([0xc4,0xe2,0x41,0x5e,0xdd], "")[:-4])
assert tilestored(1, "DI", "CX", 1024).startswith(bytes_([0xc4,0xe2,0x7a,0x4b,0x8c,0x0f,0x00,0x04,0x00,0x00], "")[:-4])
assert tilezero(3).startswith(bytes_([0xc4,0xe2,0x7b,0x49,0xd8], "")[:-4])
assert ldtilecfg("AX").startswith(bytes_([0xc4,0xe2,0x78,0x49,0x00], "")[:-4])
assert ldtilecfg("R14").startswith(bytes_([0xc4,0xc2,0x78,0x49,0x06], "")[:-4])


