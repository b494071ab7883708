#include "app/gui/views/plot.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <limits>

namespace banklab::gui {
namespace {

constexpr double kEpsilon = 1e-9;     // relative slack for values that should land on a tick
constexpr double kBarHalf = 0.35;     // a bar's half height, in categories
constexpr float kBarDistance = 6.0f;  // how far away, in pixels, a hovered bar counts as

float distance_to_segment(ImVec2 p, ImVec2 a, ImVec2 b) {
  const float dx = b.x - a.x, dy = b.y - a.y;
  const float length2 = dx * dx + dy * dy;
  float t = 0.0f;
  if (length2 > 0.0f) t = std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / length2, 0.0f, 1.0f);
  const float cx = a.x + t * dx - p.x, cy = a.y + t * dy - p.y;
  return std::sqrt(cx * cx + cy * cy);
}

std::string tick_text(double value, int decimals) {
  char text[48];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

}  // namespace

// --------------------------------------------------------------------------------------------
// Ticks.

// The step that fits: span / (max_count - 1) rounded up to 1, 2 or 5 times a power of ten.
double nice_step(double span, int max_count) {
  assert(span > 0.0 && "an axis needs a positive span");
  assert(max_count >= 2 && "an axis needs room for two ticks");
  const double raw = span / (max_count - 1);
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 5.0}) {
    if (m * magnitude >= raw * (1.0 - kEpsilon)) return m * magnitude;
  }
  return 10.0 * magnitude;
}

std::vector<Tick> nice_ticks(double lo, double hi, int max_count) {
  assert(hi > lo && "an axis must end above where it starts");
  const double step = nice_step(hi - lo, max_count);
  const int decimals = step >= 1.0 ? 0 : static_cast<int>(std::ceil(-std::log10(step) - kEpsilon));
  const auto first = static_cast<long long>(std::ceil(lo / step - kEpsilon));
  const auto last = static_cast<long long>(std::floor(hi / step + kEpsilon));
  std::vector<Tick> ticks;
  for (long long i = first; i <= last; ++i) {
    const double value = static_cast<double>(i) * step;  // no accumulated rounding
    ticks.push_back(Tick{value, tick_text(value, decimals)});
  }
  return ticks;
}

double round_up_to_tick(double value, int max_count) {
  assert(value > 0.0 && "only a positive axis end can be rounded up to a tick");
  const double step = nice_step(value, max_count);
  return std::ceil(value / step - kEpsilon) * step;
}

float PlotMapping::x_pixels(double x) const {
  return min.x + static_cast<float>((x - x_lo) / (x_hi - x_lo)) * (max.x - min.x);
}

float PlotMapping::y_pixels(double y) const {
  const float t = static_cast<float>((y - y_lo) / (y_hi - y_lo)) * (max.y - min.y);
  return y_down ? min.y + t : max.y - t;
}

ImVec2 PlotMapping::to_screen(double x, double y) const {
  return ImVec2(x_pixels(x), y_pixels(y));
}

// --------------------------------------------------------------------------------------------
// The frame: margins from the label sizes, then grid, ticks and labels.

Plot::Plot(const char* id, ImVec2 size, Axis x, Axis y, const Palette& colours)
    : colours_(colours), y_axis_(std::move(y)) {
  assert(x.categories.empty() && "only the y axis can hold categories");
  assert((!y_axis_.categories.empty() || y_axis_.hi > y_axis_.lo) &&
         "a numeric axis must end above where it starts");
  assert(x.hi > x.lo && "a numeric axis must end above where it starts");
  dl_ = ImGui::GetWindowDrawList();
  const float line = ImGui::GetTextLineHeight();
  const float pad = ImGui::GetStyle().ItemInnerSpacing.x;
  if (size.x <= 0.0f) size.x = ImGui::GetContentRegionAvail().x;
  size.x = std::max(size.x, 8.0f * line);
  size.y = std::max(size.y, 6.0f * line);

  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton(id, size);
  hovered_ = ImGui::IsItemHovered();

  const bool categorical = !y_axis_.categories.empty();
  const int y_tick_room = std::max(2, static_cast<int>(size.y / (2.5f * line)));
  std::vector<Tick> y_ticks;
  if (categorical) {
    for (std::size_t i = 0; i < y_axis_.categories.size(); ++i) {
      y_ticks.push_back(Tick{static_cast<double>(i), y_axis_.categories[i]});
    }
  } else {
    y_ticks = nice_ticks(y_axis_.lo, y_axis_.hi, y_tick_room);
  }
  float left = 0.0f;
  for (const Tick& t : y_ticks) left = std::max(left, ImGui::CalcTextSize(t.text.c_str()).x);
  left += 2.0f * pad;
  const float widest_x_label = ImGui::CalcTextSize(tick_text(x.hi, 0).c_str()).x + 3.0f * line;
  const int x_tick_room = std::max(2, static_cast<int>((size.x - left) / widest_x_label));

  map_.min = ImVec2(origin.x + left, origin.y + 1.5f * line);  // the top row: labels
  map_.max = ImVec2(origin.x + size.x - line, origin.y + size.y - 2.2f * line);
  map_.x_lo = x.lo;
  map_.x_hi = x.hi;
  if (categorical) {
    map_.y_lo = -0.5;
    map_.y_hi = static_cast<double>(y_axis_.categories.size()) - 0.5;
    map_.y_down = true;
  } else {
    map_.y_lo = y_axis_.lo;
    map_.y_hi = y_axis_.hi;
  }

  dl_->AddRect(map_.min, map_.max, colours_.grid);
  for (const Tick& t : nice_ticks(x.lo, x.hi, x_tick_room)) {
    const float px = map_.x_pixels(t.value);
    dl_->AddLine(ImVec2(px, map_.min.y), ImVec2(px, map_.max.y), colours_.grid);
    const ImVec2 text = ImGui::CalcTextSize(t.text.c_str());
    dl_->AddText(ImVec2(px - text.x * 0.5f, map_.max.y + 0.2f * line), colours_.text_dim,
                 t.text.c_str());
  }
  for (const Tick& t : y_ticks) {
    const float py = map_.y_pixels(t.value);
    if (!categorical) dl_->AddLine(ImVec2(map_.min.x, py), ImVec2(map_.max.x, py), colours_.grid);
    const ImVec2 text = ImGui::CalcTextSize(t.text.c_str());
    dl_->AddText(ImVec2(map_.min.x - pad - text.x, py - text.y * 0.5f),
                 categorical ? colours_.text : colours_.text_dim, t.text.c_str());
  }
  const ImVec2 x_label = ImGui::CalcTextSize(x.label.c_str());
  dl_->AddText(ImVec2((map_.min.x + map_.max.x - x_label.x) * 0.5f, map_.max.y + 1.2f * line),
               colours_.text, x.label.c_str());
  // ImGui cannot rotate text, so the y axis is named above its top end.
  dl_->AddText(ImVec2(origin.x, origin.y), colours_.text, y_axis_.label.c_str());
}

// --------------------------------------------------------------------------------------------
// Items.

void Plot::add_hit(Hit hit) {
  if (hovered_ && !hit.text.empty()) hits_.push_back(std::move(hit));
}

void Plot::bar(int row, double value, ImU32 colour, std::string tooltip) {
  assert(row >= 0 && row < static_cast<int>(y_axis_.categories.size()) &&
         "a bar needs a category row of the y axis");
  ImVec2 a = map_.to_screen(0.0, row - kBarHalf);
  ImVec2 b = map_.to_screen(value, row + kBarHalf);
  const ImVec2 lo(std::min(a.x, b.x), std::min(a.y, b.y));
  const ImVec2 hi(std::max(a.x, b.x), std::max(a.y, b.y));
  dl_->PushClipRect(map_.min, map_.max, true);
  dl_->AddRectFilled(lo, hi, colour);
  dl_->PopClipRect();
  add_hit(Hit{lo, hi, -1.0f, std::move(tooltip)});
}

void Plot::bar_label(int row, double value, std::string_view text, ImU32 colour) {
  const std::string label(text);
  const ImVec2 size = ImGui::CalcTextSize(label.c_str());
  const float pad = ImGui::GetStyle().ItemInnerSpacing.x;
  float x = map_.x_pixels(std::max(value, map_.x_lo)) + pad;
  // Past the right edge, the label goes inside the bar's end instead.
  if (x + size.x > map_.max.x) x = map_.max.x - size.x - pad;
  dl_->AddText(ImVec2(x, map_.y_pixels(row) - size.y * 0.5f), colour, label.c_str());
}

void Plot::line(double x0, double y0, double x1, double y1, ImU32 colour, float thickness,
                std::string tooltip) {
  const ImVec2 a = map_.to_screen(x0, y0), b = map_.to_screen(x1, y1);
  dl_->PushClipRect(map_.min, map_.max, true);
  dl_->AddLine(a, b, colour, thickness);
  dl_->PopClipRect();
  add_hit(Hit{a, b, thickness + 3.0f, std::move(tooltip)});
}

void Plot::point(double x, double y, ImU32 colour, float radius, std::string tooltip) {
  const ImVec2 p = map_.to_screen(x, y);
  dl_->PushClipRect(map_.min, map_.max, true);
  dl_->AddCircleFilled(p, radius, colour);
  dl_->AddCircle(p, radius, colours_.background);
  dl_->PopClipRect();
  add_hit(Hit{p, p, radius + 3.0f, std::move(tooltip)});
}

void Plot::vertical_line(double x, ImU32 colour, std::string label) {
  const float px = map_.x_pixels(x);
  const ImVec2 a(px, map_.min.y), b(px, map_.max.y);
  dl_->AddLine(a, b, colour, 2.0f);
  const ImVec2 size = ImGui::CalcTextSize(label.c_str());
  const float tx = std::clamp(px - size.x * 0.5f, map_.min.x, map_.max.x - size.x);
  dl_->AddText(ImVec2(tx, map_.min.y - size.y - 2.0f), colour, label.c_str());
  add_hit(Hit{a, b, 4.0f, std::move(label)});
}

void Plot::finish() {
  if (!hovered_ || hits_.empty()) return;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const Hit* best = nullptr;
  float best_distance = std::numeric_limits<float>::max();
  for (const Hit& h : hits_) {
    float d = 0.0f;
    if (h.reach < 0.0f) {
      const bool inside =
          mouse.x >= h.a.x && mouse.x <= h.b.x && mouse.y >= h.a.y && mouse.y <= h.b.y;
      if (!inside) continue;
      d = kBarDistance;
    } else {
      d = distance_to_segment(mouse, h.a, h.b);
      if (d > h.reach) continue;
    }
    if (d <= best_distance) {  // ties go to the item drawn last, the one on top
      best = &h;
      best_distance = d;
    }
  }
  if (best) ImGui::SetTooltip("%s", best->text.c_str());
}

}  // namespace banklab::gui
