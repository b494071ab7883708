#pragma once
// std::ranges::find with a projection, for the lists the core looks names up in (the code's
// definitions and macros, the --let values, the type table). The browser edition's standard
// library (libc++ 14, Debian's emscripten) has no std::ranges algorithms, so core, figures and
// the app use the iterator algorithms, and this for a lookup by member:
//
//   find_by(defs, &Definition::name, "N")  ->  the first definition named N, or defs' end
#include <algorithm>
#include <functional>
#include <iterator>

namespace banklab {

template <class Range, class Member, class Value>
auto find_by(Range&& range, Member member, const Value& value) {
  return std::find_if(std::begin(range), std::end(range),
                      [&](const auto& item) { return std::invoke(member, item) == value; });
}

}  // namespace banklab
