// banklab analyze: one access as a scenario (a tile and a pattern over it), as 32 raw byte
// offsets, or a batch of raw patterns, one a line (analyze_batch.cpp). All the counting is
// core's; this file turns flags into a Scenario or a WarpAccess and the results into text or
// JSON.
#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/cli/analyze_batch.hpp"
#include "app/cli/analyze_code.hpp"
#include "app/cli/commands.hpp"
#include "app/cli/syntax.hpp"
#include "app/cli/text_output.hpp"
#include "app/frontend/file_io.hpp"
#include "app/frontend/scenario_file.hpp"
#include "core/banklab.hpp"

namespace banklab::cli {
namespace {

// The command's flag names, checked against its syntax when compiled (args.hpp).
using Flag = frontend::FlagName<kAnalyze>;

constexpr Flag kBatchFormFlags[] = {"batch", "json", "summary"};

// Which form the flags name: a scenario (the default), raw offsets, a batch file, or CUDA code.
enum class Form { scenario, raw, batch, code };

struct AnalyzeOptions {
  Form form = Form::scenario;
  frontend::ScenarioFlags scenario;          // the scenario and raw forms
  std::string batch;                         // --batch FILE, or - for standard input
  std::optional<std::string> save_scenario;  // --save-scenario FILE
  bool summary = false;                      // --batch's short lines: the counts only
  bool json = false;
};

// The form, and every flag checked to belong to it: a flag of another form is an error, never
// silently ignored. The code form's own flags are read by analyze_code.cpp.
Expected<AnalyzeOptions> read_options(const frontend::Args& args) {
  AnalyzeOptions o;
  if (has_code_flags(args)) {
    o.form = Form::code;
    return o;
  }
  o.form = args.has(Flag("batch"))     ? Form::batch
           : args.has(Flag("offsets")) ? Form::raw
                                       : Form::scenario;
  for (std::string_view flag : args.given()) {
    if (o.form == Form::batch && std::find(std::begin(kBatchFormFlags), std::end(kBatchFormFlags),
                                           flag) == std::end(kBatchFormFlags)) {
      return Error{"--" + std::string(flag) +
                   " cannot be combined with --batch: each batch line gives its own op, "
                   "width and offsets"};
    }
  }
  if (args.has(Flag("summary")) && o.form != Form::batch) {
    return Error{"--summary goes with --batch: it shortens each pattern's JSON line"};
  }
  o.scenario = frontend::scenario_flags(args);
  if (const Expected<void> one = frontend::check_one_form(o.scenario); !one) {
    return Error{one.error()};
  }
  return frontend::FlagReader<kAnalyze>(args)
      .text("batch", o.batch)
      .text("save-scenario", o.save_scenario)
      .flag("summary", o.summary)
      .flag("json", o.json)
      .result(o);
}

// Prints a result that could not be computed: the one-line reason on stderr, and with --json
// also the diagnostics as a JSON object on stdout, so that a script reading stdout sees why.
int reject(const AnalyzeOptions& o, const std::vector<Diagnostic>& diagnostics) {
  if (o.json) {
    std::string out;
    append_json_error(out, diagnostics);
    out += '\n';
    print(out);
  }
  return bad_input(first_error(diagnostics));
}

// A flag whose value cannot be read, as a diagnostic of the rule "usage".
int reject(const AnalyzeOptions& o, std::string message) {
  Diagnostic d{.severity = Severity::error, .rule = "usage", .message = std::move(message)};
  return reject(o, std::vector<Diagnostic>{std::move(d)});
}

int run_scenario(const AnalyzeOptions& o) {
  const Expected<Scenario> scenario = frontend::scenario_from_flags(o.scenario);
  if (!scenario) return reject(o, scenario.error());
  const Study s = study(*scenario);
  const Evaluation& e = s.evaluation;
  if (!e.ok()) return reject(o, e.diagnostics);

  std::string out;
  if (o.json) {
    append_json(out, s);
    out += '\n';
  } else {
    append_report(out, describe(s.scenario), *e.analysis, &e.elements, &s.scenario.tile,
                  e.diagnostics, s.explanation);
  }
  print(out);
  return kExitOk;
}

int run_raw(const AnalyzeOptions& o) {
  const Expected<WarpAccess> access = frontend::access_from_flags(o.scenario);
  if (!access) return reject(o, access.error());
  const std::vector<Diagnostic> diagnostics = check_access(*access);
  if (has_error(diagnostics)) return reject(o, diagnostics);
  const Analysis a = analyze(*access);

  std::string out;
  if (o.json) {
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
  const Expected<AnalyzeOptions> o = read_options(args);
  if (!o) return bad_input(o.error());
  if (o->form == Form::code) return run_analyze_code(args);
  if (o->save_scenario) {
    const Expected<Scenario> s = frontend::scenario_from_flags(o->scenario);
    if (!s) return reject(*o, s.error());
    // `-`: the scenario file itself is the output, for a pipe into --scenario -.
    if (frontend::is_standard_stream(*o->save_scenario)) {
      print(frontend::scenario_file_text(*s));
      return kExitOk;
    }
    const Expected<void> saved = frontend::write_scenario_file(*o->save_scenario, *s);
    if (!saved) return failure(saved.error());
  }
  if (o->form == Form::batch) {
    return run_analyze_batch(o->batch, o->summary ? BatchForm::counts : BatchForm::full);
  }
  if (o->form == Form::raw) return run_raw(*o);
  return run_scenario(*o);
}

}  // namespace banklab::cli
