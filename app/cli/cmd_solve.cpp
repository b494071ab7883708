// banklab solve: the cheapest conflict-free layout for how a tile is written and read. All the
// searching and counting is core's (banklab/solve.hpp); this file reads the flags and prints
// the ranking as text or JSON.
#include <climits>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "banklab/json_writer.hpp"
#include "banklab/solve.hpp"
#include "commands.hpp"

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

// Appends every part in turn (GCC 12 warns falsely, -Wrestrict, on "literal" + std::string).
template <class... Parts>
void append(std::string& out, const Parts&... parts) {
  ((out += parts), ...);
}

std::string text_report(const SolveRequest& q, const SolveResult& r, std::size_t top) {
  std::string out;
  append(out, "banklab solve: ", dtype_c_name(q.dtype), " tile[", std::to_string(q.rows), "][",
         std::to_string(q.cols), "], families:");
  for (const AccessFamily& f : q.families) {
    append(out, " ", to_string(f), " (", family_label(f, q.dtype), ")");
  }
  append(out, "\n", std::to_string(r.layouts_tried), " layouts tried, ",
         std::to_string(r.candidates.size()), " distinct candidates, ",
         std::to_string(r.rejected.size()), " rejected, ", std::to_string(r.invalid_skipped),
         " CuTe/Triton parameter sets the tile refuses; ", std::to_string(r.analyses),
         " distinct warp patterns counted by the core\n\n",
         "Wavefronts per family (total against the ideal), best first:\n");
  for (std::size_t i = 0; i < r.candidates.size() && i < top; ++i) {
    const Candidate& c = r.candidates[i];
    const std::vector<std::string> args = c.spellings.front().args();
    append(out, std::to_string(i + 1), ". ", to_string(c.layout));
    if (!args.empty()) append(out, "   [", joined(args, " "), "]");
    out += "\n   ";
    for (const FamilyCount& f : c.families) {
      append(out, to_string(f.family), " ", std::to_string(f.wavefronts), "/",
             std::to_string(f.ideal), "   ");
    }
    append(out, "total ", std::to_string(c.total_wavefronts), "/", std::to_string(c.total_ideal),
           ", overhead ", std::to_string(c.overhead_bytes), " B\n   ", joined(c.reasons, "; "),
           "\n");
    std::vector<std::string> counted;
    for (const FamilyCount& f : c.families) {
      counted.push_back(std::to_string(f.instructions) + " " + to_string(f.family));
    }
    append(out, "   proof: ", joined(counted, " + "), " instructions counted by the core; ",
           c.bijective ? "every element in its own slot (checked for all "
                       : "NOT a bijection (checked over ",
           std::to_string(c.layout.rows * c.layout.cols), " elements)\n");
    for (std::size_t s = 1; s < c.spellings.size(); ++s) {
      append(out, "   also ", c.spellings[s].notation, ": ", joined(c.spellings[s].args(), " "),
             " = ", c.spellings[s].native, "\n");
    }
  }
  if (r.candidates.size() > top) {
    append(out, "... and ", std::to_string(r.candidates.size() - top), " more (--top N, --json)\n");
  }
  if (!r.rejected.empty()) out += "\nRejected:\n";
  for (std::size_t i = 0; i < r.rejected.size() && i < top; ++i) {
    append(out, "  ", r.rejected[i].reason, "\n");
  }
  if (r.rejected.size() > top) {
    append(out, "  ... and ", std::to_string(r.rejected.size() - top),
           " more (--json lists all)\n");
  }
  return out;
}

Expected<SolveRequest> request_from_flags(const Args& args) {
  SolveRequest q;
  if (const auto text = args.value("dtype")) {
    const auto dtype = parse_dtype(*text);
    if (!dtype) {
      return Error{
          "--dtype expects fp8, bf16, fp32 or fp64 (or int8, fp16, half, float, double), "
          "got '" +
          std::string(*text) + "'"};
    }
    q.dtype = *dtype;
  }
  if (const auto text = args.value("tile")) {
    const Expected<Cell> size = parse_tile_size(*text);
    if (!size) return Error{"--tile: " + size.error()};
    q.rows = size->row;
    q.cols = size->col;
  }
  for (std::string_view text : args.values("access")) {
    const Expected<AccessFamily> f = parse_family(text);
    if (!f) return Error{"--access: " + f.error()};
    q.families.push_back(*f);
  }
  if (args.has("max-overhead")) {
    const Expected<std::int64_t> max = args.integer("max-overhead", 0, 0, INT64_MAX);
    if (!max) return Error{max.error()};
    q.max_overhead_bytes = *max;
  }
  return q;
}

}  // namespace

int run_solve(const Args& args) {
  const Expected<SolveRequest> q = request_from_flags(args);
  if (!q) return bad_input(q.error());
  const Expected<std::int64_t> top = args.integer("top", 10, 1, INT_MAX);
  if (!top) return bad_input(top.error());
  const Expected<SolveResult> r = solve(*q);
  if (!r) return bad_input(r.error());
  print(args.has("json") ? json_report(*r) : text_report(*q, *r, static_cast<std::size_t>(*top)));
  return kExitOk;
}

}  // namespace banklab::cli
