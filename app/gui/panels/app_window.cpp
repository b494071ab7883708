// The frame: shortcuts and time first (they may change the state), then refresh() so the core
// runs only if the scenario changed, then the menu bar and one window per view.
//
// [SECTION] The panels
// [SECTION] The menu bar and the renderer's problems
// [SECTION] Shortcuts and their actions
// [SECTION] The frame
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "app/gui/panels/gpu_panel.hpp"
#include "app/gui/panels/panels.hpp"
#include "app/gui/views/widgets.hpp"
#include "core/model/presets.hpp"

namespace banklab::gui {
namespace {

constexpr Shortcut kShortcuts[] = {
    {GLFW_KEY_SPACE, "Space", Action::play_pause, "play / pause the wavefronts"},
    {GLFW_KEY_RIGHT, "Right", Action::step_forward, "serve one more wavefront"},
    {GLFW_KEY_LEFT, "Left", Action::step_back, "one wavefront back"},
    {GLFW_KEY_UP, "Up", Action::index_up, "next column (row, chunk)"},
    {GLFW_KEY_DOWN, "Down", Action::index_down, "previous column (row, chunk)"},
    {GLFW_KEY_N, "N", Action::next_preset, "next preset (on a slide: its speaker notes)"},
    {GLFW_KEY_P, "P", Action::previous_preset, "previous preset"},
    {GLFW_KEY_F1, "F1", Action::help, "this help"},
    {GLFW_KEY_EQUAL, "+", Action::zoom_in, "larger text"},
    {GLFW_KEY_MINUS, "-", Action::zoom_out, "smaller text"},
    {GLFW_KEY_T, "T", Action::theme, "dark / light theme"},
    {GLFW_KEY_F5, "F5", Action::present, "presentation mode: one view, large type"},
    {GLFW_KEY_V, "V", Action::next_view, "presentation: bank view, lane map, tile"},
    {GLFW_KEY_ESCAPE, "Esc", Action::leave_stage, "leave presentation or a comparison"},
    {GLFW_KEY_D, "D", Action::drill, "drill: predict the conflict, then see it"},
    // Presentation clickers send Page Down / Page Up.
    {GLFW_KEY_PAGE_DOWN, "PgDn", Action::next_step, "lesson: next step"},
    {GLFW_KEY_PAGE_UP, "PgUp", Action::previous_step, "lesson: previous step"},
};

// [SECTION] The panels

// An edit in the Code window that does not evaluate leaves the views on the last valid code:
// each view says so over its picture.
void stale_notice(const AppState& s) {
  if (!code_stale(s)) return;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(colours(s).warning));
  ImGui::TextWrapped("Stale: the code being typed has an error; this is its last valid access.");
  ImGui::PopStyleColor();
}

// The panels that draw the scenario on screen: a panel's controls, then its view.
void banks_panel(AppState& s, Interaction& io) {
  stale_notice(s);
  draw_step_bar(s);
  draw_banks(s.study, view_style(s), io);
}

void lanes_panel(AppState& s, Interaction& io) {
  stale_notice(s);
  draw_lanes(s.study, view_style(s), io);
}

void arithmetic_panel(AppState& s, Interaction& io) {
  stale_notice(s);
  draw_arithmetic(s.study, view_style(s), io);
}

void tile_panel(AppState& s, Interaction& io) {
  stale_notice(s);
  const Study& d = s.study;
  // A scanned kernel's array is named as its kernel declares it, not as the tile it is drawn as.
  const ScanLine* scanned = access_on_screen(s);
  if (scanned && !array_drawable(scanned->shape)) {
    ImGui::TextWrapped(
        "%s (line %d): the Tile window cannot draw this array. It draws arrays of 1-, 2-, 4- or "
        "8-byte elements with their last bound as the columns; the bank view and the lane map "
        "show the access.",
        array_declaration(scanned->shape).c_str(), scanned->line);
    return;
  }
  if (d.tile_valid) {
    ImGui::TextUnformatted(scanned ? array_declaration(scanned->shape).c_str()
                                   : to_string(d.scenario.tile).c_str());
    using figures::TileView;
    for (const auto& [view, name] :
         {std::pair{TileView::logical, "logical"}, std::pair{TileView::physical, "physical"},
          std::pair{TileView::both, "side by side"}}) {
      same_line_if_fits(name);
      if (ImGui::RadioButton(name, s.user.settings.tile_view == view)) set_tile_view(s, view);
    }
    help_marker(
        "Colour = bank. Logical: element (r, c) where the program indexes it, coloured by the "
        "bank it really lands in. Physical: the slots of shared memory as stored; the outlined "
        "elements show where a swizzle moved them. Side by side: both at once (the same picture "
        "twice without a swizzle). Striped grey columns are padding.");
  }
  if (descriptor_offered(d.scenario.tile)) {
    // The consumer side of a TMA tile: the descriptor wgmma or tcgen05 reads it through.
    same_line_if_button_fits("Descriptor...");
    if (ImGui::Button("Descriptor...")) {
      s.user.views.descriptor = true;
      read_tile_with(s.user.descriptor, d.scenario.tile, s.user.descriptor.desc.arch);
    }
    io.geometry.descriptor_link = last_item_rect();
  }
  draw_tile(d, view_style(s), io);
}

// Every window of the app but the help and the renderer's problems, in drawing order (the View
// menu lists them in this order too; the last one drawn has the focus at start). A new
// panel (a lesson, a drill, a comparison) is one row here, a flag in Views and a rectangle in
// PanelLayout; its function draws the window's contents.
struct Panel {
  const char* title;  // window title, also its ImGui ID and imgui.ini key: keep it stable
  const char* menu;   // its item in the View menu
  bool Views::*open;
  ImVec2 PanelLayout::*pos;
  ImVec2 PanelLayout::*size;
  ImGuiWindowFlags flags;
  bool floating;  // lies over other panels, so it keeps its background
  void (*draw)(AppState& s, Interaction& io);
};

const Panel kPanels[] = {
    {"Lesson", "Lesson", &Views::presets, &PanelLayout::presets_pos, &PanelLayout::presets_size, 0,
     false, [](AppState& s, Interaction& io) { draw_presets(s, io); }},
    {"Controls", "Controls", &Views::controls, &PanelLayout::controls_pos,
     &PanelLayout::controls_size, 0, false, draw_controls},
    {"Bank view: 32 banks x one row per wavefront", "Bank view", &Views::banks,
     &PanelLayout::banks_pos, &PanelLayout::banks_size, ImGuiWindowFlags_NoScrollbar, false,
     banks_panel},
    {"Arithmetic", "Arithmetic", &Views::arithmetic, &PanelLayout::arithmetic_pos,
     &PanelLayout::arithmetic_size, 0, false, arithmetic_panel},
    {"Lane map: lane -> bank", "Lane map", &Views::lanes, &PanelLayout::lanes_pos,
     &PanelLayout::lanes_size, ImGuiWindowFlags_NoScrollbar, false, lanes_panel},
    {"Tile: element colour = bank", "Tile", &Views::tile, &PanelLayout::tile_pos,
     &PanelLayout::tile_size, ImGuiWindowFlags_NoScrollbar, false, tile_panel},
    {"Code: the access as CUDA", "Code", &Views::code, &PanelLayout::code_pos,
     &PanelLayout::code_size, 0, false, draw_code},
    {"Kernel: every shared-memory line of a .cu file", "Kernel", &Views::kernel,
     &PanelLayout::kernel_pos, &PanelLayout::kernel_size, 0, true, draw_kernel},
    {"GPU: run and measure", "GPU", &Views::gpu, &PanelLayout::gpu_pos, &PanelLayout::gpu_size, 0,
     true,
     [](AppState& s, Interaction& io) {
       draw_gpu(*s.gpu, s.user.scenario, colours(s));
       io.geometry.gpu_run = shown_run(*s.gpu);
     }},
    // The part after ### is the window's ID and imgui.ini key, kept from its first title.
    {"Solve: pad or swizzle, layouts ranked by conflicts then bytes"
     "###Solve: the cheapest conflict-free layout",
     "Solve: pad or swizzle?", &Views::solve, &PanelLayout::solve_pos, &PanelLayout::solve_size, 0,
     true, draw_solve},
    {"Descriptor: how wgmma and tcgen05 read the TMA tile###Descriptor", "Descriptor",
     &Views::descriptor, &PanelLayout::descriptor_pos, &PanelLayout::descriptor_size, 0, true,
     draw_descriptor},
    {"Drill: predict, then see", "Drill", &Views::drill, &PanelLayout::drill_pos,
     &PanelLayout::drill_size, 0, true, draw_drill},
};

// Each panel in its own window, placed by default_layout() on the first run or after
// View > Reset layout; afterwards where the user put it (imgui.ini remembers).
// Whether the layout has a place for the panel on this screen (one_column_layout() has none for
// some).
bool has_place(const PanelLayout& l, const Panel& panel) {
  return (l.*panel.size).x > 0.0f && (l.*panel.size).y > 0.0f;
}

void panel_window(AppState& s, const Panel& panel, const PanelLayout& l, Interaction& io) {
  bool& open = s.user.views.*panel.open;
  if (!open || !has_place(l, panel)) return;
  ImGuiCond cond = s.reset_layout ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
  ImGui::SetNextWindowPos(l.*panel.pos, cond);
  ImGui::SetNextWindowSize(l.*panel.size, cond);
  // No window background: the views tile the screen over the clear colour, which is the same
  // colour. Under llvmpipe each background is a textured, blended full-window fill, and
  // dropping them cuts the CPU cost of a 1080p frame by about a third. A floating window (the
  // GPU window) lies over other views, so it keeps its background.
  ImGuiWindowFlags flags = panel.flags | ImGuiWindowFlags_NoCollapse;
  if (!panel.floating) flags |= ImGuiWindowFlags_NoBackground;
  if (ImGui::Begin(panel.title, &open, flags)) panel.draw(s, io);
  const ImVec2 at = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  io.geometry.windows.emplace_back(panel.menu,
                                   figures::Box{at.x, at.y, at.x + size.x, at.y + size.y});
  ImGui::End();
}

// [SECTION] The menu bar and the renderer's problems

float menu_bar(AppState& s) {
  float height = 0.0f;
  if (!ImGui::BeginMainMenuBar()) return height;
  height = ImGui::GetWindowSize().y;
  if (ImGui::BeginMenu("File")) {
    file_menu(s);
    if (s.platform.quits) {
      ImGui::Separator();
      if (ImGui::MenuItem("Quit")) s.quit_requested = true;
    }
    ImGui::EndMenu();
  }
  if (s.platform.links && ImGui::BeginMenu("Edit")) {
    if (ImGui::MenuItem("Copy link")) s.copy_link_requested = true;
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("The page's address, which reopens what is on screen");
    }
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Lesson")) {
    std::span<const Preset> all = presets();
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (ImGui::MenuItem(std::string(all[i].name).c_str(), nullptr,
                          static_cast<int>(i) == s.user.preset)) {
        load_preset(s, static_cast<int>(i));
      }
    }
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    // A phone's one column has no place for some windows: their items are greyed out.
    const PanelLayout here =
        default_layout(ImGui::GetIO().DisplaySize, 0.0f, ui_scale(), in_lesson(s));
    for (const Panel& panel : kPanels) {
      const bool room = has_place(here, panel);
      ImGui::MenuItem(panel.menu, nullptr, &(s.user.views.*panel.open), room);
      if (!room && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("No room in one column: a wider window (or the phone turned) shows it");
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Dark theme", nullptr, s.user.settings.theme == Theme::dark)) {
      s.user.settings.theme = Theme::dark;
    }
    if (ImGui::MenuItem("Light theme (projector)", nullptr,
                        s.user.settings.theme == Theme::light)) {
      s.user.settings.theme = Theme::light;
    }
    if (ImGui::MenuItem("Zoom in", "+")) change_zoom(s, kZoomStep);
    if (ImGui::MenuItem("Zoom out", "-")) change_zoom(s, -kZoomStep);
    if (ImGui::MenuItem("Zoom 100%")) s.user.settings.zoom = 1.0f;
    if (ImGui::MenuItem("Colour-blind palette (Okabe-Ito)", nullptr,
                        s.user.settings.scheme == Scheme::colour_blind)) {
      s.user.settings.scheme =
          s.user.settings.scheme == Scheme::colour_blind ? Scheme::standard : Scheme::colour_blind;
    }
    ImGui::Separator();
    ImGui::MenuItem("Presentation mode", "F5", &s.user.stage.presenting);
    if (ImGui::BeginMenu("Compare")) {
      for (const Comparison& c : comparisons()) {
        if (ImGui::MenuItem(std::string(c.name).c_str())) {
          set_compare(s.user.stage, builtin_comparison(c.name));
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", std::string(c.what).c_str());
      }
      if (ImGui::MenuItem("Off", "Esc", false, !s.user.stage.compare.empty())) {
        s.user.stage.compare.clear();
      }
      ImGui::EndMenu();
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Reset layout")) s.reset_layout = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Help")) {
    ImGui::MenuItem("Shortcuts and colours", "F1", &s.user.views.help);
    ImGui::EndMenu();
  }
  file_status(s);
  if (s.user.preset >= 0) {
    const Preset& p = presets()[s.user.preset];
    ImGui::TextDisabled("  %s%s: %s", std::string(p.name).c_str(),
                        preset_modified(s) ? " (changed)" : "", std::string(p.title).c_str());
  }
  ImGui::EndMainMenuBar();
  return height;
}

void renderer_problems(AppState& s) {
  if (s.res.renderer_errors.empty()) return;
  ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 36.0f, 0.0f), ImGuiCond_Appearing);
  ImGui::Begin("Renderer problems");
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(colours(s).error));
  ImGui::TextWrapped("These GLSL programs did not build, so their views stay empty:");
  ImGui::PopStyleColor();
  for (const std::string& e : s.res.renderer_errors) ImGui::TextWrapped("%s", e.c_str());
  ImGui::End();
}

}  // namespace

// [SECTION] Shortcuts and their actions

std::span<const Shortcut> shortcuts() {
  return kShortcuts;
}

void apply_action(AppState& s, Action a) {
  switch (a) {
    case Action::play_pause:
      toggle_play(s);
      break;
    case Action::step_forward:
      step_by(s, 1);
      break;
    case Action::step_back:
      step_by(s, -1);
      break;
    case Action::index_up:
      move_index(s, 1);
      break;
    case Action::index_down:
      move_index(s, -1);
      break;
    case Action::next_preset:
      if (showing_slide(s)) {  // N on a slide: its speaker notes, as in the HTML deck
        next_notes_page(s);
      } else {
        cycle_preset(s, 1);
      }
      break;
    case Action::previous_preset:
      cycle_preset(s, -1);
      break;
    case Action::help:
      s.user.views.help = !s.user.views.help;
      break;
    case Action::next_step:
      step_lesson(s, 1);
      break;
    case Action::previous_step:
      step_lesson(s, -1);
      break;
    case Action::zoom_in:
      change_zoom(s, kZoomStep);
      break;
    case Action::zoom_out:
      change_zoom(s, -kZoomStep);
      break;
    case Action::theme:
      s.user.settings.theme = s.user.settings.theme == Theme::dark ? Theme::light : Theme::dark;
      break;
    case Action::present:
      s.user.stage.presenting = !s.user.stage.presenting;
      break;
    case Action::next_view:
      cycle_stage_view(s);
      break;
    case Action::leave_stage:
      s.user.stage.presenting = false;
      s.user.stage.compare.clear();
      break;
    case Action::drill:
      s.user.views.drill = !s.user.views.drill;
      break;
  }
}

void handle_shortcuts(AppState& s) {
  const ImGuiIO& io = ImGui::GetIO();
  // Typing offsets or a tile size must not step the animation, nor keys meant for the file
  // chooser change what it saves.
  if (io.WantTextInput || io.KeyCtrl || io.KeyAlt || io.KeySuper || file_chooser_open()) return;
  for (const Shortcut& k : kShortcuts) {
    if (ImGui::IsKeyPressed(k.key)) apply_action(s, k.action);
  }
}

// A phone's width (390x844): one column, no window over another. The lesson (or the presets)
// on top, the bank view, then the lane map; the Controls, Code, Tile and Arithmetic windows have
// no place there (their size is 0: panel_window() leaves them out and the View menu says why).
// The floating windows (Kernel, GPU, Solve, Descriptor, Drill) take the screen under the menu.
PanelLayout one_column_layout(ImVec2 display, float top, bool lesson) {
  PanelLayout l;
  const float h = std::max(display.y - top, 1.0f);
  const float presets_h = std::floor(h * (lesson ? 0.34f : 0.22f));
  const float banks_h = std::floor(h * 0.42f);
  l.presets_pos = ImVec2(0, top);
  l.presets_size = ImVec2(display.x, presets_h);
  l.banks_pos = ImVec2(0, top + presets_h);
  l.banks_size = ImVec2(display.x, banks_h);
  l.lanes_pos = ImVec2(0, top + presets_h + banks_h);
  l.lanes_size = ImVec2(display.x, h - presets_h - banks_h);
  for (auto [pos, size] : {std::pair{&PanelLayout::kernel_pos, &PanelLayout::kernel_size},
                           std::pair{&PanelLayout::gpu_pos, &PanelLayout::gpu_size},
                           std::pair{&PanelLayout::solve_pos, &PanelLayout::solve_size},
                           std::pair{&PanelLayout::descriptor_pos, &PanelLayout::descriptor_size},
                           std::pair{&PanelLayout::drill_pos, &PanelLayout::drill_size}}) {
    l.*pos = ImVec2(0, top);
    l.*size = ImVec2(display.x, h);
  }
  return l;
}

PanelLayout default_layout(ImVec2 display, float menu_height, float scale, bool lesson,
                           float kernel_width) {
  PanelLayout l;
  float top = menu_height;
  float h = std::max(display.y - top, 1.0f);
  if (display.x < kOneColumnWidth * scale) return one_column_layout(display, top, lesson);
  float left = std::clamp(display.x * 0.2f, 270.0f * scale, 420.0f * scale);
  left = std::min(left, display.x * 0.4f);
  // The Kernel window's source shows kKernelSourceChars characters of a line a row (650 px), as
  // far as the bank view keeps 640 px for its 32 banks (71 characters at 1280x720).
  const bool kernel = kernel_width > 0.0f;
  if (kernel) left = std::max(left, std::min(kernel_width, display.x - 640.0f * scale));
  float right = display.x - left;
  // The bank view's 32 wavefront rows of 12 px (cell labels of 11 px) and its step bar,
  // verdict, bank numbers and legend, as far as the lane map keeps its own minimum below.
  constexpr float kBanksNeed = 32 * 12 + 150, kLanesNeed = 165;
  float upper = std::floor(std::clamp(kBanksNeed * scale, h * 0.6f, h - kLanesNeed * scale));
  // A lesson's text needs the room; the controls still show the step's scenario below it.
  float presets_h = std::floor(h * (lesson ? 0.62f : 0.36f));
  l.presets_pos = ImVec2(0, top);
  l.presets_size = ImVec2(left, presets_h);
  l.controls_pos = ImVec2(0, top + presets_h);
  l.controls_size = ImVec2(left, h - presets_h);
  l.kernel_pos = ImVec2(0, top);
  l.kernel_size = ImVec2(left, h);
  float banks_w = std::floor(right * 0.64f);
  l.banks_pos = ImVec2(left, top);
  l.banks_size = ImVec2(banks_w, upper);
  l.arithmetic_pos = ImVec2(left + banks_w, top);
  l.arithmetic_size = ImVec2(right - banks_w, upper);
  // 32 lane boxes of 17 px (lane numbers of 11 px), as far as the code and the arithmetic keep
  // 450 px (400 beside the Kernel window, whose access the Code window shows wrapped).
  const float lower_rest = (kernel ? 400.0f : 450.0f) * scale;
  float lanes_w = std::floor(std::clamp(580.0f * scale, right * 0.42f, right - lower_rest));
  // The code box's declaration, `__shared__ float tile[32][32];`, 30 characters of the mono
  // font whole (ImGui's multi-line box does not wrap), as far as the arithmetic keeps 160 px.
  float code_w = std::floor(std::max((right - lanes_w) * 0.45f,
                                     std::min(290.0f * scale, right - lanes_w - 160.0f * scale)));
  l.lanes_pos = ImVec2(left, top + upper);
  l.lanes_size = ImVec2(lanes_w, h - upper);
  l.code_pos = ImVec2(left + lanes_w, top + upper);
  l.code_size = ImVec2(code_w, h - upper);
  l.tile_pos = ImVec2(left + lanes_w + code_w, top + upper);
  l.tile_size = ImVec2(right - lanes_w - code_w, h - upper);
  // The tile is a picture a class must read from the back of the room: it takes whichever place
  // gives its cells more room, the lower row or the arithmetic's beside the bank view (the
  // arithmetic, text that wraps and scrolls, then goes below). The tile's square is what its
  // window leaves after the row numbers (40 px) and, above and below it, the window's title,
  // the view's choices, the bank legend and the outline note (170 px). At 1280x720 the lower
  // row would give 32 rows 5 px each, beside the bank view 11 px; at 1920x1080, 8 px below and
  // 14 px beside.
  const auto tile_square = [scale](ImVec2 size) {
    return std::min(size.x - 40.0f * scale, size.y - 170.0f * scale);
  };
  if (tile_square(l.arithmetic_size) > tile_square(l.tile_size)) {
    std::swap(l.tile_pos, l.arithmetic_pos);
    std::swap(l.tile_size, l.arithmetic_size);
  }
  // A screen too narrow for the source and every view beside it (1280x720): the bank view and
  // the lane map take the right side whole, and the Code, Tile and Arithmetic windows lie in the
  // left column under the Kernel window (the Code window's line is the source's highlighted
  // one), as the lesson and controls do; closing the Kernel window gives them back their places.
  if (kernel && right < 980.0f * scale) {
    l.banks_size.x = right;
    l.lanes_size.x = right;
    l.tile_pos = l.code_pos = ImVec2(0, top);
    l.tile_size = l.code_size = ImVec2(left, h);
    l.arithmetic_pos = l.controls_pos;
    l.arithmetic_size = l.controls_size;
  }
  l.gpu_pos = ImVec2(left + std::floor(right * 0.3f), top);
  // The GPU window's plot, its axis and its legend under its header: the whole height on a
  // small screen (720 px), where 85% of it cut the axis off.
  l.gpu_size =
      ImVec2(right - std::floor(right * 0.3f), std::floor(h * (h < 800.0f ? 1.0f : 0.85f)));
  l.solve_pos = ImVec2(left + std::floor(right * 0.12f), top);
  l.solve_size = ImVec2(right - std::floor(right * 0.12f), h);
  l.descriptor_pos = l.solve_pos;
  l.descriptor_size = l.solve_size;
  l.drill_pos = ImVec2(0, top);
  l.drill_size = ImVec2(display.x, h);
  return l;
}

// [SECTION] The frame

ViewStyle view_style(const AppState& s) {
  ViewStyle v;
  v.palette = &colours(s);
  v.small_font = s.res.small_font;
  v.mono_font = s.res.mono_font;
  v.label_fonts = s.res.label_fonts;
  v.hovered_lane = s.hovered_lane;
  v.served = s.user.step.served;
  v.playing = s.user.step.playing;
  v.tile_view = s.user.settings.tile_view;
  if (in_lesson(s)) v.highlights = &s.lesson.filled.highlights;
  v.one_column = ImGui::GetIO().DisplaySize.x < kOneColumnWidth * ui_scale();
  return v;
}

void apply_interaction(AppState& s, Interaction& io) {
  s.frame.geometry = std::move(io.geometry);
  s.hovered_lane = io.hovering_lane;
  if (io.clicked_lane >= 0) toggle_lane(s, io.clicked_lane);
}

void draw_app(AppState& s) {
  ImGuiIO& imgui = ImGui::GetIO();
  s.frame.draw.begin_frame();
  if (s.exporting) {  // export_png()'s frames: the exported view alone, nothing moves
    draw_export_page(s, *s.exporting);
    return;
  }
  handle_shortcuts(s);
  advance_time(s, imgui.DeltaTime);
  poll_kernel_scan(s);  // a scan finished off the frame puts its worst access on screen
  refresh(s);

  // Presentation mode is the picture alone: no menu bar (F5 and Esc leave it, its footer says so).
  const float menu_height = s.user.stage.presenting ? 0.0f : menu_bar(s);
  draw_file_dialog(s);
  // The Kernel window widens the left column: the windows move when it opens and when it closes.
  if (s.user.views.kernel != s.kernel_laid_out) {
    s.kernel_laid_out = s.user.views.kernel;
    s.reset_layout = true;
  }
  PanelLayout l =
      default_layout(imgui.DisplaySize, menu_height, ui_scale(), in_lesson(s),
                     s.user.views.kernel ? kernel_window_width(s, kKernelSourceChars) : 0.0f);
  // A panel that is closed this frame leaves no stale cells: the geometry starts empty.
  Interaction io{&s.frame.draw};
  if (s.user.stage.presenting || !s.user.stage.compare.empty()) {
    draw_stage(s, io, menu_height);
  } else {
    for (const Panel& panel : kPanels) panel_window(s, panel, l, io);
  }
  if (s.user.views.help) draw_help(s);
  renderer_problems(s);
  apply_interaction(s, io);
  s.reset_layout = false;
}

}  // namespace banklab::gui
