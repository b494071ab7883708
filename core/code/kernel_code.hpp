#pragma once
// Kernel code in, per-lane byte offsets out: one shared declaration and one access, as a CUDA
// programmer writes them, evaluated for every lane of a warp.
//
//   __shared__ float tile[32][33];          // or: constexpr int N = 32;
//                                           //     __shared__ float t[N][N + 1];
//   tile[threadIdx.x][threadIdx.y + j]      // with j given a value (--let j=0), block 32x8
//
// The code is a sequence of statements, across one or more sources (the CLI's --decl and --expr,
// or the app's one code box):
//   #define NAME tokens                      (to the end of the line, a ';' or a declaration)
//   [static] [constexpr|const] TYPE NAME = expr [, NAME = expr];   (integer constants, locals
//                                            such as int lane = threadIdx.x % 32, pointers)
//   [extern] __shared__ [__align__(N)] T name[D0][D1]...;  (exactly one; extern: name[] and
//                                            the byte size of the launch)
//   the access, exactly one:   x = tile[..];  T x = tile[..];  tile[..] = x;  tile[..]
//                              *reinterpret_cast<float4*>(&tile[r][c]), *(float4*)&tile[r][c],
//                              reinterpret_cast<float4*>(&tile[r][c])[0], tile[r][c].x
//                              ldmatrix.x4(&tile[r][c]) (also ldmatrix_x4, the PTX spelling
//                              ldmatrix.sync.aligned.m8n8.x4.shared.b16, stmatrix.x4, and a
//                              __cvta_generic_to_shared(...) address), or an asm statement
//                              with ldmatrix/stmatrix whose [%N] operand is the row address;
//                              the access may stand in an if (cond): lanes where cond is 0
//                              take no part
// Expressions: integer constants (decimal, 0x, 0b, octal, u/l suffixes), threadIdx.{x,y,z},
// blockDim.{x,y,z}, warpSize, the code's own names and the --let values; + - * / % ^ & | << >>
// ~ ! unary - +, < <= > >= == != && ||, ?:, ( ), casts to integer types. Integers are typed as
// in CUDA C++ (integer.hpp): conversions, casts and typed locals apply each type's width and
// signedness, unsigned arithmetic wraps, and what C++ leaves undefined (signed overflow,
// division by zero, a shift count outside the type) is an error, not a guessed value. Names are
// seen after their definition. The shared array starts at shared byte 0.
//
// Inside, by stage: tokenizer.hpp cuts the text into tokens, preprocessor.hpp expands #defines,
// parser.hpp builds the syntax tree (syntax.hpp), machine.hpp runs it for the 32 lanes of a
// warp, and kernel_code.cpp checks the access and builds the Scenario. kernel_params.hpp holds
// what the code is evaluated for (block, warp, --let values). A whole .cu file goes through the
// same stages (source_parser.hpp, scan.hpp).
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/code/kernel_params.hpp"
#include "core/model/access.hpp"
#include "core/model/scenario.hpp"

namespace banklab {

// One piece of code the user typed, and what to call it in messages ("--expr", "code").
struct CodeSource {
  std::string label;
  std::string text;
};

// Where the code is wrong: the source, the 1-based line and the 0-based byte column in it.
struct CodeError {
  int source = 0;
  int line = 1;
  int column = 0;
  std::string message;
};

// "--expr:1:17: error: k is not defined: add --let k=VALUE", then the line and a caret under
// the column (each line of the text ends with '\n').
std::string format_code_error(const CodeError& e, std::span<const CodeSource> sources);

// The declared shared array.
struct SharedArray {
  std::string name;
  std::string type;      // "float4", as written
  int elem_bytes = 4;    // sizeof(T)
  int scalar_bytes = 4;  // the size of one component (4 for float4)
  std::vector<std::int64_t> dims;
  bool is_extern = false;
  std::int64_t bytes() const;
};

// One lane's evaluation: its thread, the subscripts the access applied to the array, its byte.
struct LaneCode {
  bool active = false;  // false: outside the block, or a lane ldmatrix does not read
  std::array<int, 3> thread{};
  std::vector<std::int64_t> indices;  // the last subscripts of the shared array, as evaluated
  std::int64_t byte = kInactiveLane;
};

// The declared array as a tile, for the views that draw one: the last bound is the columns (in
// components, for a vector type), the others the rows. The default tile when it is no tile.
TileLayout tile_of(const SharedArray& array);

struct KernelCode {
  SharedArray array;
  std::string access_text;  // the access statement as written
  int warp = 0;             // the warp shown (the worst, with kAllWarps)
  int warp_count = 1;       // warps in the block
  std::array<LaneCode, kWarpSize> lanes{};
  // AccessPattern::raw: the op, the width, the active lanes, the offsets; its tile is the
  // declared array (the last bound the columns, in components) where that is a valid tile.
  Scenario scenario;
};

struct CodeResult {
  std::optional<KernelCode> code;
  std::optional<CodeError> error;
};

// Parses and evaluates the code for one warp, or for every warp with params.warp = kAllWarps
// (then the warp with the most wavefronts, the lowest on a tie).
CodeResult evaluate_code(std::span<const CodeSource> sources, const KernelParams& params);

// One integer expression over the given names (no threadIdx): what the tests check the
// operators with. The error's source is 0.
struct IntResult {
  std::optional<std::int64_t> value;
  std::optional<CodeError> error;
};
IntResult evaluate_integer(std::string_view expression,
                           std::span<const std::pair<std::string, std::int64_t>> names);

// {"array":..,"warp":..,"lanes":[{"lane":0,"thread":[0,0,0],"indices":[0,5],"byte":20},..]}
void append_json(std::string& out, const KernelCode& code);

}  // namespace banklab
