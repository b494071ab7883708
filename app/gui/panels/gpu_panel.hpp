#pragma once
// The GPU window: the device or why there is none, "Run on GPU" (transpose bandwidth against the
// copy roof, microbenchmark time against predicted wavefronts, the runs of this session) and
// "Measure on GPU" (predicted against counted wavefronts). Drawing only; the state and logic
// are in gpu_state.hpp, and nothing here waits on the GPU.
#include "app/gui/render/palette.hpp"
#include "app/gui/state/gpu_state.hpp"
#include "core/model/scenario.hpp"

namespace banklab::gui {

// Applies the results the worker posted (poll()), then draws the panel for the pattern on screen.
void draw_gpu(GpuPanel& panel, const Scenario& current, const Palette& colours);

}  // namespace banklab::gui
