#pragma once
// A whole kernel file (File > Open kernel..., --scan FILE.cu): every shared-memory access of its
// kernels run for every warp of the block and every loop trip by core's scan
// (core/code/scan.hpp, what `banklab scan` prints), each warp-instruction kept. The Kernel
// window (kernel_panel.cpp) shows the source annotated line by line and the accesses ranked by
// excess; choosing an access, or one of its warp-instructions, puts that instruction on screen
// as a custom scenario with its array as the tile, so every view draws it, as the Code window
// does for one typed line. The scan runs when the file, its block or its names change, never
// per frame.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/code/ncu_source.hpp"
#include "core/code/scan.hpp"
#include "core/model/scenario.hpp"
#include "core/record/trace.hpp"

namespace banklab::gui {

struct AppState;

struct KernelFile {
  std::string path;  // as opened; "" before the first
  std::string name;  // its file name, as the scan's messages say it
  std::string text;
  std::vector<std::size_t> line_starts;  // where each line of text begins
  // The block over the file's (launch or __launch_bounds__), when block_given; names the file
  // does not define, NAME=VALUE separated by commas (--let of `banklab scan`).
  bool block_given = false;
  std::array<int, 3> block = {32, 1, 1};
  std::string lets;
  ScanResult scan;          // with every warp-instruction kept
  std::string error;        // why the file could not be read or scanned; "" when it was
  int kernel = 0;           // the kernel shown: an index in scan.kernels
  int access = -1;          // its access on screen (an index in KernelScan::lines); -1: none yet
  int instance = -1;        // which of that access's warp-instructions (ScanLine::instances)
  int scroll_to = 0;        // the source scrolls to this 1-based line next frame; 0: stays
  Scenario on_screen;       // the scenario the chosen instruction gave
  std::uint64_t scans = 0;  // how many times the file was scanned (on changes only)
  // A trace opened instead of a file (File > Open trace..., --trace FILE.json): the recorded
  // launch, its lines told as a scan (app/frontend/trace_view.hpp) with the source it carries,
  // and the hardware's counts of the same launch beside them where it was measured.
  std::optional<gpu::Trace> trace;
  std::optional<KernelComparison> measured;
  std::string not_measured;
};

// Reads and scans the file; on success the Kernel window opens on it and the worst access of
// its first kernel goes on screen. On failure (unreadable, not kernel code) kernel.error says
// why and what was open stays. Returns whether it opened.
bool open_kernel_file(AppState& s, const std::string& path);
// Reads a trace file (core/record/trace.hpp, checked as it is read) into the window: its kernel
// file's lines annotated with the traced counts, the worst access on screen. On failure
// kernel.error says why and what was open stays.
bool open_trace_file(AppState& s, const std::string& path);
// "block 3, warp 5, run 2" for a trace's instruction, "warp 3, trip 2 of j" for a scan's.
std::string describe_instance(const KernelFile& k, const ScanLine& line, int warp,
                              std::span<const std::int32_t> iteration);
// Scans the open file again with the block and names set in the window (kernel.error says why
// when it cannot). Returns whether it scanned.
bool rescan_kernel(AppState& s);
// The kernel shown, or nullptr when nothing is scanned.
const KernelScan* shown_kernel(const AppState& s);
// Shows kernel `index` of the file, its worst access on screen.
void show_kernel(AppState& s, int index);
// Puts warp-instruction `instance` of access `access` of the kernel shown on screen (-1: the
// access's worst) and scrolls the source to its line.
void show_access(AppState& s, int access, int instance = -1);
// The access on `line` with the most excess, on screen, the source left where it is (the line
// was clicked there); false when the line has none.
bool show_line(AppState& s, int line);
// Line `line` (1-based) of the file, without its newline; empty past the end.
std::string_view source_line(const KernelFile& k, int line);
// Whether the scenario on screen is the chosen instruction (false once a control changed it).
bool kernel_on_screen(const AppState& s);

}  // namespace banklab::gui
