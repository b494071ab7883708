#include "core/model/dtype.hpp"

#include <ostream>

namespace banklab {

std::optional<DType> parse_dtype(std::string_view text) {
  if (text.empty()) return std::nullopt;  // the unused alias slots are empty
  for (const DTypeInfo& d : kDTypes) {
    if (d.name == text) return d.type;
    for (std::string_view alias : d.aliases)
      if (alias == text) return d.type;
  }
  return std::nullopt;
}

std::ostream& operator<<(std::ostream& os, DType t) {
  return os << dtype_name(t);
}

}  // namespace banklab
