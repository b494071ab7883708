#pragma once
// The code box: the access typed as CUDA code (a __shared__ declaration and one access, the
// grammar of core/code/kernel_code.hpp), evaluated by core for the chosen block, warp and names.
// Whenever the text or a parameter changes (never per frame), apply_code() evaluates it; a
// valid code becomes the scenario on screen (its 32 offsets as a raw scenario, its array as
// the tile), so every view follows what is typed. An invalid code keeps the last valid scenario
// and shows the error, located by line and column, under the box.
#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "core/code/kernel_code.hpp"
#include "core/model/hardware.hpp"
#include "core/report/study.hpp"

namespace banklab::gui {

struct AppState;

struct CodeBox {
  // The declaration and the access, one or more lines; until the user edits it, the transpose.
  std::string text = "__shared__ float tile[32][33];\ntile[threadIdx.x][threadIdx.y + j]";
  std::string lets = "j=0";  // the names the code does not define
  std::array<int, 3> block = {32, 8, 1};
  int warp = 0;  // kAllWarps: every warp, the worst one shown
  std::int64_t extern_bytes = kMaxSharedPerBlockBytes;  // an extern __shared__ array's size
  std::optional<KernelCode> code;                       // the last valid evaluation
  // The scenario the box was filled for or the code gives: while it is the one on screen the
  // Code window shows the box, else the scenario's code read-only (code_panel.cpp).
  Scenario stands_for;
  std::string error;              // "" when the text is valid: the message, the line, a caret
  int error_line = 0;             // the error's 1-based line in the text (0: the whole code)
  std::uint64_t evaluations = 0;  // how many times apply_code() ran (on changes only)
  bool focus = false;             // give the box the keyboard next frame
  // Typing in the box during a lesson leaves it (the step's text no longer describes the
  // picture): "transpose, step 3", said under the box; empty otherwise.
  std::string left_lesson;
};

// Evaluates s.user.code; on success the scenario on screen becomes the code's. Returns whether
// the code was valid.
bool apply_code(AppState& s);
// Replaces the text and evaluates it.
bool set_code(AppState& s, std::string text);
// Fills the box with the code of `shown`, the study of the scenario on screen (a preset's, a
// lesson step's), as core's code_view() writes it for one warp of 32 threads; the scenario
// stays as it is, since the code gives the same offsets. The code is read from the study: the
// caller passes the one it holds.
void show_scenario_code(AppState& s, const Study& shown);
// Whether the scenario on screen is the one the code gives (false once a control changed it).
bool code_on_screen(const AppState& s);
// The box holds an edit that does not evaluate while its last valid code is on screen: the
// views show an access the text no longer says (they say so).
bool code_stale(const AppState& s);
// The user typed in the box: a lesson being walked is left (its step no longer describes what
// the code draws), then the code is evaluated.
void code_edited(AppState& s);

// An access of code drawn on its own array: each lane's byte mapped back to the element (r, c)
// of the tile the declaration is, so that the tile outlines the access and the lane table gives
// r and c, as for a preset. `tied` is the scenario whose raw offsets are bytes into that
// array (typed code's KernelCode::scenario, a scanned access's KernelFile::on_screen), so the
// mapping is exact; d is left as it is when it was studied from another scenario. The study's
// explanation is told again from the attached elements.
void attach_array_elements(Study& d, const Scenario& tied);

}  // namespace banklab::gui
