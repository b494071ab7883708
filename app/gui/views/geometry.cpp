#include "app/gui/views/geometry.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "core/base/json_writer.hpp"

namespace banklab::gui {

std::optional<GridHit> GridGeometry::hit(ImVec2 p) const {
  if (empty() || pitch.x <= 0 || pitch.y <= 0) return std::nullopt;
  float fx = (p.x - origin.x) / pitch.x;
  float fy = (p.y - origin.y) / pitch.y;
  if (fx < 0 || fy < 0) return std::nullopt;
  int c = static_cast<int>(fx);
  int r = static_cast<int>(fy);
  if (c >= cols || r >= rows) return std::nullopt;
  return GridHit{r, c};
}

GridGeometry fit_grid(ImVec2 origin, ImVec2 avail, int rows, int cols, ImVec2 max_cell, float gap,
                      bool square) {
  GridGeometry g;
  g.rows = rows;
  g.cols = cols;
  g.gap = gap;
  if (rows <= 0 || cols <= 0) return g;
  float w = std::min(max_cell.x, std::max(avail.x, 0.0f) / static_cast<float>(cols));
  float h = std::min(max_cell.y, std::max(avail.y, 0.0f) / static_cast<float>(rows));
  if (square) w = h = std::min(w, h);
  // Whole pixels when the cells are big enough, so that borders and stripes stay crisp.
  if (w >= 4.0f) w = std::floor(w);
  if (h >= 4.0f) h = std::floor(h);
  g.pitch = ImVec2(w, h);
  float used = w * static_cast<float>(cols);
  g.origin =
      ImVec2(std::floor(origin.x + std::max(0.0f, (avail.x - used) * 0.5f)), std::floor(origin.y));
  if (w < 6.0f || h < 6.0f) g.gap = 0.0f;  // tiny cells: the gap would hide the colours
  return g;
}

namespace {

void write_grid(JsonWriter& w, const GridGeometry& g, float s) {
  w.begin_object()
      .field("x", g.origin.x * s)
      .field("y", g.origin.y * s)
      .field("pitch_x", g.pitch.x * s)
      .field("pitch_y", g.pitch.y * s)
      .field("gap", g.gap * s)
      .field("rows", g.rows)
      .field("cols", g.cols)
      .end_object();
}

void write_boxes(JsonWriter& w, const std::array<ImVec2, 32>& mins,
                 const std::array<ImVec2, 32>& maxs, float s) {
  w.begin_array();
  for (int i = 0; i < 32; ++i) {
    w.begin_array()
        .value(mins[i].x * s)
        .value(mins[i].y * s)
        .value(maxs[i].x * s)
        .value(maxs[i].y * s)
        .end_array();
  }
  w.end_array();
}

}  // namespace

GridGeometry grid_geometry(const figures::Grid& g) {
  GridGeometry out;
  out.origin = ImVec2(g.x, g.y);
  out.pitch = ImVec2(g.pitch_x, g.pitch_y);
  out.gap = g.gap;
  out.rows = g.rows;
  out.cols = g.cols;
  return out;
}

namespace {

void write_box(JsonWriter& w, const figures::Box& b, float s) {
  w.begin_array().value(b.x0 * s).value(b.y0 * s).value(b.x1 * s).value(b.y1 * s).end_array();
}

// {"role": "bank_label", "index": 3, "text": "3", "size": 14, "box": [...], "cell": [...]}
void write_labels(JsonWriter& w, const std::vector<figures::Label>& labels, float s) {
  w.begin_array();
  for (const figures::Label& l : labels) {
    w.begin_object()
        .field("role", figures::role_name(l.role))
        .field("index", l.index)
        .field("text", l.text)
        .field("size", l.size * s)
        .key("box");
    write_box(w, l.box, s);
    w.key("cell");
    if (l.cell) {
      write_box(w, *l.cell, s);
    } else {
      w.null();
    }
    w.end_object();
  }
  w.end_array();
}

}  // namespace

std::string geometry_json(const FrameGeometry& g, float scale) {
  std::string out;
  JsonWriter w(out);
  w.begin_object().key("bank_grid");
  if (g.banks) {
    write_grid(w, g.banks->grid, scale);
  } else {
    w.null();
  }
  for (auto [key, tile] :
       {std::pair{"tile_grid", &g.tile}, std::pair{"physical_tile_grid", &g.physical_tile}}) {
    w.key(key);
    if (*tile) {
      write_grid(w, (*tile)->grid, scale);
    } else {
      w.null();
    }
  }
  for (auto [key, mins, maxs] : {std::tuple{"lane_boxes", &g.lanes.lane_min, &g.lanes.lane_max},
                                 std::tuple{"bank_boxes", &g.lanes.bank_min, &g.lanes.bank_max}}) {
    w.key(key);
    if (g.lanes.drawn) {
      write_boxes(w, *mins, *maxs, scale);
    } else {
      w.null();
    }
  }
  // The Descriptor window's chunk grid: its cell labels (role cell_label) lie in it.
  w.key("descriptor_grid");
  if (g.descriptor && !g.descriptor->grid.empty()) {
    write_grid(w, g.descriptor->grid, scale);
  } else {
    w.null();
  }
  w.key("lesson_next");
  if (g.lesson_next) {
    write_box(w,
              figures::Box{g.lesson_next->min.x, g.lesson_next->min.y, g.lesson_next->max.x,
                           g.lesson_next->max.y},
              scale);
  } else {
    w.null();
  }
  w.key("labels");
  write_labels(w, g.labels, scale);
  w.key("windows").begin_array();
  for (const auto& [name, box] : g.windows) {
    w.begin_object().key("name").value(name).key("box");
    write_box(w, box, scale);
    w.end_object();
  }
  w.end_array();
  w.key("gpu_run");
  if (g.gpu_run) {
    w.value(*g.gpu_run);
  } else {
    w.null();
  }
  w.end_object();
  out += '\n';
  return out;
}

}  // namespace banklab::gui
