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
    # Whole files, for the scan (issue 32): each the shape that crashed it or ran away, at the
    # size that did. The block is the input's (byte 0: 32x1x1 here).
    "file-return-calls": (0, J0, None,
                          "__device__ int g(int n) { return n; }\n"
                          "__device__ int f(int n) { return g(n); }\n"
                          "__global__ void k() { __shared__ float t[32][33]; t[threadIdx.x][f(0)] = 1; }"),
    "file-nested-subscripts": (0, J0, None,
                               "__global__ void k(int* a) { __shared__ int s[32]; s[threadIdx.x] = "
                               "\x02\x2ea[\x030\x02\x2e]\x03; }"),
    "file-nested-braces": (0, J0, None,
                           "__global__ void k() { __shared__ int s[32]; \x02\x9b{\x03s[threadIdx.x] = 1;"
                           "\x02\x9b}\x03 }"),
    "file-else-ifs": (0, J0, None,
                      "__global__ void k() { __shared__ int s[32]; if (threadIdx.x == 0) s[0] = 1; "
                      "\x02\x9belse if (threadIdx.x == $) s[$ % 32] = 1; \x03}"),
    "file-if-parentheses": (0, J0, None,
                            "#if \x02\xff(\x031\x02\xff)\x03\n#endif\n"
                            "__global__ void k() { __shared__ int s[32]; s[threadIdx.x] = 1; }"),
    "file-macro-nesting": (0, J0, None,
                           "#define F(x) x\nint v = \x02\x1fF(\x031\x02\x1f)\x03;\n"
                           "__global__ void k() { __shared__ int s[32]; s[threadIdx.x] = v; }"),
    "file-macro-chain": (0, J0, None,
                         "#define M0 1\n\x02\x3e#define M$ M@\n\x03"
                         "__global__ void k() { __shared__ int s[32]; int v = \x02\x00M4000 + \x030; }"),
    "file-two-4096-loops": (0, J0, None,
                            "__global__ void k() { __shared__ float s[32]; for (int i = 0; i < 4096; ++i) "
                            "for (int j = 0; j < 4096; ++j) s[threadIdx.x] += 1; }"),
    "file-stepped-loops": (0, J0, None,
                           "__global__ void k() { __shared__ float s[64]; for (int i = 0; i < 4096; ++i) "
                           "for (int j = 0; j < 4096; ++j) s[(threadIdx.x + i + j) % 64] += 1; }"),
    "file-many-kernels": (0, J0, None,
                          "\x02\x9b__global__ void k$() { __shared__ float s[32]; "
                          "for (int j = 0; j < 64; ++j) s[threadIdx.x] += j; }\n\x03"),
    "file-launch-limits": (0, J0, None,
                           "__global__ void k() { __shared__ float s[32]; s[threadIdx.x % 32] = 1; }\n"
                           "int main() { k<<<dim3(2147483647, 65536), dim3(65536, 65537)>>>(); }"),
    "file-escapes": (0, J0, None,
                     "__global__ void k() { __shared__ float s[32]; s[threadIdx.x] = 1; } "
                     "// \x1b]0;title\x07 \x1b[31m\n"),
}


def main():
    CORPUS.mkdir(exist_ok=True)
    for name, (b0, b1, decl, access) in SEEDS.items():
        text = access if decl is None else decl + "\x01" + access
        (CORPUS / name).write_bytes(bytes([b0, b1]) + text.encode())


if __name__ == "__main__":
    main()
