#pragma once
// What drill.cpp (names, fixes, the rubric), drill_grade.cpp (grading) and drill_generate.cpp
// (the questions) share.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/teach/drill.hpp"
#include "core/teach/measured.hpp"
#include "core/teach/reversal.hpp"

namespace banklab::drill_detail {

std::string tbps(double v);  // "28.72 TB/s"

// Text helpers (blanks are trimmed by core/base/format.hpp's trim): lower case; a whole number
// or none; words joined.
std::string lower(std::string_view text);
std::optional<int> whole_number(std::string_view text);
std::string join(const std::vector<std::string>& words, std::string_view between);

// "row", "column", "chunk": what the scenario's index counts.
std::string index_name(const Scenario& s);
// "a 16-way", "an 8-way", "an 11-way", "an 18-way".
std::string article(int n);
// "32 wavefronts (ideal 1)".
std::string wavefronts_text(const Analysis& a);

// The alignment TMA needs of the tile's first byte: its mode's repeat, 128 B unswizzled, the
// repeat of the TMA mode a CuTe swizzle spells; 0 for a layout TMA cannot write.
int tma_alignment_of(const TileLayout& t);

// Every index the scenario's pattern takes on its tile: the columns (in units of a lane's k
// elements), the rows, or the first chunks of ldmatrix/stmatrix. Empty for raw offsets.
std::vector<int> pattern_indices(const Scenario& s);

// The mistake a wrong number matches for a wavefronts, ways or bank ask, if any; checked in a
// fixed order so that an answer two mistakes share is named once, the same way every time.
Mistake classify_number(const Question& q, const Analysis& a, int value);

// The mistake a fix that does not work matches, if any.
Mistake classify_fix(const Question& q, const Fix& f, const FixCheck& c);

}  // namespace banklab::drill_detail
