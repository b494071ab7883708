// The Descriptor Lab against the tensor core (label gpu; scripts/test.sh runs it on a Hopper GPU):
// TMA fills A and B (64 x 64 bf16, K-major) as the lab's fill says, and wgmma multiplies them,
// B read through its matching descriptor and A through the descriptor under test, one
// instruction per k-step with the start address the lab advances (check_agreement's steps).
//
// A can also be written by the warpgroup's own stores at the addresses the lab's fill model
// gives an epilogue's swizzled tile (its pattern starting at the tile, off the swizzle's
// boundary when the tile is): the case the PTX ISA's base offset is for.
//
// The lab's verdict must be what the hardware computed:
// - agrees: D equals the CPU GEMM, every element;
// - disagrees: D differs from the CPU GEMM, and equals, bit for bit, the product of what the
//   lab says the descriptor reads: shared memory as the lab's fill model lays it out (zero where
//   TMA wrote nothing), read at the lab's descriptor_byte() addresses. Every wrong row of D is a
//   row the lab reports misread.
// The inputs are small integers (-3..3), so every sum of 64 products is exact in fp32 and "equal"
// means equal bits whatever order the tensor core adds in.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "core/model/descriptor_agreement.hpp"
#include "kernels/descriptor/wgmma_probe.hpp"

using namespace banklab;

namespace {

constexpr int kRows = gpu::kProbeRows;
constexpr int kK = gpu::kProbeK;
constexpr std::uint32_t kSmemBytes = 32768;
constexpr std::int64_t kDestB = 16384;  // A's fills start at 0, B's here
const OperandShape kOperand{OperandMajor::k, DType::bf16};

std::uint16_t bf16_bits(float v) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &v, 4);
  return static_cast<std::uint16_t>(bits >> 16);  // exact: small integers have no low bits
}
float bf16_value(std::uint16_t bits) {
  const std::uint32_t wide = std::uint32_t{bits} << 16;
  float v = 0;
  std::memcpy(&v, &wide, 4);
  return v;
}

// 64 x 64 integers in -3..3 from a fixed seed (a 32-bit LCG), as bf16 bits, row-major.
std::vector<std::uint16_t> small_integers(std::uint32_t seed) {
  std::vector<std::uint16_t> m(std::size_t{kRows} * kK);
  for (std::uint16_t& x : m) {
    seed = seed * 1664525u + 1013904223u;
    x = bf16_bits(static_cast<float>(static_cast<int>(seed >> 24) % 7 - 3));
  }
  return m;
}

OperandFill tma_fill(SwizzleKind kind, int box_cols, std::int64_t dest) {
  return {TileLayout{DType::bf16, kRows, box_cols, 0, SwizzleSpec{kind}}, kK / box_cols, dest};
}

gpu::ProbeFill probe_fill(const OperandFill& f) {
  gpu::ProbeFill p;
  p.swizzle_bytes = f.box.swizzle.tma_span_bytes();
  p.box_rows = f.box.rows;
  p.box_cols = f.box.cols;
  p.boxes = f.boxes;
  p.dest = static_cast<std::uint32_t>(f.dest);
  p.box_bytes = static_cast<std::uint32_t>(f.box.size_bytes());
  return p;
}

// Shared memory as the lab says the two fills leave it: element bits at producer_byte(), 0
// elsewhere (the kernel zeroes it before the loads).
std::vector<std::uint16_t> lab_shared_memory(const OperandFill& fill_a,
                                             const std::vector<std::uint16_t>& a,
                                             const OperandFill& fill_b,
                                             const std::vector<std::uint16_t>& b) {
  std::vector<std::uint16_t> smem(kSmemBytes / 2, 0);
  for (int mn = 0; mn < kRows; ++mn) {
    for (int k = 0; k < kK; ++k) {
      const std::size_t i = std::size_t(mn) * kK + k;
      smem[std::size_t(producer_byte(fill_a, OperandMajor::k, mn, k) / 2)] = a[i];
      smem[std::size_t(producer_byte(fill_b, OperandMajor::k, mn, k) / 2)] = b[i];
    }
  }
  return smem;
}

// What the lab says the tensor core reads for element (mn, k) of the operand, every k-step's
// descriptor taking its start from the agreement's steps; `misread_rows` gets the MN indices
// the lab reports read from the wrong bytes.
std::vector<float> lab_reads(const MatrixDescriptor& d, const DescriptorAgreement& agreement,
                             const OperandFill& fill, const std::vector<std::uint16_t>& smem,
                             std::set<int>& misread_rows) {
  std::vector<float> read(std::size_t{kRows} * kK);
  const int step_k = kOperand.k_step_elements();
  for (const StepStart& step : agreement.steps) {
    MatrixDescriptor at = d;
    at.start = step.start;
    for (int mn = 0; mn < kRows; ++mn) {
      for (int kl = 0; kl < step_k; ++kl) {
        const int k = step.k_step * step_k + kl;
        const std::int64_t byte = descriptor_byte(at, kOperand, mn, kl);
        if (byte < 0 || byte >= kSmemBytes) FAIL("the descriptor reads outside the zeroed bytes");
        read[std::size_t(mn) * kK + k] = bf16_value(smem[std::size_t(byte / 2)]);
        if (byte != producer_byte(fill, OperandMajor::k, mn, k)) misread_rows.insert(mn);
      }
    }
  }
  return read;
}

// D = X * Y^T over K, in double (exact here).
std::vector<float> gemm(const std::vector<float>& x, const std::vector<float>& y) {
  std::vector<float> d(std::size_t{kRows} * kRows);
  for (int m = 0; m < kRows; ++m) {
    for (int n = 0; n < kRows; ++n) {
      double sum = 0;
      for (int k = 0; k < kK; ++k) sum += double(x[m * kK + k]) * y[n * kK + k];
      d[std::size_t(m) * kRows + n] = static_cast<float>(sum);
    }
  }
  return d;
}

std::vector<float> values(const std::vector<std::uint16_t>& bits) {
  std::vector<float> v(bits.size());
  for (std::size_t i = 0; i < bits.size(); ++i) v[i] = bf16_value(bits[i]);
  return v;
}

std::array<std::uint64_t, gpu::kProbeSteps> step_words(const MatrixDescriptor& d,
                                                       const DescriptorAgreement& agreement) {
  REQUIRE(agreement.steps.size() == gpu::kProbeSteps);
  std::array<std::uint64_t, gpu::kProbeSteps> words{};
  for (const StepStart& step : agreement.steps) {
    MatrixDescriptor at = d;
    at.start = step.start;
    words[std::size_t(step.k_step)] = encode(at);
  }
  return words;
}

int differing(const std::vector<float>& x, const std::vector<float>& y) {
  int n = 0;
  for (std::size_t i = 0; i < x.size(); ++i) n += std::memcmp(&x[i], &y[i], 4) != 0;
  return n;
}

// B in every case: a 128B TMA fill read through its matching descriptor.
OperandFill fill_b() {
  return tma_fill(SwizzleKind::tma128, 64, kDestB);
}
MatrixDescriptor desc_b() {
  return {MmaArch::sm90, DescSwizzle::b128, kDestB, 16, 1024, 0, false};
}

// The case without A's descriptors: the inputs, both fills, B's descriptors. A fill that is not
// TMA's is written by the threads' stores, each element where the lab's fill model puts it.
gpu::ProbeCase probe_case(const OperandFill& fill_a) {
  const DescriptorAgreement lab_b = check_agreement(desc_b(), kOperand, fill_b());
  REQUIRE(lab_b.agrees());
  gpu::ProbeCase c;
  c.a = small_integers(1);
  c.b = small_integers(2);
  if (fill_a.is_tma()) {
    c.fill_a = probe_fill(fill_a);
  } else {
    c.fill_a = probe_fill(tma_fill(SwizzleKind::none, 8, 0));  // valid, and not issued
    for (int mn = 0; mn < kRows; ++mn) {
      for (int k = 0; k < kK; ++k) {
        c.a_addresses.push_back(
            static_cast<std::uint32_t>(producer_byte(fill_a, OperandMajor::k, mn, k)));
      }
    }
  }
  c.fill_b = probe_fill(fill_b());
  c.desc_b = step_words(desc_b(), lab_b);
  c.smem_bytes = kSmemBytes;
  return c;
}

std::vector<float> run_on_gpu(const gpu::ProbeCase& c) {
  Expected<std::vector<float>> d = gpu::run_wgmma_probe(c);
  if (!d) FAIL(d.error());
  return std::move(d).value();
}

// A read through `desc_a` from `fill_a`: the lab's verdict on A against the tensor core's D.
// Returns the lab's verdict.
bool lab_matches_hardware(const OperandFill& fill_a, const MatrixDescriptor& desc_a) {
  const DescriptorAgreement lab_a = check_agreement(desc_a, kOperand, fill_a);
  REQUIRE(lab_a.compared);
  gpu::ProbeCase c = probe_case(fill_a);
  c.desc_a = step_words(desc_a, lab_a);
  const std::vector<float> hardware = run_on_gpu(c);

  const std::vector<std::uint16_t> smem = lab_shared_memory(fill_a, c.a, fill_b(), c.b);
  std::set<int> misread_rows;
  std::set<int> b_misread;
  const std::vector<float> predicted =
      gemm(lab_reads(desc_a, lab_a, fill_a, smem, misread_rows),
           lab_reads(desc_b(), check_agreement(desc_b(), kOperand, fill_b()), fill_b(), smem,
                     b_misread));
  const std::vector<float> reference = gemm(values(c.a), values(c.b));
  const int wrong = differing(hardware, reference);
  MESSAGE("A's first descriptor " << hex_word(c.desc_a[0]) << ": the lab "
                                  << std::string(lab_a.agrees() ? "agrees" : "disagrees") << " ("
                                  << lab_a.mismatched << " of " << lab_a.elements
                                  << " elements misread, in " << misread_rows.size()
                                  << " rows); the tensor core: " << wrong
                                  << " of 4096 outputs differ from the CPU GEMM, "
                                  << differing(hardware, predicted)
                                  << " from the lab's prediction");

  CHECK(b_misread.empty());
  CHECK(differing(hardware, predicted) == 0);
  CHECK((wrong == 0) == lab_a.agrees());
  for (int m = 0; m < kRows; ++m) {
    for (int n = 0; n < kRows; ++n) {
      const std::size_t i = std::size_t(m) * kRows + n;
      if (hardware[i] != reference[i]) CHECK(misread_rows.count(m) == 1);
    }
  }
  return lab_a.agrees();
}

MatrixDescriptor sm90(DescSwizzle swizzle, std::int64_t lbo, std::int64_t sbo) {
  return {MmaArch::sm90, swizzle, 0, lbo, sbo, 0, false};
}

}  // namespace

TEST_CASE("TMA 128B read by the 128B descriptor (SBO 1024): the lab agrees, D is exact") {
  CHECK(lab_matches_hardware(tma_fill(SwizzleKind::tma128, 64, 0),
                             sm90(DescSwizzle::b128, 16, 1024)));
}

TEST_CASE("K-major 128B with LBO 4096: ignored, as the lab says; D is exact") {
  CHECK(lab_matches_hardware(tma_fill(SwizzleKind::tma128, 64, 0),
                             sm90(DescSwizzle::b128, 4096, 1024)));
}

TEST_CASE("TMA 64B in two boxes read by the 64B descriptor (SBO 512): agrees, D is exact") {
  CHECK(lab_matches_hardware(tma_fill(SwizzleKind::tma64, 32, 0), sm90(DescSwizzle::b64, 16, 512)));
}

TEST_CASE("TMA 32B in four boxes read by the 32B descriptor (SBO 256): agrees, D is exact") {
  CHECK(lab_matches_hardware(tma_fill(SwizzleKind::tma32, 16, 0), sm90(DescSwizzle::b32, 16, 256)));
}

TEST_CASE("TMA without swizzle, 16-byte boxes, LBO 1024 and SBO 128: agrees, D is exact") {
  CHECK(
      lab_matches_hardware(tma_fill(SwizzleKind::none, 8, 0), sm90(DescSwizzle::none, 1024, 128)));
}

TEST_CASE("TMA 128B read by the 64B descriptor: the lab's misreads are the tensor core's") {
  CHECK_FALSE(
      lab_matches_hardware(tma_fill(SwizzleKind::tma128, 64, 0), sm90(DescSwizzle::b64, 16, 512)));
}

TEST_CASE("TMA 128B read with SBO 512: the lab's misreads are the tensor core's") {
  CHECK_FALSE(
      lab_matches_hardware(tma_fill(SwizzleKind::tma128, 64, 0), sm90(DescSwizzle::b128, 16, 512)));
}

TEST_CASE("No swizzle with LBO and SBO swapped: the lab's misreads are the tensor core's") {
  CHECK_FALSE(
      lab_matches_hardware(tma_fill(SwizzleKind::none, 8, 0), sm90(DescSwizzle::none, 128, 1024)));
}

// TMA swizzles the absolute address: a 128B box at byte 512 keeps the phase of its 1024-byte
// line, so the descriptor at 512 with base offset 0 reads it (the lab agrees and compares).
TEST_CASE("TMA 128B at byte 512 read from 512 with base offset 0: agrees, D is exact") {
  const MatrixDescriptor d{MmaArch::sm90, DescSwizzle::b128, 512, 16, 1024, 0, false};
  CHECK(lab_matches_hardware(tma_fill(SwizzleKind::tma128, 64, 512), d));
}

namespace {

// An epilogue's tile: CuTe's Swizzle<B,4,3> on the tile's own byte offsets (the 32B, 64B or 128B
// pattern), `box_cols` bf16 a row, boxes side by side along K from `dest`.
OperandFill sts_fill(int bits, int box_cols, std::int64_t dest) {
  return {TileLayout{DType::bf16, kRows, box_cols, 0, {SwizzleKind::cute, {bits, 4, 3}}},
          kK / box_cols, dest};
}

MatrixDescriptor based(DescSwizzle swizzle, std::int64_t start, std::int64_t sbo, int base_offset) {
  return {MmaArch::sm90, swizzle, start, 16, sbo, base_offset, false};
}

}  // namespace

// The base offset, modelled: the swizzle takes its row from address bits 7-9 minus the field.
// A pattern that begins off its boundary (an epilogue's tile at byte 512 / 256 / 128) is read
// exactly with the PTX ISA's (start >> 7) & 7 and misread with 0; on a TMA tile, which keeps the
// absolute phase, the ISA's value misreads, exactly as the lab predicts.
TEST_CASE("an epilogue's 128B tile at byte 512: base offset 4 reads it, 0 misreads it") {
  CHECK(lab_matches_hardware(sts_fill(3, 64, 512), based(DescSwizzle::b128, 512, 1024, 4)));
  CHECK_FALSE(lab_matches_hardware(sts_fill(3, 64, 512), based(DescSwizzle::b128, 512, 1024, 0)));
}

TEST_CASE("an epilogue's 64B tile at byte 256: base offset 2 reads it, 0 misreads it") {
  CHECK(lab_matches_hardware(sts_fill(2, 32, 256), based(DescSwizzle::b64, 256, 512, 2)));
  CHECK_FALSE(lab_matches_hardware(sts_fill(2, 32, 256), based(DescSwizzle::b64, 256, 512, 0)));
}

TEST_CASE("an epilogue's 32B tile at byte 128: base offset 1 reads it, 0 misreads it") {
  CHECK(lab_matches_hardware(sts_fill(1, 16, 128), based(DescSwizzle::b32, 128, 256, 1)));
  CHECK_FALSE(lab_matches_hardware(sts_fill(1, 16, 128), based(DescSwizzle::b32, 128, 256, 0)));
}

// A TMA tile off its boundary read with the ISA's base offset: the lab's misreads, the tensor
// core's (128B at 512 and 256, with 4, 2 and 6; 64B at 256 with 2; 32B at 128 with 1).
TEST_CASE("TMA tiles off their boundary with a non-zero base offset: misread as the lab says") {
  CHECK_FALSE(lab_matches_hardware(tma_fill(SwizzleKind::tma128, 64, 512),
                                   based(DescSwizzle::b128, 512, 1024, 4)));
  CHECK_FALSE(lab_matches_hardware(tma_fill(SwizzleKind::tma128, 64, 256),
                                   based(DescSwizzle::b128, 256, 1024, 2)));
  CHECK_FALSE(lab_matches_hardware(tma_fill(SwizzleKind::tma128, 64, 256),
                                   based(DescSwizzle::b128, 256, 1024, 6)));
  CHECK_FALSE(lab_matches_hardware(tma_fill(SwizzleKind::tma64, 32, 256),
                                   based(DescSwizzle::b64, 256, 512, 2)));
  CHECK_FALSE(lab_matches_hardware(tma_fill(SwizzleKind::tma32, 16, 128),
                                   based(DescSwizzle::b32, 128, 256, 1)));
}
