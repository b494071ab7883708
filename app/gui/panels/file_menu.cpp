// The File menu: the view on screen (or the comparison) as PNG or SVG, the lane table as CSV or
// Markdown, the derivation as Markdown, and the scenario saved or opened as a scenario file.
// Each item opens the file chooser (file_chooser.hpp); what it confirms is written here, except
// a PNG, which export_png() (offscreen.hpp) draws after the frame. Every export is
// banklab_figures' (what `banklab export` writes); files are written whole or not at all, and
// the menu bar says what happened. Open kernel scans a .cu file into the Kernel window; Open
// trace puts a recorded run there (`banklab trace -o FILE.json`).
#include <imgui.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "app/figures/svg.hpp"
#include "app/figures/tables.hpp"
#include "app/frontend/scenario_file.hpp"
#include "app/frontend/text_file.hpp"
#include "app/gui/panels/panels.hpp"
#include "app/gui/views/figure_draw.hpp"
#include "app/gui/views/widgets.hpp"

namespace banklab::gui {
namespace {

// What each item of the menu opens the chooser for.
struct FileItem {
  FileAction action;
  const char* title;      // the chooser's title
  const char* suffix;     // of the name it offers: banklab-banks.svg
  const char* extension;  // the files it lists
};

constexpr FileItem kItems[] = {
    {FileAction::png, "Export PNG", "", ".png"},  // its name follows the view (png_name())
    {FileAction::svg_banks, "Export bank view as SVG", "-banks.svg", ".svg"},
    {FileAction::svg_lanes, "Export lane map as SVG", "-lanes.svg", ".svg"},
    {FileAction::svg_tile, "Export tile as SVG", "-tile.svg", ".svg"},
    {FileAction::lanes_csv, "Export lane table as CSV", "-lanes.csv", ".csv"},
    {FileAction::lanes_markdown, "Export lane table as Markdown", "-lanes.md", ".md"},
    {FileAction::derivation_markdown, "Export derivation as Markdown", "-derivation.md", ".md"},
    {FileAction::save_scenario, "Save scenario", ".scenario", ".scenario"},
    {FileAction::open_scenario, "Open scenario", ".scenario", ".scenario"},
    {FileAction::open_kernel, "Open kernel", ".cu", ".cu"},
    {FileAction::open_trace, "Open trace", ".json", ".json"},
};

const FileItem& item(FileAction a) {
  const FileItem* it = std::find_if(std::begin(kItems), std::end(kItems),
                                    [a](const FileItem& i) { return i.action == a; });
  assert(it != std::end(kItems) && "every FileAction has its row in kItems");
  return *it;
}

void report(AppState& s, const Expected<void>& done, const std::string& what) {
  FileMenu& f = s.user.files;
  f.failed = !done;
  f.status = done ? what : done.error();
}

bool comparing(const AppState& s) {
  return !s.user.stage.compare.empty();
}

// The size fields and quick choices of a picture export, clamped with a visible note.
void size_fields(FileMenu& f) {
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12.0f);
  if (ImGui::InputInt2("size in pixels", f.size)) f.size_note.clear();
  constexpr int kQuick[][2] = {{1280, 720}, {1920, 1080}, {3840, 2160}};
  for (const auto& q : kQuick) {
    char label[32];
    std::snprintf(label, sizeof label, "%dx%d", q[0], q[1]);
    if (ImGui::Button(label)) {
      f.size[0] = q[0];
      f.size[1] = q[1];
      f.size_note.clear();
    }
    ImGui::SameLine();
  }
  ImGui::NewLine();
  const int w = std::clamp(f.size[0], kMinExportSize[0], kMaxExportSize);
  const int h = std::clamp(f.size[1], kMinExportSize[1], kMaxExportSize);
  if (w != f.size[0] || h != f.size[1]) {
    char note[160];
    std::snprintf(note, sizeof note, "%dx%d is outside %dx%d .. %dx%d: %dx%d instead", f.size[0],
                  f.size[1], kMinExportSize[0], kMinExportSize[1], kMaxExportSize, kMaxExportSize,
                  w, h);
    f.size_note = note;
    f.size[0] = w;
    f.size[1] = h;
  }
  if (!f.size_note.empty()) ImGui::TextWrapped("%s", f.size_note.c_str());
}

// The name Export PNG offers for a view: banklab-banks.png, banklab-lanes.png, ...
std::string png_name(StageView v) {
  return v == StageView::lanes  ? "banklab-lanes.png"
         : v == StageView::tile ? "banklab-tile.png"
                                : "banklab-banks.png";
}

// Export PNG's choice of view: the stage's views, the tile only for the scenario on screen.
// The name offered follows the view until the user types another.
void png_fields(AppState& s) {
  FileMenu& f = s.user.files;
  const bool tile = !comparing(s) && s.study.tile_valid;
  const StageView before = f.png_view;
  if (f.png_view == StageView::tile && !tile) f.png_view = StageView::banks;
  ImGui::TextUnformatted(comparing(s) ? "the comparison:" : "the view:");
  ImGui::SameLine();
  if (ImGui::RadioButton("bank view", f.png_view == StageView::banks)) {
    f.png_view = StageView::banks;
  }
  ImGui::SameLine();
  if (ImGui::RadioButton("lane map", f.png_view == StageView::lanes)) {
    f.png_view = StageView::lanes;
  }
  if (tile) {
    ImGui::SameLine();
    if (ImGui::RadioButton("tile", f.png_view == StageView::tile)) f.png_view = StageView::tile;
  }
  if (f.png_view != before && f.chooser.name == png_name(before)) {
    f.chooser.name = png_name(f.png_view);
  }
  size_fields(f);
}

void export_svg(AppState& s, StageView view, const std::string& path) {
  const FileMenu& f = s.user.files;
  const figures::Figure fig =
      export_figure(s, view, static_cast<float>(f.size[0]), static_cast<float>(f.size[1]));
  report(s, frontend::write_text_file(path, figures::to_svg(fig), "an export"), "wrote " + path);
}

// Writes the table or derivation the action names; the scenario must have an analysis.
void export_text(AppState& s, FileAction a, const std::string& path) {
  const Study& d = s.study;
  if (!d.evaluation.ok()) {
    report(s, Error{"the scenario on screen has nothing to export"}, "");
    return;
  }
  const figures::LaneSource lanes{&d.evaluation.elements, &d.scenario.tile};
  const Analysis& analysis = *d.evaluation.analysis;
  const std::string text =
      a == FileAction::lanes_csv ? figures::lane_table_csv(analysis, lanes)
      : a == FileAction::lanes_markdown
          ? figures::lane_table_markdown(analysis, lanes)
          : figures::derivation_markdown(describe(d.scenario), analysis, d.explanation,
                                         d.evaluation.diagnostics);
  report(s, frontend::write_text_file(path, text, "an export"), "wrote " + path);
}

// What the chooser confirmed, done.
void finish(AppState& s, FileAction a, const std::string& path) {
  UserChoices& u = s.user;
  switch (a) {
    case FileAction::png:
      s.png_export = PngExport{u.files.png_view, u.files.size[0], u.files.size[1], path};
      break;
    case FileAction::svg_banks:
      export_svg(s, StageView::banks, path);
      break;
    case FileAction::svg_lanes:
      export_svg(s, StageView::lanes, path);
      break;
    case FileAction::svg_tile:
      export_svg(s, StageView::tile, path);
      break;
    case FileAction::lanes_csv:
    case FileAction::lanes_markdown:
    case FileAction::derivation_markdown:
      export_text(s, a, path);
      break;
    case FileAction::save_scenario:
      report(s, frontend::write_scenario_file(path, u.scenario), "saved " + path);
      break;
    case FileAction::open_scenario: {
      const Expected<Scenario> opened = read_scenario(path);
      if (opened) u.scenario = *opened;
      report(s, opened ? Expected<void>() : Expected<void>(Error{opened.error()}),
             "opened " + path);
      break;
    }
    case FileAction::open_kernel: {
      // The scan runs off the frame; the Kernel window shows its progress, then the file.
      start_kernel_scan(s, path);
      const bool started = kernel_scanning(s);
      if (started) u.views.kernel = true;
      report(s, started ? Expected<void>() : Expected<void>(Error{u.kernel.error}),
             "scanning " + path);
      break;
    }
    case FileAction::open_trace: {
      const bool opened = open_trace_file(s, path);
      report(s, opened ? Expected<void>() : Expected<void>(Error{u.kernel.error}),
             "opened the trace " + path);
      break;
    }
  }
}

void menu_item(AppState& s, FileAction a, const char* label, bool enabled) {
  if (!ImGui::MenuItem(label, nullptr, false, enabled)) return;
  FileMenu& f = s.user.files;
  const FileItem& it = item(a);
  f.action = a;
  f.size_note.clear();
  // The view on the stage (presentation or comparison), else the bank view.
  if (a == FileAction::png) {
    f.png_view = comparing(s) || s.user.stage.presenting ? s.user.stage.view : StageView::banks;
  }
  const bool open =
      a == FileAction::open_scenario || a == FileAction::open_kernel || a == FileAction::open_trace;
  const auto mode = open ? FileChooser::Mode::open : FileChooser::Mode::save;
  const std::string name = open                   ? ""
                           : a == FileAction::png ? png_name(f.png_view)
                                                  : std::string("banklab") + it.suffix;
  f.chooser.open(mode, it.title, it.extension, start_folder(s.user.settings.folder), name);
}

}  // namespace

figures::FigureStyle export_style(const AppState& s, float height) {
  figures::FigureStyle st = figure_style(view_style(s));
  st.font = std::floor(std::max(16.0f, height / 54.0f));
  st.min_font = 9.0f;
  st.served = kAllServed;
  st.hovered_lane = -1;
  st.heat_colours = true;  // an SVG draws the tile slot by slot; it has no texture
  return st;
}

figures::Figure export_figure(AppState& s, StageView view, float width, float height) {
  const StageView shown = s.user.stage.view;
  s.user.stage.view = view;
  const figures::FigureStyle st = export_style(s, height);
  // A slide has its own margins; a single view or a comparison gets a margin of one em.
  const float margin = view == StageView::slide && in_lesson(s) ? 0.0f : st.font;
  figures::Figure f =
      stage_figure(s, figures::Box{margin, margin, width - margin, height - margin}, st);
  f.width = width;
  f.height = height;
  s.user.stage.view = shown;
  return f;
}

void draw_export_page(AppState& s, StageView view) {
  const ImVec2 size = ImGui::GetIO().DisplaySize;
  const figures::Figure f = export_figure(s, view, size.x, size.y);
  draw_figure(f, ImGui::GetBackgroundDrawList(), s.frame.draw, s.res.label_fonts);
}

void file_menu(AppState& s) {
  const Study& d = s.study;
  const bool ok = d.evaluation.ok();
  const bool compare = comparing(s);
  menu_item(
      s, FileAction::png,
      compare ? "Export the comparison as PNG..." : "Export PNG (bank view, lane map, tile)...",
      ok || compare);
  menu_item(s, FileAction::svg_banks,
            compare ? "Export the comparison (bank views) as SVG..." : "Export bank view as SVG...",
            ok || compare);
  menu_item(s, FileAction::svg_lanes,
            compare ? "Export the comparison (lane maps) as SVG..." : "Export lane map as SVG...",
            ok || compare);
  menu_item(s, FileAction::svg_tile, "Export tile as SVG...", !compare && d.tile_valid);
  menu_item(s, FileAction::lanes_csv, "Export lane table as CSV...", ok);
  menu_item(s, FileAction::lanes_markdown, "Export lane table as Markdown...", ok);
  menu_item(s, FileAction::derivation_markdown, "Export derivation as Markdown...", ok);
  ImGui::Separator();
  menu_item(s, FileAction::save_scenario, "Save scenario...", true);
  menu_item(s, FileAction::open_scenario, "Open scenario...", true);
  menu_item(s, FileAction::open_kernel, "Open kernel (.cu)...", true);
  menu_item(s, FileAction::open_trace, "Open trace...", true);
}

void draw_file_dialog(AppState& s) {
  FileMenu& f = s.user.files;
  const bool picture = f.action == FileAction::png || f.action == FileAction::svg_banks ||
                       f.action == FileAction::svg_lanes || f.action == FileAction::svg_tile;
  std::function<void()> extra;
  if (f.action == FileAction::png) {
    extra = [&s] { png_fields(s); };
  } else if (picture) {
    extra = [&f] { size_fields(f); };
  }
  const std::optional<std::filesystem::path> chosen =
      draw_file_chooser(f.chooser, colours(s).error, extra);
  if (!chosen) return;
  s.user.settings.folder = f.chooser.folder.string();
  finish(s, f.action, chosen->string());
}

void file_status(const AppState& s) {
  const FileMenu& f = s.user.files;
  if (f.status.empty()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, f.failed ? ImGui::ColorConvertU32ToFloat4(colours(s).error)
                                                : ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
  ImGui::TextUnformatted(("  " + f.status).c_str());
  ImGui::PopStyleColor();
}

}  // namespace banklab::gui
