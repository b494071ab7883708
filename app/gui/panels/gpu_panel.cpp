// The GPU window.
//
//   device_section      the GPU, or its state (no driver / no device / not built / error)
//   results_section     the shipped recordings, Open results and Save results
//   controls            matrix size, repetitions, the two buttons, progress and Cancel
//   transpose_tab       bandwidth bars against the copy roof, the table, the reversal condition
//   microbench_tab      SM clocks per access against predicted wavefronts, with the ideal line
//   measure_tab         predicted and counted wavefronts side by side, disagreement in red
//   history_tab         the runs of this session: every kernel's share of its copy roof, a table
//
// [SECTION] Small widgets
// [SECTION] Device, results and controls
// [SECTION] The transpose tab
// [SECTION] The microbenchmark tab
// [SECTION] The measure tab
// [SECTION] The history tab
// [SECTION] The window
#include "app/gui/panels/gpu_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <utility>

#include "app/gui/views/plot.hpp"
#include "app/gui/views/widgets.hpp"

namespace banklab::gui {
namespace {

// [SECTION] Small widgets

void text_coloured(ImU32 colour, const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(colour));
  ImGui::TextWrapped("%s", text.c_str());
  ImGui::PopStyleColor();
}

// A full-width filled box with wrapped text: the panel's loud messages.
void banner(ImU32 fill, ImU32 ink, const std::string& text) {
  const ImVec2 pad = ImGui::GetStyle().FramePadding;
  const float width = ImGui::GetContentRegionAvail().x;
  const float wrap = std::max(width - 2.0f * pad.x, 1.0f);
  const ImVec2 size = ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const ImVec2 end(at.x + width, at.y + size.y + 2.0f * pad.y);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(at, end, fill, ImGui::GetStyle().FrameRounding);
  dl->AddText(nullptr, 0.0f, ImVec2(at.x + pad.x, at.y + pad.y), ink, text.c_str(), nullptr, wrap);
  ImGui::Dummy(ImVec2(width, end.y - at.y));
}

// The panel's tables: striped rows, column lines, a header row. False when clipped away.
bool begin_table(const char* id, std::initializer_list<const char*> headers) {
  constexpr ImGuiTableFlags kFlags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable(id, static_cast<int>(headers.size()), kFlags)) return false;
  for (const char* h : headers) ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  return true;
}

void tooltip_on_hover(const std::string& text) {
  if (!text.empty() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::SetTooltip("%s", text.c_str());
  }
}

// [SECTION] Device, results and controls

void device_section(const GpuState& p, const Palette& c) {
  if (!p.device) {
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(c.text_dim),
                       "Asking the driver which GPU is there...");
    return;
  }
  const record::DeviceInfo& d = *p.device;
  if (d.ok()) {
    ImGui::TextWrapped("Device %d: %s", d.ordinal, device_summary(d).c_str());
    if (p.measure_support && !p.measure_support->ok) {
      text_coloured(c.warning, "Measure on GPU is not possible here: " + p.measure_support->reason);
    }
    return;
  }
  banner(c.warning, c.background,
         "No GPU to run on: " + no_gpu_in_words(d) +
             ". Everything else in BankLab works without one: the bank model is exact, and the "
             "GPU is only there to confirm it.");
  if (!d.detail.empty() && ImGui::TreeNode("##gpu-detail", "What the driver said")) {
    text_coloured(c.text_dim, d.detail);
    if (p.measure_support && !p.measure_support->reason.empty() &&
        p.measure_support->reason != d.detail) {
      text_coloured(c.text_dim, "Measuring: " + p.measure_support->reason);
    }
    ImGui::TreePop();
  }
}

// Recorded results: without a GPU, the shipped recordings first; with one, a live run can be
// saved. Any recording opens from a path.
void results_section(GpuState& p, const Palette& c) {
  const bool live = p.device && p.device->ok();
  if (!live) {
    ImGui::TextDisabled("Recorded on a real GPU by 'banklab gpu-bench --record':");
    for (const std::filesystem::path& file : shipped_recordings()) {
      const std::string label = "Show " + file.stem().string();
      if (ImGui::Button(label.c_str())) {
        const Expected<void> shown = open_recording(p, file);
        p.results_message = shown ? "showing " + file.filename().string() : shown.error();
      }
      tooltip_on_hover(file.string());
      ImGui::SameLine();
    }
  }
  FileChooser& chooser = p.results_chooser;
  if (ImGui::Button("Open results...")) {
    chooser.open(FileChooser::Mode::open, "Open results", ".json", start_folder(""), "");
  }
  tooltip_on_hover("A recording made by 'banklab gpu-bench --record' or saved here");
  if (live) {
    ImGui::SameLine();
    const bool any = std::any_of(p.runs.begin(), p.runs.end(), [](const RunRecord& r) {
      return r.recorded.empty() && r.suite && r.suite->ok();
    });
    ImGui::BeginDisabled(!any || p.busy());
    if (ImGui::Button("Save results...")) {
      chooser.open(FileChooser::Mode::save, "Save results", ".json", start_folder(""),
                   "banklab-gpu.json");
    }
    ImGui::EndDisabled();
    tooltip_on_hover(
        "Writes this session's finished runs as a recording, which 'banklab "
        "gpu-bench --replay' prints and this window shows on any machine.");
  }
  if (const std::optional<std::filesystem::path> chosen = draw_file_chooser(chooser, c.error)) {
    const std::string path = chosen->string();
    if (chooser.mode == FileChooser::Mode::open) {
      const Expected<void> shown = open_recording(p, *chosen);
      p.results_message = shown ? "showing " + path : shown.error();
    } else {
      const Expected<void> saved = save_recording(p, *chosen);
      p.results_message = saved ? "saved this session's runs to " + path : saved.error();
    }
  }
  if (!p.results_message.empty()) text_coloured(c.text_dim, p.results_message);
}

// What the window says after a button press: nothing when the job started, else why not.
void note_refusal(GpuState& p, const Expected<void>& started) {
  p.refusal = started ? std::string() : started.error();
}

void controls(GpuState& p, const Scenario& current, const Palette& c) {
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
  if (ImGui::BeginCombo("matrix side", std::to_string(p.side).c_str())) {
    for (const int side : kMatrixSides) {
      if (ImGui::Selectable(std::to_string(side).c_str(), side == p.side)) p.side = side;
    }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
  ImGui::SliderInt("repetitions", &p.repetitions, 5, 100, "%d", ImGuiSliderFlags_AlwaysClamp);
  ImGui::SameLine();

  const Expected<void> runnable = can_run(p);
  ImGui::BeginDisabled(!runnable);
  if (ImGui::Button("Run on GPU")) note_refusal(p, start_run(p, current));
  ImGui::EndDisabled();
  tooltip_on_hover(runnable ? "Times the transpose kernels of this dtype against a copy of the "
                              "same bytes, and replays the pattern on screen in a loop bound by "
                              "shared memory."
                            : runnable.error());
  ImGui::SameLine();
  const Expected<void> measurable = can_measure(p);
  ImGui::BeginDisabled(!measurable);
  if (ImGui::Button("Measure on GPU")) note_refusal(p, start_measure(p, current));
  ImGui::EndDisabled();
  tooltip_on_hover(measurable ? "Runs the pattern on screen as one warp instruction and reads "
                                "the hardware's wavefront counters."
                              : measurable.error());

  if (p.busy()) {
    const JobProgress progress = p.worker->progress();
    std::string overlay = progress.job + ": " + progress.stage;
    if (progress.step.steps > 0) {
      overlay.append(" ").append(std::to_string(progress.step.step)).append("/");
      overlay.append(std::to_string(progress.step.steps)).append(" ").append(progress.step.what);
    }
    const bool stopping = p.worker->cancelling();
    if (stopping) overlay += " (cancelling after this launch)";
    ImGui::ProgressBar(static_cast<float>(progress.fraction()),
                       ImVec2(-ImGui::GetFontSize() * 6.0f, 0.0f), overlay.c_str());
    ImGui::SameLine();
    ImGui::BeginDisabled(stopping);
    if (ImGui::Button("Cancel")) cancel(p);
    ImGui::EndDisabled();
  }
  if (!p.refusal.empty()) text_coloured(c.error, p.refusal);
}

// [SECTION] The transpose tab

ImU32 bar_colour(const RunRecord& run, std::size_t i, const Palette& c) {
  const PlotColours k = plot_colours(c);
  const record::VariantResult& r = run.suite->results[i];
  if (r.role == record::VariantRole::roof) return k.roof;
  if (r.role == record::VariantRole::fast) return k.fast;
  if (r.role == record::VariantRole::library) return k.library;
  const auto& cost = run.costs[i];
  if (!cost) return k.library;
  return cost->ways > 1 ? k.conflict : k.free;
}

// A row of swatches and their words under a plot.
void legend(std::initializer_list<std::pair<ImU32, const char*>> items) {
  const float box = std::floor(ImGui::GetFontSize() * 0.8f);
  bool first = true;
  for (const auto& [colour, text] : items) {
    if (!first) same_line_if_fits(text);
    first = false;
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float top = at.y + std::floor((ImGui::GetTextLineHeight() - box) * 0.5f);
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(at.x, top), ImVec2(at.x + box, top + box),
                                              colour);
    ImGui::Dummy(ImVec2(box, ImGui::GetTextLineHeight()));
    ImGui::SameLine();
    ImGui::TextUnformatted(text);
  }
}

void bandwidth_legend(const Palette& c) {
  const PlotColours k = plot_colours(c);
  legend({{k.free, "lesson kernel, conflict-free read"},
          {k.conflict, "lesson kernel, conflicted read"},
          {k.fast, "fast kernel"},
          {k.library, "library (cuBLAS geam)"},
          {k.roof, "copy of the same bytes (the roof)"},
          {c.ideal_line, "copy roof line"}});
}

std::string cost_text(const std::optional<SharedAccessCost>& cost) {
  if (!cost) return "-";
  return std::to_string(cost->ways) + "-way, " + std::to_string(cost->wavefronts) + " wf (ideal " +
         std::to_string(cost->ideal) + ")";
}

void run_status(const std::string& what, record::RunStatus status, const std::string& error,
                const Palette& c) {
  if (status == record::RunStatus::ok) return;
  banner(
      status == record::RunStatus::cancelled ? c.warning : c.error, c.background,
      what + " " + std::string(record::status_name(status)) + (error.empty() ? "" : ": " + error));
}

void bandwidth_plot(const RunRecord& run, const Palette& c) {
  const record::SuiteReport& suite = *run.suite;
  Axis x{"GB/s (bytes read + written, median launch)", 0.0, 1.0, {}};
  Axis y{"variant", 0.0, 1.0, {}};
  double top = 1.0;
  double copy = 0.0;
  for (const record::VariantResult& r : suite.results) {
    y.categories.push_back(r.name);
    if (r.verified) top = std::max(top, r.gbps);
    if (r.role == record::VariantRole::roof && r.verified) copy = r.gbps;
  }
  x.hi = round_up_to_tick(top * 1.08, 11);
  const float height = ImGui::GetTextLineHeightWithSpacing() *
                       (static_cast<float>(suite.results.size()) * 1.4f + 4.0f);
  Plot plot("##bandwidth", ImVec2(0.0f, height), std::move(x), std::move(y), c);
  for (std::size_t i = 0; i < suite.results.size(); ++i) {
    const record::VariantResult& r = suite.results[i];
    const int row = static_cast<int>(i);
    if (!r.verified) {
      // A wrong result is not a bandwidth: no bar, only the label that says why.
      plot.bar_label(row, 0.0, "WRONG (not plotted): " + r.detail, c.error);
      continue;
    }
    std::string tip = r.name + " (" + r.tile + ")\n" + fixed(r.gbps, 0) + " GB/s, " +
                      fixed(100 * r.fraction_of_copy, 1) + "% of copy\nmedian " + fixed(r.ms, 3) +
                      " ms (" + fixed(r.ms_min, 3) + " .. " + fixed(r.ms_max, 3) +
                      ")\nshared-memory read: " + cost_text(run.costs[i]) + "\n" + r.lesson;
    plot.bar(row, r.gbps, bar_colour(run, i, c), std::move(tip));
    plot.bar_label(row, r.gbps, fixed(100 * r.fraction_of_copy, 0) + "%", c.text);
  }
  if (copy > 0) plot.vertical_line(copy, c.ideal_line, "copy roof " + fixed(copy, 0) + " GB/s");
  plot.finish();
  bandwidth_legend(c);
}

void transpose_table(const RunRecord& run, const Palette& c) {
  const record::SuiteReport& suite = *run.suite;
  if (!begin_table("##variants", {"variant", "shared tile", "shared read", "ms", "GB/s", "of copy",
                                  "verified"})) {
    return;
  }
  for (std::size_t i = 0; i < suite.results.size(); ++i) {
    const record::VariantResult& r = suite.results[i];
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.name.c_str());
    tooltip_on_hover(std::string(record::role_name(r.role)) + ": " + r.lesson);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.tile.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(cost_text(run.costs[i]).c_str());
    if (!r.verified) {
      ImGui::TableNextColumn();
      ImGui::TableNextColumn();
      ImGui::TableNextColumn();
      ImGui::TableNextColumn();
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(c.error), "WRONG");
      tooltip_on_hover(r.detail);
      continue;
    }
    ImGui::TableNextColumn();
    ImGui::Text("%.3f", r.ms);
    ImGui::TableNextColumn();
    ImGui::Text("%.0f", r.gbps);
    ImGui::TableNextColumn();
    ImGui::Text("%.1f%%", 100 * r.fraction_of_copy);
    ImGui::TableNextColumn();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(c.text_ok), "yes");
  }
  ImGui::EndTable();
}

void transpose_tab(const GpuState& p, const Palette& c) {
  if (p.selected_run < 0) {
    ImGui::TextWrapped(
        "No run yet. Run on GPU times every transpose kernel of the tile's dtype "
        "(and cuBLAS's geam for fp32 and fp64) against a device-to-device copy "
        "of the same bytes (the HBM roof), in one run, each result verified "
        "against the CPU.");
    for (const std::string& line : reversal_lines(RunRecord{}))
      ImGui::TextWrapped("%s", line.c_str());
    return;
  }
  const RunRecord& run = p.runs[p.selected_run];
  if (!run.suite) {
    ImGui::TextDisabled("Run %d: the transpose suite is running...", run.id);
    return;
  }
  const record::SuiteReport& suite = *run.suite;
  if (!run.recorded.empty())
    banner(c.note, c.background, "Recorded, not measured here: " + run.recorded);
  run_status("The transpose suite:", suite.status, suite.error, c);
  if (suite.results.empty()) return;
  // The two numbers first: the bytes every variant moves, and the roof they are measured against.
  const record::VariantResult& roof = suite.results.front();
  std::string header =
      "Run " + std::to_string(run.id) + ", " + std::string(dtype_name(suite.options.dtype)) + ", " +
      std::to_string(suite.options.rows) + " x " + std::to_string(suite.options.cols) + ", pad " +
      std::to_string(suite.options.pad) + ": " + fixed(double(roof.bytes_moved) / 1e9, 2) +
      " GB moved per variant (read once, written once). Roof: " + roof.name + " at " +
      fixed(roof.gbps, 0) + " GB/s.";
  if (suite.sm_clock_mhz > 0) {
    header += " SM clock during the run: " + fixed(suite.sm_clock_mhz, 0) + " MHz.";
  }
  ImGui::TextWrapped("%s", header.c_str());
  bandwidth_plot(run, c);
  transpose_table(run, c);
  for (const std::string& note : suite.notes) ImGui::TextDisabled("%s", note.c_str());
  ImGui::Separator();
  for (const std::string& line : run.reversal) ImGui::TextWrapped("%s", line.c_str());
}

// [SECTION] The microbenchmark tab

void microbench_plot(const RunRecord& run, const Palette& c) {
  const auto& results = run.patterns->results;
  double x_top = 1.0, y_top = 1.0;
  for (const record::PatternResult& r : results) {
    if (!r.verified) continue;
    x_top = std::max(x_top, double(r.predicted_wavefronts));
    y_top = std::max(y_top, r.cycles_per_access);
  }
  x_top = round_up_to_tick(x_top * 1.05, 8);
  y_top = round_up_to_tick(std::max(y_top, x_top) * 1.05, 6);
  Plot plot("##microbench", ImVec2(0.0f, ImGui::GetTextLineHeightWithSpacing() * 16.0f),
            Axis{"predicted wavefronts (banklab::analyze)", 0.0, x_top, {}},
            Axis{"SM clocks per warp access", 0.0, y_top, {}}, c);
  plot.line(0.0, 0.0, x_top, x_top, c.ideal_line, 2.0f,
            "ideal: one wavefront per clock per SM (clocks = wavefronts)");
  // Backwards, so that the pattern on screen (the first result) is drawn on top of the sweep.
  for (std::size_t i = results.size(); i-- > 0;) {
    const record::PatternResult& r = results[i];
    if (!r.verified) continue;  // listed as wrong in the table, never plotted
    const bool on_screen = run.pattern_included && i == 0;
    const std::string tip = (on_screen ? "the pattern on screen: " + run.pattern + "\n" : "") +
                            to_string(r.access) + "\n" + std::to_string(r.predicted_wavefronts) +
                            " wavefronts predicted, " + fixed(r.cycles_per_access, 2) +
                            " clocks measured (" + fixed(r.ns_per_access, 2) + " ns)\n" +
                            fixed(r.measured_ratio, 2) + "x the conflict-free time, predicted " +
                            fixed(r.predicted_ratio, 2) + "x";
    const PlotColours k = plot_colours(c);
    plot.point(r.predicted_wavefronts, r.cycles_per_access, on_screen ? k.on_screen : k.sweep,
               on_screen ? 6.0f : 4.5f, tip);
  }
  plot.finish();
  const PlotColours k = plot_colours(c);
  legend({{k.on_screen, "the pattern on screen"},
          {k.sweep, "column reads, 1- to 32-way"},
          {c.ideal_line, "ideal: clocks = wavefronts"}});
}

void microbench_tab(const GpuState& p, const Palette& c) {
  if (p.selected_run < 0) {
    ImGui::TextWrapped(
        "No run yet. Run on GPU replays the pattern on screen, and a column read "
        "of float tile[32][S] for S = 33, 34, 36, 40, 48, 32 (1- to 32-way), in "
        "a loop bound by shared memory: its time should grow in a straight line "
        "with the predicted wavefronts.");
    return;
  }
  const RunRecord& run = p.runs[p.selected_run];
  if (!run.pattern_skipped.empty()) {
    text_coloured(c.warning, "The pattern on screen was left out: " + run.pattern_skipped);
  }
  if (!run.patterns) {
    ImGui::TextDisabled("Run %d: waiting for the microbenchmark...", run.id);
    return;
  }
  const record::PatternReport& report = *run.patterns;
  if (!run.recorded.empty())
    banner(c.note, c.background, "Recorded, not measured here: " + run.recorded);
  run_status("The microbenchmark:", report.status, report.error, c);
  if (report.results.empty()) return;
  if (report.sm_clock_mhz > 0)
    ImGui::Text("SM clock during the run: %.0f MHz", report.sm_clock_mhz);
  microbench_plot(run, c);
  if (!begin_table("##patterns", {"access", "predicted", "clocks", "wavefronts/clock", "measured x",
                                  "predicted x"})) {
    return;
  }
  for (std::size_t i = 0; i < report.results.size(); ++i) {
    const record::PatternResult& r = report.results[i];
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    const bool on_screen = run.pattern_included && i == 0;
    const std::string name =
        i < run.pattern_labels.size()
            ? run.pattern_labels[i]
            : (on_screen ? "on screen"
                         : "sweep, " + std::to_string(r.predicted_wavefronts) + "-way");
    ImGui::TextUnformatted(name.c_str());
    tooltip_on_hover(to_string(r.access));
    ImGui::TableNextColumn();
    ImGui::Text("%d (ideal %d)", r.predicted_wavefronts, r.baseline_wavefronts);
    ImGui::TableNextColumn();
    if (!r.verified) {
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(c.error), "WRONG");
      tooltip_on_hover(r.detail);
      continue;
    }
    ImGui::Text("%.2f", r.cycles_per_access);
    ImGui::TableNextColumn();
    ImGui::Text("%.2f", r.wavefronts_per_clock);
    ImGui::TableNextColumn();
    ImGui::Text("%.2f", r.measured_ratio);
    ImGui::TableNextColumn();
    ImGui::Text("%.2f", r.predicted_ratio);
  }
  ImGui::EndTable();
}

// [SECTION] The measure tab

void measure_tab(const GpuState& p, const Scenario& current, const Palette& c) {
  if (!p.measurement) {
    ImGui::TextWrapped(
        "Measure on GPU runs the pattern on screen as exactly one warp-wide "
        "instruction and reads the L1TEX wavefront and bank-conflict counters "
        "for it, to set beside what the model predicts.");
    return;
  }
  const MeasureRecord& m = *p.measurement;
  ImGui::TextWrapped("Measured: %s", m.pattern.c_str());
  if (!(m.scenario == current)) {
    text_coloured(c.text_dim, "(the pattern on screen has changed since)");
  }
  const Agreement agreement = compare(m);
  switch (agreement.status) {
    case Agreement::Status::pending:
      ImGui::TextDisabled("measuring...");
      break;
    case Agreement::Status::failed:
      banner(c.warning, c.background, agreement.message);
      break;
    case Agreement::Status::disagree:
      banner(c.error, c.background, agreement.message);
      break;
    case Agreement::Status::agree:
      banner(c.text_ok, c.background, agreement.message);
      break;
  }
  if (!begin_table("##measure", {"", "predicted (model)", "measured (hardware)"})) return;
  const bool counted = m.done && m.error.empty() && m.measured.ok;
  const auto row = [&](const char* what, std::int64_t predicted, std::int64_t measured) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(what);
    ImGui::TableNextColumn();
    ImGui::Text("%lld", static_cast<long long>(predicted));
    ImGui::TableNextColumn();
    if (!counted) {
      ImGui::TextDisabled("-");
    } else if (measured != predicted) {
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(c.error), "%lld  <- differs",
                         static_cast<long long>(measured));
    } else {
      ImGui::Text("%lld", static_cast<long long>(measured));
    }
  };
  row("wavefronts", m.predicted_wavefronts, m.measured.wavefronts);
  row("bank conflicts", m.predicted_conflicts, m.measured.bank_conflicts);
  row("instructions", 1, m.measured.instructions);
  ImGui::EndTable();
  ImGui::TextDisabled("ideal (phases with an active lane): %d", m.predicted_ideal);
}

// [SECTION] The history tab

std::string history_status(const RunRecord& run) {
  if (!run.suite) return "running";
  std::string text(record::status_name(run.suite->status));
  if (!run.recorded.empty()) text += ", recorded";
  if (run.patterns && run.patterns->status != run.suite->status) {
    text += " / " + std::string(record::status_name(run.patterns->status));
  }
  return text;
}

// Every verified kernel of every run as a point at its fraction of the same run's copy.
void runs_plot(const GpuState& p, const Palette& c) {
  Axis x{"% of the same run's copy roof", 0.0, 100.0, {}};
  Axis y{"run", 0.0, 1.0, {}};
  double top = 100.0;
  for (const RunRecord& run : p.runs) {
    y.categories.push_back("run " + std::to_string(run.id) + ", " +
                           std::string(dtype_name(run.options.dtype)) + ", " +
                           std::to_string(run.options.rows));
    if (!run.suite) continue;
    for (const record::VariantResult& r : run.suite->results) {
      if (r.verified) top = std::max(top, 100 * r.fraction_of_copy);
    }
  }
  x.hi = round_up_to_tick(top * 1.05, 11);
  const float height =
      ImGui::GetTextLineHeightWithSpacing() * (static_cast<float>(p.runs.size()) * 1.6f + 4.0f);
  Plot plot("##runs", ImVec2(0.0f, height), std::move(x), std::move(y), c);
  plot.vertical_line(100.0, c.ideal_line, "copy roof");
  for (std::size_t row = 0; row < p.runs.size(); ++row) {
    const RunRecord& run = p.runs[row];
    if (!run.suite) continue;
    for (std::size_t i = 0; i < run.suite->results.size(); ++i) {
      const record::VariantResult& r = run.suite->results[i];
      if (!r.verified || r.role == record::VariantRole::roof) continue;
      plot.point(100 * r.fraction_of_copy, static_cast<double>(row), bar_colour(run, i, c), 4.5f,
                 r.name + ": " + fixed(100 * r.fraction_of_copy, 1) + "% of copy, " +
                     fixed(r.gbps, 0) + " GB/s");
    }
  }
  plot.finish();
  bandwidth_legend(c);
}

void history_tab(GpuState& p, const Palette& c) {
  if (p.runs.empty()) {
    ImGui::TextDisabled("The runs of this session will be listed here.");
    return;
  }
  runs_plot(p, c);
  if (!begin_table("##history",
                   {"run", "time", "dtype", "side", "copy GB/s", "best of copy", "status"})) {
    return;
  }
  for (std::size_t i = 0; i < p.runs.size(); ++i) {
    const RunRecord& run = p.runs[i];
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    const std::string label = std::to_string(run.id) + "##run";
    if (ImGui::Selectable(label.c_str(), p.selected_run == static_cast<int>(i),
                          ImGuiSelectableFlags_SpanAllColumns)) {
      p.selected_run = static_cast<int>(i);
    }
    tooltip_on_hover(run.recorded.empty() ? "pattern: " + run.pattern : run.recorded);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(run.started.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(std::string(dtype_name(run.options.dtype)).c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%d", run.options.rows);
    const record::VariantResult* roof = nullptr;
    const record::VariantResult* best = nullptr;
    if (run.suite) {
      for (const record::VariantResult& r : run.suite->results) {
        if (!r.verified) continue;
        if (r.role == record::VariantRole::roof)
          roof = &r;
        else if (!best || r.gbps > best->gbps)
          best = &r;
      }
    }
    ImGui::TableNextColumn();
    if (roof) ImGui::Text("%.0f", roof->gbps);
    ImGui::TableNextColumn();
    if (best) ImGui::Text("%.1f%% %s", 100 * best->fraction_of_copy, best->name.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(history_status(run).c_str());
  }
  ImGui::EndTable();
}

}  // namespace

// [SECTION] The window

PlotColours plot_colours(const Palette& c) {
  return PlotColours{with_alpha(c.text_dim, 0.6f),
                     with_alpha(c.text, 0.85f),
                     with_alpha(c.text, 0.5f),
                     c.cell_conflict,
                     c.cell_served,
                     c.highlight,
                     with_alpha(c.text_dim, 0.9f)};
}

void draw_gpu(GpuState& panel, const Scenario& current, const Palette& colours) {
  poll(panel);
  device_section(panel, colours);
  results_section(panel, colours);
  ImGui::Separator();
  controls(panel, current, colours);
  if (!ImGui::BeginTabBar("##gpu")) return;
  const auto tab = [&](const char* label, GpuTab which) {
    const bool front = panel.show_tab == which;
    return ImGui::BeginTabItem(label, nullptr, front ? ImGuiTabItemFlags_SetSelected : 0);
  };
  if (tab("Transpose", GpuTab::transpose)) {
    transpose_tab(panel, colours);
    ImGui::EndTabItem();
  }
  if (tab("Microbenchmark", GpuTab::microbenchmark)) {
    microbench_tab(panel, colours);
    ImGui::EndTabItem();
  }
  if (tab("Measure", GpuTab::measure)) {
    measure_tab(panel, current, colours);
    ImGui::EndTabItem();
  }
  if (tab("History", GpuTab::history)) {
    history_tab(panel, colours);
    ImGui::EndTabItem();
  }
  ImGui::EndTabBar();
  panel.show_tab.reset();
}

}  // namespace banklab::gui
