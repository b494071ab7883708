// Element types: only their size reaches the banks, and their names are what the CLI speaks.
#include <doctest/doctest.h>

#include <sstream>

#include "core/model/dtype.hpp"

namespace banklab {

TEST_CASE("each element type has the size the lesson's arithmetic uses") {
  CHECK(dtype_bytes(DType::fp8) == 1);
  CHECK(dtype_bytes(DType::bf16) == 2);
  CHECK(dtype_bytes(DType::fp32) == 4);
  CHECK(dtype_bytes(DType::fp64) == 8);
}

TEST_CASE("every canonical name parses back to its type and prints itself") {
  for (DType t : kAllDTypes) {
    CAPTURE(t);
    CHECK(parse_dtype(dtype_name(t)) == t);
    std::ostringstream os;
    os << t;
    CHECK(os.str() == dtype_name(t));
  }
}

TEST_CASE("the common aliases name the type of the same size") {
  SUBCASE("one byte") {
    for (const char* alias : {"int8", "e4m3", "e5m2"}) {
      CAPTURE(alias);
      CHECK(parse_dtype(alias) == DType::fp8);
    }
  }
  SUBCASE("two bytes") {
    for (const char* alias : {"fp16", "half"}) {
      CAPTURE(alias);
      CHECK(parse_dtype(alias) == DType::bf16);
    }
  }
  SUBCASE("four and eight bytes") {
    CHECK(parse_dtype("float") == DType::fp32);
    CHECK(parse_dtype("double") == DType::fp64);
  }
}

TEST_CASE("an unknown type name is refused") {
  for (const char* text : {"", "fp4", "float32x", " fp32", "bf"}) {
    CAPTURE(text);
    CHECK_FALSE(parse_dtype(text).has_value());
  }
}

TEST_CASE("the C spelling is what a kernel declares") {
  CHECK(dtype_c_name(DType::fp32) == "float");
  CHECK(dtype_c_name(DType::fp64) == "double");
  CHECK(dtype_c_name(DType::bf16) == "bf16");
}

}  // namespace banklab
