#pragma once
// The GPU window's state and logic, without ImGui: what the device is, the runs of this session,
// the latest measurement, and the sentences the window shows about them. panels/gpu_panel.cpp draws
// it; the tests drive it with a scripted GPU.
//
//   poll()           once a frame: creates the worker and asks for the device on first use,
//                    then applies whatever results the worker posted since the last frame
//   start_run()      "Run on GPU": the transpose suite of the current dtype, then the
//                    microbenchmark of the pattern on screen and the conflict sweep
//   start_measure()  "Measure on GPU": the hardware's counters for the pattern on screen
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/frontend/gpu_recording.hpp"
#include "app/frontend/recording_text.hpp"
#include "app/gui/state/gpu_worker.hpp"
#include "app/gui/views/file_chooser.hpp"
#include "core/base/expected.hpp"
#include "core/model/analysis.hpp"
#include "core/model/scenario.hpp"

namespace banklab::gui {

// What the core predicts for the shared-memory access a transpose variant makes (its preset).
using SharedAccessCost = frontend::SharedAccessCost;

// One "Run on GPU" of this session: a row of the history table.
struct RunRecord {
  int id = 0;
  std::string started;  // local wall-clock time, "14:02:31"; a recording's UTC date and time
  // "" for a run of this session; for a run read from a recording, where and when it was made:
  // "recorded on NVIDIA H200, 2026-11-30T21:15:00Z (driver 580.159.04, BankLab e63d98cb5bb5)".
  std::string recorded;
  record::TransposeOptions options;
  std::string pattern;  // describe() of the pattern on screen when the run started
  bool pattern_included = false;
  std::string pattern_skipped;  // why the pattern on screen was not benchmarked ("" if it was)
  std::optional<record::SuiteReport> suite;       // empty until it comes back
  std::optional<record::PatternReport> patterns;  // results: the pattern (if included), the sweep
  std::vector<std::string> pattern_labels;        // a recording's label per pattern; else empty
  // Computed when the results arrive, not while drawing:
  std::vector<std::optional<SharedAccessCost>> costs;  // one per suite->results entry
  std::vector<std::string> reversal;                   // reversal_lines() of this run
};

// The latest "Measure on GPU": the prediction was computed when the button was pressed, for
// exactly the access that was measured.
struct MeasureRecord {
  int id = 0;
  Scenario scenario;    // what was on screen
  std::string pattern;  // describe() of it
  WarpAccess access;
  int predicted_wavefronts = 0;
  int predicted_ideal = 0;
  int predicted_conflicts = 0;
  bool done = false;
  std::string error;  // the whole call failed: why
  gpu::Measurement measured;
};

struct Agreement {
  enum class Status : std::uint8_t { pending, failed, agree, disagree };
  Status status = Status::pending;
  std::string message;  // both numbers when they disagree; why when the measurement failed
};
Agreement compare(const MeasureRecord& m);

inline constexpr int kMatrixSides[] = {4096, 8192, 16384};

enum class GpuTab : std::uint8_t { transpose, microbenchmark, measure, history };

struct GpuState {
  // Which GPU the worker drives (the tests script one); the worker takes a copy on its first
  // poll(), so set it before.
  GpuBackend backend = real_gpu_backend();
  std::optional<record::DeviceInfo> device;  // empty until the first query comes back
  std::optional<gpu::MeasureSupport> measure_support;
  std::vector<RunRecord> runs;  // oldest first
  int selected_run = -1;        // index in runs shown in the plots
  std::optional<MeasureRecord> measurement;
  int next_id = 1;
  int side = 16384;                   // rows = cols of the transposed matrix
  int repetitions = 20;               // timed launches per variant
  std::string refusal;                // why the last button press started nothing ("" when it did)
  std::optional<GpuTab> show_tab;     // brought to the front next frame (a job just started)
  std::unique_ptr<GpuWorker> worker;  // created by poll() on first use
  // Called on the worker's thread when it has posted a result or finished a job: the app at
  // rest draws nothing, so the worker asks for the frame that shows it. Set before poll().
  std::function<void()> wake_ui;
  FileChooser results_chooser;  // Open results... and Save results...
  std::string results_message;  // what the last open or save did, or why it failed

  bool busy() const { return worker && worker->busy(); }
  // The driver's answer (a device or why there is none) is applied and no job is running:
  // what the window shows no longer waits on the worker. busy() alone is false too early, when
  // the worker has posted its result but poll() has not taken it yet.
  bool settled() const { return device.has_value() && !busy(); }
};

void poll(GpuState& p);
void apply(GpuState& p, GpuResult result);

// Each is done when the job was started, otherwise says why not (a sentence for the UI).
Expected<void> start_run(GpuState& p, const Scenario& current);
Expected<void> start_measure(GpuState& p, const Scenario& current);
void cancel(GpuState& p);

// Whether the buttons are enabled, or why they are disabled.
Expected<void> can_run(const GpuState& p);
Expected<void> can_measure(const GpuState& p);

// ---------------------------------------------------------------------------------------------
// Recordings (gpu_recording.hpp): results measured elsewhere, drawn exactly as a live run.

// Where the shipped recordings are: data_dir() / "recordings" (assets/recordings in a source
// tree, share/banklab/recordings installed); empty when there is no data folder.
std::filesystem::path recordings_dir();
// The *.json files there, sorted by name (none when the folder is missing).
std::vector<std::filesystem::path> shipped_recordings();
// Adds one history row per dtype of the recording, labelled as recorded (device, date), and
// selects the fp32 one (the lesson's). Done, or why the file cannot be shown. When the
// driver answers that there is no usable GPU and nothing is shown yet, poll() opens the shipped
// H200 recording by itself: the window opens on real results, labelled as recorded.
Expected<void> open_recording(GpuState& p, const std::filesystem::path& file);
void show_recording(GpuState& p, const record::Recording& r);
// This session's finished live runs as a recording: every dtype's latest suite, the patterns
// of the latest run (the pattern on screen as the lesson part, the sweep). Done, or why not.
Expected<void> save_recording(const GpuState& p, const std::filesystem::path& file);

// Where the run the window plots was measured: the recording's "recorded on ..." line,
// "measured here" for a run of this session, "" when none is selected (--geometry's gpu_run).
std::string shown_run(const GpuState& p);

// Why there is no GPU, in words for people rather than the CUDA call's error name: "the NVIDIA
// driver is older than this build's CUDA 13 runtime needs: update the driver".
std::string no_gpu_in_words(const record::DeviceInfo& d);

// A number with a fixed count of decimals, as the panel prints its figures: fixed(3.14159, 2)
// is "3.14".
std::string fixed(double value, int decimals);

// The lesson's reversal condition (core's reversal_lines()), with this run's numbers where it
// has them; the lesson's figures for a run that has none (RunRecord{}).
std::vector<std::string> reversal_lines(const RunRecord& run);

}  // namespace banklab::gui
