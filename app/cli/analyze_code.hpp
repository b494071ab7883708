#pragma once
// banklab analyze --decl "..." --expr "...": the code form of analyze (issue 16). The code is
// parsed and evaluated per lane by core (kernel_code.hpp); this file reads the flags, prints
// what analyze prints for the resulting access, and adds the expression evaluated per lane.
#include <span>

#include "app/frontend/args.hpp"

namespace banklab::cli {

inline constexpr frontend::FlagSpec kCodeFlags[] = {
    {"decl", "CODE",
     "the shared declaration: \"__shared__ float tile[32][33];\" (constexpr\n"
     "and #define sizes before it, extern __shared__ T name[] too)"},
    {"expr", "CODE",
     "the access: \"tile[threadIdx.x][threadIdx.y + j]\", \"tile[r][c] = x\",\n"
     "\"*reinterpret_cast<float4*>(&tile[r][c])\", \"ldmatrix.x4(&tile[r][c])\""},
    {"block", "XxYxZ", "the block's threads: 32x8, 256, 8x8x4                 (default 32)"},
    {"warp", "W|all", "the warp to look at, or all: the worst one is shown   (default 0)"},
    {"let", "NAME=V,...", "values of the loop variables and other names: j=0,k=8"},
    {"smem", "BYTES",
     "the launch's dynamic shared memory, for extern arrays (default and most: 232448, 227 KB)"},
};
inline constexpr frontend::FlagGroup kCodeGroup{
    "Code form: a declaration and an access as CUDA code, evaluated for every lane (--op ld, st\n"
    "or a matrix op for a bare access; the code's '=' says load or store otherwise).",
    kCodeFlags};

bool has_code_flags(const frontend::Args& args);
int run_analyze_code(const frontend::Args& args);

}  // namespace banklab::cli
