#pragma once
// What `banklab scan` prints for a kernel, in text and JSON, and Nsight Compute's counts beside
// it: shared by `banklab trace`, which tells a traced launch the same way
// (app/frontend/trace_view.hpp).
#include <functional>
#include <string>
#include <string_view>

#include "core/code/ncu_source.hpp"
#include "core/code/scan.hpp"

namespace banklab::cli {

// How the table names where a line's worst instruction ran and what it accessed: the scan's
// warp and loop trips and "array[...]"; a trace's block, warp and run and its SASS opcode.
struct ScanTextStyle {
  std::function<std::string(const ScanLine&)> place = [](const ScanLine& l) {
    return describe_place(l, l.worst_warp, l.worst_iteration);
  };
  std::string_view array_suffix = "[...]";
  std::string_view total_of = "a block";  // "N wavefronts a block"
};

// "3x1x1".
std::string dims(const std::array<int, 3>& d);
// The kernel's table: its lines ranked by excess, what was not evaluated, its notes.
void append_text(std::string& out, const std::string& file, std::string_view source,
                 const KernelScan& k, const ScanTextStyle& style = {});
// The measured counts beside the predicted ones, a line each, and how many agree.
void append_comparison_text(std::string& out, const KernelComparison& c);
void append_comparison_json(std::string& out, const KernelComparison& c);

}  // namespace banklab::cli
