#pragma once
// A whole kernel file (File > Open kernel..., --scan FILE.cu): every shared-memory access of its
// kernels run for every warp of the block and every loop trip by core's scan
// (core/code/scan.hpp, what `banklab scan` prints), each warp-instruction kept. The Kernel
// window (kernel_panel.cpp) shows the source annotated line by line and the accesses ranked by
// excess; choosing an access, or one of its warp-instructions, puts that instruction on screen
// as a raw scenario with its array as the tile, so every view draws it, as the Code window
// does for one typed line. The scan runs when the file, its block or its names change, never
// per frame, and in the app off the frame (scan_worker.hpp): only --scan at startup scans
// before the window opens (open_kernel_file()).
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
  // The source pane's rows (kernel_panel.cpp), each line wrapped to the pane with its mark
  // under it: where line i (0-based) starts, in pixels from the top (one more entry than lines,
  // the last the whole height). Measured again when the width, the font, the kernel shown or
  // the scan changes, not every frame.
  struct SourceRows {
    float width = -1.0f, font = 0.0f;
    int kernel = -1;
    std::uint64_t scans = 0;
    std::vector<float> top;
  } source_rows;
  // A trace opened instead of a file (File > Open trace..., --trace FILE.json): the recorded
  // launch, its lines told as a scan (app/frontend/trace_view.hpp) with the source it carries,
  // and the hardware's counts of the same launch beside them where it was measured.
  std::optional<record::Trace> trace;
  std::optional<KernelComparison> measured;
  std::string not_measured;
};

// Reads and scans the file on this thread (--scan at startup, before any window); on success
// the Kernel window opens on it and the worst access of its first kernel goes on screen. On failure
// (unreadable, not kernel code) kernel.error says why and what was open stays. Returns whether it
// opened.
bool open_kernel_file(AppState& s, const std::string& path);
// The same off the frame, on the scan worker (scan_worker.hpp): the file is read now (an
// unreadable one sets kernel.error at once), its scan is applied by poll_kernel_scan() when it
// is done. A scan started replaces the one still running.
void start_kernel_scan(AppState& s, const std::string& path);
// Scans the open file again, off the frame, with the block and names set in the window
// (kernel.error says why at once when the names cannot be read).
void start_rescan(AppState& s);
// A scan started and not yet applied or cancelled.
bool kernel_scanning(const AppState& s);
// Drops the running scan: what was open stays, and its result is never applied.
void cancel_kernel_scan(AppState& s);
// Once a frame: applies a finished scan as open_kernel_file() would (a new file), or the open
// file scanned again. True when one was applied.
bool poll_kernel_scan(AppState& s);
// Reads a trace file (core/record/trace.hpp, checked as it is read) into the window: its kernel
// file's lines annotated with the traced counts, the worst access on screen. On failure
// kernel.error says why and what was open stays.
bool open_trace_file(AppState& s, const std::string& path);
// "block 3, warp 5, run 2" for a trace's instruction, "warp 3, trip 2 of j" for a scan's.
std::string describe_instance(const KernelFile& k, const ScanLine& line, int warp,
                              std::span<const std::int32_t> iteration);
// The kernel shown, or nullptr when nothing is scanned.
const KernelScan* shown_kernel(const AppState& s);
// Shows kernel `index` of the file, its worst access on screen.
void show_kernel(AppState& s, int index);
// Shows the kernel of that name, its worst access on screen; false when the file has none.
bool show_kernel_named(AppState& s, std::string_view name);
// The file's kernels' names, "a, b, c".
std::string kernel_names(const KernelFile& k);
// Puts warp-instruction `instance` of access `access` of the kernel shown on screen (-1: the
// access's worst) and scrolls the source to its line.
void show_access(AppState& s, int access, int instance = -1);
// The access on `line` with the most excess, on screen, the source left where it is (the line
// was clicked there); false when the line has none. It is looked for in the kernel shown, then,
// when `any_kernel`, in the file's other kernels (the first that has one there is shown).
bool show_line(AppState& s, int line, bool any_kernel = false);
// Line `line` (1-based) of the file, without its newline; empty past the end.
std::string_view source_line(const KernelFile& k, int line);
// Whether the scenario on screen is the chosen instruction (false once a control changed it).
bool kernel_on_screen(const AppState& s);
// The access whose instruction is on screen; nullptr when none is (kernel_on_screen()).
const ScanLine* access_on_screen(const AppState& s);
// The scanned array as its kernel declares it, "int sdata[256]", and whether the Tile window
// can draw it as it is: its elements of 1, 2, 4 or 8 bytes (a vector type's components), its
// last bound the columns and the others the rows, with nothing left over (core's tile_of()).
std::string array_declaration(const SharedArray& a);
bool array_drawable(const SharedArray& a);

}  // namespace banklab::gui
