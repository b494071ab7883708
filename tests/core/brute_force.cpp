#include "tests/core/brute_force.hpp"

#include <algorithm>
#include <ostream>

namespace banklab::brute {

std::ostream& operator<<(std::ostream& os, const Count& c) {
  return os << c.wavefronts << " wavefronts, ideal " << c.ideal;
}

namespace {

// Rule 5: how many 8x8 matrices a matrix op moves; 0 for plain ld/st.
int matrices(Op op) {
  if (op == Op::ldmatrix_x1) return 1;
  if (op == Op::ldmatrix_x2) return 2;
  return op == Op::ldmatrix_x4 || op == Op::stmatrix_x4 ? 4 : 0;
}

int element_bytes(DType t) {
  return t == DType::fp8 ? 1 : t == DType::bf16 ? 2 : t == DType::fp32 ? 4 : 8;
}

bool on(const std::array<std::int64_t, kWarpSize>& offsets, int lane) {
  return offsets[lane] >= 0;
}

// Rule 4: every active lane's partner l^p is idle or on the same address.
bool packs_with(const std::array<std::int64_t, kWarpSize>& offsets, int partner) {
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const int other = lane ^ partner;
    if (on(offsets, lane) && on(offsets, other) && offsets[lane] != offsets[other]) return false;
  }
  return true;
}

std::vector<std::vector<int>> split(int first_lane, int lane_count, int phase_size) {
  std::vector<std::vector<int>> out;
  for (int start = first_lane; start < first_lane + lane_count; start += phase_size) {
    std::vector<int> lanes;
    for (int lane = start; lane < start + phase_size; ++lane) lanes.push_back(lane);
    out.push_back(lanes);
  }
  return out;
}

}  // namespace

std::vector<std::vector<int>> phases(Op op, int width,
                                     const std::array<std::int64_t, kWarpSize>& offsets) {
  if (const int m = matrices(op); m > 0) return split(0, 8 * m, 8);
  // Rule 2, then rule 4 for loads of 8 and 16 bytes: packing doubles the lanes per phase.
  int phase_size = width == 16 ? 8 : width == 8 ? 16 : 32;
  const bool packs = op == Op::ld && (width == 8 || width == 16) &&
                     (packs_with(offsets, 1) || packs_with(offsets, 2));
  if (packs) phase_size *= 2;
  return split(0, kWarpSize, phase_size);
}

Count count(Op op, int width, const std::array<std::int64_t, kWarpSize>& offsets) {
  Count total;
  for (const std::vector<int>& lanes : phases(op, width, offsets)) {
    // Every (bank, word) pair the phase's active lanes touch, each once.
    std::vector<std::pair<int, std::int64_t>> touched;
    for (int lane : lanes) {
      if (!on(offsets, lane)) continue;
      // Rule 1: the words a/4 ... (a + width - 1)/4; bank = word mod 32.
      for (std::int64_t w = offsets[lane] / 4; w <= (offsets[lane] + width - 1) / 4; ++w)
        touched.emplace_back(static_cast<int>(w % 32), w);
    }
    if (touched.empty()) continue;
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    // Rule 3: the phase costs as many wavefronts as the bank with the most distinct words.
    std::array<int, 32> words_of_bank{};
    for (const auto& [bank, word] : touched) ++words_of_bank[bank];
    total.wavefronts += *std::max_element(words_of_bank.begin(), words_of_bank.end());
    total.ideal += 1;
  }
  return total;
}

std::optional<WarpAccess> access_of(const Scenario& s) {
  const TileLayout& t = s.tile;
  const int e = element_bytes(t.dtype);
  const int width = s.pattern == AccessPattern::matrix ? 16
                    : s.width > 0                      ? s.width
                    : s.pattern == AccessPattern::raw  ? 4
                                                       : e;
  const int k = width / e;
  WarpAccess a;
  a.op = s.op;
  a.width = width;
  a.offsets.fill(kInactiveLane);
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!(s.lane_mask >> lane & 1u)) continue;
    std::int64_t pos = 0;  // row-major position of the lane's first element
    switch (s.pattern) {
      case AccessPattern::raw:
        a.offsets[lane] = s.raw_offsets[lane];
        continue;
      case AccessPattern::row:
        pos = std::int64_t{s.index} * t.cols + std::int64_t{lane} * k;
        if (pos + k > std::int64_t{t.rows} * t.cols) continue;
        break;
      case AccessPattern::column:
        if (lane >= t.rows) continue;
        pos = std::int64_t{lane} * t.cols + std::int64_t{s.index} * k;
        break;
      case AccessPattern::matrix:
        if (lane >= 8 * matrices(s.op)) continue;
        pos = std::int64_t{lane % 8} * t.cols + (std::int64_t{s.index} + lane / 8) * 16 / e;
        break;
    }
    // The lane's k elements must fill one aligned block: sorted, they step by e.
    std::array<std::int64_t, 16> bytes{};
    for (int j = 0; j < k; ++j) {
      const std::int64_t p = pos + j;
      bytes[j] = tile_byte(t, static_cast<int>(p / t.cols), static_cast<int>(p % t.cols));
    }
    std::sort(bytes.begin(), bytes.begin() + k);
    for (int j = 1; j < k; ++j)
      if (bytes[j] != bytes[0] + std::int64_t{j} * e) return std::nullopt;
    if (bytes[0] % width != 0) return std::nullopt;
    a.offsets[lane] = bytes[0];
  }
  return a;
}

std::int64_t swizzle(int bits, int base, int shift, std::int64_t x) {
  const std::int64_t ones = (std::int64_t{1} << bits) - 1;
  if (shift >= 0) {
    const std::int64_t yyy_mask = ones << (base + shift);
    return x ^ ((x & yyy_mask) >> shift);
  }
  // Negative S: the B bits at M are XORed into the B bits at M + |S|.
  const std::int64_t yyy_mask = ones << base;
  return x ^ ((x & yyy_mask) << -shift);
}

std::int64_t tile_byte(const TileLayout& t, int r, int c) {
  const std::int64_t e = element_bytes(t.dtype);
  std::int64_t pitch = (t.cols + t.pad) * e;
  const SwizzleSpec& sw = t.swizzle;
  switch (sw.kind) {
    case SwizzleKind::none:
      return r * pitch + c * e;
    case SwizzleKind::xor_columns:
      return r * pitch + (c ^ (r % t.cols)) * e;
    case SwizzleKind::cute:
      return swizzle(sw.cute.bits, sw.cute.base, sw.cute.shift, r * pitch + c * e);
    case SwizzleKind::cute_elem:
      // The element index r * (C + P) + c, swizzled, times e.
      return swizzle(sw.cute.bits, sw.cute.base, sw.cute.shift, r * (t.cols + t.pad) + c) * e;
    case SwizzleKind::triton: {
      // Triton's bases, one per row bit, XORed together.
      int x = 0;
      for (int k = 0; k < 13; ++k) {
        if (r & (1 << k))
          x ^= (sw.triton.vec * ((1 << k) / sw.triton.per_phase % sw.triton.max_phase)) % t.cols;
      }
      return r * pitch + (c ^ x) * e;
    }
    case SwizzleKind::tma32:
    case SwizzleKind::tma64:
    case SwizzleKind::tma128: {
      // A box row narrower than the span sits at span pitch.
      const int mode_bits = sw.kind == SwizzleKind::tma32   ? 1
                            : sw.kind == SwizzleKind::tma64 ? 2
                                                            : 3;
      const std::int64_t span = 16 << mode_bits;
      if (pitch < span) pitch = span;
      return swizzle(mode_bits, 4, 3, r * pitch + c * e);
    }
    case SwizzleKind::tma128_atom32:
    case SwizzleKind::tma128_atom64: {
      // As the driver describes them: chunks of 32 or 64 bytes within each 128-byte line,
      // chunk q of line n at q ^ (n mod chunks); a narrow box row sits at the 128-byte pitch.
      const std::int64_t chunk = sw.kind == SwizzleKind::tma128_atom32 ? 32 : 64;
      const std::int64_t chunks = 128 / chunk;
      if (pitch < 128) pitch = 128;
      const std::int64_t b = r * pitch + c * e;
      const std::int64_t line = b / 128;
      const std::int64_t q = b % 128 / chunk;
      return line * 128 + (q ^ (line % chunks)) * chunk + b % chunk;
    }
  }
  return -1;
}

}  // namespace banklab::brute
