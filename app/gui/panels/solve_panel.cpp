// The Solve window: tick how the tile is written and read, press Solve, and see core's ranking
// of pads and swizzles (every family's wavefronts against the ideal, the bytes wasted, the
// reasons, the other notations); pick one to see it against today's layout (the counts, and the
// access on screen drawn under both), and Apply it to make it the tile's layout. All the
// counting is core's solve(); solve_state.cpp holds the logic, this file only draws it.
#include <algorithm>
#include <cmath>
#include <string>

#include "app/gui/panels/panels.hpp"
#include "app/gui/state/solve_state.hpp"
#include "app/gui/views/widgets.hpp"
#include "core/base/format.hpp"

namespace banklab::gui {
namespace {

void coloured_text(ImU32 colour, const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(colour));
  ImGui::TextWrapped("%s", text.c_str());
  ImGui::PopStyleColor();
}

// "row:16:st 64/64   column:ld 32/32": every family's wavefronts against its ideal.
std::string family_counts(const Candidate& c) {
  std::string out;
  for (const FamilyCount& f : c.families) {
    append_format(out, "%s%s %d/%d", out.empty() ? "" : "   ", to_string(f.family).c_str(),
                  f.wavefronts, f.ideal);
  }
  return out;
}

// The layout as the table names it: its declaration, as a kernel writer reads it
// ("float tile[32][33]", "float tile[32][32] xor"), not the flags that pick it.
std::string layout_name(const Candidate& c) {
  return to_string(c.layout);
}

// Whether the layout serves every ticked family without a conflict, said in words: the ranking
// lists the conflicted layouts too (after the conflict-free ones), so each row says which it is.
std::string verdict(const Candidate& c) {
  if (c.excess() == 0) return "conflict-free";
  int ways = 0;
  std::string worst;
  for (const FamilyCount& f : c.families) {
    if (f.worst_ways > ways) {
      ways = f.worst_ways;
      worst = to_string(f.family);
    }
  }
  return format("%d-way conflict (%s)", ways, worst.c_str());
}

void draw_choices(SolveState& p, const TileLayout& tile, SolveGeometry& g) {
  // As many columns of check boxes as fit, up to three.
  const float column = ImGui::GetFontSize() * 17.0f;
  const std::size_t per_row =
      static_cast<std::size_t>(std::clamp(ImGui::GetContentRegionAvail().x / column, 1.0f, 3.0f));
  for (std::size_t i = 0; i < kSolveChoiceCount; ++i) {
    const Expected<void> available = choice_available(i, tile);
    ImGui::PushID(static_cast<int>(i));
    if (i % per_row != 0)
      ImGui::SameLine(column * static_cast<float>(i % per_row) + ImGui::GetStyle().WindowPadding.x);
    ImGui::BeginDisabled(!available);
    ImGui::Checkbox(std::string(kSolveChoices[i].label).c_str(), &p.chosen[i]);
    ImGui::EndDisabled();
    g.choices.push_back(last_item_rect());
    if (!available && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
      ImGui::SetTooltip("%s", available.error().c_str());
    }
    ImGui::PopID();
  }
}

void draw_ranking(AppState& s, SolveState& p, SolveGeometry& g) {
  const SolveResult& r = *p.result;
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
  // Eight rows where there is room; fewer on a small screen, so the comparison still shows.
  const float row_height = ImGui::GetFrameHeightWithSpacing();
  const float room = std::floor(ImGui::GetContentRegionAvail().y * 0.3f / row_height);
  const float rows =
      std::clamp(std::min(room, static_cast<float>(r.candidates.size()) + 1.0f), 3.0f, 8.0f);
  const float height = row_height * (rows + 0.5f);
  if (!ImGui::BeginTable("##ranking", 6, flags, ImVec2(0, height))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("#");
  ImGui::TableSetupColumn("layout");
  ImGui::TableSetupColumn("verdict");
  ImGui::TableSetupColumn("wavefronts / ideal, per family", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("wasted");
  ImGui::TableSetupColumn("");
  ImGui::TableHeadersRow();
  for (std::size_t i = 0; i < r.candidates.size(); ++i) {
    const Candidate& c = r.candidates[i];
    ImGui::PushID(static_cast<int>(i));
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    if (ImGui::Selectable(
            format("%zu", i + 1).c_str(), p.selected == static_cast<int>(i),
            ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowItemOverlap)) {
      p.selected = static_cast<int>(i);
    }
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(layout_name(c).c_str());
    ImGui::TableNextColumn();
    coloured_text(c.excess() == 0 ? colours(s).text_ok : colours(s).error, verdict(c));
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(family_counts(c).c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%lld B", static_cast<long long>(c.overhead_bytes));
    ImGui::TableNextColumn();
    if (ImGui::SmallButton("Apply")) {
      p.selected = static_cast<int>(i);
      s.user.scenario.tile = applied_layout(p, static_cast<int>(i), s.user.scenario.tile);
    }
    if (ImGui::IsItemVisible()) {
      g.apply.push_back(last_item_rect());
      g.apply_rank.push_back(static_cast<int>(i));
    }
    ImGui::PopID();
  }
  ImGui::EndTable();
}

// The selected candidate against today's layout: the counts and reasons, then the access on
// screen drawn under both, side by side.
void draw_comparison(AppState& s, SolveState& p) {
  const Palette& pal = colours(s);
  const Candidate& c = p.result->candidates[static_cast<std::size_t>(p.selected)];
  std::string reasons;
  for (const std::string& r : c.reasons)
    append_format(reasons, "%s%s", reasons.empty() ? "" : "; ", r.c_str());
  ImGui::TextWrapped("#%d  %s: %s", p.selected + 1, to_string(c.layout).c_str(), reasons.c_str());
  std::string same;
  for (std::size_t i = 1; i < c.spellings.size(); ++i) {
    append_format(same, "%s%s", same.empty() ? "the same as " : ";  ",
                  c.spellings[i].native.c_str());
  }
  if (!same.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.text_dim));
    ImGui::TextWrapped("%s", same.c_str());
    ImGui::PopStyleColor();
  }
  if (p.today) {
    const int fewer = p.today->total_wavefronts - c.total_wavefronts;
    coloured_text(
        fewer > 0 ? pal.title : pal.text_dim,
        format("today (%s): %d wavefronts over the families; this one %d (%d fewer), "
               "%+lld B",
               layout_name(*p.today).c_str(), p.today->total_wavefronts, c.total_wavefronts, fewer,
               static_cast<long long>(c.overhead_bytes - p.today->overhead_bytes)));
  } else {
    coloured_text(pal.warning, "today's layout cannot run these families: " + p.today_rejected);
  }
  if (s.study_revision == 0) return;
  const Study& preview = candidate_preview(p, s.study, s.study_revision);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  if (avail.y < ImGui::GetFontSize() * 6.0f) return;
  const float w = std::floor((avail.x - ImGui::GetStyle().ItemSpacing.x) * 0.5f);
  ViewStyle style = view_style(s);
  style.served = kAllServed;
  style.highlights = nullptr;  // a lesson step's lanes mean nothing on another layout
  const Study* sides[2] = {&s.study, &preview};
  for (int i = 0; i < 2; ++i) {
    if (i == 1) ImGui::SameLine();
    ImGui::PushID(i);
    // A comparison's views report into their own Interaction: the app's geometry stays the
    // main bank view's.
    Interaction io{&s.frame.draw};
    if (ImGui::BeginChild("##compare", ImVec2(w, avail.y))) {
      const Evaluation& e = sides[i]->evaluation;
      ImGui::TextUnformatted(format("%s: %s", i == 0 ? "today" : "this one",
                                    to_string(sides[i]->scenario.tile).c_str())
                                 .c_str());
      if (e.ok()) {
        ImGui::Text("%s: %d wavefronts", describe(sides[i]->scenario).c_str(),
                    e.analysis->wavefront_count());
      }
      draw_banks(*sides[i], style, io);
    }
    ImGui::EndChild();
    ImGui::PopID();
  }
}

}  // namespace

void draw_solve(AppState& s, Interaction& io) {
  SolveState& p = s.user.solve;
  const TileLayout& tile = s.user.scenario.tile;
  const Palette& pal = colours(s);
  SolveGeometry g;
  ImGui::TextWrapped("%s tile[%d][%d]: tick every way a kernel writes and reads it, then Solve.",
                     std::string(dtype_c_name(tile.dtype)).c_str(), tile.rows, tile.cols);
  help_marker(
      "A family is that access at every index a kernel performs over the whole tile. "
      "Solve tries row pads, xor, CuTe swizzles over bytes and elements, the TMA "
      "32/64/128B modes and Triton's vec/perPhase/maxPhase, and ranks them by "
      "wavefronts over the ideal, then bytes wasted, then simplicity.");
  draw_choices(p, tile, g);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7.0f);
  ImGui::InputInt("most bytes wasted (-1: any)", &p.max_overhead, 64, 1024);
  if (p.max_overhead < -1) p.max_overhead = -1;
  if (ImGui::Button("Solve")) run_solve(p, tile);
  g.solve = last_item_rect();
  const bool stale = solve_stale(p, tile);
  if (stale) {
    ImGui::SameLine();
    ImGui::TextDisabled("the tile's type or size changed: Solve again");
  } else if (p.result) {
    ImGui::SameLine();
    ImGui::TextDisabled("%zu candidates, %zu rejected, %d layouts tried",
                        p.result->candidates.size(), p.result->rejected.size(),
                        p.result->layouts_tried);
  }
  if (!p.error.empty()) coloured_text(pal.error, p.error);
  if (p.result && !p.result->candidates.empty() && !stale) {
    ImGui::Separator();
    draw_ranking(s, p, g);
    if (ImGui::CollapsingHeader(format("Rejected (%zu)", p.result->rejected.size()).c_str())) {
      for (const Rejected& x : p.result->rejected) ImGui::BulletText("%s", x.reason.c_str());
    }
    draw_comparison(s, p);
  }
  io.geometry.solve = std::move(g);
}

}  // namespace banklab::gui
