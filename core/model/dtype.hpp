#pragma once
// Element types a shared-memory tile can hold. Only the size matters to the banks; the names
// are what the lesson and the user speak in.
//
// Everything BankLab knows about a type sits in its descriptor (kDTypes below): its size, how
// the CLI, a C declaration and CUDA spell it, the aliases the CLI accepts, and the pad that
// makes a column read of a 32-column tile conflict-free. Adding a type is adding its enumerator
// and its descriptor: no code switches over DType.
#include <array>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string_view>

namespace banklab {

enum class DType : std::uint8_t {
  fp8,   // 1 byte: fp8 (e4m3/e5m2), int8
  bf16,  // 2 bytes: bf16, fp16
  fp32,  // 4 bytes: float
  fp64,  // 8 bytes: double
};

struct DTypeInfo {
  DType type;
  int bytes;
  std::string_view name;       // "fp8": the spelling the CLI accepts and prints
  std::string_view c_name;     // a declaration of the tile: "float tile[32][33]"
  std::string_view cuda_name;  // the CUDA type a kernel's code form declares: "__nv_bfloat16"
  // The other names the CLI accepts for it (int8, e4m3, fp16, half, float, double...); empty
  // entries unused.
  std::array<std::string_view, 4> aliases;
  // The smallest pad that makes a column read of tile[32][32 + pad] take the floor number of
  // wavefronts (the presets fp32-pad1, bf16-pad2, fp64-pad1; the GPU runs' default pad):
  //   fp8:  stride 36 bytes = 9 words, odd (a 1-byte pad would split rows across words unevenly);
  //   bf16: stride 34 elements = 17 words, odd;
  //   fp32: stride 33 words, odd, bank (r + c) mod 32;
  //   fp64: stride 33 doubles = 66 words: half-warps of 16 lanes land on 32 distinct banks.
  int conflict_free_pad;
};

inline constexpr DTypeInfo kDTypes[] = {
    {DType::fp8, 1, "fp8", "fp8", "__nv_fp8_e4m3", {"int8", "uint8", "e4m3", "e5m2"}, 4},
    {DType::bf16, 2, "bf16", "bf16", "__nv_bfloat16", {"fp16", "half", "int16"}, 2},
    {DType::fp32, 4, "fp32", "float", "float", {"float", "int32", "tf32"}, 1},
    {DType::fp64, 8, "fp64", "double", "double", {"double", "int64"}, 1},
};

// The table covers the enum, in its order, so that a type indexes its descriptor.
static_assert([] {
  for (std::size_t i = 0; i < std::size(kDTypes); ++i)
    if (static_cast<std::size_t>(kDTypes[i].type) != i) return false;
  return static_cast<std::size_t>(DType::fp64) + 1 == std::size(kDTypes);
}());

constexpr const DTypeInfo& dtype_info(DType t) {
  return kDTypes[static_cast<std::size_t>(t)];
}

// Every type, smallest first.
inline constexpr auto kAllDTypes = [] {
  std::array<DType, std::size(kDTypes)> all{};
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = kDTypes[i].type;
  return all;
}();

constexpr int dtype_bytes(DType t) {
  return dtype_info(t).bytes;
}
// "fp8", "bf16", "fp32", "fp64": the spelling the CLI accepts and prints.
constexpr std::string_view dtype_name(DType t) {
  return dtype_info(t).name;
}
// The C++ spelling used when the tile is written as a declaration: "float tile[32][33]".
constexpr std::string_view dtype_c_name(DType t) {
  return dtype_info(t).c_name;
}
// Accepts the canonical names and the common aliases (int8, e4m3, fp16, half, float, double...).
std::optional<DType> parse_dtype(std::string_view text);

std::ostream& operator<<(std::ostream& os, DType t);

}  // namespace banklab
