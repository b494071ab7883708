#include "core/model/dtype.hpp"

#include <ostream>

namespace banklab {

std::string_view dtype_name(DType t) {
  switch (t) {
    case DType::fp8:
      return "fp8";
    case DType::bf16:
      return "bf16";
    case DType::fp32:
      return "fp32";
    case DType::fp64:
      return "fp64";
  }
  return "fp32";
}

std::string_view dtype_c_name(DType t) {
  switch (t) {
    case DType::fp8:
      return "fp8";
    case DType::bf16:
      return "bf16";
    case DType::fp32:
      return "float";
    case DType::fp64:
      return "double";
  }
  return "float";
}

std::optional<DType> parse_dtype(std::string_view text) {
  struct Alias {
    std::string_view name;
    DType type;
  };
  static constexpr Alias kAliases[] = {
      {"fp8", DType::fp8},    {"int8", DType::fp8},   {"uint8", DType::fp8},
      {"e4m3", DType::fp8},   {"e5m2", DType::fp8},   {"bf16", DType::bf16},
      {"fp16", DType::bf16},  {"half", DType::bf16},  {"int16", DType::bf16},
      {"fp32", DType::fp32},  {"float", DType::fp32}, {"int32", DType::fp32},
      {"tf32", DType::fp32},  {"fp64", DType::fp64},  {"double", DType::fp64},
      {"int64", DType::fp64},
  };
  for (const Alias& a : kAliases)
    if (a.name == text) return a.type;
  return std::nullopt;
}

std::ostream& operator<<(std::ostream& os, DType t) {
  return os << dtype_name(t);
}

}  // namespace banklab
