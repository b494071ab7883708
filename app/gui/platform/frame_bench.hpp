#pragma once
// Summaries of per-frame timings for --bench-frames.
#include <imgui.h>

#include <string>
#include <vector>

namespace banklab::gui {

struct TimingSummary {
  int count = 0;
  double mean = 0, median = 0, p95 = 0, max = 0;  // milliseconds
};

TimingSummary summarize(std::vector<double> ms);

// One ImGui draw list of the last frame: a window (or the menu bar, a popup, a tooltip) and
// what it hands the GL driver.
struct DrawListCost {
  std::string owner;  // the window's name
  int vertices = 0, indices = 0;
  int draws = 0;      // ImGui's draw commands: one glDrawElements each
  int callbacks = 0;  // our GL batches (DrawQueue): one instanced draw each
};

// What --bench-frames collects, frame by frame after the first, and prints at the end.
struct BenchRecord {
  std::string preset, renderer;
  int width = 0, height = 0;
  int vertices = 0, quads = 0, segments = 0;  // of the last frame
  int pictured = 0;  // windows the last frame drew from their pictures (window_pictures.hpp)
  std::vector<DrawListCost> lists;  // of the last frame, as ImGui drew them
  double first_frame_ms = 0, first_frame_cpu_ms = 0;
  double cpu_per_frame_ms = 0;    // process CPU time (all threads) per frame after the first
  std::vector<double> build_ms;   // CPU: ImGui frame, views, upload, GL submission
  std::vector<double> finish_ms;  // waiting for the drawing (glFinish)
  std::vector<double> swap_ms;    // presenting
  std::vector<double> wall_ms;    // the whole frame
  std::vector<double> gpu_ms;     // GL_TIME_ELAPSED

  // Times measured from the frame's start: after submission, after glFinish, after the swap.
  void add_frame(double submitted, double drawn, double presented) {
    build_ms.push_back(submitted);
    finish_ms.push_back(drawn - submitted);
    swap_ms.push_back(presented - drawn);
    wall_ms.push_back(presented);
  }
};

// Each draw list of the frame: its owner, vertices, indices, draw commands and GL batches.
std::vector<DrawListCost> draw_list_costs(const ImDrawData& draw);

std::string bench_report(const BenchRecord& r);
// "mean 4.12 ms, median 4.01, p95 5.30, max 7.90 (n = 300)"
std::string to_string(const TimingSummary& t);

}  // namespace banklab::gui
