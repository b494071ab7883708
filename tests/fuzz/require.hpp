#pragma once
// What both fuzz targets (fuzz_core.cpp, fuzz_kernel_code.cpp) hold the core to: a property
// that fails abort()s, which libFuzzer reports as a crash, with the input that broke it.
#include <cstdlib>
#include <string>

// Header-only nlohmann::json (Debian's nlohmann-json3-dev), where present, checks every JSON
// object the writers produce.
#if __has_include(<nlohmann/json.hpp>)
#include <nlohmann/json.hpp>
#define BANKLAB_FUZZ_VALIDATE_JSON 1
#endif

namespace banklab {

inline void require(bool property) {
  if (!property) std::abort();
}

// The JSON writers must always produce one well-formed value.
inline void require_json(const std::string& text) {
  require(!text.empty());
#ifdef BANKLAB_FUZZ_VALIDATE_JSON
  require(nlohmann::json::accept(text));
#endif
}

}  // namespace banklab
