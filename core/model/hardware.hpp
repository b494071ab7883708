#pragma once
// The facts about Hopper (H100/H200, sm_90) shared memory that the whole model rests on.
// Measured on an H200: see docs/hardware-model.md (the rules and the measured examples).
#include <cstdint>
#include <string_view>

namespace banklab {

inline constexpr int kWarpSize = 32;
inline constexpr int kBankCount = 32;
inline constexpr int kBankWidthBytes = 4;  // banks are 4-byte words: bank = (byte / 4) mod 32
inline constexpr int kWavefrontBytes = kBankCount * kBankWidthBytes;  // 128 B per clock per SM
// Shared memory on sm_90 comes with three limits (CUDA C++ Programming Guide, the table of
// technical specifications per compute capability, 9.0):
//   48 KB   a static __shared__ array: nvcc refuses more ("uses too much shared data", 0xc000);
//   227 KB  one block, and only for an extern __shared__ array (dynamic shared memory) whose
//           kernel opts in on the host with cudaFuncSetAttribute(kernel,
//           cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) and launches with those bytes;
//   228 KB  one SM: the blocks resident on it together, 1 KB of which is reserved per block.
// check_shared_bytes() (shared_limits.hpp) applies them to a declaration.
inline constexpr std::int64_t kStaticSharedBytes = 48 * 1024;
inline constexpr std::int64_t kMaxSharedPerBlockBytes = 227 * 1024;
inline constexpr std::int64_t kSharedMemoryBytes = 228 * 1024;  // per SM
inline constexpr std::int64_t kReservedSharedPerBlockBytes = 1024;
// A TMA copy writes its box to a shared address aligned to 128 B; a swizzled box to one aligned
// to the swizzle's repeat (256, 512, 1024 B for 32B, 64B, 128B: SwizzleSpec::tma_alignment_bytes),
// because the swizzle XORs absolute address bits (7-9 for 128B) into the chunk bits 4-6.
inline constexpr int kTmaAlignmentBytes = 128;
// A TMA box row (its inner dimension) is a multiple of 16 B: TMA can write a 36-float pitch by
// fetching a wider box, never a 33-float one.
inline constexpr int kTmaBoxRowMultipleBytes = 16;
// Global memory is served in 32-byte sectors (L1/L2); shared memory has banks, not sectors.
inline constexpr int kGlobalSectorBytes = 32;
inline constexpr int kMaxWavefronts = 32;  // no access needs more (see analysis.cpp)
// The widest access of one lane (LDS.128, STS.128, a float4): rows it fills must start on it.
inline constexpr int kMaxAccessBytes = 16;

// The Nsight Compute counters of shared-memory instructions (docs/hardware-rules.md, "Measuring it
// yourself"): the wavefronts, and the bank conflicts = wavefronts - ideal, of loads (LDS, LDSM)
// or stores (STS, STSM); and, from instrumented SASS rather than hardware counters, the
// per-instruction wavefronts that the Source page shows (its Ideal column has no metric that
// `ncu --query-metrics` lists; the H200's list: tests/scan/measured/counter-names.txt).
inline constexpr std::string_view kNcuWavefrontsLd =
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
inline constexpr std::string_view kNcuWavefrontsSt =
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
inline constexpr std::string_view kNcuConflictsLd =
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
inline constexpr std::string_view kNcuConflictsSt =
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
// cp.async's shared side (LDGSTS) is an operation of its own: a hardware conflict counter, but
// wavefronts only from instrumented SASS (no l1tex__..._wavefronts_mem_shared_op_ldgsts on the
// H200: tests/scan/measured/counter-names.txt).
inline constexpr std::string_view kNcuConflictsLdgsts =
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum";
inline constexpr std::string_view kNcuSassWavefrontsLdgsts =
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum";
inline constexpr std::string_view kNcuInstructionsLd = "smsp__sass_inst_executed_op_shared_ld.sum";
inline constexpr std::string_view kNcuInstructionsSt = "smsp__sass_inst_executed_op_shared_st.sum";
// The hardware's own instruction counters, which the GPU library reads (kernels/measure): LDS and
// LDSM (STS and STSM) counted apart, as the SASS-patched kNcuInstructionsLd does not count LDSM;
// with these all eight counters of a measurement fit one replay pass. And the SM's active
// cycles, the cross-check's clock.
inline constexpr std::string_view kNcuHwInstructionsLds = "smsp__inst_executed_op_shared_ld.sum";
inline constexpr std::string_view kNcuHwInstructionsLdsm = "smsp__inst_executed_op_ldsm.sum";
inline constexpr std::string_view kNcuHwInstructionsSts = "smsp__inst_executed_op_shared_st.sum";
inline constexpr std::string_view kNcuHwInstructionsStsm = "smsp__inst_executed_op_shared_stsm.sum";
inline constexpr std::string_view kNcuSmActiveCycles = "sm__cycles_active.avg";
inline constexpr std::string_view kNcuSassWavefronts =
    "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared";

// Bank-level arithmetic, the only place it is spelled out.
constexpr std::int64_t word_of_byte(std::int64_t byte) {
  return byte / kBankWidthBytes;
}
constexpr int bank_of_word(std::int64_t word) {
  return static_cast<int>(word % kBankCount);
}
constexpr int bank_of_byte(std::int64_t byte) {
  return bank_of_word(word_of_byte(byte));
}

}  // namespace banklab
