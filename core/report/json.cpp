#include "core/report/json.hpp"

#include "core/base/format.hpp"
#include "core/base/json_writer.hpp"

namespace banklab {

namespace {

void write_lane_list(JsonWriter& w, std::uint32_t lanes) {
  w.begin_array();
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (lanes >> lane & 1u) w.value(lane);
  }
  w.end_array();
}

void write_diagnostics(JsonWriter& w, const std::vector<Diagnostic>& diagnostics) {
  w.key("diagnostics").begin_array();
  for (const Diagnostic& d : diagnostics) {
    w.begin_object()
        .field("severity", severity_name(d.severity))
        .field("rule", d.rule)
        .field("message", d.message)
        .field("lane", d.lane)
        .end_object();
  }
  w.end_array();
}

void write_lane(JsonWriter& w, const LaneRecord& l, int lane, const LaneElements* element) {
  w.begin_object().field("lane", lane).field("active", l.active);
  if (l.active) {
    if (element && element->count > 0) {
      w.field("row", element->first.row)
          .field("col", element->first.col)
          .field("elements", element->count);
    }
    w.field("byte", l.byte);
    for (auto [key, values] :
         {std::pair{"words", 0}, std::pair{"banks", 1}, std::pair{"wavefronts", 2}}) {
      w.key(key).begin_array();
      for (int k = 0; k < l.word_count; ++k) {
        if (values == 0)
          w.value(l.words[k]);
        else if (values == 1)
          w.value(l.banks[k]);
        else
          w.value(l.wavefronts[k]);
      }
      w.end_array();
    }
    w.field("wavefront", l.last_wavefront)
        .field("phase", l.phase)
        .field("shares_word", l.shares_word);
  }
  w.end_object();
}

// The phases and every wavefront's banks.
void write_grid(JsonWriter& w, const Analysis& a) {
  w.key("phases").begin_array();
  for (const Phase& p : a.phases) {
    w.begin_object().key("lanes");
    write_lane_list(w, p.lanes);
    w.key("active_lanes");
    write_lane_list(w, p.active_lanes);
    w.field("first_wavefront", p.first_wavefront)
        .field("wavefronts", p.wavefront_count)
        .field("busiest_bank", p.busiest_bank)
        .end_object();
  }
  w.end_array();
  w.key("wavefront_banks").begin_array();
  for (const Wavefront& wf : a.wavefronts) {
    w.begin_object().field("phase", wf.phase).key("banks").begin_array();
    for (int bank = 0; bank < kBankCount; ++bank) {
      const BankSlot& s = wf.banks[bank];
      if (!s.used()) continue;
      w.begin_object().field("bank", bank).field("word", s.word).key("lanes");
      write_lane_list(w, s.lanes);
      w.end_object();
    }
    w.end_array().end_object();
  }
  w.end_array();
}

// The instruction and its counts, then (with lanes) the per-lane records and (with the grid) the
// phases and every wavefront's banks. One function, as it was before the counts-only form: split
// in two, GCC stopped inlining the lane records' writer into it and the batch cost 11 % more
// instructions (docs/benchmarks.md).
void write_analysis_fields(JsonWriter& w, const Analysis& a,
                           const std::array<LaneElements, kWarpSize>* elements, bool lanes,
                           bool grid) {
  w.field("op", op_name(a.access.op))
      .field("width", a.access.width)
      .field("wavefronts", a.wavefront_count())
      .field("ideal_wavefronts", a.ideal_wavefronts)
      .field("bank_conflicts", a.bank_conflicts())
      .field("max_ways", a.max_ways)
      .field("distinct_banks", a.distinct_banks)
      .field("distinct_words", a.distinct_words)
      .field("active_lanes", a.active_lanes)
      .field("requested_bytes", a.requested_bytes)
      .field("packed", a.packed)
      .field("packing_partner", a.packing_partner);
  if (!lanes) return;
  w.key("lanes").begin_array();
  for (int lane = 0; lane < kWarpSize; ++lane) {
    write_lane(w, a.lanes[lane], lane, elements ? &(*elements)[lane] : nullptr);
  }
  w.end_array();
  if (grid) write_grid(w, a);
}

void write_scenario_fields(JsonWriter& w, const Scenario& s) {
  w.key("scenario").begin_object();
  if (s.pattern != AccessPattern::raw) {
    w.field("dtype", dtype_name(s.tile.dtype))
        .field("tile", std::to_string(s.tile.rows) + "x" + std::to_string(s.tile.cols))
        .field("pad", s.tile.pad)
        .field("swizzle", to_string(s.tile.swizzle))
        .field("index", s.index);
  }
  w.field("access", pattern_name(s.pattern))
      .field("op", op_name(s.op))
      .field("width", s.effective_width())
      .field("lane_mask", lane_mask_hex(s.lane_mask));
  if (s.pattern == AccessPattern::raw) {
    w.key("offsets").begin_array();
    for (std::int64_t o : s.raw_offsets) w.value(o);
    w.end_array();
  }
  w.end_object();
  w.field("description", describe(s));
}

}  // namespace

void append_json(std::string& out, const Analysis& a, const std::vector<Diagnostic>& diagnostics) {
  JsonWriter w(out);
  w.begin_object().field("ok", true);
  write_analysis_fields(w, a, nullptr, true, false);
  write_diagnostics(w, diagnostics);
  w.end_object();
}

void append_json_counts(std::string& out, const Analysis& a,
                        const std::vector<Diagnostic>& diagnostics) {
  JsonWriter w(out);
  w.begin_object().field("ok", true);
  write_analysis_fields(w, a, nullptr, false, false);
  write_diagnostics(w, diagnostics);
  w.end_object();
}

void append_json_error(std::string& out, const std::vector<Diagnostic>& diagnostics) {
  JsonWriter w(out);
  w.begin_object().field("ok", false);
  write_diagnostics(w, diagnostics);
  w.end_object();
}

void append_json(std::string& out, const Study& st) {
  const Evaluation& e = st.evaluation;
  const Explanation* explanation = e.ok() ? &st.explanation : nullptr;
  JsonWriter w(out);
  w.begin_object().field("ok", e.ok());
  write_scenario_fields(w, st.scenario);
  if (e.analysis) write_analysis_fields(w, *e.analysis, &e.elements, true, true);
  write_diagnostics(w, e.diagnostics);
  if (explanation) {
    w.key("explanation")
        .begin_object()
        .field("formula", explanation->formula)
        .field("bank_expression", explanation->bank_expression)
        .field("verdict", explanation->verdict);
    for (auto [key, lines] :
         {std::pair{"steps", &explanation->steps}, std::pair{"caveats", &explanation->caveats}}) {
      w.key(key).begin_array();
      for (const std::string& line : *lines) w.value(line);
      w.end_array();
    }
    w.end_object();
  }
  w.end_object();
}

void append_json(std::string& out, const Preset& p) {
  JsonWriter w(out);
  w.begin_object()
      .field("name", p.name)
      .field("title", p.title)
      .field("lesson", p.lesson)
      .field("expected_wavefronts", p.expected_wavefronts);
  write_scenario_fields(w, p.scenario);
  w.end_object();
}

}  // namespace banklab
