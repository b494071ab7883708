// banklab scan FILE.cu: every shared-memory access of each kernel of a file, counted for the
// whole block and sorted by the wavefronts its conflicts add (core/code/scan.hpp); with
// --ncu-csv, Nsight Compute's measured counts beside them (core/code/ncu_source.hpp); with
// --check-widths, each line's widths against nvcc's PTX (core/code/ptx_widths.hpp).
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli/commands.hpp"
#include "app/frontend/file_io.hpp"
#include "core/base/format.hpp"
#include "core/base/json_writer.hpp"
#include "core/code/ncu_source.hpp"
#include "core/code/ptx_widths.hpp"
#include "core/code/scan.hpp"

extern char** environ;

namespace banklab::cli {
namespace {

constexpr std::size_t kMaxCsvBytes = 256 << 20;

// "32", "32,8", "32,8,2" or "32x8": three sides, each 1..max, their product at most max_total.
Expected<std::array<int, 3>> parse_dims(std::string_view flag, std::string_view text,
                                        std::int64_t max_side, std::int64_t max_total) {
  std::array<int, 3> d = {1, 1, 1};
  std::int64_t total = 1;
  std::size_t axis = 0;
  std::string_view rest = text;
  while (true) {
    const std::size_t sep = rest.find_first_of(",xX");
    const Expected<std::int64_t> n =
        parse_integer(rest.substr(0, sep), "--" + std::string(flag), 1, max_side);
    if (!n || axis == 3) {
      return Error{"--" + std::string(flag) +
                   " expects X[,Y[,Z]] (such as 32,8), each at least 1, got " + quote(text)};
    }
    d[axis++] = static_cast<int>(*n);
    total *= *n;
    if (total > max_total) {
      return Error{"--" + std::string(flag) + ": at most " + std::to_string(max_total) +
                   " in all, got " + quote(text)};
    }
    if (sep == std::string_view::npos) break;
    rest = rest.substr(sep + 1);
  }
  return d;
}

std::string dims(const std::array<int, 3>& d) {
  return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
}

std::string_view source_line(std::string_view text, int line) {
  for (int l = 1; l < line; ++l) {
    const std::size_t nl = text.find('\n');
    if (nl == std::string_view::npos) return {};
    text.remove_prefix(nl + 1);
  }
  text = text.substr(0, text.find('\n'));
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  return text;
}

void append_text(std::string& out, const std::string& file, std::string_view source,
                 const KernelScan& k) {
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

// nvcc: on the PATH, else CUDA's default folder; empty when neither has it.
std::string find_nvcc() {
  std::vector<std::string> folders;
  if (const char* path = std::getenv("PATH")) {
    std::string_view rest = path;
    while (!rest.empty()) {
      const std::size_t colon = rest.find(':');
      folders.emplace_back(rest.substr(0, colon));
      rest = colon == std::string_view::npos ? std::string_view{} : rest.substr(colon + 1);
    }
  }
  folders.emplace_back("/usr/local/cuda/bin");
  for (const std::string& folder : folders) {
    const std::string nvcc = (folder.empty() ? std::string(".") : folder) + "/nvcc";
    if (access(nvcc.c_str(), X_OK) == 0) return nvcc;
  }
  return {};
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The file compiled to PTX with its line table, for sm_90 as the corpus is: the PTX, or why
// not (no nvcc, or its first error lines).
Expected<std::string> compile_ptx(const std::string& path) {
  const std::string nvcc = find_nvcc();
  if (nvcc.empty())
    return Error{
        "--check-widths needs nvcc (CUDA's compiler): none on the PATH or in /usr/local/cuda/bin"};
  char ptx_name[] = "/tmp/banklab-ptx-XXXXXX";
  char log_name[] = "/tmp/banklab-nvcc-XXXXXX";
  const int ptx_fd = mkstemp(ptx_name);
  const int log_fd = mkstemp(log_name);
  if (ptx_fd < 0 || log_fd < 0)
    return Error{"--check-widths: cannot make a temporary file in /tmp"};
  close(ptx_fd);
  std::vector<std::string> words = {nvcc,          "-O3", "-ptx",   "-lineinfo",
                                    "-arch=sm_90", "-o",  ptx_name, path};
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, log_fd, 1);
  posix_spawn_file_actions_adddup2(&actions, log_fd, 2);
  pid_t pid = 0;
  int status = 0;
  const int spawned = posix_spawn(&pid, nvcc.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(log_fd);
  if (spawned == 0) waitpid(pid, &status, 0);
  std::string ptx = read_text(ptx_name);
  const std::string log = read_text(log_name);
  unlink(ptx_name);
  unlink(log_name);
  if (spawned != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return Error{"--check-widths: " + nvcc +
                 " -O3 -ptx -lineinfo -arch=sm_90 failed: " + log.substr(0, log.find('\n'))};
  }
  return ptx;
}

void append_widths_text(std::string& out, const std::vector<WidthCheck>& checks) {
  int checked = 0, agreeing = 0;
  for (const WidthCheck& c : checks) {
    checked += c.checked ? 1 : 0;
    agreeing += c.checked && c.agrees ? 1 : 0;
  }
  out += "widths against nvcc -O3 -ptx -lineinfo -arch=sm_90, by line:\n";
  for (const WidthCheck& c : checks) {
    const std::string width = c.width > 0 ? std::to_string(c.width) : "-";
    append_format(out, "%5d  %-2s  %5s  %-8s %s\n", c.line, c.load ? "ld" : "st", width.c_str(),
                  !c.checked ? ""
                  : c.agrees ? "agrees"
                             : "DIFFERS",
                  c.detail.c_str());
  }
  append_format(out, "%d of %d checked lines agree with the PTX\n\n", agreeing, checked);
}

void append_widths_json(std::string& out, const std::vector<WidthCheck>& checks) {
  JsonWriter w(out);
  w.begin_array();
  for (const WidthCheck& c : checks) {
    w.begin_object().field("line", c.line).field("op", c.load ? "ld" : "st");
    w.field("width", c.width).field("checked", c.checked).field("agrees", c.agrees);
    w.field("detail", c.detail).end_object();
  }
  w.end_array();
}

}  // namespace

int run_scan(const frontend::Args& args) {
  const std::string path = args.positionals().front();
  ScanOptions options;
  const Expected<void> read =
      frontend::FlagReader(args)
          .text("kernel", options.kernel)
          .value("block", options.block,
                 [](std::string_view t) { return parse_dims("block", t, 1024, 1024); })
          .value("grid", options.grid,
                 [](std::string_view t) { return parse_dims("grid", t, 2147483647, INT64_MAX); })
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
    std::fputs(message.substr(newline + 1).c_str(), stderr);
    return status;
  }
  std::vector<MeasuredKernel> measured;
  if (const auto csv_path = args.value("ncu-csv")) {
    const Expected<std::string> csv =
        frontend::read_input_file(std::string(*csv_path), kMaxCsvBytes, "Nsight Compute CSV");
    if (!csv) return failure(csv.error());
    auto parsed = parse_ncu_source_csv(*csv);
    if (!parsed) return bad_input(std::string(*csv_path) + ": " + parsed.error());
    measured = std::move(*parsed);
  }
  std::vector<PtxKernel> ptx;
  if (args.has("check-widths")) {
    if (frontend::is_standard_stream(path))
      return bad_input(
          "--check-widths compiles the file with nvcc: give a file, not standard input");
    const Expected<std::string> text_ptx = compile_ptx(path);
    if (!text_ptx) return failure(text_ptx.error());
    auto parsed = parse_ptx(*text_ptx, name);
    if (!parsed) return failure("--check-widths: " + parsed.error());
    ptx = std::move(*parsed);
  }
  std::string out;
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
    std::optional<std::vector<WidthCheck>> widths;
    if (!ptx.empty() && !k.error) {
      const auto p = std::ranges::find(ptx, k.kernel, &PtxKernel::name);
      widths = p != ptx.end() ? check_widths(k, *p) : std::vector<WidthCheck>{};
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
      if (widths) {
        out.pop_back();
        out += ",\"widths\":";
        append_widths_json(out, *widths);
        out += '}';
      }
      out += '\n';
    } else {
      append_text(out, name, *text, k);
      if (comparison) append_comparison_text(out, *comparison);
      if (!comparison_error.empty()) append_format(out, "ncu: %s\n\n", comparison_error.c_str());
      if (widths) append_widths_text(out, *widths);
    }
  }
  print(out);
  return kExitOk;
}

}  // namespace banklab::cli
