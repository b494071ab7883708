// banklab solve: the cheapest conflict-free layout for how a tile is written and read. All the
// searching and counting is core's (banklab/solve.hpp); this file reads the flags and prints
// the ranking as text or JSON.
#include <climits>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "banklab/json.hpp"
#include "banklab/solve.hpp"
#include "commands.hpp"

namespace banklab::cli {
namespace {

// A string list as JSON: ["--pad","1"].
void append_json_strings(std::string& out, const std::vector<std::string>& items) {
  out += '[';
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i != 0) out += ',';
    append_json_string(out, items[i]);
  }
  out += ']';
}

void append_key(std::string& out, std::string_view key) {
  append_json_string(out, key);
  out += ':';
}

void append_candidate(std::string& out, const Candidate& c) {
  out += '{';
  append_key(out, "layout");
  append_json_string(out, to_string(c.layout));
  out += ',';
  append_key(out, "args");
  append_json_strings(out, c.spellings.front().args());
  out += ',';
  append_key(out, "families");
  out += '[';
  for (std::size_t i = 0; i < c.families.size(); ++i) {
    const FamilyCount& f = c.families[i];
    if (i != 0) out += ',';
    out += '{';
    append_key(out, "access");
    append_json_string(out, to_string(f.family));
    out += ",\"wavefronts\":" + std::to_string(f.wavefronts);
    out += ",\"ideal_wavefronts\":" + std::to_string(f.ideal);
    out += ",\"instructions\":" + std::to_string(f.instructions);
    out += ",\"worst_ways\":" + std::to_string(f.worst_ways);
    out += ",\"permuted\":";
    out += f.permuted ? "true" : "false";
    out += '}';
  }
  out += "],\"total_wavefronts\":" + std::to_string(c.total_wavefronts);
  out += ",\"total_ideal_wavefronts\":" + std::to_string(c.total_ideal);
  out += ",\"overhead_bytes\":" + std::to_string(c.overhead_bytes);
  out += ",\"bijective\":";
  out += c.bijective ? "true" : "false";
  out += ',';
  append_key(out, "reasons");
  append_json_strings(out, c.reasons);
  out += ',';
  append_key(out, "spellings");
  out += '[';
  for (std::size_t i = 0; i < c.spellings.size(); ++i) {
    const Spelling& s = c.spellings[i];
    if (i != 0) out += ',';
    out += '{';
    append_key(out, "notation");
    append_json_string(out, s.notation);
    out += ',';
    append_key(out, "args");
    append_json_strings(out, s.args());
    out += ',';
    append_key(out, "native");
    append_json_string(out, s.native);
    out += '}';
  }
  out += "]}";
}

std::string json_report(const SolveResult& r) {
  std::string out = "{\"candidates\":[";
  for (std::size_t i = 0; i < r.candidates.size(); ++i) {
    if (i != 0) out += ',';
    append_candidate(out, r.candidates[i]);
  }
  out += "],\"rejected\":[";
  for (std::size_t i = 0; i < r.rejected.size(); ++i) {
    const Rejected& x = r.rejected[i];
    if (i != 0) out += ',';
    out += '{';
    append_key(out, "layout");
    append_json_string(out, to_string(x.layout));
    out += ',';
    append_key(out, "args");
    append_json_strings(out, spelling(x.layout).args());
    out += ',';
    append_key(out, "reason");
    append_json_string(out, x.reason);
    out += '}';
  }
  out += "],\"layouts_tried\":" + std::to_string(r.layouts_tried);
  out += ",\"analyses\":" + std::to_string(r.analyses) + "}\n";
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
