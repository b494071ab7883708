#pragma once
// JSON for the command line and for scripts: one object per analysis, with at least
// wavefronts, ideal_wavefronts, bank_conflicts, lanes and diagnostics. Written with the one
// JsonWriter (json_writer.hpp), which other JSON texts use directly.
#include <string>
#include <vector>

#include "core/model/presets.hpp"
#include "core/model/scenario.hpp"
#include "core/report/explain.hpp"
#include "core/report/study.hpp"

namespace banklab {

// Appends to out (no trailing newline). The writers take the string by reference so that a
// batch of 100,000 lines reuses one buffer.
void append_json(std::string& out, const Analysis& a, const std::vector<Diagnostic>& diagnostics);
// The same object without "lanes": the instruction, its counts and the diagnostics, about a
// twelfth of the size (`banklab analyze --batch --summary`).
void append_json_counts(std::string& out, const Analysis& a,
                        const std::vector<Diagnostic>& diagnostics);
// A study: its scenario, its evaluation (analysis or diagnostics) and, with an analysis only,
// its explanation.
void append_json(std::string& out, const Study& st);
void append_json_error(std::string& out, const std::vector<Diagnostic>& diagnostics);
void append_json(std::string& out, const Preset& p);

}  // namespace banklab
