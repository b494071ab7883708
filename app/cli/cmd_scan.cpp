// banklab scan FILE.cu: every shared-memory access of each kernel of a file, counted for the
// whole block and sorted by the wavefronts its conflicts add (core/code/scan.hpp); with
// --ncu-csv, Nsight Compute's measured counts beside them (core/code/ncu_source.hpp).
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "app/cli/commands.hpp"
#include "app/frontend/file_io.hpp"
#include "core/base/format.hpp"
#include "core/base/json_writer.hpp"
#include "core/code/kernel_params.hpp"
#include "core/code/ncu_source.hpp"
#include "core/code/scan.hpp"

namespace banklab::cli {
namespace {

// "32", "32,8", "32,8,2" or "32x8": three sides, each a number from 1, then within CUDA's
// limits for a block or a grid (check_block, check_grid).
Expected<std::array<int, 3>> parse_dims(std::string_view flag, std::string_view text) {
  const std::string name = "--" + std::string(flag);
  std::array<std::int64_t, 3> d = {1, 1, 1};
  std::size_t axis = 0;
  std::string_view rest = text;
  while (true) {
    const std::size_t sep = rest.find_first_of(",xX");
    const Expected<std::int64_t> n = parse_integer(rest.substr(0, sep), name, 1, INT32_MAX);
    if (!n || axis == 3) {
      return Error{name + " expects X[,Y[,Z]] (such as 32,8), each at least 1, got " + quote(text)};
    }
    d[axis++] = *n;
    if (sep == std::string_view::npos) break;
    rest = rest.substr(sep + 1);
  }
  const Expected<void> fine = flag == "block" ? check_block(d, name) : check_grid(d, name);
  if (!fine) return Error{fine.error()};
  return std::array<int, 3>{static_cast<int>(d[0]), static_cast<int>(d[1]), static_cast<int>(d[2])};
}

std::string dims(const std::array<int, 3>& d) {
  return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
}

// A text for the terminal, line by line: control characters and bytes that are not UTF-8 as
// \xNN (shown()), so that a source line, a file name or a path in the CSV cannot send the
// terminal an escape sequence (ESC ] 0; ... BEL sets its title). A tab is a space (the caret
// under an error's source line stays in place).
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

// The source's lines, cut once (a file of 10,000 kernels has as many entries to print).
std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  while (true) {
    const std::size_t nl = text.find('\n');
    lines.push_back(text.substr(0, nl));
    if (nl == std::string_view::npos) return lines;
    text.remove_prefix(nl + 1);
  }
}

// Line `line` (from 1) without its indentation.
std::string_view source_line(const std::vector<std::string_view>& lines, int line) {
  if (line < 1 || static_cast<std::size_t>(line) > lines.size()) return {};
  std::string_view text = lines[static_cast<std::size_t>(line) - 1];
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  return text;
}

void append_text(std::string& out, const std::string& file,
                 const std::vector<std::string_view>& source, const KernelScan& k) {
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
  append_format(out, "%zu shared-memory accesses, %lld wavefronts a block, %lld of them excess",
                k.lines.size(), static_cast<long long>(total), static_cast<long long>(excess));
  if (k.grid) {
    append_format(out, " (Nsight Compute counts the whole grid: %lld blocks)",
                  static_cast<long long>(k.blocks()));
  }
  out += "\n\n";
  if (!k.lines.empty()) {
    out += " line  op           width  instr  wavefronts   ideal  excess  worst   where\n";
    for (const ScanLine& l : k.lines) {
      const std::string worst = std::to_string(l.worst_ways) + "-way";
      append_format(out, "%5d  %-11s  %5d  %5lld  %10lld  %6lld  %6lld  %-6s  %s\n", l.line,
                    std::string(op_name(l.op)).c_str(), l.width,
                    static_cast<long long>(l.instructions), static_cast<long long>(l.wavefronts),
                    static_cast<long long>(l.ideal_wavefronts),
                    static_cast<long long>(l.excess_wavefronts), worst.c_str(),
                    describe_place(l, l.worst_warp, l.worst_iteration).c_str());
      append_format(out, "       %s[...] %s\n", l.array.c_str(),
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
  append_format(out, "measured (Nsight Compute, %s), predicted times %lld blocks:\n",
                c.measured_file.c_str(), static_cast<long long>(c.blocks));
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

}  // namespace

int run_scan(const frontend::Args& args) {
  const std::string path = args.positionals().front();
  ScanOptions options;
  const Expected<void> read =
      frontend::FlagReader(args)
          .text("kernel", options.kernel)
          .value("block", options.block, [](std::string_view t) { return parse_dims("block", t); })
          .value("grid", options.grid, [](std::string_view t) { return parse_dims("grid", t); })
          .integer("smem", options.dynamic_smem, 1, kMaxSharedPerBlockBytes)
          .done();
  if (!read) return bad_input(read.error());
  for (std::string_view text : args.values("let")) {
    auto lets = parse_lets(text);
    if (!lets) return bad_input(lets.error());
    options.lets.insert(options.lets.end(), lets->begin(), lets->end());
  }
  const Expected<std::string> text =
      frontend::read_input_file(path, kMaxScanSourceBytes, "kernel source");
  if (!text) return failure(text.error());
  const std::string name =
      frontend::is_standard_stream(path) ? "standard input" : path.substr(path.rfind('/') + 1);
  const ScanResult r = scan_source({name, *text}, options);
  if (r.error) {
    const CodeSource source{name, *text};
    const std::string message = format_code_error(*r.error, std::span(&source, 1));
    const std::size_t newline = message.find('\n');
    const int status = bad_input(message.substr(0, newline));
    if (newline != std::string::npos)
      std::fputs(printable(message.substr(newline + 1)).c_str(), stderr);
    return status;
  }
  std::vector<MeasuredKernel> measured;
  if (const auto csv_path = args.value("ncu-csv")) {
    const Expected<std::string> csv =
        frontend::read_input_file(std::string(*csv_path), kMaxNcuCsvBytes, "Nsight Compute CSV");
    if (!csv) return failure(csv.error());
    auto parsed = parse_ncu_source_csv(*csv);
    if (!parsed) return bad_input(std::string(*csv_path) + ": " + parsed.error());
    measured = std::move(*parsed);
  }
  std::string out;
  const std::vector<std::string_view> source_lines = lines_of(*text);
  for (const KernelScan& k : r.kernels) {
    std::optional<KernelComparison> comparison;
    std::string comparison_error;
    if (!measured.empty() && !k.error) {
      const auto m = std::ranges::find(measured, k.kernel, &MeasuredKernel::name);
      if (m != measured.end()) {
        Expected<KernelComparison> c = compare(k, *m, name, *text);
        if (c)
          comparison = std::move(*c);
        else
          comparison_error = c.error();
      } else {
        comparison_error = "the CSV has no measurement of " + k.kernel;
      }
    }
    if (args.has("json")) {
      append_json(out, k);
      if (comparison || !comparison_error.empty()) {
        out.pop_back();  // the kernel's closing brace: the comparison goes inside it
        out += ",\"ncu\":";
        if (comparison)
          append_comparison_json(out, *comparison);
        else
          JsonWriter(out).begin_object().field("error", comparison_error).end_object();
        out += '}';
      }
      out += '\n';
    } else {
      append_text(out, name, source_lines, k);
      if (comparison) append_comparison_text(out, *comparison);
      if (!comparison_error.empty()) append_format(out, "ncu: %s\n\n", comparison_error.c_str());
    }
  }
  print(args.has("json") ? out : printable(out));  // JSON escapes its strings itself
  return kExitOk;
}

}  // namespace banklab::cli
