#include "app/gui/platform/link.hpp"

#include <algorithm>
#include <array>
#include <cstdio>

#include "app/gui/state/stage_state.hpp"
#include "core/base/format.hpp"
#include "core/model/presets.hpp"
#include "core/model/scenario_keys.hpp"

namespace banklab::gui {
namespace {

// The flags a link may not carry, and why: each names a file on the machine the app runs on, or
// sets what the browser decides (the window's size).
struct Refused {
  std::string_view flag;
  std::string_view why;
};
constexpr Refused kRefused[] = {
    {"scenario", "names a scenario file on a computer; give its flags instead (dtype=...)"},
    {"gpu-results", "names a recording on a computer; open it in the GPU window instead"},
    {"screenshot", "writes a file; use File > Export PNG"},
    {"geometry", "writes a file"},
    {"export-dir", "writes files; use File > Export"},
    {"scan", "names a kernel file on a computer; open it with File > Open kernel instead"},
    {"size", "is the browser window's to set"},
    {"help", "prints the command line's help"},
    {"bench-frames", "is a benchmark's setting, given in the address's query (?bench-frames=N)"},
};

// A comparison in a link names presets and built-in comparisons only: the command line's
// --compare also reads scenario files, and `-` as standard input (in a browser, a prompt),
// which a link cannot reach. Empty items are parse_compare()'s to refuse.
Expected<void> check_link_compare(std::string_view list) {
  while (true) {
    const std::size_t comma = list.find(',');
    const std::string_view item = list.substr(0, comma);
    if (!item.empty() && !find_preset(item) && builtin_comparison(item).empty()) {
      return Error{"compare: " + quote(item) +
                   " is neither a preset nor a comparison (transpose, transpose-padded, "
                   "naive-pad-swizzle); a link cannot name a scenario file"};
    }
    if (comma == std::string_view::npos) return {};
    list.remove_prefix(comma + 1);
  }
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// One pair's words for parse_options(): "--key=value", or "--key" for a switch that is on, or
// nothing for one that is off.
Expected<std::vector<std::string>> words_of(std::string_view pair) {
  const std::size_t eq = pair.find('=');
  Expected<std::string> key = percent_decode(pair.substr(0, eq));
  if (!key) return Error{key.error()};
  const bool has_value = eq != std::string_view::npos;
  Expected<std::string> value = percent_decode(has_value ? pair.substr(eq + 1) : "");
  if (!value) return Error{value.error()};
  if (*key == "seed") *key = "drill-seed";  // banklab drill's name for it
  const auto refused = std::find_if(std::begin(kRefused), std::end(kRefused),
                                    [&](const Refused& r) { return r.flag == *key; });
  if (refused != std::end(kRefused)) {
    return Error{quote(*key) + " " + std::string(refused->why) + ": a link cannot"};
  }
  const frontend::FlagSpec* flag = find_option(*key);
  if (!flag || key->empty()) {
    return Error{"unknown key " + quote(*key) +
                 " (a link's keys are banklab-gui's flags: preset, lesson, step, compare, drill, "
                 "dtype, pad, decl, expr, theme, ...)"};
  }
  if (flag->takes_value()) {
    if (!has_value)
      return Error{quote(*key) + " needs a value: " + *key + "=" + std::string(flag->value_name)};
    if (*key == "compare") {
      if (Expected<void> names = check_link_compare(*value); !names) return Error{names.error()};
    }
    return std::vector<std::string>{"--" + *key + "=" + *value};
  }
  if (*value == "" || *value == "1" || *value == "true") return std::vector{"--" + *key};
  if (*value == "0" || *value == "false") return std::vector<std::string>{};
  return Error{quote(*key) + " is on or off: " + *key + "=1 or " + *key + "=0, not " +
               quote(*value)};
}

// The comparison as --compare names it: a built-in comparison's name, else its presets' names;
// "" when an item is neither (a scenario file's).
std::string compare_spec(const std::vector<CompareItem>& items) {
  for (const Comparison& c : comparisons()) {
    if (builtin_comparison(c.name) == items) return std::string(c.name);
  }
  std::string spec;
  for (const CompareItem& item : items) {
    const auto preset = std::find_if(presets().begin(), presets().end(), [&](const Preset& p) {
      return item.name == std::string(p.name) + ": " + std::string(p.title) &&
             p.scenario == item.scenario;
    });
    if (preset == presets().end()) return "";
    spec += (spec.empty() ? "" : ",") + std::string(preset->name);
  }
  return spec;
}

std::string solve_spec(const SolveChoices& chosen) {
  std::string spec;
  for (std::size_t i = 0; i < kSolveChoiceCount; ++i) {
    if (chosen[i]) spec += (spec.empty() ? "" : ",") + std::string(kSolveChoices[i].family);
  }
  return spec;
}

std::string block_text(const std::array<int, 3>& block) {
  return std::to_string(block[0]) + "x" + std::to_string(block[1]) + "x" + std::to_string(block[2]);
}

// The scenario on screen: its preset, its code, or its flags.
void scenario_fields_of(const AppState& s, std::vector<std::pair<std::string, std::string>>& out) {
  // Code that does not evaluate (typed, or from a link) comes first: the Code window shows its
  // error over the last valid access, and the address keeps the text rather than that access.
  if (s.user.preset >= 0 && !preset_modified(s) && !code_stale(s)) {
    out.emplace_back("preset", presets()[static_cast<std::size_t>(s.user.preset)].name);
    return;
  }
  if (code_on_screen(s) || code_stale(s)) {
    const CodeBox& c = s.user.code;
    out.emplace_back("code", c.text);
    if (!c.lets.empty()) out.emplace_back("let", c.lets);
    out.emplace_back("block", block_text(c.block));
    out.emplace_back("warp", c.warp == kAllWarps ? "all" : std::to_string(c.warp));
    if (c.extern_bytes != kMaxSharedPerBlockBytes) {
      out.emplace_back("smem", std::to_string(c.extern_bytes));
    }
    return;
  }
  for (KeyValue& v : scenario_key_values(s.user.scenario)) {
    out.emplace_back(std::move(v.key), std::move(v.value));
  }
}

}  // namespace

Expected<std::string> percent_decode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    const int high = i + 2 < text.size() ? hex_digit(text[i + 1]) : -1;
    const int low = i + 2 < text.size() ? hex_digit(text[i + 2]) : -1;
    if (high < 0 || low < 0) {
      return Error{"'%' must start an escape of two hex digits (%20 is a space), at " +
                   quote(text.substr(i, 3))};
    }
    out += static_cast<char>(high * 16 + low);
    i += 2;
  }
  return out;
}

std::string percent_encode(std::string_view text) {
  static constexpr std::string_view kKept = "-_.~,:/()*!'@";
  std::string out;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if ((u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') ||
        kKept.find(c) != std::string_view::npos) {
      out += c;
    } else {
      char escape[4];
      std::snprintf(escape, sizeof escape, "%%%02X", u);
      out += escape;
    }
  }
  return out;
}

Expected<Options> options_from_link(std::string_view fragment) {
  if (fragment.size() > kMaxLinkBytes) {
    return Error{"the link is " + std::to_string(fragment.size()) + " characters long; at most " +
                 std::to_string(kMaxLinkBytes) + " are read"};
  }
  std::vector<std::string> words;
  while (!fragment.empty()) {
    const std::size_t amp = fragment.find('&');
    const std::string_view pair = fragment.substr(0, amp);
    if (!pair.empty()) {
      Expected<std::vector<std::string>> w = words_of(pair);
      if (!w) return Error{w.error()};
      words.insert(words.end(), w->begin(), w->end());
    }
    if (amp == std::string_view::npos) break;
    fragment.remove_prefix(amp + 1);
  }
  const std::vector<std::string_view> views(words.begin(), words.end());
  return parse_options(views);
}

std::vector<std::pair<std::string, std::string>> link_fields(const AppState& s) {
  std::vector<std::pair<std::string, std::string>> out;
  const std::string compared = compare_spec(s.user.stage.compare);
  if (in_lesson(s)) {
    out.emplace_back("lesson", s.lesson.lesson->name);
    out.emplace_back("step", std::to_string(s.lesson.step + 1));
  } else if (!compared.empty()) {
    out.emplace_back("compare", compared);
  } else {
    scenario_fields_of(s, out);
  }
  const Views& v = s.user.views;
  if (v.gpu) out.emplace_back("gpu", "1");
  if (v.solve) {
    if (std::string spec = solve_spec(s.user.solve.chosen); !spec.empty()) {
      out.emplace_back("solve", std::move(spec));
    }
  }
  if (v.drill && s.drill.session) {
    out.emplace_back("drill", std::string(level_name(s.drill.session->level())));
    out.emplace_back("drill-seed", std::to_string(s.drill.session->seed()));
  }
  if (s.user.stage.presenting) out.emplace_back("present", "1");
  const Settings& set = s.user.settings;
  if (set.theme != Theme::dark) out.emplace_back("theme", "light");
  if (set.scheme != Scheme::standard) out.emplace_back("palette", "colour-blind");
  if (set.tile_view != figures::TileView::logical) {
    out.emplace_back("tile-view", std::string(figures::tile_view_name(set.tile_view)));
  }
  return out;
}

std::string link_to(const AppState& s) {
  std::string out;
  for (const auto& [key, value] : link_fields(s)) {
    if (!out.empty()) out += '&';
    out += key + "=" + percent_encode(value);
  }
  return out;
}

}  // namespace banklab::gui
