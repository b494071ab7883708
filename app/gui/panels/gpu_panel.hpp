#pragma once
// The GPU window: the device or why there is none, "Run on GPU" (transpose bandwidth against the
// copy roof, microbenchmark time against predicted wavefronts, the runs of this session) and
// "Measure on GPU" (predicted against counted wavefronts). Drawing only; the state and logic
// are in gpu_state.hpp, and nothing here waits on the GPU.
#include "app/gui/render/palette.hpp"
#include "app/gui/state/gpu_state.hpp"
#include "core/model/scenario.hpp"

namespace banklab::gui {

// The plots' colours. Red and green say what they say in the views (a shared-memory read with
// or without a conflict); the kernels that are not the lesson's, the copy and the sweep's
// points in greys that mean nothing else in BankLab (blue is a broadcast there, purple a phase
// boundary); the pattern on screen in the colour that outlines the access on screen.
struct PlotColours {
  ImU32 roof, fast, library, conflict, free;  // the transpose bars
  ImU32 on_screen, sweep;                     // the microbenchmark's points
};
PlotColours plot_colours(const Palette& c);

// Applies the results the worker posted (poll()), then draws the panel for the pattern on screen.
void draw_gpu(GpuState& panel, const Scenario& current, const Palette& colours);

}  // namespace banklab::gui
