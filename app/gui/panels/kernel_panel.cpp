// The Kernel window: a whole .cu file scanned (kernel_state.hpp), from the top down
//   - the file, the kernel (when it has several), the block and where it came from, the block
//     and names the user sets, the totals;
//   - the accesses ranked by excess wavefronts, as `banklab scan` lists them: clicking one puts
//     its worst warp-instruction on screen and scrolls the source to its line;
//   - the chosen access: its notes and every warp-instruction (warp and loop trips), each one a
//     click from the screen;
//   - the source, each shared-memory line annotated with its n-way and excess, in the conflict
//     colour only where it conflicts, the lines the scan could not evaluate with the reason:
//     clicking a line puts its worst access on screen.
// A trace (File > Open trace..., --trace) shows the same way, its counts those of the recorded
// run: the header names the launch, each instruction its block, warp and run, and the source has
// a column of the hardware's counts of the same launch where it was measured.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "app/gui/panels/panels.hpp"
#include "app/gui/state/kernel_state.hpp"
#include "app/gui/state/scan_worker.hpp"
#include "app/gui/views/widgets.hpp"
#include "core/base/format.hpp"

namespace banklab::gui {
namespace {

// What the source shows beside one line.
struct LineMark {
  int accesses = 0;
  int worst_ways = 0;
  std::int64_t excess = 0;
  const ScanProblem* problem = nullptr;  // the first the scan could not evaluate there
};

std::map<int, LineMark> line_marks(const KernelScan& k) {
  std::map<int, LineMark> marks;
  for (const ScanLine& l : k.lines) {
    LineMark& m = marks[l.line];
    ++m.accesses;
    m.worst_ways = std::max(m.worst_ways, l.worst_ways);
    m.excess += l.excess_wavefronts;
  }
  for (const ScanProblem& p : k.unevaluated) {
    LineMark& m = marks[p.line];
    if (!m.problem) m.problem = &p;
  }
  return marks;
}

void error_text(const AppState& s, const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(colours(s).error));
  ImGui::TextWrapped("%s", text.c_str());
  ImGui::PopStyleColor();
}

// A trace's launch in two rows under the file's name, so that the source keeps its rows at
// 1280x720: which launch ran where, and how the hardware's counts compare; the program, driver,
// date, commit and what was recorded in the tooltip of its "(?)". A capped trace says so in the
// totals' notes below, where the counts are.
void trace_header(const record::Trace& t, const KernelFile& k) {
  ImGui::SameLine();
  text_disabled_wrapped(format("launch %lld on %s, grid %dx%dx%d, block %dx%dx%d",
                               static_cast<long long>(t.launch), t.device.c_str(), t.grid[0],
                               t.grid[1], t.grid[2], t.block[0], t.block[1], t.block[2]));
  text_disabled_wrapped(k.measured
                            ? format("measured: %d of %d lines agree with the model",
                                     k.measured->agreeing_lines(), k.measured->evaluated_lines())
                            : "measured: " + k.not_measured);
  const std::string details = format(
      "traced: %s\nlaunch %lld of %s\non %s, driver %s, %s, by BankLab %s\n%zu of %lld "
      "shared-memory warp-instructions recorded\nmeasured: %s",
      t.kernel.c_str(), static_cast<long long>(t.launch), t.program.c_str(), t.device.c_str(),
      t.driver.c_str(), t.created_utc.c_str(), t.commit.c_str(), t.accesses.size(),
      static_cast<long long>(t.executed),
      k.measured ? t.measured_by.c_str() : k.not_measured.c_str());
  help_marker(details.c_str());
}

// The file, kernel, block and names; a change scans again.
void header(AppState& s, const KernelScan& shown) {
  KernelFile& k = s.user.kernel;
  ImGui::TextUnformatted(k.name.c_str());
  if (k.scan.kernels.size() > 1) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-FLT_MIN);  // the rest of the line: kernel names are long
    if (ImGui::BeginCombo("##kernel", shown.kernel.c_str())) {
      for (std::size_t i = 0; i < k.scan.kernels.size(); ++i) {
        if (ImGui::Selectable(k.scan.kernels[i].kernel.c_str(), static_cast<int>(i) == k.kernel))
          show_kernel(s, static_cast<int>(i));
      }
      ImGui::EndCombo();
    }
  }
  if (k.trace) {
    trace_header(*k.trace, k);
    return;  // a recorded run: no block or names to change
  }
  if (!shown.error) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    ImGui::TextWrapped("block %dx%dx%d, from %s", shown.block[0], shown.block[1], shown.block[2],
                       shown.block_from.c_str());
    ImGui::PopStyleColor();
  }
  bool changed = false;
  if (ImGui::Checkbox("set the block", &k.block_given)) {
    changed = true;
    if (k.block_given && !shown.error) k.block = shown.block;
  }
  if (k.block_given) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9.0f);
    changed |= ImGui::InputInt3("##block", k.block.data());
    for (int& side : k.block) side = std::clamp(side, 1, 1024);
  }
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12.0f);
  changed |= ImGui::InputTextWithHint("names", "N=64,stride=2", &k.lets);
  help_marker(
      "Values of the template parameters, kernel parameters and macros the file does not give, "
      "as NAME=VALUE separated by commas.");
  if (changed) {
    const std::int64_t threads = std::int64_t{k.block[0]} * k.block[1] * k.block[2];
    if (k.block_given && threads > 1024) {
      k.error = "the block has " + std::to_string(threads) + " threads: at most 1024";
    } else {
      start_rescan(s);
    }
  }
}

void totals(const KernelScan& shown, bool traced) {
  std::int64_t wavefronts = 0, excess = 0;
  for (const ScanLine& l : shown.lines) {
    wavefronts += l.wavefronts;
    excess += l.excess_wavefronts;
  }
  ImGui::TextWrapped("%zu shared-memory accesses: %lld wavefronts %s, %lld of them excess",
                     shown.lines.size(), static_cast<long long>(wavefronts),
                     traced ? "in the traced launch" : "a block", static_cast<long long>(excess));
  for (const std::string& n : shown.notes) ImGui::TextWrapped("%s", n.c_str());
}

// The accesses, most excess first; a click shows one.
void ranking(AppState& s, const KernelScan& shown, float height) {
  const ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("##accesses", 5, flags, ImVec2(0.0f, height))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  for (const char* column : {"line", "access", "wavefronts", "excess", "worst"})
    ImGui::TableSetupColumn(column);
  ImGui::TableHeadersRow();
  const Palette& p = colours(s);
  for (std::size_t i = 0; i < shown.lines.size(); ++i) {
    const ScanLine& l = shown.lines[i];
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::PushID(static_cast<int>(i));
    const std::string line = std::to_string(l.line);
    if (ImGui::Selectable(line.c_str(), static_cast<int>(i) == s.user.kernel.access,
                          ImGuiSelectableFlags_SpanAllColumns)) {
      show_access(s, static_cast<int>(i));
    }
    ImGui::PopID();
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip(
          "%s[...]: %lld warp-instructions, %lld wavefronts where %lld would do; "
          "the worst at %s",
          l.array.c_str(), static_cast<long long>(l.instructions),
          static_cast<long long>(l.wavefronts), static_cast<long long>(l.ideal_wavefronts),
          describe_instance(s.user.kernel, l, l.worst_warp, l.worst_iteration).c_str());
    }
    ImGui::TableNextColumn();
    ImGui::Text("%s %d B", l.cp_async ? "cp.async" : std::string(op_name(l.op)).c_str(), l.width);
    ImGui::TableNextColumn();
    ImGui::Text("%lld", static_cast<long long>(l.wavefronts));
    ImGui::TableNextColumn();
    if (l.excess_wavefronts > 0) {
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(p.cell_conflict), "%lld",
                         static_cast<long long>(l.excess_wavefronts));
    } else {
      ImGui::TextDisabled("0");
    }
    ImGui::TableNextColumn();
    ImGui::Text("%d-way", l.worst_ways);
  }
  ImGui::EndTable();
}

// The chosen access: what it is, its notes, and each warp-instruction, one a click.
void instructions(AppState& s, const KernelScan& shown, float height) {
  KernelFile& k = s.user.kernel;
  if (k.access < 0 || static_cast<std::size_t>(k.access) >= shown.lines.size()) return;
  const ScanLine& l = shown.lines[static_cast<std::size_t>(k.access)];
  ImGui::TextWrapped("line %d: %s of %s, %d bytes a lane; %s%s", l.line,
                     l.cp_async ? "cp.async" : std::string(op_name(l.op)).c_str(), l.array.c_str(),
                     l.width, kernel_on_screen(s) ? "on screen: " : "",
                     kernel_on_screen(s) ? describe_instance(k, l, l.instances[k.instance].warp,
                                                             l.instances[k.instance].iteration)
                                               .c_str()
                                         : "a control changed the access on screen");
  for (const std::string& n : l.notes) ImGui::TextWrapped("note: %s", n.c_str());
  const ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("##instructions", 3, flags, ImVec2(0.0f, height))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("warp-instruction");
  ImGui::TableSetupColumn("wavefronts");
  ImGui::TableSetupColumn("lanes");
  ImGui::TableHeadersRow();
  const Palette& p = colours(s);
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(l.instances.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const ScanInstance& in = l.instances[static_cast<std::size_t>(i)];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::PushID(i);
      if (ImGui::Selectable(describe_instance(k, l, in.warp, in.iteration).c_str(),
                            i == k.instance && kernel_on_screen(s),
                            ImGuiSelectableFlags_SpanAllColumns)) {
        show_access(s, k.access, i);
      }
      ImGui::PopID();
      ImGui::TableNextColumn();
      const ImU32 colour = in.wavefronts > in.ideal ? p.cell_conflict : p.text;
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(colour), "%d (ideal %d)", in.wavefronts,
                         in.ideal);
      ImGui::TableNextColumn();
      ImGui::Text("%d", std::popcount(in.lanes));
    }
  }
  ImGui::EndTable();
}

// A line of code, its tabs as spaces to the next multiple of 4 (ImGui draws no tab stops).
std::string expand_tabs(std::string_view code) {
  std::string expanded;
  for (char c : code) {
    if (c != '\t') {
      expanded += c;
      continue;
    }
    do expanded += ' ';
    while (expanded.size() % 4 != 0);
  }
  return expanded;
}

// A trace's measured lines by number.
std::map<int, const LineComparison*> measured_lines(const KernelFile& k) {
  std::map<int, const LineComparison*> lines;
  if (k.measured)
    for (const LineComparison& c : k.measured->lines) lines[c.line] = &c;
  return lines;
}

// Under a traced line the hardware measured: its wavefronts and whether the model agrees;
// empty for the others.
std::string measured_text(const std::map<int, const LineComparison*>& measured, int line) {
  const auto found = measured.find(line);
  if (found == measured.end()) return {};
  const LineComparison& c = *found->second;
  if (c.measured_wavefronts == 0 && c.predicted_wavefronts == 0) return {};
  return "  measured: " + std::to_string(c.measured_wavefronts) + " wavefronts, " +
         (c.agrees ? "agrees" : "differs");
}

// What the source shows under a line the scan (or the trace) has something to say about, like
// a compiler's note under the code; empty for the others.
std::string mark_text(const std::map<int, LineMark>& marks, int line, bool traced) {
  const auto m = marks.find(line);
  if (m == marks.end()) return {};
  const LineMark& mark = m->second;
  if (mark.accesses > 0) {
    return std::string(traced ? "^ traced: " : "^ ") + std::to_string(mark.worst_ways) + "-way" +
           (mark.excess > 0 ? ", +" + std::to_string(mark.excess) + " excess wavefronts" : "");
  }
  if (mark.problem) {
    return std::string("^ ") + (mark.problem->error ? "error: " : "not evaluated: ") +
           mark.problem->reason;
  }
  return {};
}

// Where each line's row starts, in pixels, with the code wrapped at `width` and its mark (and
// the hardware's count) under it, in the current font: measured again only when the width, the
// font or the marks changed.
const std::vector<float>& row_tops(KernelFile& k, const std::map<int, LineMark>& marks,
                                   const std::map<int, const LineComparison*>& measured,
                                   float width) {
  KernelFile::SourceRows& rows = k.source_rows;
  const float font = ImGui::GetFontSize();
  if (rows.width == width && rows.font == font && rows.kernel == k.kernel && rows.scans == k.scans)
    return rows.top;
  rows = {width, font, k.kernel, k.scans, {}};
  const ImGuiStyle& style = ImGui::GetStyle();
  const int count = static_cast<int>(k.line_starts.size());
  rows.top.reserve(static_cast<std::size_t>(count) + 1);
  float y = 0.0f;
  for (int line = 1; line <= count; ++line) {
    rows.top.push_back(y);
    const std::string code = expand_tabs(source_line(k, line));
    float h = ImGui::CalcTextSize(code.c_str(), nullptr, false, width).y;
    for (const std::string& under :
         {mark_text(marks, line, k.trace.has_value()), measured_text(measured, line)}) {
      if (!under.empty())
        h += style.ItemSpacing.y + ImGui::CalcTextSize(under.c_str(), nullptr, false, width).y;
    }
    y += h + 2.0f * style.CellPadding.y;
  }
  rows.top.push_back(y);
  return rows.top;
}

// The source table's line-number column: "line" or the file's last line number, whichever is
// wider, in the current font.
float line_column_width(const KernelFile& k) {
  const std::string widest = std::to_string(k.line_starts.size());
  return std::max(ImGui::CalcTextSize("line").x, ImGui::CalcTextSize(widest.c_str()).x);
}

// The source, one row a line: its number, then the code wrapped to the pane (a line is read
// whole, never cut at the edge) with what the scan found there under it. Only the rows in view
// are drawn; the rest are two spacer rows of their measured height.
void source(AppState& s, const KernelScan& shown, Interaction& io) {
  KernelFile& k = s.user.kernel;
  const std::map<int, LineMark> marks = line_marks(shown);
  const Palette& p = colours(s);
  const int chosen = k.access >= 0 && static_cast<std::size_t>(k.access) < shown.lines.size()
                         ? shown.lines[static_cast<std::size_t>(k.access)].line
                         : 0;
  const ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersInnerV;
  const std::map<int, const LineComparison*> measured = measured_lines(k);
  if (!ImGui::BeginTable("##source", 2, flags, ImGui::GetContentRegionAvail())) return;
  if (s.res.mono_font) ImGui::PushFont(s.res.mono_font);
  const int count = static_cast<int>(k.line_starts.size());
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("line", ImGuiTableColumnFlags_WidthFixed, line_column_width(k));
  ImGui::TableSetupColumn(k.name.c_str(), ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  ImGui::TableSetColumnIndex(1);
  const float width = std::max(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize());
  const float header_row = ImGui::GetTextLineHeight() + 2.0f * ImGui::GetStyle().CellPadding.y;
  const float below_header = ImGui::GetWindowHeight() - header_row;
  io.geometry.kernel_source =
      SourceGeometry{width, static_cast<int>(width / ImGui::CalcTextSize("0").x),
                     static_cast<int>(below_header / ImGui::GetTextLineHeightWithSpacing())};
  const std::vector<float>& top = row_tops(k, marks, measured, width);
  const float cell_pad = 2.0f * ImGui::GetStyle().CellPadding.y;
  if (k.scroll_to > 0 && k.scroll_to <= count) {  // the chosen line a third of the way down
    ImGui::SetScrollY(std::max(
        0.0f, top[static_cast<std::size_t>(k.scroll_to - 1)] - ImGui::GetWindowHeight() / 3.0f));
    k.scroll_to = 0;
  }
  const float scroll = ImGui::GetScrollY(), view = ImGui::GetWindowHeight();
  const auto first =
      static_cast<int>(std::upper_bound(top.begin(), top.end() - 1, scroll) - top.begin() - 1);
  const auto last =
      static_cast<int>(std::lower_bound(top.begin(), top.end() - 1, scroll + view) - top.begin());
  const int from = std::max(first, 0), to = std::min(last, count);
  if (from > 0) ImGui::TableNextRow(ImGuiTableRowFlags_None, top[static_cast<std::size_t>(from)]);
  for (int i = from; i < to; ++i) {
    const int line = i + 1;
    const float height = top[static_cast<std::size_t>(i) + 1] - top[static_cast<std::size_t>(i)];
    ImGui::TableNextRow(ImGuiTableRowFlags_None, height);
    ImGui::TableNextColumn();
    ImGui::PushID(line);
    if (ImGui::Selectable(std::to_string(line).c_str(), line == chosen,
                          ImGuiSelectableFlags_SpanAllColumns, ImVec2(0.0f, height - cell_pad)) &&
        marks.contains(line) && marks.at(line).accesses > 0) {
      show_line(s, line);
    }
    ImGui::PopID();
    ImGui::TableNextColumn();
    ImGui::TextWrapped("%s", expand_tabs(source_line(k, line)).c_str());
    if (const std::string mark = mark_text(marks, line, k.trace.has_value()); !mark.empty()) {
      const LineMark& m = marks.at(line);
      const ImU32 colour = m.accesses > 0     ? (m.excess > 0 ? p.cell_conflict : p.text_dim)
                           : m.problem->error ? p.error
                                              : p.warning;
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(colour));
      ImGui::TextWrapped("%s", mark.c_str());
      ImGui::PopStyleColor();
    }
    // The hardware's count of a traced line, red where the model differs; why, on hover.
    if (const std::string hardware = measured_text(measured, line); !hardware.empty()) {
      const LineComparison& c = *measured.at(line);
      ImGui::PushStyleColor(ImGuiCol_Text,
                            ImGui::ColorConvertU32ToFloat4(c.agrees ? p.text_dim : p.error));
      ImGui::TextWrapped("%s", hardware.c_str());
      ImGui::PopStyleColor();
      if (ImGui::IsItemHovered() && !c.explanation.empty())
        ImGui::SetTooltip("%s", c.explanation.c_str());
    }
  }
  if (to < count) {
    ImGui::TableNextRow(ImGuiTableRowFlags_None, top.back() - top[static_cast<std::size_t>(to)]);
  }
  if (s.res.mono_font) ImGui::PopFont();
  ImGui::EndTable();
}

// A scan running off the frame: the file, how long it has run, and Cancel (what was open
// stays).
void scan_progress(AppState& s) {
  const ScanWorker& worker = *s.scan_worker;
  ImGui::Text("Scanning %s... %.1f s", shown(worker.scanning(), 80).c_str(), worker.seconds());
  ImGui::SameLine();
  if (ImGui::Button("Cancel")) cancel_kernel_scan(s);
  ImGui::Separator();
}

}  // namespace

float kernel_window_width(const AppState& s, int chars) {
  if (s.res.mono_font) ImGui::PushFont(s.res.mono_font);
  const float code = static_cast<float>(chars) * ImGui::CalcTextSize("0").x;
  const float numbers = line_column_width(s.user.kernel);
  if (s.res.mono_font) ImGui::PopFont();
  // Around the two columns: the window's padding and border, the table's scroll bar, each
  // column's cell padding on both sides and the border between them.
  const ImGuiStyle& style = ImGui::GetStyle();
  return std::ceil(code + numbers + 2.0f * style.WindowPadding.x + 2.0f * style.WindowBorderSize +
                   style.ScrollbarSize + 4.0f * style.CellPadding.x + 1.0f);
}

void draw_kernel(AppState& s, Interaction& io) {
  KernelFile& k = s.user.kernel;
  if (kernel_scanning(s)) scan_progress(s);
  const KernelScan* shown = shown_kernel(s);
  if (!shown) {
    if (!kernel_scanning(s)) {
      ImGui::TextWrapped(
          "No kernel file open: File > Open kernel... scans every shared-memory "
          "access of a .cu file.");
    }
    if (!k.error.empty()) error_text(s, k.error);
    return;
  }
  header(s, *shown);
  shown = shown_kernel(s);  // a change of block or names scanned again
  if (!shown) return;
  if (!k.error.empty()) error_text(s, k.error);
  if (shown->error) {
    error_text(s, *shown->error);
  } else {
    totals(*shown, k.trace.has_value());
  }
  const float row = ImGui::GetTextLineHeightWithSpacing();
  const float rest = ImGui::GetContentRegionAvail().y;
  if (!shown->lines.empty()) {
    const float rows = static_cast<float>(shown->lines.size()) + 1.5f;
    ranking(s, *shown, std::min(rows * row, rest * 0.3f));
    const ScanLine& chosen = shown->lines[static_cast<std::size_t>(std::max(k.access, 0))];
    const float instruction_rows = static_cast<float>(chosen.instances.size()) + 1.5f;
    instructions(s, *shown, std::min(instruction_rows * row, rest * 0.15f));
  }
  source(s, *shown, io);
}

}  // namespace banklab::gui
