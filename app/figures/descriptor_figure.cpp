#include "app/figures/descriptor_figure.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "app/figures/figure_common.hpp"
#include "core/base/format.hpp"

namespace banklab::figures {

namespace {

using detail::at;
using detail::centred;

// What the drawn chunks hold and which of them one k-step reads.
struct ChunkMap {
  int lines = 0;
  int total_lines = 0;
  std::vector<std::optional<std::pair<int, int>>> holds;  // the operand chunk's first element
  std::vector<int> logical_chunk;                         // its place in the unswizzled line
  std::vector<int> core;                                  // the core matrix reading it, or -1
  std::vector<std::uint8_t> misread;
  int cores = 0;
};

ChunkMap map_chunks(const MatrixDescriptor& step, const OperandShape& op, const OperandFill& fill,
                    const OperandExtent& x, int s, int max_lines) {
  ChunkMap m;
  const std::int64_t total = fill.box.size_bytes() * fill.boxes;
  m.total_lines = static_cast<int>((total + 127) / 128);
  m.lines = std::max(1, std::min({m.total_lines, kMaxDescriptorLines, max_lines}));
  const std::size_t chunks = static_cast<std::size_t>(m.lines) * 8;
  m.holds.assign(chunks, std::nullopt);
  m.logical_chunk.assign(chunks, -1);
  m.core.assign(chunks, -1);
  m.misread.assign(chunks, 0);
  const auto index = [&](std::int64_t address) -> std::optional<std::size_t> {
    const std::int64_t i = (address - fill.dest) / 16;
    if (address < fill.dest || i >= static_cast<std::int64_t>(chunks)) return std::nullopt;
    return static_cast<std::size_t>(i);
  };
  for (int mn = 0; mn < x.mn; ++mn) {
    for (int k = 0; k < x.k; ++k) {
      const std::int64_t b = producer_byte(fill, op.major, mn, k);
      if ((b - fill.dest) % 16 != 0) continue;
      if (const auto i = index(b)) {
        m.holds[*i] = std::pair{mn, k};
        m.logical_chunk[*i] =
            static_cast<int>(producer_unswizzled(fill, op.major, mn, k) % 128 / 16);
      }
    }
  }
  // Core matrices numbered in the order the instruction's elements meet them.
  std::vector<std::pair<int, int>> seen;
  const int step_k = op.k_step_elements();
  for (int mn = 0; mn < x.mn; ++mn) {
    for (int kl = 0; kl < step_k; ++kl) {
      const CoreMatrix c = core_matrix_of(op, mn, kl);
      auto it = std::find(seen.begin(), seen.end(), std::pair{c.mn_first, c.k_first});
      if (it == seen.end()) it = seen.insert(seen.end(), {c.mn_first, c.k_first});
      const std::int64_t read = descriptor_byte(step, op, mn, kl);
      const auto i = index(read);
      if (!i) continue;
      m.core[*i] = static_cast<int>(it - seen.begin());
      if (read != producer_byte(fill, op.major, mn, s * step_k + kl)) m.misread[*i] = 1;
    }
  }
  m.cores = static_cast<int>(seen.size());
  return m;
}

// The elements whose addresses the arrows join: the first core matrix's first element, the
// next group along SBO, the next along LBO (or +16 B where LBO is unused). `beyond` says what
// the operand lacks when that element is not in it (an MN-major operand one atom wide has no
// next atom for LBO to reach).
struct Arrow {
  int mn, k;
  std::string text;
  std::string beyond;
};

std::vector<Arrow> offset_arrows(const MatrixDescriptor& d, const OperandShape& op) {
  const DescSwizzleInfo& s = desc_swizzle(d.swizzle);
  const int per_chunk = 16 / op.elem_bytes();
  const bool swizzled = d.swizzle != DescSwizzle::none;
  const std::string sbo = format("SBO %lld B", static_cast<long long>(d.sbo));
  const std::string lbo = format("LBO %lld B", static_cast<long long>(d.lbo));
  if (op.major == OperandMajor::k) {
    return {{8, 0, sbo, "the operand has one group of 8 rows along MN"},
            {0, per_chunk, swizzled ? "LBO unused: +16 B" : lbo, ""}};
  }
  if (!swizzled) {
    return {{per_chunk, 0, sbo, "the operand is one 16-byte column wide along MN"},
            {0, 8, lbo, "one k-step reads one group of 8 rows of K"}};
  }
  return {{0, s.atom_rows, sbo, format("one k-step reads one group of %d rows of K", s.atom_rows)},
          {s.width_bytes / op.elem_bytes(), 0, lbo,
           format("the operand is one %d-byte swizzle atom wide along MN", s.width_bytes)}};
}

// The arrows the operand has room for, and a note for each it has not.
std::vector<std::string> unused_offsets(const std::vector<Arrow>& arrows, const OperandShape& op,
                                        const OperandExtent& x) {
  std::vector<std::string> notes;
  for (const Arrow& r : arrows) {
    if (r.mn >= x.mn || r.k >= op.k_step_elements())
      notes.push_back(r.text + " unused: " + r.beyond);
  }
  return notes;
}

std::string heading_text(const MatrixDescriptor& d, const OperandShape& op, const OperandFill& fill,
                         const OperandExtent& x, int s) {
  return format("%s descriptor %s reads k-step %d of a %dx%d %s %s-major operand; %s wrote %s",
                d.arch == MmaArch::sm90 ? "wgmma" : "tcgen05", hex_word(encode(d)).c_str(), s, x.mn,
                x.k, std::string(dtype_name(op.dtype)).c_str(),
                std::string(to_string(op.major)).c_str(), fill.is_tma() ? "TMA" : "STS",
                swizzle_kind(fill.box.swizzle.kind).native(fill.box).c_str());
}

std::string verdict_text(const DescriptorAgreement& a, int s) {
  if (a.agrees()) {
    return format("agrees: all %lld elements are read where they were written",
                  static_cast<long long>(a.elements));
  }
  return format("MISMATCH: %lld of %lld elements misread (%lld in k-step %d)",
                static_cast<long long>(a.mismatched), static_cast<long long>(a.elements),
                static_cast<long long>(a.steps[static_cast<std::size_t>(s)].mismatched), s);
}

// The rules in words, when nothing can be compared.
Figure rules_figure(Figure f, const DescriptorAgreement& a, Box area, const FigureStyle& st) {
  const Palette& p = *st.palette;
  float y = area.y0 + st.font * 2.8f;
  for (const auto* list : {&a.descriptor_rules, &a.producer_rules}) {
    for (const DescFinding& r : *list) {
      if (!r.undefined) continue;
      const float size = fit_font(r.rule, st.font, area.width(), st.font);
      f.labels.push_back(at(r.rule, std::max(size, st.min_font), p.error, area.x0, y, Role::text));
      y += st.font * 1.3f;
    }
  }
  f.labels.push_back(at("not compared: the bytes written or read are undefined", st.font, p.text,
                        area.x0, area.y0 + st.font * 1.3f, Role::verdict));
  return f;
}

bool overlap(const Box& a, const Box& b) {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

// Where the chunks are drawn: 8 a line, `lines` lines from `top`.
struct ChunkGrid {
  float left = 0, top = 0, pitch_x = 0, pitch_y = 0;
  int lines = 0;
  Box cell(std::int64_t i) const {
    const float x0 = left + static_cast<float>(i % 8) * pitch_x;
    const float y0 = top + static_cast<float>(i / 8) * pitch_y;
    return Box{x0, y0, x0 + pitch_x - 1.0f, y0 + pitch_y - 1.0f};
  }
  std::int64_t chunks() const { return std::int64_t{lines} * 8; }
  float bottom() const { return top + static_cast<float>(lines) * pitch_y; }
};

// Each line's byte offset and chunk order, and each chunk: its colour and the operand chunk it
// holds.
void draw_chunks(Figure& f, const ChunkMap& m, const ChunkGrid& g, float right, Box area,
                 float small, const FigureStyle& st) {
  const Palette& p = *st.palette;
  for (int line = 0; line < m.lines; ++line) {
    std::string order;
    for (int q = 0; q < 8; ++q) {
      const int logical = m.logical_chunk[static_cast<std::size_t>(line * 8 + q)];
      order += (q ? " " : "") + (logical < 0 ? std::string("-") : std::to_string(logical));
    }
    const float y = g.top + static_cast<float>(line) * g.pitch_y;
    const float shown = std::max(std::min(small, g.pitch_y - 1.0f), st.min_font);
    f.labels.push_back(
        at(format("+0x%05x", line * 128), shown, p.text_dim, area.x0, y, Role::axis_label, line));
    f.labels.push_back(at(order, shown, p.text_dim, right + 6, y, Role::axis_label, line));
  }
  for (std::size_t i = 0; i < m.holds.size(); ++i) {
    const Box b = g.cell(static_cast<std::int64_t>(i));
    Rgba colour = m.holds[i] ? p.cell_empty : p.padding;
    if (m.core[i] >= 0) colour = p.wavefronts[static_cast<std::size_t>(m.core[i] % 32)];
    if (m.misread[i]) colour = p.cell_conflict;
    f.rects.push_back(
        {b, colour, m.holds[i] ? Fill::solid : Fill::striped, Role::cell, static_cast<int>(i)});
    if (!m.holds[i]) continue;
    const std::string text = format("%d,%d", m.holds[i]->first, m.holds[i]->second);
    const float size = fit_font(text, small, b.width(), b.height());
    if (size < st.min_font) continue;
    const Rgba ink = m.misread[i] || m.core[i] >= 0 ? p.on_fill : p.text;
    f.labels.push_back(centred(text, size, ink, b, Role::cell_label, static_cast<int>(i)));
  }
}

// The first core matrix outlined, and SBO and LBO as arrows from its first chunk to the chunks
// the descriptor reads one group further (descriptor_byte()). An arrow whose chunk lies below
// the lines drawn runs to the grid's bottom edge and says where it ends.
void draw_core_and_offsets(Figure& f, const MatrixDescriptor& step, const OperandShape& op,
                           const OperandExtent& x, std::int64_t dest, const ChunkMap& m,
                           const ChunkGrid& g, float right, float small, float min_font,
                           const Palette& p) {
  for (std::size_t i = 0; i < m.core.size(); ++i) {
    if (m.core[i] == 0) {
      f.overlays.push_back({g.cell(static_cast<std::int64_t>(i)), p.highlight, Fill::outline,
                            Role::tile_outline, 0, 2.0f});
    }
  }
  const auto chunk_of = [&](int mn, int k) {
    return (descriptor_byte(step, op, mn, k) - dest) / 16;
  };
  const std::int64_t from = chunk_of(0, 0);
  if (from < 0 || from >= g.chunks()) return;
  const std::vector<Arrow> arrows = offset_arrows(step, op);
  std::vector<Box> placed;
  int arrow = 0;
  for (std::size_t n = 0; n < arrows.size(); ++n) {
    const Arrow& r = arrows[n];
    if (r.mn >= x.mn || r.k >= op.k_step_elements()) continue;  // the legend says why
    const std::int64_t to = chunk_of(r.mn, r.k);
    if (to < 0) continue;
    const bool below = to >= g.chunks();
    // The two arrows a fifth of a chunk either side of the centre: an MN-major operand's SBO and
    // LBO both run down one column of memory, and must stay two lines.
    const float shift = (n == 0 ? -0.2f : 0.2f) * g.pitch_x;
    const Box a = g.cell(from);
    const Box b = below ? g.cell((g.lines - 1) * 8 + to % 8) : g.cell(to);
    f.lines.push_back({(a.x0 + a.x1) / 2 + shift, (a.y0 + a.y1) / 2, (b.x0 + b.x1) / 2 + shift,
                       below ? g.bottom() : (b.y0 + b.y1) / 2, 2.5f, p.title, Role::access_line,
                       arrow});
    const std::string text = below ? r.text + format(": to +0x%05llx, below",
                                                     static_cast<unsigned long long>(to / 8 * 128))
                                   : r.text;
    // From the target chunk's left edge, so that its halo covers that chunk's own label whole
    // rather than half of it (the arrow's words must read; the arrow names the chunk anyway);
    // a line lower where the other arrow's words already lie there.
    // In the height of one line where the lines are packed tight, as their offsets are.
    const float size = std::max(std::min(small, g.pitch_y - 1.0f), min_font);
    // Placed as detail::centred() places a chunk's label, so that it covers that label whole.
    float y = std::max(std::floor((b.y0 + b.y1 - size) / 2), b.y0);
    Label label = at(text, size, p.title, b.x0 + 2.0f, y, Role::legend, arrow++);
    for (const Box& other : placed) {
      if (overlap(label.box, other)) {
        y += below ? -g.pitch_y : g.pitch_y;
        label = at(text, size, p.title, b.x0 + 2.0f, y, Role::legend, label.index);
      }
    }
    label.halo = p.background;
    // ... and up to the edge of the chunk it ends in, so that no chunk's label shows half.
    const float cells = std::ceil((label.box.x1 - g.left) / g.pitch_x);
    label.box.x1 = std::min(right, g.left + cells * g.pitch_x - 2.0f);
    placed.push_back(label.box);
    f.labels.push_back(std::move(label));
  }
}

}  // namespace

Figure descriptor_figure(const MatrixDescriptor& d, const OperandShape& op, const OperandFill& fill,
                         int k_step, Box area, const FigureStyle& st) {
  const Palette& p = *st.palette;
  Figure f = detail::blank_figure(area.x1, area.y1, p);
  const DescriptorAgreement a = check_agreement(d, op, fill);
  const OperandExtent x = operand_extent(fill, op.major);
  // The heading in one line: shortened (the word and the producer left out), not shrunk, where
  // the whole of it would fall under the minimum type (a slide's figure beside its text).
  std::string heading = heading_text(d, op, fill, x, std::max(0, k_step));
  float heading_font = fit_font(heading, st.font, area.width(), st.font);
  if (heading_font < st.min_font) {
    heading =
        format("k-step %d of a %dx%d %s %s-major operand", std::max(0, k_step), x.mn, x.k,
               std::string(dtype_name(op.dtype)).c_str(), std::string(to_string(op.major)).c_str());
    heading_font = std::max(st.min_font, fit_font(heading, st.font, area.width(), st.font));
  }
  f.labels.push_back(at(heading, heading_font, p.text, area.x0, area.y0, Role::heading));
  if (!a.compared || a.steps.empty()) return rules_figure(std::move(f), a, area, st);
  const int s = std::clamp(k_step, 0, static_cast<int>(a.steps.size()) - 1);
  MatrixDescriptor step = d;
  step.start = a.steps[static_cast<std::size_t>(s)].start;
  f.labels.push_back(at(verdict_text(a, s), st.font, a.agrees() ? p.text_ok : p.error, area.x0,
                        area.y0 + st.font * 1.3f, Role::verdict));
  // The grid: byte offsets on the left, each line's chunk order on the right, a legend below;
  // as many lines as fit with their labels readable.
  const float small = std::max(st.min_font, st.font * 0.75f);
  const float left = area.x0 + text_width("+0x00000", small) + 6;
  const float right = area.x1 - text_width("0 1 2 3 4 5 6 7", small) - 8;
  const float top = area.y0 + st.font * 2.8f;
  // The legend under the grid, as many lines as it wraps to in this width (measured with the
  // longest "first N of M lines" item it can get), with a note for each offset the operand has
  // no room for.
  std::vector<detail::LegendItem> items = {
      {p.wavefronts[0], Fill::solid, "read by this k-step (a colour per core matrix)"},
      {p.cell_conflict, Fill::solid, "misread: not where the producer put it"},
      {p.cell_empty, Fill::solid, "written, not read by this k-step"},
      {p.highlight, Fill::outline, "the first core matrix"}};
  for (std::string& note : unused_offsets(offset_arrows(step, op), op, x))
    items.push_back({p.title, Fill::solid, std::move(note), true});
  std::vector<detail::LegendItem> widest = items;
  widest.push_back({p.text_dim, Fill::solid, "first 9999 of 9999 lines"});
  Figure scratch;
  const float legend_h = detail::legend(scratch, widest, area.x0, 0, area.width(), small, p);
  const float bottom = area.y1 - legend_h - 6;
  const int fit = static_cast<int>((bottom - top) / (st.min_font + 3.0f));
  const ChunkMap m = map_chunks(step, op, fill, x, s, fit);
  const ChunkGrid g{left, top, (right - left) / 8, (bottom - top) / static_cast<float>(m.lines),
                    m.lines};
  f.grid = Grid{left, top, g.pitch_x, g.pitch_y, 1.0f, m.lines, 8};
  draw_chunks(f, m, g, right, area, small, st);
  draw_core_and_offsets(f, step, op, x, fill.dest, m, g, right, small, st.min_font, p);
  if (m.lines < m.total_lines) {
    items.push_back(
        {p.text_dim, Fill::solid, format("first %d of %d lines", m.lines, m.total_lines)});
  }
  detail::legend(f, items, area.x0, bottom + 6, area.width(), small, p);
  return f;
}

}  // namespace banklab::figures
