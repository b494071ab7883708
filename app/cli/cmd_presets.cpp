// banklab presets: the lesson's scenarios, from core's one table.
#include <cstdio>
#include <string>

#include "banklab/json.hpp"
#include "banklab/presets.hpp"
#include "commands.hpp"

namespace banklab::cli {

std::string unknown_preset(std::string_view name) {
  std::string text(1, '\'');  // appended, not "'" + ...: see quoted() in args.cpp
  text += name;
  text += "' is not a preset; the presets are ";
  bool first = true;
  for (const Preset& p : presets()) {
    if (!first) text += ", ";
    text += p.name;
    first = false;
  }
  return text;
}

int run_presets(const Args& args) {
  std::string out;
  if (args.has("json")) {
    out += "[\n";
    bool first = true;
    for (const Preset& p : presets()) {
      if (!first) out += ",\n";
      append_json(out, p);
      first = false;
    }
    out += "\n]\n";
  } else {
    // Name and the wavefronts the lesson claims, then the title and the lesson on their own
    // lines, so that long lessons do not wrap a table.
    for (const Preset& p : presets()) {
      char head[96];
      std::snprintf(head, sizeof head, "%-20.*s %2d wavefront%s  ",
                    static_cast<int>(p.name.size()), p.name.data(), p.expected_wavefronts,
                    p.expected_wavefronts == 1 ? " " : "s");
      out += head;
      out += p.title;
      out += "\n                        ";
      out += p.lesson;
      out += '\n';
    }
  }
  print(out);
  return kExitOk;
}

}  // namespace banklab::cli
