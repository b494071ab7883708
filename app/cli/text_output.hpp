#pragma once
// What `banklab analyze` and `banklab explain` print when --json is not given. Every number
// comes from core's Analysis and Explanation; these functions only lay them out.
#include <array>
#include <string>
#include <vector>

#include "core/base/diagnostic.hpp"
#include "core/model/analysis.hpp"
#include "core/model/scenario.hpp"
#include "core/report/explain.hpp"

namespace banklab::cli {

// One row per lane: lane, r, c, byte, words, banks, wavefront, broadcast. `elements` and `tile`
// are null for raw offsets, whose lanes have no (r, c).
void append_lane_table(std::string& out, const Analysis& a,
                       const std::array<LaneElements, kWarpSize>* elements, const TileLayout* tile);

// One row per wavefront, one column per bank: the lowest lane that bank serves in that
// wavefront, '+' after it when more lanes share the word (a broadcast or merged write), '.'
// for an idle bank.
void append_bank_grid(std::string& out, const Analysis& a);

// "wavefronts 32, ideal 1, bank conflicts 31 (a 32-way conflict)".
void append_summary(std::string& out, const Analysis& a);

// Warnings and notes that ride along with a valid result, one a line; nothing when empty.
void append_diagnostics(std::string& out, const std::vector<Diagnostic>& diagnostics);

// The explanation as core words it, less the notes that `shown` (printed above it as
// diagnostics) already said: explain() repeats every non-error diagnostic as a caveat, for the
// readers that show only the explanation (the GUI's arithmetic panel, JSON).
std::string explanation_text(const Explanation& x, const std::vector<Diagnostic>& shown);

// The whole text report of one analysis: heading, summary, lane table, bank grid, diagnostics
// and the explanation as core words it.
void append_report(std::string& out, std::string_view heading, const Analysis& a,
                   const std::array<LaneElements, kWarpSize>* elements, const TileLayout* tile,
                   const std::vector<Diagnostic>& diagnostics, const Explanation& x);

}  // namespace banklab::cli
