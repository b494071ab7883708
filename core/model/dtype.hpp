#pragma once
// Element types a shared-memory tile can hold. Only the size matters to the banks; the names
// are what the lesson and the user speak in.
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

inline constexpr DType kAllDTypes[] = {DType::fp8, DType::bf16, DType::fp32, DType::fp64};

constexpr int dtype_bytes(DType t) {
  switch (t) {
    case DType::fp8:
      return 1;
    case DType::bf16:
      return 2;
    case DType::fp32:
      return 4;
    case DType::fp64:
      return 8;
  }
  return 4;
}
// "fp8", "bf16", "fp32", "fp64": the spelling the CLI accepts and prints.
std::string_view dtype_name(DType t);
// The C++ spelling used when the tile is written as a declaration: "float tile[32][33]".
std::string_view dtype_c_name(DType t);
// Accepts the canonical names and the common aliases (int8, e4m3, fp16, half, float, double...).
std::optional<DType> parse_dtype(std::string_view text);

std::ostream& operator<<(std::ostream& os, DType t);

}  // namespace banklab
