#pragma once
// The code form of the scenario flags, shared by `banklab analyze --decl ... --expr ...` and
// banklab-gui (whose Code window takes the same): a __shared__ declaration and one access as
// CUDA code, and the launch they are evaluated for (core/code/kernel_code.hpp).
#include "app/frontend/args.hpp"
#include "core/base/expected.hpp"
#include "core/code/kernel_code.hpp"

namespace banklab::frontend {

inline constexpr FlagSpec kCodeFlags[] = {
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
inline constexpr FlagGroup kCodeGroup{
    "Code form: a declaration and an access as CUDA code, evaluated for every lane (--op ld, st\n"
    "or a matrix op for a bare access; the code's '=' says load or store otherwise).",
    kCodeFlags};

// --decl or --expr is given: the code form.
bool has_code_flags(const Args& args);

// --block, --warp, --let, --smem and --op, read into the parameters of evaluate_code() in that
// order (absent ones keep KernelParams' defaults); an Error names the flag and what it takes.
// The command's syntax declares them all: kCodeGroup and the scenario group's --op.
Expected<KernelParams> read_code_params(const Args& args);

}  // namespace banklab::frontend
