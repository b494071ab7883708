// banklab explain [PRESET | scenario flags]: the lesson's derivation for one scenario.
#include <algorithm>
#include <optional>
#include <string>

#include "app/cli/commands.hpp"
#include "app/cli/syntax.hpp"
#include "app/cli/text_output.hpp"
#include "core/code/code_view.hpp"
#include "core/model/presets.hpp"
#include "core/report/json.hpp"
#include "core/report/study.hpp"

namespace banklab::cli {
namespace {

struct ExplainOptions {
  std::optional<std::string> preset;  // the PRESET argument
  frontend::ScenarioFlags scenario;   // --preset NAME among them
  bool json = false;
};

Expected<ExplainOptions> read_options(const frontend::Args& args) {
  ExplainOptions o;
  if (!args.positionals().empty()) o.preset = args.positionals()[0];
  o.scenario = frontend::scenario_flags(args);
  return frontend::FlagReader<kExplain>(args).flag("json", o.json).result(o);
}

}  // namespace

int run_explain(const frontend::Args& args) {
  const Expected<ExplainOptions> o = read_options(args);
  if (!o) return bad_input(o.error());
  if (o->preset && o->scenario.given()) {
    return bad_input("give a PRESET or the scenario flags, not both (--preset " + *o->preset +
                     " starts from the preset)");
  }
  // A preset alone (PRESET or --preset NAME) is explained with its title and lesson.
  const bool preset_alone =
      !o->scenario.file &&
      std::ranges::all_of(o->scenario.keys, [](const KeyValue& v) { return v.key == "preset"; });
  const Preset* preset = nullptr;
  Scenario scenario;
  if (!preset_alone) {
    const Expected<Scenario> s = frontend::scenario_from_flags(o->scenario);
    if (!s) return bad_input(s.error());
    scenario = *s;
  } else {
    const std::string name = o->scenario.keys.empty()
                                 ? o->preset.value_or(std::string(kDefaultPreset))
                                 : o->scenario.keys.front().value;
    preset = find_preset(name);
    if (preset == nullptr) return bad_input(unknown_preset(name));
    scenario = preset->scenario;
  }

  // Some scenarios teach through their diagnostic (a float4 store into 132-byte rows cannot be
  // aligned): for those the diagnostic is the explanation, and the command still succeeds.
  const Study studied = study(scenario);
  const Evaluation& e = studied.evaluation;
  // Text explains both; JSON carries an explanation only with an analysis.
  const Explanation& x = studied.explanation;

  std::string out;
  if (o->json) {
    append_json(out, studied);  // the explanation only with an analysis
    out += '\n';
  } else {
    if (preset != nullptr)
      out += std::string(preset->name) + ": " + std::string(preset->title) + "\n";
    out += describe(scenario) + "\n";
    if (preset != nullptr) out += std::string(preset->lesson) + "\n";
    out += "\n";
    if (e.ok()) append_summary(out, *e.analysis);
    append_diagnostics(out, e.diagnostics);
    out += '\n';
    out += explanation_text(x, e.diagnostics);
    out += "\nThe CUDA behind it:\n";
    out += to_text(code_view(studied), e.ok() ? example_lanes(*e.analysis) : std::vector<int>{});
  }
  print(out);
  return kExitOk;
}

}  // namespace banklab::cli
