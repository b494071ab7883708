// banklab trace: every shared-memory access of one kernel launch of a real program, counted by
// the model line by line, beside the hardware's counts of the same launch (trace_run.hpp); or a
// trace file made so, opened on any machine (--open). Told as `banklab scan` tells a kernel
// (scan_output.hpp, app/frontend/trace_view.hpp).
#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/commands.hpp"
#include "app/cli/scan_output.hpp"
#include "app/cli/syntax.hpp"
#include "app/cli/text_output.hpp"
#include "app/cli/trace_run.hpp"
#include "app/frontend/file_io.hpp"
#include "app/frontend/trace_view.hpp"
#include "core/base/format.hpp"
#include "core/base/json_writer.hpp"
#include "core/code/ncu_source.hpp"
#include "core/code/scan.hpp"
#include "core/model/analysis.hpp"

namespace banklab::cli {
namespace {

struct TraceOptions {
  std::optional<std::string> open;
  std::optional<std::string> output;
  std::optional<std::string> source;  // --source FILE.cu: the static scan beside
  std::optional<std::string> lanes;   // --lanes LINE[:N]
  bool json = false;
  TraceRunOptions run;
};

// "LINE" or "LINE:N": a line of the trace and which of its instructions (default: the worst).
struct LanesChoice {
  int line = 0;
  std::optional<std::int64_t> index;
};
Expected<LanesChoice> parse_lanes(std::string_view text) {
  LanesChoice c;
  const std::size_t colon = text.find(':');
  const auto line = parse_integer(text.substr(0, colon), "--lanes", 0, INT32_MAX);
  if (!line) return Error{"--lanes expects LINE or LINE:N, got " + quote(text)};
  c.line = static_cast<int>(*line);
  if (colon != std::string_view::npos) {
    const auto n = parse_integer(text.substr(colon + 1), "--lanes", 0, INT64_MAX);
    if (!n) return Error{"--lanes expects LINE or LINE:N, got " + quote(text)};
    c.index = *n;
  }
  return c;
}

void append_header(std::string& out, const record::Trace& t) {
  append_format(out, "trace of %s, launch %lld, grid %s, block %s\n", t.kernel.c_str(),
                static_cast<long long>(t.launch), dims(t.grid).c_str(), dims(t.block).c_str());
  append_format(out,
                "  program: %s\n  device:  %s (sm_%d%d), driver %s\n  made:    %s by BankLab %s\n",
                t.program.c_str(), t.device.c_str(), t.cc_major, t.cc_minor, t.driver.c_str(),
                t.created_utc.c_str(), t.commit.c_str());
  append_format(out, "  recorded %zu of the %lld shared-memory warp-instructions it executed",
                t.accesses.size(), static_cast<long long>(t.executed));
  if (t.truncated())
    append_format(out, " (the cap, --max-records %lld)", static_cast<long long>(t.cap));
  if (t.untraced_ms > 0) {
    append_format(out, "; traced launch %.3f ms, untraced %.3f ms (%.0fx)", t.traced_ms,
                  t.untraced_ms, t.traced_ms / t.untraced_ms);
  }
  out += "\n\n";
}

// The static scan of --source for the traced kernel, per line, beside the trace's totals.
void append_static_scan(std::string& out, const frontend::TraceView& v, const record::Trace& t,
                        const std::string& name, const ScanResult& r) {
  const std::string kernel = kernel_base_name(t.kernel);  // a template's instance too
  const auto k = std::ranges::find(r.kernels, kernel, &KernelScan::kernel);
  if (r.error || k == r.kernels.end() || k->error) {
    append_format(out, "static scan of %s: %s\n\n", name.c_str(),
                  r.error                ? r.error->message.c_str()
                  : k == r.kernels.end() ? ("no kernel " + kernel).c_str()
                                         : k->error->c_str());
    return;
  }
  const std::int64_t blocks = std::int64_t{t.grid[0]} * t.grid[1] * t.grid[2];
  std::map<int, std::pair<std::int64_t, std::int64_t>> traced, scanned;
  for (const ScanLine& l : v.scan.lines) {
    traced[l.line].first += l.wavefronts;
    traced[l.line].second += l.excess_wavefronts;
  }
  for (const ScanLine& l : k->lines) {
    scanned[l.line].first += l.wavefronts * blocks;
    scanned[l.line].second += l.excess_wavefronts * blocks;
  }
  append_format(out, "the static scan of %s (times %lld block%s) beside the trace:\n", name.c_str(),
                static_cast<long long>(blocks), blocks == 1 ? "" : "s");
  out += " line   traced  excess   scanned  excess\n";
  std::map<int, std::string> unevaluated;
  for (const ScanProblem& p : k->unevaluated) unevaluated[p.line] = p.reason;
  std::vector<int> lines;
  for (const auto& m : {traced, scanned})
    for (const auto& [line, w] : m) lines.push_back(line);
  for (const auto& [line, why] : unevaluated) lines.push_back(line);
  std::ranges::sort(lines);
  lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
  for (const int line : lines) {
    const auto tr = traced[line], sc = scanned[line];
    append_format(out, "%5d  %7lld  %6lld  ", line, static_cast<long long>(tr.first),
                  static_cast<long long>(tr.second));
    if (unevaluated.contains(line) && sc.first == 0) {
      append_format(out, "not evaluated: %s\n", unevaluated[line].c_str());
      continue;
    }
    append_format(out, "%8lld  %6lld  %s", static_cast<long long>(sc.first),
                  static_cast<long long>(sc.second), tr == sc ? "same" : "DIFFERS");
    // A line the scan counted in part: what it left out is why the columns may differ.
    if (unevaluated.contains(line))
      append_format(out, "; the rest not evaluated: %s", unevaluated[line].c_str());
    out += "\n";
  }
  out += "\n";
}

const ScanInstance* chosen_instance(const frontend::TraceView& v, const LanesChoice& c,
                                    const ScanLine** line_out) {
  for (const ScanLine& l : v.scan.lines) {
    if (l.line != c.line) continue;
    *line_out = &l;
    if (c.index) {
      return *c.index < static_cast<std::int64_t>(l.instances.size())
                 ? &l.instances[static_cast<std::size_t>(*c.index)]
                 : nullptr;
    }
    for (const ScanInstance& s : l.instances)
      if (s.warp == l.worst_warp && s.iteration == l.worst_iteration) return &s;
  }
  return nullptr;
}

WarpAccess access_of(const ScanLine& l, const ScanInstance& s) {
  WarpAccess a;
  a.op = l.op;
  a.width = l.width;
  a.offsets = s.offsets;
  return a;
}

int print_trace(const record::Trace& t, const TraceOptions& o) {
  const frontend::TraceView v = frontend::view_of(t);
  const std::string name = v.file.empty() ? "(no line info)" : v.file.substr(v.file.rfind('/') + 1);
  std::optional<ScanResult> static_scan;
  std::string static_name;
  if (o.source) {
    const Expected<std::string> text =
        frontend::read_input_file(*o.source, kMaxScanSourceBytes, "kernel source");
    if (!text) return failure(text.error());
    static_name = o.source->substr(o.source->rfind('/') + 1);
    ScanOptions so;
    so.kernel = t.kernel.substr(0, t.kernel.find('('));
    so.block = t.block;
    so.grid = t.grid;
    static_scan = scan_source({static_name, *text}, so);
  }
  const ScanLine* lanes_line = nullptr;
  const ScanInstance* lanes = nullptr;
  if (o.lanes) {
    const Expected<LanesChoice> c = parse_lanes(*o.lanes);
    if (!c) return bad_input(c.error());
    lanes = chosen_instance(v, *c, &lanes_line);
    if (lanes == nullptr)
      return bad_input("--lanes " + *o.lanes + ": the trace has no such instruction");
  }
  std::string out;
  if (o.json) {
    append_json(out, v.scan);
    out.pop_back();  // the kernel's closing brace: the trace's fields go inside it
    JsonWriter w(out);
    out += ",\"trace\":";
    w.begin_object().field("file", v.file).field("program", t.program).field("device", t.device);
    w.field("driver", t.driver).field("commit", t.commit).field("created_utc", t.created_utc);
    w.field("function", t.function).field("launch", t.launch);
    w.field("executed", t.executed).field("recorded", static_cast<std::int64_t>(t.accesses.size()));
    w.field("line_info", t.line_info).field("traced_ms", t.traced_ms, 3);
    w.field("untraced_ms", t.untraced_ms, 3).end_object();
    out += ",\"measured\":";
    if (v.measured) {
      append_comparison_json(out, *v.measured);
    } else {
      JsonWriter(out).begin_object().field("not_measured", v.not_measured).end_object();
    }
    if (lanes != nullptr) {
      out += ",\"lanes\":";
      JsonWriter lw(out);
      lw.begin_object().field("line", lanes_line->line).field("warp", lanes->warp);
      lw.field("wavefronts", lanes->wavefronts).field("ideal", lanes->ideal);
      lw.key("offsets").begin_array();
      for (const std::int64_t off : lanes->offsets) off < 0 ? lw.null() : lw.value(off);
      lw.end_array().end_object();
    }
    out += "}\n";
  } else {
    append_header(out, t);
    ScanTextStyle style;
    style.place = [&t](const ScanLine& l) {
      return frontend::describe_trace_place(t, l.worst_warp, l.worst_iteration.front());
    };
    style.array_suffix = ":";
    style.total_of = "in the launch";
    append_text(out, name, lines_of(v.source), v.scan, style);
    if (v.measured) {
      append_comparison_text(out, *v.measured);
    } else {
      append_format(out, "measured: %s\n\n", v.not_measured.c_str());
    }
    if (static_scan) append_static_scan(out, v, t, static_name, *static_scan);
    if (lanes != nullptr) {
      append_format(
          out, "line %d, %s: %s\n", lanes_line->line, lanes_line->array.c_str(),
          frontend::describe_trace_place(t, lanes->warp, lanes->iteration.front()).c_str());
      const Analysis a = analyze(access_of(*lanes_line, *lanes));
      append_summary(out, a);
      append_lane_table(out, a, nullptr, nullptr);
      append_bank_grid(out, a);
    }
  }
  print(o.json ? out : printable(out));  // JSON escapes its strings itself
  return kExitOk;
}

Expected<TraceOptions> read_options(const frontend::Args& args) {
  TraceOptions o;
  bool no_measure = false;
  const Expected<void> read = frontend::FlagReader<kTrace>(args)
                                  .text("open", o.open)
                                  .text("output", o.output)
                                  .text("source", o.source)
                                  .text("lanes", o.lanes)
                                  .flag("json", o.json)
                                  .text("kernel", o.run.kernel)
                                  .integer("launch", o.run.launch, 0, INT32_MAX)
                                  .integer("max-records", o.run.cap, 1, 1 << 24)
                                  .text("ncu-csv", o.run.ncu_csv)
                                  .flag("no-measure", no_measure)
                                  .done();
  if (!read) return Error{read.error()};
  o.run.measure = !no_measure;
  o.run.command = args.positionals();
  if (o.open && !o.run.command.empty())
    return Error{"--open reads a trace file: give no program with it"};
  if (!o.open && o.run.command.empty())
    return Error{"give the program to trace after --, or a trace file with --open FILE"};
  return o;
}

}  // namespace

int run_trace_command(const frontend::Args& args) {
  const Expected<TraceOptions> o = read_options(args);
  if (!o) return bad_input(o.error());
  if (o->open) {
    const Expected<std::string> text =
        frontend::read_input_file(*o->open, record::kMaxTraceBytes, "trace");
    if (!text) return failure(text.error());
    const Expected<record::Trace> t = record::parse_trace(*text);
    if (!t) return failure(frontend::input_name(*o->open) + ": " + t.error());
    return print_trace(*t, *o);
  }
  TraceRunOptions run_options = o->run;
  run_options.program_output_to_stderr = o->json;
  const Expected<TraceRun> run = run_trace(run_options);
  if (!run) return failure(run.error());
  if (!run->trace) {
    failure(run->error);
    return run->program_status != 0 ? run->program_status : kExitFailure;
  }
  if (o->output) {
    const Expected<void> written =
        frontend::replace_file(*o->output, record::trace_json(*run->trace));
    if (!written) return failure(written.error());
  }
  const int printed = print_trace(*run->trace, *o);
  if (run->program_status != 0) {
    std::fprintf(stderr, "banklab: the traced program exited with status %d\n",
                 run->program_status);
    return run->program_status;
  }
  return printed;
}

}  // namespace banklab::cli
