#pragma once
// The CUDA line behind a scenario: the `__shared__` declaration of its tile and the statement a
// kernel writer would type for the access, with the values each lane sees (threadIdx, the
// index, the byte address, the bank). One warp: threadIdx.x is the lane, threadIdx.y is 0.
//
// The generated code keeps to a small grammar, so that it can be parsed back into per-lane
// offsets (the kernel-code parser tests that every preset's code gives the preset's offsets):
//
//   declaration   __shared__ T tile[R][C];        T: the cuda_type_name of the dtype
//                 __shared__ __align__(A) T tile[R][C];   A: what the tile's fill needs (16 for
//                                                 vector accesses, the swizzle's repeat for TMA)
//                 extern __shared__ T tile[][C];  above the 48 KB of a static array
//                                                 (shared_limits.hpp), with `host` saying the
//                                                 opt-in and the launch's bytes
//   element       tile[ROW][COL]                  ROW, COL: integer expressions over
//                                                 threadIdx.x / threadIdx.y and integer
//                                                 constants with + - * / % ^ & | << >> ( )
//   address       &tile[ROW][COL]
//   vector access reinterpret_cast<V*>(&tile[ROW][COL])[0]   V: vector_type_name(width)
//   ldmatrix      unsigned addr = __cvta_generic_to_shared(&tile[ROW][COL]);
//                 asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 ..." ... "r"(addr));
//   guard         "threadIdx.x < 16" or "(0x0000ffff >> threadIdx.x & 1)": lanes for which it is
//                 false skip the access (a separate field, and an `if` in the statement text)
//
// The fields `element` and `address` hold the expressions alone, for a parser to read without
// the surrounding statement.
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/base/expected.hpp"
#include "core/model/scenario.hpp"
#include "core/report/study.hpp"

namespace banklab {

// "__nv_fp8_e4m3", "__nv_bfloat16", "float", "double".
std::string_view cuda_type_name(DType t);
// The type a lane moves when it moves `width` bytes at once: 1 "unsigned char", 2 "unsigned
// short", 4 "unsigned", 8 "float2", 16 "float4"; "" for another width.
std::string_view vector_type_name(int width);

struct CodeLane {
  int lane = 0;
  int thread_x = 0;
  int thread_y = 0;
  bool active = false;
  Cell index;  // the [row][col] the expression gives this lane (the physical slot)
  std::int64_t byte = kInactiveLane;
  int bank = -1;
};

struct CodeView {
  std::string declaration;  // "__shared__ float tile[32][33];"
  // For an extern array: the host lines that give it its bytes (the opt-in and the launch).
  std::vector<std::string> host;
  std::string element;      // "tile[threadIdx.x][5]"; empty when there is no expression
  std::string address;      // "&tile[threadIdx.x][5]"
  std::string vector_type;  // "float4" for a vector access, "" for a scalar one or ldmatrix
  std::string guard;        // "" when every lane takes part
  std::vector<std::string> statement;  // the lines of code
  std::string note;  // why there is no statement (raw offsets with no common expression)
  std::array<CodeLane, kWarpSize> lanes{};
};

// The code of a studied scenario, read from its evaluation (nothing is evaluated again).
// Precondition for a statement: st.evaluation.ok(). Otherwise (or for raw offsets that follow
// no stride) the view holds the declaration and a note.
CodeView code_view(const Study& st);

// code_view()'s declaration of s's tile, aligned for its access (a vector's width, ldmatrix's
// 16 bytes, a TMA swizzle's repeat); also for a scenario that breaks a rule. `host`, when
// given, gets the host lines an extern array needs.
std::string scenario_declaration(const Scenario& s, std::vector<std::string>* host = nullptr);

// The whole transpose kernel of the lesson for a 32 x 32 tile (its pad and swizzle): a block of
// 32 x kTransposeBlockRows threads, one warp per threadIdx.y, each warp taking rows j =
// threadIdx.y, + 8, + 16, + 24 of the tile in its j loop: row writes in the first loop, column
// reads in the second (the seed lesson's kernel, with the swizzle written into its indices).
inline constexpr int kTransposeBlockRows = 8;
struct TransposeKernel {
  std::string write_element;  // "tile[j][threadIdx.x]": the row write of iteration j
  std::string read_element;   // "tile[threadIdx.x][j]": the column read of iteration j
  std::vector<std::string> lines;
};
Expected<TransposeKernel> transpose_kernel(const TileLayout& t);

// The declaration of the tile as nvcc accepts it: static up to 48 KB, extern above; aligned to
// `align` bytes when that is more than the element's own alignment. `host`, when given, gets
// the host lines an extern array needs.
std::string shared_declaration(const TileLayout& t, int align,
                               std::vector<std::string>* host = nullptr);

// The declaration, the host lines as comments, the statement and one line per listed lane:
// "lane 8: threadIdx = (8, 0), tile[8][0], byte 1152, bank 0".
std::string to_text(const CodeView& v, std::span<const int> lanes);

}  // namespace banklab
