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
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "app/gui/panels/panels.hpp"
#include "app/gui/state/kernel_state.hpp"
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

// A trace's launch: what ran where, and where the measured counts came from.
void trace_header(const gpu::Trace& t, const KernelFile& k) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
  ImGui::TextWrapped("traced: %s, launch %lld of %s, grid %dx%dx%d, block %dx%dx%d",
                     t.kernel.c_str(), static_cast<long long>(t.launch), t.program.c_str(),
                     t.grid[0], t.grid[1], t.grid[2], t.block[0], t.block[1], t.block[2]);
  ImGui::TextWrapped("on %s, driver %s, %s; %zu of %lld warp-instructions recorded",
                     t.device.c_str(), t.driver.c_str(), t.created_utc.c_str(), t.accesses.size(),
                     static_cast<long long>(t.executed));
  if (k.measured) {
    ImGui::TextWrapped("measured: %s; %d of %d lines agree with the model", t.measured_by.c_str(),
                       k.measured->agreeing_lines(), k.measured->evaluated_lines());
  } else {
    ImGui::TextWrapped("measured: %s", k.not_measured.c_str());
  }
  ImGui::PopStyleColor();
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
      rescan_kernel(s);
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
void draw_source_text(std::string_view code) {
  if (code.find('\t') == std::string_view::npos) {
    ImGui::TextUnformatted(code.data(), code.data() + code.size());
    return;
  }
  std::string expanded;
  for (char c : code) {
    if (c != '\t') {
      expanded += c;
      continue;
    }
    do expanded += ' ';
    while (expanded.size() % 4 != 0);
  }
  ImGui::TextUnformatted(expanded.c_str());
}

// A trace's measured lines by number.
std::map<int, const LineComparison*> measured_lines(const KernelFile& k) {
  std::map<int, const LineComparison*> lines;
  if (k.measured)
    for (const LineComparison& c : k.measured->lines) lines[c.line] = &c;
  return lines;
}

// The hardware's wavefronts on a line, in the conflict colour where the model differs.
void measured_cell(const AppState& s, const LineComparison& c) {
  if (c.measured_wavefronts == 0 && c.predicted_wavefronts == 0) return;
  if (c.agrees) {
    ImGui::TextDisabled("%lld, agrees", static_cast<long long>(c.measured_wavefronts));
  } else {
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(colours(s).error), "%lld, differs",
                       static_cast<long long>(c.measured_wavefronts));
  }
  if (ImGui::IsItemHovered() && !c.explanation.empty())
    ImGui::SetTooltip("%s", c.explanation.c_str());
}

// The source, one row a line: its number, what the scan found there, the code.
void source(AppState& s, const KernelScan& shown) {
  KernelFile& k = s.user.kernel;
  const std::map<int, LineMark> marks = line_marks(shown);
  const Palette& p = colours(s);
  const int chosen = k.access >= 0 && static_cast<std::size_t>(k.access) < shown.lines.size()
                         ? shown.lines[static_cast<std::size_t>(k.access)].line
                         : 0;
  const ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX |
                                ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
  const std::map<int, const LineComparison*> measured = measured_lines(k);
  const bool hardware = k.measured.has_value();
  if (!ImGui::BeginTable("##source", hardware ? 4 : 3, flags, ImGui::GetContentRegionAvail()))
    return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("line");
  ImGui::TableSetupColumn(k.trace ? "traced: n-way, excess" : "n-way, excess");
  if (hardware) ImGui::TableSetupColumn("measured");
  ImGui::TableSetupColumn(k.name.c_str());
  ImGui::TableHeadersRow();
  if (s.res.mono_font) ImGui::PushFont(s.res.mono_font);
  const int count = static_cast<int>(k.line_starts.size());
  const float row = ImGui::GetTextLineHeightWithSpacing();
  if (k.scroll_to > 0) {  // the chosen line a third of the way down
    ImGui::SetScrollY(std::max(
        0.0f, row * static_cast<float>(k.scroll_to - 1) - ImGui::GetWindowHeight() / 3.0f));
    k.scroll_to = 0;
  }
  ImGuiListClipper clipper;
  clipper.Begin(count);
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const int line = i + 1;
      const auto m = marks.find(line);
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::PushID(line);
      if (ImGui::Selectable(std::to_string(line).c_str(), line == chosen,
                            ImGuiSelectableFlags_SpanAllColumns) &&
          m != marks.end() && m->second.accesses > 0) {
        show_line(s, line);
      }
      ImGui::PopID();
      ImGui::TableNextColumn();
      if (m != marks.end() && m->second.accesses > 0) {
        const LineMark& mark = m->second;
        if (mark.excess > 0) {
          ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(p.cell_conflict), "%d-way +%lld",
                             mark.worst_ways, static_cast<long long>(mark.excess));
        } else {
          ImGui::TextDisabled("%d-way", mark.worst_ways);
        }
      } else if (m != marks.end() && m->second.problem) {
        const ScanProblem& problem = *m->second.problem;
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(problem.error ? p.error : p.warning),
                           problem.error ? "error" : "not evaluated");
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", problem.reason.c_str());
      }
      if (hardware) {
        ImGui::TableNextColumn();
        if (const auto c = measured.find(line); c != measured.end()) measured_cell(s, *c->second);
      }
      ImGui::TableNextColumn();
      draw_source_text(source_line(k, line));
    }
  }
  if (s.res.mono_font) ImGui::PopFont();
  ImGui::EndTable();
}

}  // namespace

void draw_kernel(AppState& s, Interaction&) {
  KernelFile& k = s.user.kernel;
  const KernelScan* shown = shown_kernel(s);
  if (!shown) {
    ImGui::TextWrapped(
        "No kernel file open: File > Open kernel... scans every shared-memory "
        "access of a .cu file.");
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
    instructions(s, *shown, std::min(instruction_rows * row, rest * 0.2f));
  }
  source(s, *shown);
}

}  // namespace banklab::gui
