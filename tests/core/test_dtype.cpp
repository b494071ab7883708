// Element types: only their size reaches the banks, and their names are what the CLI speaks.
#include <doctest/doctest.h>

#include <sstream>

#include "core/model/dtype.hpp"
#include "core/model/scenario.hpp"

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

namespace banklab {

TEST_CASE("each type's descriptor is the one its enumerator names") {
  for (const DTypeInfo& d : kDTypes) {
    CHECK(&dtype_info(d.type) == &d);
    for (std::string_view alias : d.aliases)
      if (!alias.empty()) CHECK(parse_dtype(alias) == d.type);
  }
  CHECK_FALSE(parse_dtype("").has_value());  // not an unused alias slot
}

// The GPU runs' default pad and the presets' pads: with it a column read of tile[32][32 + pad]
// takes the ideal wavefronts; without a pad it does not.
TEST_CASE("each type's conflict-free pad makes a column read take the ideal wavefronts") {
  for (DType t : kAllDTypes) {
    CAPTURE(t);
    const auto column_read = [t](int pad) {
      const Evaluation e = evaluate(Scenario{{t, 32, 32, pad, {}}, AccessPattern::column});
      REQUIRE(e.ok());
      return e.analysis->bank_conflicts();
    };
    CHECK(column_read(dtype_info(t).conflict_free_pad) == 0);
    CHECK(column_read(0) > 0);
  }
}

}  // namespace banklab
