#include "banklab/json.hpp"

#include <charconv>

namespace banklab {

namespace {

void append_int(std::string& out, std::int64_t v) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, end);
}

void append_key(std::string& out, std::string_view key) {
  out += '"';
  out += key;
  out += "\":";
}

void append_field(std::string& out, std::string_view key, std::int64_t v) {
  append_key(out, key);
  append_int(out, v);
  out += ',';
}

void append_field(std::string& out, std::string_view key, bool v) {
  append_key(out, key);
  out += v ? "true," : "false,";
}

void append_field(std::string& out, std::string_view key, std::string_view v) {
  append_key(out, key);
  append_json_string(out, v);
  out += ',';
}

// Replaces the trailing comma of an object or array body with its closing bracket.
void close(std::string& out, char bracket) {
  if (out.back() == ',') out.back() = bracket;
  else out += bracket;
}

// The length of the well-formed UTF-8 sequence starting at text[i] (2, 3 or 4 bytes; RFC 3629:
// no overlong forms, no surrogates, nothing past U+10FFFF), or 0 when none starts there.
std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto at = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = at(i);
  std::size_t n = 0;
  unsigned char low = 0x80, high = 0xBF;  // the range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    n = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    n = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    n = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (i + n > text.size() || at(i + 1) < low || at(i + 1) > high) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if ((at(i + k) & 0xC0) != 0x80) return 0;
  return n;
}

void append_lane_list(std::string& out, std::uint32_t lanes) {
  out += '[';
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (lanes >> lane & 1u) {
      append_int(out, lane);
      out += ',';
    }
  }
  close(out, ']');
}

void append_diagnostics(std::string& out, const std::vector<Diagnostic>& diagnostics) {
  append_key(out, "diagnostics");
  out += '[';
  for (const Diagnostic& d : diagnostics) {
    out += '{';
    append_field(out, "severity", severity_name(d.severity));
    append_field(out, "rule", d.rule);
    append_field(out, "message", d.message);
    append_field(out, "lane", std::int64_t{d.lane});
    close(out, '}');
    out += ',';
  }
  close(out, ']');
  out += ',';
}

// The counts, the per-lane records and (with the grid) the phases and every wavefront's banks.
void append_analysis_fields(std::string& out, const Analysis& a,
                            const std::array<LaneElements, kWarpSize>* elements, bool grid) {
  append_field(out, "op", op_name(a.access.op));
  append_field(out, "width", std::int64_t{a.access.width});
  append_field(out, "wavefronts", std::int64_t{a.wavefront_count()});
  append_field(out, "ideal_wavefronts", std::int64_t{a.ideal_wavefronts});
  append_field(out, "bank_conflicts", std::int64_t{a.bank_conflicts()});
  append_field(out, "max_ways", std::int64_t{a.max_ways});
  append_field(out, "distinct_banks", std::int64_t{a.distinct_banks});
  append_field(out, "distinct_words", std::int64_t{a.distinct_words});
  append_field(out, "active_lanes", std::int64_t{a.active_lanes});
  append_field(out, "requested_bytes", a.requested_bytes);
  append_field(out, "packed", a.packed);
  append_field(out, "packing_partner", std::int64_t{a.packing_partner});
  append_key(out, "lanes");
  out += '[';
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const LaneRecord& l = a.lanes[lane];
    out += '{';
    append_field(out, "lane", std::int64_t{lane});
    append_field(out, "active", l.active);
    if (l.active) {
      if (elements && (*elements)[lane].count > 0) {
        append_field(out, "row", std::int64_t{(*elements)[lane].first.row});
        append_field(out, "col", std::int64_t{(*elements)[lane].first.col});
        append_field(out, "elements", std::int64_t{(*elements)[lane].count});
      }
      append_field(out, "byte", l.byte);
      for (auto [key, values] : {std::pair{"words", 0}, std::pair{"banks", 1},
                                 std::pair{"wavefronts", 2}}) {
        append_key(out, key);
        out += '[';
        for (int k = 0; k < l.word_count; ++k) {
          append_int(out, values == 0 ? l.words[k] : values == 1 ? l.banks[k] : l.wavefronts[k]);
          out += ',';
        }
        close(out, ']');
        out += ',';
      }
      append_field(out, "wavefront", std::int64_t{l.last_wavefront});
      append_field(out, "phase", std::int64_t{l.phase});
      append_field(out, "shares_word", l.shares_word);
    }
    close(out, '}');
    out += ',';
  }
  close(out, ']');
  out += ',';
  if (!grid) return;
  append_key(out, "phases");
  out += '[';
  for (const Phase& p : a.phases) {
    out += '{';
    append_key(out, "lanes");
    append_lane_list(out, p.lanes);
    out += ',';
    append_key(out, "active_lanes");
    append_lane_list(out, p.active_lanes);
    out += ',';
    append_field(out, "first_wavefront", std::int64_t{p.first_wavefront});
    append_field(out, "wavefronts", std::int64_t{p.wavefront_count});
    append_field(out, "busiest_bank", std::int64_t{p.busiest_bank});
    close(out, '}');
    out += ',';
  }
  close(out, ']');
  out += ',';
  append_key(out, "wavefront_banks");
  out += '[';
  for (const Wavefront& w : a.wavefronts) {
    out += "{\"phase\":";
    append_int(out, w.phase);
    out += ",\"banks\":[";
    for (int bank = 0; bank < kBankCount; ++bank) {
      const BankSlot& s = w.banks[bank];
      if (!s.used()) continue;
      out += '{';
      append_field(out, "bank", std::int64_t{bank});
      append_field(out, "word", std::int64_t{s.word});
      append_key(out, "lanes");
      append_lane_list(out, s.lanes);
      out += "},";
    }
    close(out, ']');
    out += "},";
  }
  close(out, ']');
  out += ',';
}

void append_scenario_fields(std::string& out, const Scenario& s) {
  append_key(out, "scenario");
  out += '{';
  if (s.pattern != AccessPattern::custom) {
    append_field(out, "dtype", dtype_name(s.tile.dtype));
    append_field(out, "tile", std::to_string(s.tile.rows) + "x" + std::to_string(s.tile.cols));
    append_field(out, "pad", std::int64_t{s.tile.pad});
    append_field(out, "swizzle", to_string(s.tile.swizzle));
    append_field(out, "index", std::int64_t{s.index});
  }
  append_field(out, "access", pattern_name(s.pattern));
  append_field(out, "op", op_name(s.op));
  append_field(out, "width", std::int64_t{s.effective_width()});
  char mask[16];
  auto [end, ec] = std::to_chars(mask, mask + sizeof mask, s.lane_mask, 16);
  append_field(out, "lane_mask", "0x" + std::string(mask, end));
  if (s.pattern == AccessPattern::custom) {
    append_key(out, "offsets");
    out += '[';
    for (std::int64_t o : s.custom_offsets) {
      append_int(out, o);
      out += ',';
    }
    close(out, ']');
    out += ',';
  }
  close(out, '}');
  out += ',';
  append_field(out, "description", describe(s));
}

}  // namespace

void append_json_string(std::string& out, std::string_view text) {
  out += '"';
  for (std::size_t i = 0; i < text.size();) {
    const char ch = text[i];
    if (static_cast<unsigned char>(ch) >= 0x80) {
      // JSON text is UTF-8, and messages quote user input (a batch line's bad op, say), which
      // may not be: copy valid sequences, replace each invalid byte with U+FFFD.
      const std::size_t n = utf8_length(text, i);
      if (n == 0) {
        out += "\\ufffd";
        ++i;
      } else {
        out.append(text, i, n);
        i += n;
      }
      continue;
    }
    switch (ch) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20) {
          static constexpr char kHex[] = "0123456789abcdef";
          out += "\\u00";
          out += kHex[(ch >> 4) & 0xF];
          out += kHex[ch & 0xF];
        } else {
          out += ch;
        }
    }
    ++i;
  }
  out += '"';
}

void append_json(std::string& out, const Analysis& a, const std::vector<Diagnostic>& diagnostics) {
  out += "{\"ok\":true,";
  append_analysis_fields(out, a, nullptr, false);
  append_diagnostics(out, diagnostics);
  close(out, '}');
}

void append_json_error(std::string& out, const std::vector<Diagnostic>& diagnostics) {
  out += "{\"ok\":false,";
  append_diagnostics(out, diagnostics);
  close(out, '}');
}

void append_json(std::string& out, const Scenario& s, const Evaluation& e,
                 const Explanation* explanation) {
  out += '{';
  append_field(out, "ok", e.ok());
  append_scenario_fields(out, s);
  if (e.analysis) append_analysis_fields(out, *e.analysis, &e.elements, true);
  append_diagnostics(out, e.diagnostics);
  if (explanation) {
    append_key(out, "explanation");
    out += '{';
    append_field(out, "formula", explanation->formula);
    append_field(out, "bank_expression", explanation->bank_expression);
    append_field(out, "verdict", explanation->verdict);
    for (auto [key, lines] : {std::pair{"steps", &explanation->steps},
                              std::pair{"caveats", &explanation->caveats}}) {
      append_key(out, key);
      out += '[';
      for (const std::string& line : *lines) {
        append_json_string(out, line);
        out += ',';
      }
      close(out, ']');
      out += ',';
    }
    close(out, '}');
    out += ',';
  }
  close(out, '}');
}

void append_json(std::string& out, const Preset& p) {
  out += '{';
  append_field(out, "name", p.name);
  append_field(out, "title", p.title);
  append_field(out, "lesson", p.lesson);
  append_field(out, "expected_wavefronts", std::int64_t{p.expected_wavefronts});
  append_scenario_fields(out, p.scenario);
  close(out, '}');
}

}  // namespace banklab
