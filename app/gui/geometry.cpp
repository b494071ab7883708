#include "geometry.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

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
  g.origin = ImVec2(std::floor(origin.x + std::max(0.0f, (avail.x - used) * 0.5f)),
                    std::floor(origin.y));
  if (w < 6.0f || h < 6.0f) g.gap = 0.0f;  // tiny cells: the gap would hide the colours
  return g;
}

namespace {

void put_grid(std::ostream& os, const GridGeometry& g, float s) {
  os << "{\"x\": " << g.origin.x * s << ", \"y\": " << g.origin.y * s
     << ", \"pitch_x\": " << g.pitch.x * s << ", \"pitch_y\": " << g.pitch.y * s
     << ", \"gap\": " << g.gap * s << ", \"rows\": " << g.rows << ", \"cols\": " << g.cols << "}";
}

void put_boxes(std::ostream& os, const std::array<ImVec2, 32>& mins,
               const std::array<ImVec2, 32>& maxs, float s) {
  os << "[";
  for (int i = 0; i < 32; ++i) {
    os << (i ? ", " : "") << "[" << mins[i].x * s << ", " << mins[i].y * s << ", "
       << maxs[i].x * s << ", " << maxs[i].y * s << "]";
  }
  os << "]";
}

}  // namespace

std::string geometry_json(const FrameGeometry& g, float scale) {
  std::ostringstream os;
  os << "{\n  \"bank_grid\": ";
  if (g.banks) {
    put_grid(os, g.banks->grid, scale);
  } else {
    os << "null";
  }
  os << ",\n  \"tile_grid\": ";
  if (g.tile) {
    put_grid(os, g.tile->grid, scale);
  } else {
    os << "null";
  }
  os << ",\n  \"lane_boxes\": ";
  if (g.lanes.drawn) {
    put_boxes(os, g.lanes.lane_min, g.lanes.lane_max, scale);
  } else {
    os << "null";
  }
  os << ",\n  \"bank_boxes\": ";
  if (g.lanes.drawn) {
    put_boxes(os, g.lanes.bank_min, g.lanes.bank_max, scale);
  } else {
    os << "null";
  }
  os << "\n}\n";
  return os.str();
}

}  // namespace banklab::gui
