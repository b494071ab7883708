#pragma once
// Where the views put their cells, computed before anything is drawn (the drawing and the
// hit-testing for tooltips both read it) and kept in the state after the frame, so that the
// screenshot tests can look at the pixels of a given cell instead of guessing positions.
#include <imgui.h>

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/figures/figure.hpp"
#include "core/model/descriptor.hpp"

namespace banklab::gui {

struct GridHit {
  int row = 0;
  int col = 0;
};

// A regular grid: cell (r, c) spans [origin + (c, r) * pitch, ... + pitch - gap).
struct GridGeometry {
  ImVec2 origin{0, 0};
  ImVec2 pitch{0, 0};
  float gap = 0.0f;
  int rows = 0;
  int cols = 0;

  bool empty() const { return rows == 0 || cols == 0; }
  ImVec2 max() const { return cell_min(rows, cols); }
  ImVec2 cell_min(int row, int col) const {
    return ImVec2(origin.x + pitch.x * static_cast<float>(col),
                  origin.y + pitch.y * static_cast<float>(row));
  }
  ImVec2 cell_max(int row, int col) const {
    ImVec2 next = cell_min(row + 1, col + 1);
    return ImVec2(next.x - gap, next.y - gap);
  }
  std::optional<GridHit> hit(ImVec2 p) const;
};

// The largest cells (up to max_cell, keeping them square when asked) that fit rows x cols into
// avail; the grid is centred horizontally in avail.
GridGeometry fit_grid(ImVec2 origin, ImVec2 avail, int rows, int cols, ImVec2 max_cell, float gap,
                      bool square);

struct BankViewGeometry {
  GridGeometry grid;      // wavefront rows x 32 bank columns
  float label_width = 0;  // the wavefront labels left of the grid
  float header_height = 0;
};

struct LaneMapGeometry {
  std::array<ImVec2, 32> lane_min{}, lane_max{};  // the lane boxes, top edge
  std::array<ImVec2, 32> bank_min{}, bank_max{};  // the bank boxes, bottom edge
  bool drawn = false;
};

struct TileGeometry {
  GridGeometry grid;  // rows x slots_per_row() slots (cols + pad, or a narrow TMA box's span)
  int cols = 0;       // logical columns; slots at cols and beyond are padding
};

// The Solve window's buttons, so that tests click them as a user would (centre of a rectangle).
struct ButtonRect {
  ImVec2 min{0, 0}, max{0, 0};
  ImVec2 centre() const { return ImVec2((min.x + max.x) * 0.5f, (min.y + max.y) * 0.5f); }
};
struct SolveGeometry {
  std::vector<ButtonRect> choices;  // one per kSolveChoices entry (solve_state.hpp)
  ButtonRect solve;
  std::vector<ButtonRect> apply;  // the Apply button of each visible candidate row
  std::vector<int> apply_rank;    // which candidate (0-based) each of those applies
};

// The Descriptor window's buttons (descriptor_panel.cpp), for the tests' clicks.
struct DescriptorGeometry {
  std::vector<ButtonRect> major;           // K-major, MN-major
  std::vector<ButtonRect> arch;            // wgmma (sm90), tcgen05 (sm100)
  std::vector<ButtonRect> swizzle;         // one per mode the architecture has
  std::vector<DescSwizzle> swizzle_modes;  // which mode each of those is
  ButtonRect read_tile;
  GridGeometry grid;  // the figure's chunk grid: a row per 128-byte line, 8 chunks of 16 bytes
};

// The Kernel window's source: how many characters of code a row holds before it wraps, and how
// many rows of text the pane shows at once (under its header row; a line's marks are rows too).
struct SourceGeometry {
  float wrap_width = 0;  // pixels of code a row shows
  int chars_per_row = 0;
  int rows_in_view = 0;
};

struct FrameGeometry {
  std::optional<BankViewGeometry> banks;  // nullopt: the view showed a diagnostic instead
  LaneMapGeometry lanes;
  std::optional<TileGeometry> tile;              // the picture shown; side by side, the logical one
  std::optional<TileGeometry> physical_tile;     // side by side: the physical picture, right of it
  std::optional<SolveGeometry> solve;            // nullopt: the Solve window is closed
  std::optional<DescriptorGeometry> descriptor;  // nullopt: the Descriptor window is closed
  std::optional<ButtonRect> descriptor_link;     // the Tile window's Descriptor... button
  std::optional<ButtonRect> lesson_next;         // the Lesson panel's Next button, in a lesson
  std::optional<SourceGeometry> kernel_source;   // nullopt: the Kernel window shows no source
  std::vector<figures::Label> labels;  // every label the views drew, with the cell it names
  // Every panel window drawn, by its menu name, where it lies on the screen.
  std::vector<std::pair<std::string, figures::Box>> windows;
  // The GPU window: where the run it plots was measured ("recorded on NVIDIA H200, ..." for a
  // recording, "measured here" for a run of this session, "" for none); nullopt: closed.
  std::optional<std::string> gpu_run;
};

// The figures' grid as the views' GridGeometry.
GridGeometry grid_geometry(const figures::Grid& g);

// JSON in framebuffer pixels (display coordinates times scale), for --geometry.
std::string geometry_json(const FrameGeometry& g, float scale);

}  // namespace banklab::gui
