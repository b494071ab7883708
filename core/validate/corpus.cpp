#include "core/validate/corpus.hpp"

#include <algorithm>
#include <cassert>
#include <iterator>

#include "core/model/presets.hpp"
#include "core/model/scenario.hpp"

namespace banklab {
namespace {

constexpr int kWidths[] = {1, 2, 4, 8, 16};
constexpr Op kMatrixOps[] = {Op::ldmatrix_x1, Op::ldmatrix_x2, Op::ldmatrix_x4, Op::stmatrix_x4};

WarpAccess all_idle(Op op, int width) {
  WarpAccess a;
  a.op = op;
  a.width = width;
  a.offsets.fill(kInactiveLane);
  return a;
}

void add(std::vector<CorpusEntry>& out, std::string family, std::string name, const WarpAccess& a) {
  assert(!has_error(check_access(a)) && "the corpus generates valid accesses only");
  out.push_back({std::move(family), std::move(name), a});
}

void add_presets(std::vector<CorpusEntry>& out) {
  for (const Preset& p : presets()) {
    const Evaluation e = evaluate(p.scenario);
    if (!e.ok()) continue;  // no access to measure; the preset tests report such a preset
    WarpAccess a = e.analysis->access;
    add(out, "preset", std::string(p.name), a);
    // The same addresses in the other direction: loads and stores count differently (packing).
    if (a.op == Op::ld || a.op == Op::st) {
      a.op = a.op == Op::ld ? Op::st : Op::ld;
      add(out, "preset", std::string(p.name) + " (" + std::string(op_name(a.op)) + ")", a);
    }
  }
}

//   stride s, unit u:  lane L at byte L * s * u
void add_strides(std::vector<CorpusEntry>& out) {
  for (Op op : {Op::ld, Op::st}) {
    for (int width : kWidths) {
      std::vector<int> units = {std::max(width, 4)};
      if (width < 4) units.push_back(width);
      for (int unit : units) {
        for (int s = 1; s <= 64; ++s) {
          WarpAccess a = all_idle(op, width);
          for (int lane = 0; lane < kWarpSize; ++lane)
            a.offsets[lane] = std::int64_t{lane} * s * unit;
          add(out, "stride", "stride " + std::to_string(s) + " x " + std::to_string(unit) + " B",
              a);
        }
      }
    }
  }
}

std::vector<SwizzleSpec> swizzles_for(const TileLayout& t) {
  // None, xor, and Hopper's TMA mode (16-byte chunks; the descriptors say which) whose span is
  // the unpadded row.
  std::vector<SwizzleSpec> out = {swizzles::kNone, swizzles::kXor};
  const std::int64_t row_bytes = std::int64_t{t.cols} * t.elem_bytes();
  for (const SwizzleKindInfo& k : swizzle_kinds()) {
    if (t.pad == 0 && k.tma_span_bytes == row_bytes && k.tma_chunk_bytes == 16) {
      out.push_back(k.example);
    }
  }
  return out;
}

// Column reads and writes of a 32-row tile: the lesson's central pattern over its whole grid.
// Grid points the tile rules reject (a swizzle that does not fit, say) are not accesses.
void add_tile_columns(std::vector<CorpusEntry>& out) {
  for (DType dtype : kAllDTypes) {
    const int e = dtype_bytes(dtype);
    std::vector<int> widths_of_cols = {32, 64};  // and the 128-byte row the TMA modes want
    if (128 / e != 32 && 128 / e != 64) widths_of_cols.push_back(128 / e);
    for (int cols : widths_of_cols) {
      for (int pad : {0, 1, 2, 3, 4, 8}) {
        TileLayout tile;
        tile.dtype = dtype;
        tile.rows = 32;
        tile.cols = cols;
        tile.pad = pad;
        for (const SwizzleSpec& swizzle : swizzles_for(tile)) {
          tile.swizzle = swizzle;
          if (!tile.check()) continue;
          for (int width : {e, 16}) {  // one element, or a 16-byte vector of them
            for (int index : {0, 1, 5}) {
              for (Op op : {Op::ld, Op::st}) {
                Scenario s;
                s.tile = tile;
                s.pattern = AccessPattern::column;
                s.op = op;
                s.width = width;
                s.index = index;
                const Evaluation ev = evaluate(s);
                if (!ev.ok()) continue;
                add(out, "tile-column", describe(s), ev.analysis->access);
              }
            }
          }
        }
      }
    }
  }
}

// ldmatrix/stmatrix rows of `pitch` bytes. Matrix m of the op reads rows (row0 + i) at chunk c:
//   chunk column N:   matrix m = rows 0-7, chunk N + m (wrapping within the row)
//   16x16 fragments:  matrix m = rows 8(m mod 2) + i, chunk N + m/2 (mma's A-operand order)
//   swizzled (128 B): chunk c of row r stored at chunk c ^ (r mod 8)
void add_matrix_pitches(std::vector<CorpusEntry>& out) {
  for (int pitch : {64, 80, 128, 144}) {
    const int chunks = pitch / 16;
    for (Op op : kMatrixOps) {
      const int matrices = matrix_count(op);
      for (bool fragments : {false, true}) {
        for (bool swizzled : {false, true}) {
          if (swizzled && pitch != 128) continue;
          for (int n = 0; n < chunks; ++n) {
            WarpAccess a = all_idle(op, 16);
            for (int m = 0; m < matrices; ++m) {
              for (int i = 0; i < 8; ++i) {
                const int row = fragments ? 8 * (m % 2) + i : i;
                int chunk = (fragments ? n + m / 2 : n + m) % chunks;
                if (swizzled) chunk ^= row % 8;
                a.offsets[8 * m + i] = std::int64_t{row} * pitch + 16 * chunk;
              }
            }
            add(out, "matrix-pitch",
                std::to_string(pitch) + "-byte rows, " +
                    (fragments ? "16x16 fragments" : "chunk column") +
                    (swizzled ? ", swizzled" : "") + ", chunk " + std::to_string(n),
                a);
          }
        }
      }
    }
  }
}

// SplitMix64: a fixed, portable sequence for a seed.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform enough in [0, n) for n far below 2^64.
  std::int64_t below(std::int64_t n) {
    return static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(n));
  }
  template <class T, std::size_t N>
  T pick(const T (&values)[N]) {
    return values[below(static_cast<std::int64_t>(N))];
  }

 private:
  std::uint64_t state_;
};

// Random offsets fall in a window of one of these sizes, placed at a random kilobyte of shared
// memory: small windows make lanes collide (broadcasts, conflicts), large ones spread them.
constexpr std::int64_t kWindows[] = {16, 128, 512, 2048, 16384, 65536};

struct Window {
  std::int64_t base = 0;
  std::int64_t size = 0;
  std::string name() const { return std::to_string(size) + " B at " + std::to_string(base); }
};

Window random_window(Rng& rng) {
  Window w;
  w.size = rng.pick(kWindows);
  w.base = rng.below((kSharedMemoryBytes - w.size) / 1024 + 1) * 1024;
  return w;
}

// A random `width`-aligned offset inside the window.
std::int64_t random_offset(Rng& rng, const Window& window, int width) {
  return window.base + rng.below(std::max<std::int64_t>(window.size / width, 1)) * width;
}

CorpusEntry random_entry(Rng& rng, int family) {
  Op op = Op::ld;
  int width = 16;
  switch (rng.below(8)) {
    case 0:
    case 1:
    case 2:
      op = Op::ld;
      width = rng.pick(kWidths);
      break;
    case 3:
    case 4:
    case 5:
      op = Op::st;
      width = rng.pick(kWidths);
      break;
    case 6:
      op = rng.pick({Op::ldmatrix_x1, Op::ldmatrix_x2, Op::ldmatrix_x4});
      break;
    default:
      op = Op::stmatrix_x4;
      break;
  }
  const bool matrix = is_matrix_op(op);
  // Lanes past the matrices in use: the hardware ignores their addresses; give some anyway.
  const int lanes = matrix && rng.below(4) != 0 ? 8 * matrix_count(op) : kWarpSize;
  const Window window = random_window(rng);
  WarpAccess a = all_idle(op, width);
  std::string name;
  switch (family) {
    case 0: {
      for (int lane = 0; lane < lanes; ++lane) a.offsets[lane] = random_offset(rng, window, width);
      name = "offsets in " + window.name();
      break;
    }
    case 1: {
      const int pool_size = 1 + static_cast<int>(rng.below(6));
      std::int64_t pool[6];
      for (int k = 0; k < pool_size; ++k) pool[k] = random_offset(rng, window, width);
      for (int lane = 0; lane < lanes; ++lane) a.offsets[lane] = pool[rng.below(pool_size)];
      name = "pool of " + std::to_string(pool_size) + " in " + window.name();
      break;
    }
    case 2: {
      const int partner = rng.pick({1, 2, 3, 4, 16});
      // ld/st only: a third of the pairs leave the partner idle instead (packing allows either).
      for (int lane = 0; lane < lanes; ++lane) {
        const int other = lane ^ partner;
        if (other < lane) continue;
        a.offsets[lane] = random_offset(rng, window, width);
        const bool idle_partner = !matrix && rng.below(3) == 0;
        if (other < lanes) a.offsets[other] = idle_partner ? kInactiveLane : a.offsets[lane];
      }
      name = "pair l^" + std::to_string(partner) + " in " + window.name();
      break;
    }
    default: {
      // Matrix ops have no idle lanes among their addresses: they get plain random offsets.
      const std::int64_t idle_per_4 = matrix ? 0 : 1 + rng.below(3);
      for (int lane = 0; lane < lanes; ++lane) {
        if (rng.below(4) < idle_per_4) continue;
        a.offsets[lane] = random_offset(rng, window, width);
      }
      name = std::to_string(idle_per_4) + "/4 lanes idle, offsets in " + window.name();
      break;
    }
  }
  constexpr const char* kFamilies[] = {"random-offsets", "random-pool", "random-pair",
                                       "random-idle"};
  assert(!has_error(check_access(a)) && "the corpus generates valid accesses only");
  return {kFamilies[family], name, a};
}

std::vector<CorpusEntry> fixed_corpus() {
  std::vector<CorpusEntry> out;
  add_presets(out);
  add_strides(out);
  add_tile_columns(out);
  add_matrix_pitches(out);
  return out;
}

}  // namespace

std::vector<CorpusEntry> validation_corpus(const CorpusOptions& options) {
  std::vector<CorpusEntry> out = fixed_corpus();
  out.reserve(out.size() + options.random_count);
  Rng rng(options.seed);
  for (std::size_t i = 0; i < options.random_count; ++i)
    out.push_back(random_entry(rng, static_cast<int>(i % 4)));
  return out;
}

std::size_t fixed_corpus_size() {
  return fixed_corpus().size();
}

}  // namespace banklab
