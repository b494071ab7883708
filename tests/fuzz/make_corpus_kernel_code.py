#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_kernel_code (tests/fuzz/corpus_kernel_code/) in the input
format fuzz_kernel_code.cpp describes: two parameter bytes, then the declaration, a 0x01 byte
and the access. Run it again after changing that format."""
import pathlib

CORPUS = pathlib.Path(__file__).resolve().parent / "corpus_kernel_code"
ALL_WARPS = 31 << 3
J0 = 0x80  # j = 0; the low nibble is the op (0 none, 2 st)

# name: (byte 0: block | warp << 3, byte 1: op | (j + 8) << 4, declaration or None, access)
SEEDS = {
    "transpose-32x33": (1, J0, "__shared__ float tile[32][33];",
                        "tile[threadIdx.x][threadIdx.y + j]"),
    "transpose-all-warps": (1 | ALL_WARPS, J0, "__shared__ float tile[32][32];",
                            "tile[threadIdx.x][threadIdx.y + j]"),
    "float4-store": (0, J0, "constexpr int N = 32; __shared__ float t[N][N + 4];",
                     "*reinterpret_cast<float4*>(&t[threadIdx.x / 8][threadIdx.x % 8 * 4]) = v;"),
    "float4-misaligned": (0, J0, "__shared__ float t[32][33];",
                          "*(float4*)&t[threadIdx.x / 8][threadIdx.x % 8 * 4] = v"),
    "gemm-broadcast": (2, J0, "#define BK 16\n__shared__ float As[16][BK];",
                       "float a = As[threadIdx.y][j];"),
    "bf16-pairs": (0, J0, "__shared__ __nv_bfloat162 s[32][17];", "s[threadIdx.x][1].y"),
    "ldmatrix-swizzled": (0, J0, "__shared__ __nv_bfloat16 sA[8][64];",
                          "ldmatrix.x4(&sA[threadIdx.x % 8][((threadIdx.x / 8) ^ (threadIdx.x % 8)) * 8]);"),
    "ldmatrix-ptx": (0, J0, "__shared__ __align__(128) half sA[8][64];",
                     "uint32_t a = __cvta_generic_to_shared(&sA[threadIdx.x % 8][threadIdx.x / 8 * 8]);\n"
                     "ldmatrix.sync.aligned.m8n8.x4.shared.b16(r0, r1, r2, r3, a);"),
    "bare-op-st": (0, J0 | 2, "__shared__ double d[64];", "d[threadIdx.x * 2 % 64]"),
    "extern-locals": (4, J0, "extern __shared__ float smem[][33];",
                      "const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;\n"
                      "smem[warp * 32 + lane][min(j, 3)]"),
    "operators": (0, J0, None,
                  "(1 << 3) + ~5 - -7 * 3 / 2 % 5 ^ 6 & 12 | 1 >> 1 ? 0x1f <= 3 : "
                  "0b11 != 010 && !0 || 4 >= 5 == 1 < 2"),
    "undefined-name": (0, 0, "__shared__ float tile[32][33];", "tile[threadIdx.x][k]"),
    "overflow": (0, J0, "__shared__ float t[4];", "t[9223372036854775807 + 1]"),
    "comment-define": (3, J0, "/* c */ #define T 8 // x\n__shared__ int t[T][T][T];",
                       "t[threadIdx.z][threadIdx.y][threadIdx.x]"),
    # Long, deep and chained code through the repetition bytes (0x02 C fragment 0x03: the
    # fragment 64 * (C + 1) times, '$' the copy's number from 1, '@' the one before).
    "long-sum": (0, J0, "__shared__ float tile[32][33];",
                 "tile[threadIdx.x][0\x02\xff+1-1\x03]"),
    "subscript-chain": (0, J0, "__shared__ float tile[32][33];", "tile\x02\x9c[0]\x03"),
    "chained-locals": (0, J0, "__shared__ float tile[32][33];",
                       "int a0 = threadIdx.x;\x02\x6dint a$ = a@ + 1;\x03tile[a7040 % 32][0]"),
    "doubling-chain": (0, J0, "constexpr long long A0 = 1;\n"
                       "\x02\x00constexpr long long A$ = A@ + A@;\n\x03__shared__ float t[64];",
                       "t[A62 >> 57]"),
    "many-dimensions": (0, J0, "__shared__ float t\x02\xff[1]\x03\x02\x38[1]\x03[32];",
                        "t\x02\xff[0]\x03\x02\x38[0]\x03[threadIdx.x]"),
    "deep-ternary": (0, J0, "__shared__ float t[4];", "t[\x02\x02 1 ? 0 :\x03 0]"),
}


def main():
    CORPUS.mkdir(exist_ok=True)
    for name, (b0, b1, decl, access) in SEEDS.items():
        text = access if decl is None else decl + "\x01" + access
        (CORPUS / name).write_bytes(bytes([b0, b1]) + text.encode())


if __name__ == "__main__":
    main()
