#!/usr/bin/env python3
"""Writes the fuzz target's seed corpus (tests/fuzz/corpus/) in the input format that
fuzz_core.cpp describes: a text seed per parser, and binary scenarios for the lesson's tiles,
its diagnostics and a few absurd values. Run it again after changing that format."""
import pathlib
import struct

CORPUS = pathlib.Path(__file__).resolve().parent / "corpus"

DTYPES = {"fp8": 0, "bf16": 1, "fp32": 2, "fp64": 3}
# The SwizzleKind enumerators' values (the fuzzer reads the kind as the enumerator).
SWIZZLES = {"none": 0, "xor": 1, "cute": 2, "tma32": 3, "tma64": 4, "tma128": 5, "cute-elem": 6,
            "triton": 7}
PATTERNS = {"row": 0, "column": 1, "matrix": 2, "raw": 3}
OPS = {"ld": 0, "st": 1, "ldmatrix.x1": 2, "ldmatrix.x2": 3, "ldmatrix.x4": 4, "stmatrix.x4": 5}


def integer(v):
    """ByteReader::small_or_raw(): one byte for -16..223, else 0xF0 and 32 raw bits."""
    if -16 <= v <= 223:
        return bytes([v + 16])
    return b"\xf0" + struct.pack(">I", v & 0xFFFFFFFF)


def offset(v):
    """ByteReader::offset(): -1 is tag 0xF0; small offsets a 16-bit value times 1; others raw."""
    if v == -1:
        return b"\xf0"
    if 0 <= v < 65536:
        return b"\x00" + struct.pack(">H", v)
    return b"\xf8" + struct.pack(">Q", v & 0xFFFFFFFFFFFFFFFF)


def scenario(dtype="fp32", rows=32, cols=32, pad=0, swizzle="none", parameters=(0, 0, 0),
             pattern="column", op="ld", width=0, index=0, mask=0xFFFFFFFF, offsets=None):
    """parameters: B, M, S for cute and cute-elem; vec, perPhase, maxPhase for triton."""
    out = b"\x01" + bytes([DTYPES[dtype]]) + integer(rows) + integer(cols) + integer(pad)
    out += bytes([SWIZZLES[swizzle]]) + b"".join(integer(v) for v in parameters)
    out += bytes([PATTERNS[pattern], OPS[op]]) + integer(width) + integer(index)
    out += struct.pack(">I", mask)
    if pattern == "raw":
        out += b"".join(offset(v) for v in offsets)
    return out


def offsets_text(f):
    return ",".join(str(f(lane)) for lane in range(32))


TEXT = {
    "line-column-32way": "ld 4 " + offsets_text(lambda l: 128 * l),
    "line-store-16B": "st 16 " + offsets_text(lambda l: 16 * l),
    "line-ldmatrix-swizzled": "ldmatrix.x4 16 "
    + offsets_text(lambda l: 128 * (l % 8) + 16 * ((l // 8) ^ (l % 8))),
    "line-inactive": "ld 8 " + offsets_text(lambda l: -1 if l % 2 else 8 * l),
    "swizzle-cute": "cute:3,4,3",
    "swizzle-tma128": "tma128",
    "swizzle-cute-elem": "cute-elem:3,3,3",
    "swizzle-triton": "triton:8,1,8",
    "tile-size": "32x33",
    "offsets": offsets_text(lambda l: 4 * l),
    "dtype": "fp16",
    # issue 9: off + width overflowed in check_access() for an offset near INT64_MAX.
    "line-int64-max": "ld 16 " + offsets_text(lambda l: 2**63 - 16 if l == 31 else 16 * l),
}

# Text that is not UTF-8: parse errors quote it, and the JSON writers must still emit UTF-8.
RAW_TEXT = {
    "line-not-utf8": b"ld\xff 4 " + offsets_text(lambda l: 4 * l).encode(),
}

SCENARIOS = {
    "fp32-naive": scenario(),
    "fp32-pad1": scenario(pad=1, index=5),
    "fp32-pad4": scenario(pad=4),
    "fp32-xor": scenario(swizzle="xor", index=5),
    "fp32-pad1-float4-store": scenario(pad=1, pattern="row", op="st", width=16),
    "bf16-pad1-odd": scenario(dtype="bf16", pad=1, index=3),
    "bf16-pad2-pairs": scenario(dtype="bf16", pad=2, pattern="row", op="st", width=4),
    "fp64-pad1": scenario(dtype="fp64", pad=1),
    "fp8-row-16B": scenario(dtype="fp8", rows=8, cols=24, pad=1, pattern="row", width=16),
    "ldmatrix-tma128": scenario(dtype="bf16", rows=8, cols=64, swizzle="tma128",
                                pattern="matrix", op="ldmatrix.x4"),
    "stmatrix-cute": scenario(dtype="bf16", rows=16, cols=64, swizzle="cute",
                              parameters=(3, 4, 3), pattern="matrix", op="stmatrix.x4", index=2),
    "cute-escapes": scenario(dtype="bf16", rows=8, cols=32, pad=1, swizzle="cute",
                             parameters=(3, 4, 3)),
    "half-warp": scenario(mask=0x0000FFFF),
    "raw-alternate": scenario(pattern="raw", op="ld", width=16,
                              offsets=[128 * (l % 2) for l in range(32)]),
    "raw-absurd": scenario(pattern="raw", op="st", width=8,
                           offsets=[-1, 2**62, 233472, -8] + [8 * l for l in range(28)]),
    # issue 9: off + width overflowed in check_access() (the --offsets form and the GUI's box).
    "raw-int64-max": scenario(pattern="raw", op="ld", width=16,
                              offsets=[2**63 - 16] + [16 * l for l in range(1, 32)]),
    "absurd-tile": scenario(rows=2**31 - 1, cols=2**31 - 1, pad=2**31 - 1, index=-2**31),
    "absurd-swizzle": scenario(swizzle="cute", parameters=(2**31 - 1, 2**31 - 1, 2**31 - 1)),
    # FlashAttention-2's bf16 pattern over elements; Triton's layouts, power-of-two and not.
    "ldmatrix-cute-elem": scenario(dtype="bf16", rows=64, cols=64, swizzle="cute-elem",
                                   parameters=(3, 3, 3), pattern="matrix", op="ldmatrix.x4"),
    "ldmatrix-triton": scenario(dtype="bf16", rows=64, cols=64, swizzle="triton",
                                parameters=(8, 1, 8), pattern="matrix", op="ldmatrix.x4"),
    "triton-odd-parameters": scenario(swizzle="triton", parameters=(3, 5, 7), index=3),
    "absurd-triton": scenario(swizzle="triton", parameters=(2**31 - 1, -2**31, 0)),
}


def main():
    CORPUS.mkdir(exist_ok=True)
    for name, text in TEXT.items():
        (CORPUS / name).write_bytes(b"@" + text.encode())
    for name, raw in RAW_TEXT.items():
        (CORPUS / name).write_bytes(b"@" + raw)
    for name, data in SCENARIOS.items():
        (CORPUS / name).write_bytes(data)


if __name__ == "__main__":
    main()
