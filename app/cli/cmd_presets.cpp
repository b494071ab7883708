// banklab presets: the lesson's scenarios, from core's one table.
#include <algorithm>
#include <cstdio>
#include <string>

#include "app/cli/commands.hpp"
#include "app/cli/syntax.hpp"
#include "core/model/presets.hpp"
#include "core/report/json.hpp"

namespace banklab::cli {
namespace {

struct PresetsOptions {
  bool json = false;
};

Expected<PresetsOptions> read_options(const frontend::Args& args) {
  PresetsOptions o;
  return frontend::FlagReader<kPresets>(args).flag("json", o.json).result(o);
}

}  // namespace

int run_presets(const frontend::Args& args) {
  const Expected<PresetsOptions> o = read_options(args);
  if (!o) return bad_input(o.error());
  std::string out;
  if (o->json) {
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
    // lines, so that long lessons do not wrap a table. A preset whose lesson is a diagnostic
    // (the layout cannot do the access) claims no count.
    std::size_t name_width = 0;
    for (const Preset& p : presets()) name_width = std::max(name_width, p.name.size());
    for (const Preset& p : presets()) {
      std::string claim = "diagnostic";
      if (p.expected_wavefronts > 0) {
        claim = std::to_string(p.expected_wavefronts) +
                (p.expected_wavefronts == 1 ? " wavefront" : " wavefronts");
      }
      char head[128];
      std::snprintf(head, sizeof head, "%-*.*s  %-14s ", static_cast<int>(name_width),
                    static_cast<int>(p.name.size()), p.name.data(), claim.c_str());
      out += head;
      out += p.title;
      out += "\n    ";
      out += p.lesson;
      out += '\n';
    }
  }
  print(out);
  return kExitOk;
}

}  // namespace banklab::cli
