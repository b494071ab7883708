// banklab explain [PRESET]: the lesson's derivation for one preset.
#include <string>

#include "banklab/code_view.hpp"
#include "banklab/json.hpp"
#include "banklab/presets.hpp"
#include "commands.hpp"
#include "text_output.hpp"

namespace banklab::cli {

int run_explain(const Args& args) {
  const std::string_view name =
      args.positionals().empty() ? kDefaultPreset : std::string_view(args.positionals()[0]);
  const Preset* preset = find_preset(name);
  if (preset == nullptr) return bad_input(unknown_preset(name));

  // Some presets teach through their diagnostic (a float4 store into 132-byte rows cannot be
  // aligned): for those the diagnostic is the explanation, and the command still succeeds.
  const Evaluation e = evaluate(preset->scenario);
  // Text explains both; JSON carries an explanation only with an analysis.
  const Explanation x = explain(preset->scenario, e);

  std::string out;
  if (args.has("json")) {
    append_json(out, preset->scenario, e, e.ok() ? &x : nullptr);
    out += '\n';
  } else {
    out += std::string(preset->name) + ": " + std::string(preset->title) + "\n";
    out += describe(preset->scenario) + "\n";
    out += std::string(preset->lesson) + "\n\n";
    if (e.ok()) append_summary(out, *e.analysis);
    append_diagnostics(out, e.diagnostics);
    out += '\n';
    out += to_text(x);
    out += "\nThe CUDA behind it:\n";
    out += to_text(code_view(preset->scenario, e),
                   e.ok() ? example_lanes(*e.analysis) : std::vector<int>{});
  }
  print(out);
  return kExitOk;
}

}  // namespace banklab::cli
