#pragma once
// What `banklab scan` prints for a kernel, in text and JSON, and Nsight Compute's counts beside
// it: shared by `banklab trace`, which tells a traced launch the same way
// (app/frontend/trace_view.hpp).
#include <functional>
#include <string>
#include <string_view>
#include <vector>

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

// A text for the terminal, line by line: control characters and bytes that are not UTF-8 as
// \xNN (shown()), so that a source line, a file name or a path cannot send the terminal an
// escape sequence (ESC ] 0; ... BEL sets its title). A tab is a space (the caret under an
// error's source line stays in place). JSON needs none of this: it escapes its strings.
std::string printable(std::string_view text);
// The source's lines, cut once (a file of 10,000 kernels has as many entries to print).
std::vector<std::string_view> lines_of(std::string_view text);
// "3x1x1".
std::string dims(const std::array<int, 3>& d);
// The kernel's table: its lines ranked by excess, what was not evaluated, its notes.
void append_text(std::string& out, const std::string& file,
                 const std::vector<std::string_view>& source, const KernelScan& k,
                 const ScanTextStyle& style = {});
// The measured counts beside the predicted ones, a line each, and how many agree.
void append_comparison_text(std::string& out, const KernelComparison& c);
void append_comparison_json(std::string& out, const KernelComparison& c);

}  // namespace banklab::cli
