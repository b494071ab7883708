#pragma once
// The lane table and the derivation as text for documents: CSV (one row per lane, for a
// spreadsheet or a script) and Markdown (the lane table, the derivation as core's explain()
// words it). Every value is the core's.
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/diagnostic.hpp"
#include "core/model/scenario.hpp"
#include "core/report/explain.hpp"

namespace banklab::figures {

// The lanes' elements, for a scenario over a tile; both null for raw offsets.
struct LaneSource {
  const std::array<LaneElements, kWarpSize>* elements = nullptr;
  const TileLayout* tile = nullptr;
};

// Header "lane,active,row,col,elements,byte,words,banks,wavefronts,shares_word", then 32 rows.
// Lists inside a cell (a lane's words, banks, wavefronts) are separated by spaces; an idle lane
// has active 0 and empty cells.
std::string lane_table_csv(const Analysis& a, LaneSource src);
// The same columns as a Markdown table.
std::string lane_table_markdown(const Analysis& a, LaneSource src);

// "# heading", the verdict, the counts, the formula and bank expression, the steps, the caveats
// and the diagnostics.
std::string derivation_markdown(std::string_view heading, const Analysis& a, const Explanation& x,
                                const std::vector<Diagnostic>& diagnostics);

}  // namespace banklab::figures
