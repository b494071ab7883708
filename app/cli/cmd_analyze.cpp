// banklab analyze: one access as a scenario (a tile and a pattern over it), as 32 raw byte
// offsets, or a batch of raw patterns, one a line (analyze_batch.cpp). All the counting is
// core's; this file turns flags into a Scenario or a WarpAccess and the results into text or
// JSON.
#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/cli/analyze_batch.hpp"
#include "app/cli/analyze_code.hpp"
#include "app/cli/commands.hpp"
#include "app/cli/text_output.hpp"
#include "app/frontend/file_io.hpp"
#include "app/frontend/scenario_file.hpp"
#include "core/banklab.hpp"

namespace banklab::cli {
namespace {

constexpr std::string_view kBatchFlags[] = {"batch", "json", "summary"};

// Prints a result that could not be computed: the one-line reason on stderr, and with --json
// also the diagnostics as a JSON object on stdout, so that a script reading stdout sees why.
int reject(const frontend::Args& args, const std::vector<Diagnostic>& diagnostics) {
  if (args.has("json")) {
    std::string out;
    append_json_error(out, diagnostics);
    out += '\n';
    print(out);
  }
  return bad_input(first_error(diagnostics));
}

// A flag whose value cannot be read, as a diagnostic of the rule "usage".
int reject(const frontend::Args& args, std::string message) {
  Diagnostic d{.severity = Severity::error, .rule = "usage", .message = std::move(message)};
  return reject(args, std::vector<Diagnostic>{std::move(d)});
}

int run_scenario(const frontend::Args& args) {
  const Expected<Scenario> s = frontend::scenario_from_flags(args);
  if (!s) return reject(args, s.error());
  const Evaluation e = evaluate(*s);
  if (!e.ok()) return reject(args, e.diagnostics);
  const Explanation x = explain(*s, e);

  std::string out;
  if (args.has("json")) {
    append_json(out, *s, e, &x);
    out += '\n';
  } else {
    append_report(out, describe(*s), *e.analysis, &e.elements, &s->tile, e.diagnostics, x);
  }
  print(out);
  return kExitOk;
}

int run_raw(const frontend::Args& args) {
  const Expected<WarpAccess> access = frontend::access_from_flags(args);
  if (!access) return reject(args, access.error());
  const std::vector<Diagnostic> diagnostics = check_access(*access);
  if (has_error(diagnostics)) return reject(args, diagnostics);
  const Analysis a = analyze(*access);

  std::string out;
  if (args.has("json")) {
    append_json(out, a, diagnostics);
    out += '\n';
  } else {
    append_report(out, to_string(*access), a, nullptr, nullptr, diagnostics, explain(a));
  }
  print(out);
  return kExitOk;
}

}  // namespace

int run_analyze(const frontend::Args& args) {
  // Which form: --batch, --offsets, or else a scenario. A flag of another form is an error,
  // never silently ignored.
  if (has_code_flags(args)) return run_analyze_code(args);
  const bool batch = args.has("batch");
  const bool raw = args.has("offsets");
  for (std::string_view flag : args.given()) {
    if (batch && std::ranges::find(kBatchFlags, flag) == std::end(kBatchFlags)) {
      return bad_input("--" + std::string(flag) +
                       " cannot be combined with --batch: each batch line gives its own op, "
                       "width and offsets");
    }
  }
  if (args.has("summary") && !batch) {
    return bad_input("--summary goes with --batch: it shortens each pattern's JSON line");
  }
  if (const auto mixed = frontend::mixed_forms(args)) return bad_input(*mixed);
  if (const auto path = args.value("save-scenario")) {
    const Expected<Scenario> s = frontend::scenario_from_flags(args);
    if (!s) return reject(args, s.error());
    // `-`: the scenario file itself is the output, for a pipe into --scenario -.
    if (frontend::is_standard_stream(*path)) {
      print(frontend::scenario_file_text(*s));
      return kExitOk;
    }
    const Expected<bool> saved = frontend::write_scenario_file(std::string(*path), *s);
    if (!saved) return failure(saved.error());
  }
  if (batch) {
    return run_analyze_batch(*args.value("batch"),
                             args.has("summary") ? BatchForm::counts : BatchForm::full);
  }
  if (raw) return run_raw(args);
  return run_scenario(args);
}

}  // namespace banklab::cli
