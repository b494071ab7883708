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
}


def main():
    CORPUS.mkdir(exist_ok=True)
    for name, (b0, b1, decl, access) in SEEDS.items():
        text = access if decl is None else decl + "\x01" + access
        (CORPUS / name).write_bytes(bytes([b0, b1]) + text.encode())


if __name__ == "__main__":
    main()
