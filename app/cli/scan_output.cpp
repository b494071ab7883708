// What `banklab scan` prints for a kernel (scan_output.hpp).
#include "app/cli/scan_output.hpp"

#include <algorithm>

#include "core/base/format.hpp"
#include "core/base/json_writer.hpp"

namespace banklab::cli {
namespace {

// Line `line` (from 1) without its indentation.
std::string_view source_line(const std::vector<std::string_view>& lines, int line) {
  if (line < 1 || static_cast<std::size_t>(line) > lines.size()) return {};
  std::string_view text = lines[static_cast<std::size_t>(line) - 1];
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  return text;
}

}  // namespace

std::string printable(std::string_view text) {
  std::string out;
  while (true) {
    const std::size_t newline = text.find('\n');
    std::string line(text.substr(0, newline));
    std::replace(line.begin(), line.end(), '\t', ' ');
    out += shown(line, std::string_view::npos);
    if (newline == std::string_view::npos) return out;
    out += '\n';
    text.remove_prefix(newline + 1);
  }
}

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  while (true) {
    const std::size_t nl = text.find('\n');
    lines.push_back(text.substr(0, nl));
    if (nl == std::string_view::npos) return lines;
    text.remove_prefix(nl + 1);
  }
}

std::string dims(const std::array<int, 3>& d) {
  return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
}

void append_text(std::string& out, const std::string& file,
                 const std::vector<std::string_view>& source, const KernelScan& k,
                 const ScanTextStyle& style) {
  append_format(out, "%s:%d: kernel %s", file.c_str(), k.line, k.kernel.c_str());
  if (k.error) {
    append_format(out, ": %s\n\n", k.error->c_str());
    return;
  }
  append_format(out, ", block %s (%s)", dims(k.block).c_str(), k.block_from.c_str());
  if (k.grid) append_format(out, ", grid %s (%s)", dims(*k.grid).c_str(), k.grid_from.c_str());
  out += "\n";
  std::int64_t total = 0, excess = 0;
  for (const ScanLine& l : k.lines) {
    total += l.wavefronts;
    excess += l.excess_wavefronts;
  }
  append_format(out, "%zu shared-memory accesses, %lld wavefronts %s, %lld of them excess",
                k.lines.size(), static_cast<long long>(total), std::string(style.total_of).c_str(),
                static_cast<long long>(excess));
  if (k.grid) {
    append_format(out, " (Nsight Compute counts the whole grid: %lld block%s)",
                  static_cast<long long>(k.blocks()), k.blocks() == 1 ? "" : "s");
  }
  out += "\n\n";
  if (!k.lines.empty()) {
    out += " line  op           width  instr  wavefronts   ideal  excess  worst   where\n";
    for (const ScanLine& l : k.lines) {
      const std::string worst = std::to_string(l.worst_ways) + "-way";
      append_format(
          out, "%5d  %-11s  %5d  %5lld  %10lld  %6lld  %6lld  %-6s  %s\n", l.line,
          std::string(op_name(l.op)).c_str(), l.width, static_cast<long long>(l.instructions),
          static_cast<long long>(l.wavefronts), static_cast<long long>(l.ideal_wavefronts),
          static_cast<long long>(l.excess_wavefronts), worst.c_str(), style.place(l).c_str());
      append_format(out, "       %s%s %s\n", l.array.c_str(),
                    std::string(style.array_suffix).c_str(),
                    std::string(source_line(source, l.line)).c_str());
      for (const std::string& n : l.notes) append_format(out, "       note: %s\n", n.c_str());
    }
  }
  if (!k.unevaluated.empty()) {
    out += "\nnot evaluated:\n";
    for (const ScanProblem& p : k.unevaluated) {
      append_format(out, "%5d  %s%s\n", p.line, p.error ? "error: " : "", p.reason.c_str());
    }
  }
  for (const std::string& n : k.notes) append_format(out, "note: %s\n", n.c_str());
  out += "\n";
}

void append_comparison_text(std::string& out, const KernelComparison& c) {
  append_format(out, "measured (Nsight Compute, %s), predicted times %lld block%s:\n",
                c.measured_file.c_str(), static_cast<long long>(c.blocks),
                c.blocks == 1 ? "" : "s");
  out += " line   predicted  measured   pred. ideal  meas. ideal   pred. excess  meas. excess\n";
  for (const LineComparison& l : c.lines) {
    append_format(
        out, "%5d  %10lld  %9lld  %11lld  %11lld  %13lld  %12lld  %s\n", l.line,
        static_cast<long long>(l.predicted_wavefronts),
        static_cast<long long>(l.measured_wavefronts), static_cast<long long>(l.predicted_ideal),
        static_cast<long long>(l.measured_ideal), static_cast<long long>(l.predicted_excess),
        static_cast<long long>(l.measured_excess),
        l.agrees      ? "agrees"
        : l.evaluated ? "DIFFERS"
                      : "");
    if (!l.explanation.empty()) append_format(out, "       %s\n", l.explanation.c_str());
  }
  append_format(out, "%d of %d evaluated lines agree with the measurement\n\n", c.agreeing_lines(),
                c.evaluated_lines());
}

void append_comparison_json(std::string& out, const KernelComparison& c) {
  JsonWriter w(out);
  w.begin_object().field("measured_file", c.measured_file).field("blocks", c.blocks);
  w.field("evaluated_lines", c.evaluated_lines()).field("agreeing_lines", c.agreeing_lines());
  w.key("lines").begin_array();
  for (const LineComparison& l : c.lines) {
    w.begin_object()
        .field("line", l.line)
        .field("evaluated", l.evaluated)
        .field("agrees", l.agrees);
    w.field("predicted_wavefronts", l.predicted_wavefronts)
        .field("measured_wavefronts", l.measured_wavefronts);
    w.field("predicted_ideal", l.predicted_ideal).field("measured_ideal", l.measured_ideal);
    w.field("predicted_excess", l.predicted_excess).field("measured_excess", l.measured_excess);
    w.field("explanation", l.explanation).end_object();
  }
  w.end_array().end_object();
}

}  // namespace banklab::cli
