#pragma once
// Why a step that returns Expected<void> was refused: the test stops there if it was not (the
// error of a success is no message to compare).
#include <doctest/doctest.h>

#include <string>

#include "core/base/expected.hpp"

namespace banklab::gui::test {

inline std::string refusal(const Expected<void>& step) {
  REQUIRE_FALSE(step);
  return step.error();
}

}  // namespace banklab::gui::test
