#include "core/model/presets.hpp"

#include <algorithm>

#include "core/base/format.hpp"

namespace banklab {

namespace {

// Small builders so the table reads like the lesson (tile_access: scenario.hpp).

Scenario column(DType dtype, int pad, SwizzleSpec swizzle, int index, int width = 0) {
  return tile_access(dtype, 32, 32, pad, swizzle, AccessPattern::column, Op::ld, index, width);
}

Scenario matrix(int cols, int pad, SwizzleSpec swizzle, Op op) {
  return tile_access(DType::bf16, 8, cols, pad, swizzle, AccessPattern::matrix, op, 0, 16);
}

Scenario with_lanes(Scenario s, std::uint32_t mask) {
  s.lane_mask = mask;
  return s;
}

Scenario all_lanes_on(Op op, int width, std::int64_t offset) {
  Scenario s;
  s.pattern = AccessPattern::raw;
  s.op = op;
  s.width = width;
  s.raw_offsets.fill(offset);
  return s;
}

using namespace swizzles;     // kNone, kXor, kTma32, kTma64, kTma128
constexpr int kInvalid = -1;  // the lesson is the diagnostic: the layout cannot do this access

const std::vector<Preset>& table() {
  static const std::vector<Preset> kPresets = {
      {"fp32-naive", "float tile[32][32], column read",
       "Every lane reads column c: word 32r + c, bank c for all 32 lanes, a 32-way conflict.",
       column(DType::fp32, 0, kNone, 0), 32},
      {"fp32-row-write", "float tile[32][32], row write",
       "The row-wise write is fine: lane c writes word 32r + c, bank c, 32 banks in one wavefront.",
       tile_access(DType::fp32, 32, 32, 0, kNone, AccessPattern::row, Op::st, 0), 1},
      {"fp32-pad1", "float tile[32][33], column read",
       "A one-float pad makes the stride 33 words, coprime with 32: bank (r + c) mod 32, 1 "
       "wavefront.",
       column(DType::fp32, 1, kNone, 0), 1},
      {"fp32-pad1-row-write", "float tile[32][33], row write",
       "The padded row write stays conflict-free: bank (r + c) mod 32 still takes 32 banks in a "
       "row.",
       tile_access(DType::fp32, 32, 32, 1, kNone, AccessPattern::row, Op::st, 5), 1},
      {"fp32-pad1-vec16-store", "float tile[32][33], float4 row store",
       "132 mod 16 = 4: row r starts 4r mod 16 bytes off alignment, so 3 rows in 4 refuse float4 "
       "stores.",
       tile_access(DType::fp32, 32, 32, 1, kNone, AccessPattern::row, Op::st, 0, 16), kInvalid},
      {"fp32-pad4", "float tile[32][36], column read",
       "The 16-byte-aligned pad: bank (4r + c) mod 32 takes only 8 banks, a 4-way conflict.",
       column(DType::fp32, 4, kNone, 0), 4},
      {"fp32-pad4-vec16-store", "float tile[32][36], float4 row store",
       "144-byte rows keep float4 stores aligned and conflict-free: 4 wavefronts for 512 B.",
       tile_access(DType::fp32, 32, 32, 4, kNone, AccessPattern::row, Op::st, 0, 16), 4},
      {"fp32-xor", "float tile[32][32], XOR swizzle c ^ r, column read",
       "Storing (r, c) at column c ^ r keeps rows dense and puts column 5 in 32 banks.",
       column(DType::fp32, 0, kXor, 5), 1},
      {"fp32-vec16-column", "float tile[32][32], float4 column read",
       "16-byte lanes down a column of 128-byte rows: 8 rows per quarter-warp in the same 4 banks.",
       column(DType::fp32, 0, kNone, 0, 16), 32},
      {"fp32-tma128-column", "float tile[32][32], TMA 128B swizzle, column read",
       "A 16-byte-chunk swizzle made for ldmatrix still leaves scalar column reads 4-way.",
       column(DType::fp32, 0, kTma128, 0), 4},
      {"fp32-half-warp", "float tile[32][32], column read by lanes 0-15",
       "Idle lanes cost nothing: 16 active lanes in one bank are 16 wavefronts.",
       with_lanes(column(DType::fp32, 0, kNone, 0), 0x0000FFFFu), 16},
      {"bf16-naive", "bf16 tile[32][32], column read",
       "Two bf16 per word: word 16r + c/2 puts even rows in bank c/2 and odd rows in 16 + c/2, "
       "16-way.",
       column(DType::bf16, 0, kNone, 0), 16},
      {"bf16-pad1", "bf16 tile[32][33], even column read",
       "66-byte rows spread an even column over 32 banks: 1 wavefront.",
       column(DType::bf16, 1, kNone, 2), 1},
      {"bf16-pad1-odd", "bf16 tile[32][33], odd column read",
       "Odd columns break the shortcut: lanes 0 and 31 both want bank 1 (words 1 and 513), 2-way "
       "(measured).",
       column(DType::bf16, 1, kNone, 3), 2},
      {"bf16-pad1-pair-store", "bf16 tile[32][33], bf16x2 row store",
       "Packed bf16 pairs need 4-byte alignment; 66 mod 4 = 2 puts 1 row in 2 (every odd row) off "
       "it.",
       tile_access(DType::bf16, 32, 32, 1, kNone, AccessPattern::row, Op::st, 1, 4), kInvalid},
      {"bf16-pad2", "bf16 tile[32][34], column read",
       "Pad by two: 17-word rows, bank (17r + c/2) mod 32, conflict-free for every column.",
       column(DType::bf16, 2, kNone, 3), 1},
      {"fp64-naive", "double tile[32][32], column read",
       "Each double covers banks 2c and 2c+1; 32 lanes pile 16 deep per half-warp: 32 wavefronts.",
       column(DType::fp64, 0, kNone, 0), 32},
      {"fp64-pad1", "double tile[32][33], column read",
       "A one-double pad (66-word stride): 2 wavefronts, the floor for 256 B.",
       column(DType::fp64, 1, kNone, 0), 2},
      {"fp8-naive", "fp8 tile[32][32], column read",
       "Four fp8 per word, 8 words per row: rows r, r + 4, r + 8, ... share a bank, 8-way, "
       "8 wavefronts.",
       column(DType::fp8, 0, kNone, 3), 8},
      {"ldmatrix-plain", "ldmatrix.x4 on bf16 tile[8][64] (128-byte rows)",
       "Eight rows' chunk m all sit in banks 4m..4m+3: each matrix is 8 wavefronts, 32 in all.",
       matrix(64, 0, kNone, Op::ldmatrix_x4), 32},
      {"ldmatrix-swizzled", "ldmatrix.x4 on bf16 tile[8][64], TMA 128B swizzle",
       "Chunk q of row r at chunk q ^ r: each matrix covers 32 banks, 4 wavefronts for 4 matrices.",
       matrix(64, 0, kTma128, Op::ldmatrix_x4), 4},
      {"ldmatrix-64B-rows", "ldmatrix.x4 on bf16 tile[8][32] (64-byte rows)",
       "64-byte rows: rows r and r+2 share banks, each matrix 4 wavefronts.",
       matrix(32, 0, kNone, Op::ldmatrix_x4), 16},
      {"ldmatrix-80B-rows", "ldmatrix.x4 on bf16 tile[8][40] (80-byte rows)",
       "An 80-byte pitch (20 words) walks the 8 rows through all 32 banks: conflict-free.",
       matrix(32, 8, kNone, Op::ldmatrix_x4), 4},
      {"ldmatrix-64B-tma64", "ldmatrix.x4 on bf16 tile[8][32], TMA 64B swizzle",
       "64-byte rows with the 64B swizzle: chunk q of row r at q ^ ((r / 2) mod 4), 4 wavefronts.",
       matrix(32, 0, kTma64, Op::ldmatrix_x4), 4},
      {"ldmatrix-32B-rows", "ldmatrix.x2 on bf16 tile[8][16] (32-byte rows)",
       "32-byte rows: rows r and r + 4 share banks, a 2-way conflict, 4 wavefronts for 2 matrices.",
       matrix(16, 0, kNone, Op::ldmatrix_x2), 4},
      {"ldmatrix-32B-tma32", "ldmatrix.x2 on bf16 tile[8][16], TMA 32B swizzle",
       "The 32B swizzle, chunk q ^ ((r / 4) mod 2), moves rows 4-7 to the other chunk: 2 "
       "wavefronts.",
       matrix(16, 0, kTma32, Op::ldmatrix_x2), 2},
      {"stmatrix-plain", "stmatrix.x4 on bf16 tile[8][64] (128-byte rows)",
       "Stores conflict like loads: 8 rows of one chunk in the same 4 banks, 32 wavefronts.",
       matrix(64, 0, kNone, Op::stmatrix_x4), 32},
      {"stmatrix-swizzled", "stmatrix.x4 on bf16 tile[8][64], TMA 128B swizzle",
       "The swizzle that feeds WGMMA also makes stmatrix conflict-free.",
       matrix(64, 0, kTma128, Op::stmatrix_x4), 4},
      {"broadcast", "all 32 lanes read one word",
       "Same word, one wavefront: a broadcast is not a bank conflict.", all_lanes_on(Op::ld, 4, 0),
       1},
      {"broadcast-16B-store", "all 32 lanes store 16 bytes to one address",
       "Stores never pack: four quarter-warp phases, 4 wavefronts even on one address.",
       all_lanes_on(Op::st, 16, 0), 4},
      {"bf16-256-pad2", "bf16 tile[256][258], column read",
       "A large tile: the pad-by-two rule holds at any height, 1 wavefront per 32 rows.",
       tile_access(DType::bf16, 256, 256, 2, kNone, AccessPattern::column, Op::ld, 7), 1},
  };
  return kPresets;
}

}  // namespace

std::span<const Preset> presets() {
  return table();
}

std::string unknown_preset(std::string_view name) {
  std::string text = quote(name);
  text += " is not a preset; the presets are ";
  bool first = true;
  for (const Preset& p : presets()) {
    if (!first) text += ", ";
    text += p.name;
    first = false;
  }
  return text;
}

const Preset* find_preset(std::string_view name) {
  const auto& all = table();
  auto it = std::find_if(all.begin(), all.end(), [&](const Preset& p) { return p.name == name; });
  return it == all.end() ? nullptr : &*it;
}

}  // namespace banklab
