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
#include "app/cli/scan_output.hpp"
#include "app/cli/syntax.hpp"
#include "app/frontend/file_io.hpp"
#include "core/base/format.hpp"
#include "core/base/json_writer.hpp"
#include "core/code/kernel_params.hpp"
#include "core/code/ncu_source.hpp"
#include "core/code/ptx_widths.hpp"
#include "core/code/scan.hpp"

extern char** environ;

namespace banklab::cli {
namespace {

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

// What `banklab scan` was asked, every flag read here: the scan itself (core's ScanOptions)
// and what the command does with it.
struct ScanCommandOptions {
  ScanOptions scan;
  std::optional<std::string> ncu_csv;  // Nsight Compute's source page to compare with
  bool check_widths = false;           // each line's widths against nvcc's PTX
  bool json = false;
};

Expected<ScanCommandOptions> read_options(const frontend::Args& args) {
  ScanCommandOptions o;
  return frontend::FlagReader<kScan>(args)
      .text("kernel", o.scan.kernel)
      .value("block", o.scan.block, parse_block)
      .value("grid", o.scan.grid, parse_grid)
      .integer("smem", o.scan.dynamic_smem, 1, kMaxSharedPerBlockBytes)
      .each("let", o.scan.lets, parse_lets)
      .text("ncu-csv", o.ncu_csv)
      .flag("check-widths", o.check_widths)
      .flag("json", o.json)
      .result(o);
}

}  // namespace

int run_scan(const frontend::Args& args) {
  const std::string path = args.positionals().front();
  const Expected<ScanCommandOptions> read = read_options(args);
  if (!read) return bad_input(read.error());
  const ScanCommandOptions& options = *read;
  const Expected<std::string> text =
      frontend::read_input_file(path, kMaxScanSourceBytes, "kernel source");
  if (!text) return failure(text.error());
  const std::string name =
      frontend::is_standard_stream(path) ? "standard input" : path.substr(path.rfind('/') + 1);
  const ScanResult r = scan_source({name, *text}, options.scan);
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
  if (const std::optional<std::string>& csv_path = options.ncu_csv) {
    const Expected<std::string> csv =
        frontend::read_input_file(*csv_path, kMaxNcuCsvBytes, "Nsight Compute CSV");
    if (!csv) return failure(csv.error());
    auto parsed = parse_ncu_source_csv(*csv);
    if (!parsed) return bad_input(*csv_path + ": " + parsed.error());
    measured = std::move(*parsed);
  }
  std::vector<PtxKernel> ptx;
  if (options.check_widths) {
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
    std::optional<std::vector<WidthCheck>> widths;
    if (!ptx.empty() && !k.error) {
      const auto p = std::ranges::find(ptx, k.kernel, &PtxKernel::name);
      widths = p != ptx.end() ? check_widths(k, *p) : std::vector<WidthCheck>{};
    }
    if (options.json) {
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
      append_text(out, name, source_lines, k);
      if (comparison) append_comparison_text(out, *comparison);
      if (!comparison_error.empty()) append_format(out, "ncu: %s\n\n", comparison_error.c_str());
      if (widths) append_widths_text(out, *widths);
    }
  }
  print(options.json ? out : printable(out));  // JSON escapes its strings itself
  return kExitOk;
}

}  // namespace banklab::cli
