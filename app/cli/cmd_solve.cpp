// banklab solve: the cheapest conflict-free layout for how a tile is written and read. All the
// searching and counting is core's (core/solve/solve.hpp); this file reads the flags and prints
// the ranking as text or JSON.
#include <climits>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "app/cli/commands.hpp"
#include "app/cli/syntax.hpp"
#include "core/base/format.hpp"
#include "core/base/json_writer.hpp"
#include "core/model/scenario_keys.hpp"
#include "core/solve/solve.hpp"

namespace banklab::cli {
namespace {

// A string list as JSON: ["--pad","1"].
void strings(JsonWriter& w, std::string_view key, const std::vector<std::string>& items) {
  w.key(key).begin_array();
  for (const std::string& item : items) w.value(item);
  w.end_array();
}

void write_candidate(JsonWriter& w, const Candidate& c) {
  w.begin_object().field("layout", to_string(c.layout));
  strings(w, "args", c.spellings.front().args());
  w.key("families").begin_array();
  for (const FamilyCount& f : c.families) {
    w.begin_object()
        .field("access", to_string(f.family))
        .field("wavefronts", f.wavefronts)
        .field("ideal_wavefronts", f.ideal)
        .field("instructions", f.instructions)
        .field("worst_ways", f.worst_ways)
        .field("permuted", f.permuted)
        .end_object();
  }
  w.end_array()
      .field("total_wavefronts", c.total_wavefronts)
      .field("total_ideal_wavefronts", c.total_ideal)
      .field("overhead_bytes", c.overhead_bytes)
      .field("bijective", c.bijective);
  strings(w, "reasons", c.reasons);
  w.key("spellings").begin_array();
  for (const Spelling& s : c.spellings) {
    w.begin_object().field("notation", s.notation);
    strings(w, "args", s.args());
    w.field("native", s.native).end_object();
  }
  w.end_array().end_object();
}

std::string json_report(const SolveResult& r) {
  std::string out;
  JsonWriter w(out);
  w.begin_object().key("candidates").begin_array();
  for (const Candidate& c : r.candidates) write_candidate(w, c);
  w.end_array().key("rejected").begin_array();
  for (const Rejected& x : r.rejected) {
    w.begin_object().field("layout", to_string(x.layout));
    strings(w, "args", spelling(x.layout).args());
    w.field("reason", x.reason).end_object();
  }
  w.end_array().field("layouts_tried", r.layouts_tried).field("analyses", r.analyses).end_object();
  out += '\n';
  return out;
}

std::string joined(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i != 0) out += sep;
    out += items[i];
  }
  return out;
}

// One candidate: its layout and flags, every family's count, the reasons, the proof, and the
// other notations that spell it.
void append_candidate_text(std::string& out, std::size_t rank, const Candidate& c) {
  const std::vector<std::string> args = c.spellings.front().args();
  append_format(out, "%zu. %s", rank, to_string(c.layout).c_str());
  if (!args.empty()) append_format(out, "   [%s]", joined(args, " ").c_str());
  out += "\n   ";
  std::vector<std::string> counted;
  for (const FamilyCount& f : c.families) {
    append_format(out, "%s %d/%d   ", to_string(f.family).c_str(), f.wavefronts, f.ideal);
    counted.push_back(format("%d %s", f.instructions, to_string(f.family).c_str()));
  }
  append_format(out, "total %d/%d, overhead %lld B\n   %s\n", c.total_wavefronts, c.total_ideal,
                static_cast<long long>(c.overhead_bytes), joined(c.reasons, "; ").c_str());
  append_format(out, "   proof: %s instructions counted by the core; %s %d elements)\n",
                joined(counted, " + ").c_str(),
                c.bijective ? "every element in its own slot (checked for all"
                            : "NOT a bijection (checked over",
                c.layout.rows * c.layout.cols);
  for (std::size_t s = 1; s < c.spellings.size(); ++s) {
    append_format(out, "   also %s: %s = %s\n", c.spellings[s].notation.c_str(),
                  joined(c.spellings[s].args(), " ").c_str(), c.spellings[s].native.c_str());
  }
}

std::string text_report(const SolveRequest& q, const SolveResult& r, std::size_t top) {
  std::string out = format(
      "banklab solve: %s tile[%d][%d], families:", dtype_c_name(q.dtype).data(), q.rows, q.cols);
  for (const AccessFamily& f : q.families) {
    append_format(out, " %s (%s)", to_string(f).c_str(), family_label(f, q.dtype).c_str());
  }
  append_format(out,
                "\n%d layouts tried, %zu distinct candidates, %zu rejected, %d CuTe/Triton "
                "parameter sets the tile refuses; %d distinct warp patterns counted by the core\n\n"
                "Wavefronts per family (total against the ideal), best first:\n",
                r.layouts_tried, r.candidates.size(), r.rejected.size(), r.invalid_skipped,
                r.analyses);
  for (std::size_t i = 0; i < r.candidates.size() && i < top; ++i) {
    append_candidate_text(out, i + 1, r.candidates[i]);
  }
  if (r.candidates.size() > top) {
    append_format(out, "... and %zu more (--top N, --json)\n", r.candidates.size() - top);
  }
  if (!r.rejected.empty()) out += "\nRejected:\n";
  for (std::size_t i = 0; i < r.rejected.size() && i < top; ++i) {
    append_format(out, "  %s\n", r.rejected[i].reason.c_str());
  }
  if (r.rejected.size() > top) {
    append_format(out, "  ... and %zu more (--json lists all)\n", r.rejected.size() - top);
  }
  return out;
}

struct SolveOptions {
  SolveRequest request;
  Cell tile{32, 32};
  int top = 10;  // candidates and rejections printed
  bool json = false;
};

Expected<AccessFamily> read_family(std::string_view text) {
  const Expected<AccessFamily> f = parse_family(text);
  if (!f) return Error{"--access: " + f.error()};
  return f;
}

Expected<SolveOptions> read_options(const frontend::Args& args) {
  SolveOptions o;
  const Expected<void> read =
      frontend::FlagReader<kSolve>(args)
          .value("dtype", o.request.dtype, scenario_key::dtype_of)
          .value("tile", o.tile, scenario_key::tile_of)
          .each("access", o.request.families, read_family)
          .integer("max-overhead", o.request.max_overhead_bytes, 0, INT64_MAX)
          .integer("top", o.top, 1, INT_MAX)
          .flag("json", o.json)
          .done();
  if (!read) return Error{read.error()};
  o.request.rows = o.tile.row;
  o.request.cols = o.tile.col;
  return o;
}

}  // namespace

int run_solve(const frontend::Args& args) {
  const Expected<SolveOptions> o = read_options(args);
  if (!o) return bad_input(o.error());
  const SolveRequest& q = o->request;
  const Expected<SolveResult> r = solve(q);
  if (!r) return bad_input(r.error());
  print(o->json ? json_report(*r) : text_report(q, *r, static_cast<std::size_t>(o->top)));
  return kExitOk;
}

}  // namespace banklab::cli
