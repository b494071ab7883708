#include "app/figures/tables.hpp"

#include <algorithm>

#include "core/base/format.hpp"

namespace banklab::figures {
namespace {

// A lane's values (words, banks or wavefronts), each once, in the order the lane meets them,
// separated by spaces.
template <class T>
std::string distinct(const std::array<T, kMaxWordsPerLane>& values, int count) {
  std::string text;
  for (int i = 0; i < count; ++i) {
    if (std::find(values.begin(), values.begin() + i, values[i]) != values.begin() + i) continue;
    if (!text.empty()) text += ' ';
    text += std::to_string(values[i]);
  }
  return text;
}

struct Row {
  std::string cells[10];
};

constexpr const char* kColumns[10] = {"lane", "active", "row",   "col",        "elements",
                                      "byte", "words",  "banks", "wavefronts", "shares_word"};

Row lane_row(const Analysis& a, LaneSource src, int l) {
  const LaneRecord& r = a.lanes[static_cast<std::size_t>(l)];
  Row row;
  row.cells[0] = std::to_string(l);
  row.cells[1] = r.active ? "1" : "0";
  if (!r.active) return row;
  if (src.elements != nullptr && src.tile != nullptr) {
    const LaneElements& e = (*src.elements)[static_cast<std::size_t>(l)];
    if (e.count > 0) {
      row.cells[2] = std::to_string(e.first.row);
      row.cells[3] = std::to_string(e.first.col);
      row.cells[4] = std::to_string(e.count);
    }
  }
  row.cells[5] = std::to_string(r.byte);
  row.cells[6] = distinct(r.words, r.word_count);
  row.cells[7] = distinct(r.banks, r.word_count);
  row.cells[8] = distinct(r.wavefronts, r.word_count);
  row.cells[9] = r.shares_word ? "1" : "0";
  return row;
}

}  // namespace

std::string lane_table_csv(const Analysis& a, LaneSource src) {
  std::string out;
  for (int c = 0; c < 10; ++c) out += std::string(c ? "," : "") + kColumns[c];
  out += '\n';
  for (int l = 0; l < kWarpSize; ++l) {
    const Row row = lane_row(a, src, l);
    for (int c = 0; c < 10; ++c) out += (c ? "," : "") + row.cells[c];
    out += '\n';
  }
  return out;
}

std::string lane_table_markdown(const Analysis& a, LaneSource src) {
  std::string out = "|";
  for (const char* c : kColumns) out += std::string(" ") + c + " |";
  out += "\n|";
  for (int c = 0; c < 10; ++c) out += c < 2 ? " :-- |" : " --: |";
  out += '\n';
  for (int l = 0; l < kWarpSize; ++l) {
    const Row row = lane_row(a, src, l);
    out += '|';
    for (const std::string& cell : row.cells) out += " " + (cell.empty() ? "-" : cell) + " |";
    out += '\n';
  }
  return out;
}

std::string derivation_markdown(std::string_view heading, const Analysis& a, const Explanation& x,
                                const std::vector<Diagnostic>& diagnostics) {
  std::string out = "# " + std::string(heading) + "\n\n";
  out += "**" + x.verdict + "**\n\n";
  append_format(out,
                "| wavefronts | ideal | bank conflicts | worst phase | active lanes | bytes |\n"
                "| --: | --: | --: | --: | --: | --: |\n"
                "| %d | %d | %d | %d-way | %d | %lld |\n\n",
                a.wavefront_count(), a.ideal_wavefronts, a.bank_conflicts(), a.max_ways,
                a.active_lanes, static_cast<long long>(a.requested_bytes));
  out += "## Derivation\n\n";
  if (!x.formula.empty()) out += "    " + x.formula + "\n";
  if (!x.bank_expression.empty()) out += "    " + x.bank_expression + "\n";
  out += '\n';
  int n = 0;
  for (const std::string& step : x.steps) out += std::to_string(++n) + ". " + step + "\n";
  if (!x.caveats.empty()) {
    out += "\n## Caveats\n\n";
    for (const std::string& c : x.caveats) out += "- " + c + "\n";
  }
  bool any = false;
  for (const Diagnostic& d : diagnostics) {
    if (!any) out += "\n## Diagnostics\n\n";
    any = true;
    out += "- " + std::string(severity_name(d.severity)) + " [" + d.rule + "]: " + d.message + "\n";
  }
  return out;
}

}  // namespace banklab::figures
