// The File menu: the view on screen (or the comparison) as SVG, the lane table as CSV or
// Markdown, the derivation as Markdown, and the scenario saved or opened as a scenario file.
// Every export is banklab_figures' (what `banklab export` writes); files are written whole or
// not at all (write_text_file), and the menu says what happened.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "figure_draw.hpp"
#include "scenario_file.hpp"
#include "svg.hpp"
#include "tables.hpp"
#include "text_file.hpp"
#include "ui.hpp"
#include "ui_common.hpp"

namespace banklab::gui {
namespace {

void write(AppState& s, const std::string& path, const std::string& text) {
  const Expected<bool> ok = cli::write_text_file(path, text, "an export");
  s.user.file_status = ok ? "wrote " + path : ok.error();
}

// The view as the stage would show it, at the chosen size, in the current theme and palette.
void export_view(AppState& s, StageView view, const char* suffix) {
  const StageView shown = s.user.stage.view;
  s.user.stage.view = view;
  const float w = static_cast<float>(s.user.svg_size[0]);
  const float h = static_cast<float>(s.user.svg_size[1]);
  figures::FigureStyle st = figure_style(view_style(s));
  st.font = std::floor(std::max(16.0f, h / 54.0f));
  st.min_font = 9.0f;
  st.served = kAllServed;
  st.hovered_lane = -1;
  const float margin = st.font;
  figures::Figure f = stage_figure(s, figures::Box{margin, margin, w - margin, h - margin}, st);
  f.width = w;
  f.height = h;
  s.user.stage.view = shown;
  write(s, s.user.file_name + suffix, figures::to_svg(f));
}

}  // namespace

void file_menu(AppState& s) {
  UserChoices& u = s.user;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14.0f);
  ImGui::InputText("name", &u.file_name);
  help_marker(
      "Files are written as NAME-banks.svg, NAME-lanes.csv, NAME.scenario, ... in the "
      "folder banklab-gui was started from (or give a path: slides/fig1).");
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14.0f);
  ImGui::InputInt2("SVG size", u.svg_size);
  u.svg_size[0] = std::clamp(u.svg_size[0], 320, 16384);
  u.svg_size[1] = std::clamp(u.svg_size[1], 240, 16384);
  const Derived& d = s.derived;
  const bool ok = d.evaluation.ok();
  const bool comparing = !u.stage.compare.empty();
  ImGui::Separator();
  if (ImGui::MenuItem(
          comparing ? "Export the comparison (bank views) as SVG" : "Export bank view as SVG",
          nullptr, false, ok || comparing)) {
    export_view(s, StageView::banks, "-banks.svg");
  }
  if (ImGui::MenuItem(
          comparing ? "Export the comparison (lane maps) as SVG" : "Export lane map as SVG",
          nullptr, false, ok || comparing)) {
    export_view(s, StageView::lanes, "-lanes.svg");
  }
  if (ImGui::MenuItem("Export tile as SVG", nullptr, false, !comparing && d.tile_error.empty())) {
    export_view(s, StageView::tile, "-tile.svg");
  }
  const figures::LaneSource lanes{&d.evaluation.elements, &d.scenario.tile};
  if (ImGui::MenuItem("Export lane table as CSV", nullptr, false, ok)) {
    write(s, u.file_name + "-lanes.csv", figures::lane_table_csv(*d.evaluation.analysis, lanes));
  }
  if (ImGui::MenuItem("Export lane table as Markdown", nullptr, false, ok)) {
    write(s, u.file_name + "-lanes.md",
          figures::lane_table_markdown(*d.evaluation.analysis, lanes));
  }
  if (ImGui::MenuItem("Export derivation as Markdown", nullptr, false, ok && d.explanation)) {
    write(s, u.file_name + "-derivation.md",
          figures::derivation_markdown(describe(d.scenario), *d.evaluation.analysis, *d.explanation,
                                       d.evaluation.diagnostics));
  }
  ImGui::Separator();
  if (ImGui::MenuItem("Save scenario")) {
    const std::string path = u.file_name + ".scenario";
    const Expected<bool> saved = cli::write_scenario_file(path, u.scenario);
    u.file_status = saved ? "saved " + path : saved.error();
  }
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14.0f);
  ImGui::InputText("##open", &u.open_path);
  ImGui::SameLine();
  if (ImGui::Button("Open scenario") && !u.open_path.empty()) {
    const Expected<Scenario> opened = read_scenario(u.open_path);
    if (opened) {
      u.scenario = *opened;
      u.file_status = "opened " + u.open_path;
    } else {
      u.file_status = opened.error();
    }
  }
  if (!u.file_status.empty()) ImGui::TextWrapped("%s", u.file_status.c_str());
}

}  // namespace banklab::gui
