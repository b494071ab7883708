#pragma once
// What drill.cpp (grading) and drill_generate.cpp (the questions) share.
#include <string>
#include <string_view>
#include <vector>

#include "core/teach/drill.hpp"
#include "core/teach/reversal.hpp"

namespace banklab::drill_detail {

// The lesson's reversal arithmetic comes from core/teach/reversal.hpp (kLesson*), shared with the
// GPU window and gpu-bench.
std::string tbps(double v);  // "28.72 TB/s"

// Every index the scenario's pattern takes on its tile: the columns (in units of a lane's k
// elements), the rows, or the first chunks of ldmatrix/stmatrix. Empty for custom offsets.
std::vector<int> pattern_indices(const Scenario& s);

// The mistake a wrong number matches for a wavefronts, ways or bank ask, if any; checked in a
// fixed order so that an answer two mistakes share is named once, the same way every time.
Mistake classify_number(const Question& q, const Analysis& a, int value);

// The mistake a fix that does not work matches, if any.
Mistake classify_fix(const Question& q, const Fix& f, const FixCheck& c);

}  // namespace banklab::drill_detail
