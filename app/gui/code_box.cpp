#include "code_box.hpp"

#include <span>
#include <utility>

#include "app_state.hpp"

namespace banklab::gui {

bool apply_code(AppState& s) {
  CodeBox& c = s.user.code;
  ++c.evaluations;
  KernelParams params;
  params.block = c.block;
  params.warp = c.warp;
  if (c.lets.find_first_not_of(" \t") != std::string::npos) {
    auto lets = parse_lets(c.lets);
    if (!lets) {
      c.error = "error: " + lets.error() + "\n";
      c.error_line = 0;
      return false;
    }
    params.lets = std::move(*lets);
  }
  const CodeSource source{"code", c.text};
  const std::span sources(&source, 1);
  CodeResult r = evaluate_code(sources, params);
  if (r.error) {
    c.error = format_code_error(*r.error, sources);
    c.error_line = r.error->line;
    return false;
  }
  c.error.clear();
  c.error_line = 0;
  c.code = std::move(r.code);
  s.user.scenario = c.code->scenario;
  s.user.custom_error.clear();
  s.user.custom_text = offsets_text(s.user.scenario.custom_offsets);
  return true;
}

bool set_code(AppState& s, std::string text) {
  s.user.code.text = std::move(text);
  return apply_code(s);
}

bool code_on_screen(const AppState& s) {
  return s.user.code.code && s.user.code.code->scenario == s.user.scenario;
}

}  // namespace banklab::gui
