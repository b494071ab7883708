// banklab scan FILE.cu: every shared-memory access of each kernel of a file, counted for the
// whole block and sorted by the wavefronts its conflicts add (core/code/scan.hpp); with
// --ncu-csv, Nsight Compute's measured counts beside them (core/code/ncu_source.hpp).
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "app/cli/commands.hpp"
#include "app/cli/scan_output.hpp"
#include "app/frontend/file_io.hpp"
#include "core/base/format.hpp"
#include "core/base/json_writer.hpp"
#include "core/code/ncu_source.hpp"
#include "core/code/scan.hpp"

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
      append_text(out, name, *text, k);
      if (comparison) append_comparison_text(out, *comparison);
      if (!comparison_error.empty()) append_format(out, "ncu: %s\n\n", comparison_error.c_str());
    }
  }
  print(out);
  return kExitOk;
}

}  // namespace banklab::cli
