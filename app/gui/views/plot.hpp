#pragma once
// Plots drawn with ImDrawList (ImPlot is not in Debian): a frame with ticked, labelled axes, and
// bars, lines, points and reference lines placed in data coordinates, each with a tooltip when
// the mouse is over it.
//
//   Plot plot("##bandwidth", size, x_axis, y_axis, colours);  // reserves the rectangle and
//                                                             // draws the axes, ticks, grid
//   plot.bar(row, gbps, colour, "fp32-padded: 2470 GB/s");    // row = a category of the y axis
//   plot.vertical_line(copy_gbps, colour, "copy roof");
//   plot.finish();                                            // tooltip of the item hovered
//
// Geometry first (the data rectangle, from the widths of the labels), then drawing, as
// MemoryEditor sizes its columns before it draws them.
#include <imgui.h>

#include <string>
#include <string_view>
#include <vector>

#include "app/gui/render/palette.hpp"

namespace banklab::gui {

struct Axis {
  std::string label;
  double lo = 0.0;
  double hi = 1.0;
  // When set, the axis is categorical: category i sits at value i, labelled with the text, and
  // lo / hi are ignored (the axis spans -0.5 .. n - 0.5). Row 0 is drawn at the top.
  std::vector<std::string> categories;
};

struct Tick {
  double value = 0.0;
  std::string text;
};

// The round step (1, 2 or 5 x 10^n) that puts at most max_count ticks on a span; span > 0.
double nice_step(double span, int max_count);
// Ticks at multiples of nice_step() inside [lo, hi], printed with as many decimals as the
// step needs.
std::vector<Tick> nice_ticks(double lo, double hi, int max_count);
// value rounded up to a multiple of nice_step(value, max_count): an axis end on a tick.
double round_up_to_tick(double value, int max_count);

// Data to pixels for one rectangle: x grows to the right, y upwards, a categorical y axis
// downwards (first category on top).
struct PlotMapping {
  ImVec2 min, max;  // the data rectangle in screen pixels
  double x_lo = 0.0, x_hi = 1.0;
  double y_lo = 0.0, y_hi = 1.0;
  bool y_down = false;

  ImVec2 to_screen(double x, double y) const;
  float x_pixels(double x) const;
  float y_pixels(double y) const;
};

class Plot {
 public:
  // size.x <= 0 takes the width left in the window.
  Plot(const char* id, ImVec2 size, Axis x, Axis y, const Palette& colours);
  Plot(const Plot&) = delete;
  Plot& operator=(const Plot&) = delete;

  // A horizontal bar from x = 0 to value in category row `row` of the y axis.
  void bar(int row, double value, ImU32 colour, std::string tooltip);
  // Text at the right end of a bar (or in its place): "63%", "WRONG".
  void bar_label(int row, double value, std::string_view text, ImU32 colour);
  void line(double x0, double y0, double x1, double y1, ImU32 colour, float thickness,
            std::string tooltip);
  void point(double x, double y, ImU32 colour, float radius, std::string tooltip);
  // A reference line across the whole plot at x, with its label at the top.
  void vertical_line(double x, ImU32 colour, std::string label);
  // Shows the tooltip of the item nearest the mouse, if the mouse is over the plot.
  void finish();

  const PlotMapping& mapping() const { return map_; }

 private:
  // What the mouse can hover: a rectangle (bars) or a thick segment (lines, points, with
  // a == b for a point). Nearer items win; a bar counts as `kBarDistance` pixels away so that
  // a point drawn over a bar is the one named.
  struct Hit {
    ImVec2 a, b;
    float reach = 0.0f;  // pixels from the segment that still count; < 0 for a rectangle
    std::string text;
  };
  void add_hit(Hit hit);

  ImDrawList* dl_ = nullptr;
  const Palette& colours_;
  PlotMapping map_;
  Axis y_axis_;
  bool hovered_ = false;
  std::vector<Hit> hits_;
};

}  // namespace banklab::gui
