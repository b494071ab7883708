#include "app/figures/figure_common.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "app/figures/figure.hpp"

namespace banklab::figures {

namespace {
constexpr float kAdvance = 0.6f;  // DejaVu Sans Mono: 1233 / 2048 em
}

float text_width(std::string_view text, float size) {
  // Count code points, not bytes: continuation bytes (10xxxxxx) add no width.
  const auto chars = std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  });
  return kAdvance * size * static_cast<float>(chars);
}

float fit_font(std::string_view text, float size, float w, float h) {
  const float per_pixel = text_width(text, 1.0f);
  float fit = std::min(size, h);
  if (per_pixel > 0) fit = std::min(fit, (w - 2.0f) / per_pixel);
  return std::max(0.0f, std::floor(fit * 2.0f) / 2.0f);  // half pixels: sizes that repeat
}

std::string_view role_name(Role r) {
  static constexpr std::string_view kNames[] = {
      "heading",         "verdict",     "caption",      "bank_label",  "lane_label",
      "wavefront_label", "phase_label", "cell",         "cell_label",  "word_label",
      "excess_row",      "ideal_line",  "phase_line",   "lane_box",    "bank_box",
      "access_line",     "shared_word", "tile_outline", "current_row", "legend",
      "highlight",       "slot_bank",   "axis_label",   "text",        "panel"};
  return kNames[static_cast<int>(r)];
}

void append(Figure& into, const Figure& part, float dx, float dy) {
  const auto move = [&](Box b) { return Box{b.x0 + dx, b.y0 + dy, b.x1 + dx, b.y1 + dy}; };
  for (Rect r : part.rects) {
    r.box = move(r.box);
    into.rects.push_back(r);
  }
  if (part.grid) {
    into.grid = part.grid;
    into.grid->x += dx;
    into.grid->y += dy;
  }
  for (Heatmap h : part.heatmaps) {
    h.box = move(h.box);
    into.heatmaps.push_back(std::move(h));
  }
  for (Line l : part.lines) {
    l.x0 += dx, l.x1 += dx, l.y0 += dy, l.y1 += dy;
    into.lines.push_back(l);
  }
  for (Rect r : part.overlays) {
    r.box = move(r.box);
    into.overlays.push_back(r);
  }
  for (Label l : part.labels) {
    l.box = move(l.box);
    if (l.cell) l.cell = move(*l.cell);
    into.labels.push_back(std::move(l));
  }
}

namespace detail {

Figure blank_figure(float width, float height, const Palette& p) {
  Figure f;
  f.width = width;
  f.height = height;
  f.background = p.background;
  return f;
}

Label centred(std::string text, float size, Rgba colour, Box cell, Role role, int index) {
  const float w = text_width(text, size);
  const float x = std::floor((cell.x0 + cell.x1 - w) * 0.5f);
  const float y = std::floor((cell.y0 + cell.y1 - size) * 0.5f);
  Label l{Box{x, y, x + w, y + size}, size, colour, std::move(text), role, index, cell, kNoColour};
  // Rounding down by up to a pixel must not push a label that fits out of its cell.
  if (l.box.x0 < cell.x0) l.box = Box{cell.x0, l.box.y0, cell.x0 + w, l.box.y1};
  if (l.box.y0 < cell.y0) l.box = Box{l.box.x0, cell.y0, l.box.x1, cell.y0 + size};
  return l;
}

Label at(std::string text, float size, Rgba colour, float x, float y, Role role, int index) {
  const float w = text_width(text, size);
  return Label{
      Box{x, y, x + w, y + size}, size, colour, std::move(text), role, index, {}, kNoColour};
}

}  // namespace detail

float content_bottom(const Figure& f) {
  float y = 0;
  for (const Rect& r : f.rects) y = std::max(y, r.box.y1);
  for (const Rect& r : f.overlays) y = std::max(y, r.box.y1);
  for (const Heatmap& h : f.heatmaps) y = std::max(y, h.box.y1);
  for (const Line& l : f.lines) y = std::max({y, l.y0, l.y1});
  for (const Label& l : f.labels) y = std::max(y, l.box.y1);
  return y;
}

namespace detail {

Label caption_fitting(std::initializer_list<std::string> choices, float size, float least,
                      float width, Rgba colour, float x, float y) {
  std::string text;
  for (const std::string& choice : choices) {
    text = choice;
    if (text_width(text, size) <= width) break;
  }
  const float fits = std::max(std::min(least, size), fit_font(text, size, width, size));
  return at(std::move(text), std::min(size, fits), colour, x, y, Role::caption);
}

Status slot_status(const Analysis& a, const BankLoad& load, int wavefront, int bank) {
  const Wavefront& wf = a.wavefronts[wavefront];
  const BankSlot& slot = wf.banks[bank];
  if (!slot.used()) return Status::empty;
  if (load[wf.phase][bank] > 1) return Status::conflict;
  return std::popcount(slot.lanes) > 1 ? Status::shared : Status::served;
}

Rgba status_colour(const Palette& p, Status s) {
  switch (s) {
    case Status::served:
      return p.cell_served;
    case Status::shared:
      return p.cell_broadcast;
    case Status::conflict:
      return p.cell_conflict;
    case Status::empty:
      break;
  }
  return p.cell_empty;
}

float legend(Figure& f, const std::vector<LegendItem>& items, float x, float y, float width,
             float font, const Palette& p, bool brief) {
  const float box = std::floor(font * 0.8f);
  const float gap = std::floor(font * 1.2f);
  auto sample = [&](const LegendItem& it) { return it.line ? box * 1.6f : box; };
  float cx = x;
  float cy = y;
  for (const LegendItem& item : items) {
    LegendItem it = item;
    const auto need_for = [&](const std::string& text) {
      return sample(it) + font * 0.4f + text_width(text, font);
    };
    // The brief text where asked for, and where the full one is wider than the whole row (a
    // lane map down a phone's narrow column drew "conflict: bank holds several words" past it).
    if (!it.brief.empty() && (brief || need_for(it.text) > width)) it.text = it.brief;
    const float need = need_for(it.text);
    if (cx > x && cx + need > x + width) {
      cx = x;
      cy += font * 1.4f;
    }
    const float top = cy + (font - box) * 0.5f;
    if (it.line) {
      f.lines.push_back(Line{cx, top + box * 0.5f, cx + sample(it), top + box * 0.5f,
                             std::max(2.0f, font / 6.0f), it.colour, Role::legend, -1});
    } else {
      f.rects.push_back(Rect{Box{cx, top, cx + box, top + box}, it.colour, it.fill, Role::legend});
    }
    f.labels.push_back(at(it.text, font, p.text, cx + sample(it) + font * 0.4f, cy, Role::legend));
    cx += need + gap;
  }
  return cy + font * 1.4f - y;
}

}  // namespace detail
}  // namespace banklab::figures
