#include "app/gui/views/figure_draw.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <vector>

#include "app/gui/render/palette.hpp"
#include "core/report/explain.hpp"

namespace banklab::gui {
namespace {

ImVec2 v2(float x, float y) {
  return ImVec2(x, y);
}

Quad quad(const figures::Rect& r) {
  const QuadStyle style = r.fill == figures::Fill::striped   ? QuadStyle::striped
                          : r.fill == figures::Fill::outline ? QuadStyle::outline
                                                             : QuadStyle::solid;
  return Quad{v2(r.box.x0, r.box.y0), v2(r.box.x1, r.box.y1), to_imu32(r.colour), style};
}

void add_rects(ImDrawList* dl, DrawQueue& queue, const std::vector<figures::Rect>& rects) {
  std::vector<Quad> quads;
  quads.reserve(rects.size());
  for (const figures::Rect& r : rects) quads.push_back(quad(r));
  queue.add_quads(dl, quads);
}

}  // namespace

figures::FigureStyle figure_style(const ViewStyle& v) {
  figures::FigureStyle st;
  st.palette = v.palette->source;
  st.font = ImGui::GetFontSize();
  st.min_font = std::min(st.font, 9.0f);
  st.served = v.playing || v.served < kAllServed ? v.served : kAllServed;
  st.hovered_lane = v.hovered_lane;
  st.tile_view = v.tile_view;
  if (v.highlights != nullptr) st.highlights = *v.highlights;
  st.tile_caption = false;  // the tile panel names the tile above its logical/physical switch
  st.heat_colours = false;  // drawn from the texture of AppState::frame.draw.heatmap
  return st;
}

figures::Box available_box() {
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const ImVec2 a = ImGui::GetContentRegionAvail();
  return figures::Box{o.x, o.y, o.x + std::max(a.x, 0.0f), o.y + std::max(a.y, 0.0f)};
}

ImFont* label_font(std::span<ImFont* const> fonts, const figures::Label& l) {
  if (fonts.empty()) return ImGui::GetFont();
  // ImGui sizes a font by its line height, which for DejaVu is 1.164 em; the layout measured an
  // em of l.size. Take the largest font of that em or less whose glyphs fit the label's box.
  constexpr float kLineHeightPerEm = 1.164f;
  for (auto it = fonts.rbegin(); it != fonts.rend(); ++it) {
    ImFont* f = *it;
    if (f->FontSize > l.size * kLineHeightPerEm + 0.01f) continue;
    if (f->CalcTextSizeA(f->FontSize, FLT_MAX, 0.0f, l.text.c_str()).x <= l.box.width() + 0.5f) {
      return f;
    }
  }
  return fonts.front();
}

void draw_figure(const figures::Figure& f, ImDrawList* dl, DrawQueue& queue,
                 std::span<ImFont* const> fonts) {
  add_rects(dl, queue, f.rects);
  for (const figures::Heatmap& h : f.heatmaps) {
    queue.add_heatmap(dl, v2(h.box.x0, h.box.y0), v2(h.box.x1, h.box.y1), h.physical, h.rows);
  }
  std::vector<Segment> segments;
  segments.reserve(f.lines.size());
  for (const figures::Line& l : f.lines) {
    segments.push_back(Segment{v2(l.x0, l.y0), v2(l.x1, l.y1), l.width, to_imu32(l.colour)});
  }
  queue.add_segments(dl, segments);
  add_rects(dl, queue, f.overlays);
  // Text over the GL drawing, each label centred in its box in the largest font that fits it.
  for (const figures::Label& l : f.labels) {
    ImFont* font = label_font(fonts, l);
    const ImVec2 size = font->CalcTextSizeA(font->FontSize, FLT_MAX, 0.0f, l.text.c_str());
    // Labels that name a cell are centred in their box; captions and legends start at its left.
    const float x = l.cell ? (l.box.x0 + l.box.x1 - size.x) * 0.5f : l.box.x0;
    const ImVec2 at(std::floor(x), std::floor((l.box.y0 + l.box.y1 - font->FontSize) * 0.5f));
    if (l.halo.a != 0) {
      // The label's box or its text, whichever is wider (a box widened to cover what is under
      // it, as the SVG draws it).
      const float x1 = std::max(at.x + size.x, l.cell ? 0.0f : l.box.x1);
      dl->AddRectFilled(ImVec2(at.x - 1, at.y), ImVec2(x1 + 1, at.y + size.y), to_imu32(l.halo),
                        2.0f);
    }
    dl->AddText(font, font->FontSize, at, to_imu32(l.colour), l.text.c_str());
  }
}

bool draw_refused(const Study& d, const ViewStyle& v, Interaction& io) {
  if (!figures::refused_rows(d)) return false;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(v.palette->error));
  ImGui::TextWrapped("%s", d.explanation.verdict.c_str());
  ImGui::PopStyleColor();
  const figures::Box area = available_box();
  if (area.width() < 64 || area.height() < 32) return true;
  const figures::Figure f = figures::misalignment_figure(d, area, figure_style(v));
  add_labels(io.geometry, f);
  ImGui::Dummy(ImVec2(area.width(), area.height()));
  draw_figure(f, ImGui::GetWindowDrawList(), *io.draw, v.label_fonts);
  return true;
}

ReadableBox begin_readable_box(const char* id, const ViewStyle& v, figures::Box area,
                               ImVec2 least) {
  if (!v.one_column || (area.width() >= least.x && area.height() >= least.y)) return {area};
  ImGui::BeginChild(id, ImVec2(area.width(), area.height()), false,
                    ImGuiWindowFlags_HorizontalScrollbar);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const ImVec2 room = ImGui::GetContentRegionAvail();
  return {
      figures::Box{at.x, at.y, at.x + std::max(room.x, least.x), at.y + std::max(room.y, least.y)},
      true};
}

void end_readable_box(const ReadableBox& b) {
  if (b.scrolls) ImGui::EndChild();
}

void add_labels(FrameGeometry& g, const figures::Figure& f) {
  for (const figures::Label& l : f.labels) g.labels.push_back(l);
}

}  // namespace banklab::gui
