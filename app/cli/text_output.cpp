#include "app/cli/text_output.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>

#include "core/base/format.hpp"
#include "core/report/request_summary.hpp"

namespace banklab::cli {
namespace {

// The column of the lane table that names the element(s): "5", or "4..7" for a lane that
// takes four elements of one row, or "30 +4" when they run on into the next row.
std::string column_text(const LaneElements& e, const TileLayout& tile) {
  if (e.count <= 1) return std::to_string(e.first.col);
  const int last = e.first.col + e.count - 1;
  if (last < tile.cols) return std::to_string(e.first.col) + ".." + std::to_string(last);
  return std::to_string(e.first.col) + " +" + std::to_string(e.count);
}

std::string words_text(const LaneRecord& lane) {
  const std::int64_t first = lane.words[0];
  if (lane.word_count == 1) return std::to_string(first);
  return std::to_string(first) + ".." + std::to_string(lane.words[lane.word_count - 1]);
}

// A comma list of the lane's values, each once, in the order the lane meets them.
template <class T>
std::string distinct_list(const std::array<T, kMaxWordsPerLane>& values, int count) {
  std::string text;
  for (int i = 0; i < count; ++i) {
    bool seen = false;
    for (int j = 0; j < i; ++j) seen = seen || values[j] == values[i];
    if (seen) continue;
    if (!text.empty()) text += ',';
    text += std::to_string(values[i]);
  }
  return text;
}

// Ends a line without the trailing blanks that fixed-width columns leave behind.
void end_line(std::string& out) {
  while (out.ends_with(' ')) out.pop_back();
  out += '\n';
}

}  // namespace

void append_lane_table(std::string& out, const Analysis& a,
                       const std::array<LaneElements, kWarpSize>* elements,
                       const TileLayout* tile) {
  // Lanes on one word: a load broadcasts it, a store merges into one write.
  append_format(out, "lane    r       c      byte  words          banks        wavefront  %s\n",
                is_load(a.access.op) ? "broadcast" : "merged");
  for (int l = 0; l < kWarpSize; ++l) {
    const LaneRecord& lane = a.lanes[static_cast<std::size_t>(l)];
    if (!lane.active) {
      append_format(out, "%4d    -       -         -  (takes no part)\n", l);
      continue;
    }
    std::string r = "-";
    std::string c = "-";
    if (elements != nullptr && tile != nullptr) {
      const LaneElements& e = (*elements)[static_cast<std::size_t>(l)];
      if (e.count > 0) {
        r = std::to_string(e.first.row);
        c = column_text(e, *tile);
      }
    }
    append_format(out, "%4d %4s %7s %9lld  %-14s %-12s %-10s %s", l, r.c_str(), c.c_str(),
                  static_cast<long long>(lane.byte), words_text(lane).c_str(),
                  distinct_list(lane.banks, lane.word_count).c_str(),
                  distinct_list(lane.wavefronts, lane.word_count).c_str(),
                  lane.shares_word ? "yes" : "");
    end_line(out);
  }
}

void append_bank_grid(std::string& out, const Analysis& a) {
  // Every column is three characters: a lane number in two, then '+' or a blank.
  out += "wavefront | bank\n          | ";
  for (int b = 0; b < kBankCount; ++b) append_format(out, "%2d ", b);
  end_line(out);
  for (int w = 0; w < a.wavefront_count(); ++w) {
    const Wavefront& wave = a.wavefronts[static_cast<std::size_t>(w)];
    append_format(out, "%4d  p%-2d | ", w, wave.phase);
    for (const BankSlot& slot : wave.banks) {
      if (!slot.used()) {
        out += " . ";
        continue;
      }
      append_format(out, "%2d%c", std::countr_zero(slot.lanes),
                    std::popcount(slot.lanes) > 1 ? '+' : ' ');
    }
    end_line(out);
  }
  out += "(each cell: the lowest lane the bank serves; '+' = more lanes share that word)\n";
}

void append_summary(std::string& out, const Analysis& a) {
  append_format(out, "wavefronts %d, ideal %d, bank conflicts %d", a.wavefront_count(),
                a.ideal_wavefronts, a.bank_conflicts());
  if (a.active_lanes == 0) {
    out += " (no lane takes part)\n";
  } else if (a.max_ways <= 1) {
    out += " (conflict-free)\n";
  } else {
    // "an 8-way", "an 11-way", "an 18-way"; "a" before every other count up to 32.
    const bool vowel_sound = a.max_ways == 8 || a.max_ways == 11 || a.max_ways == 18;
    append_format(out, " (%s %d-way conflict)\n", vowel_sound ? "an" : "a", a.max_ways);
  }
  out += request_summary(a) + '\n';
}

void append_diagnostics(std::string& out, const std::vector<Diagnostic>& diagnostics) {
  // "error [alignment]: lane 8: ...". Not Diagnostic's operator<<, which puts "lane 8" before
  // the message as well: core's messages already name their lane, so it would print twice.
  for (const Diagnostic& d : diagnostics) {
    out += severity_name(d.severity);
    out += " [" + d.rule + "]: " + d.message + '\n';
  }
}

std::string explanation_text(const Explanation& x, const std::vector<Diagnostic>& shown) {
  Explanation rest = x;
  std::erase_if(rest.caveats, [&](const std::string& c) {
    return std::any_of(shown.begin(), shown.end(),
                       [&](const Diagnostic& d) { return d.message == c; });
  });
  return to_text(rest);
}

void append_report(std::string& out, std::string_view heading, const Analysis& a,
                   const std::array<LaneElements, kWarpSize>* elements, const TileLayout* tile,
                   const std::vector<Diagnostic>& diagnostics, const Explanation& x) {
  out += heading;
  out += '\n';
  append_summary(out, a);
  out += '\n';
  append_lane_table(out, a, elements, tile);
  out += '\n';
  append_bank_grid(out, a);
  if (!diagnostics.empty()) {
    out += '\n';
    append_diagnostics(out, diagnostics);
  }
  out += '\n';
  out += explanation_text(x, diagnostics);
  if (!out.ends_with('\n')) out += '\n';
}

}  // namespace banklab::cli
