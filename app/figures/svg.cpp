#include "app/figures/svg.hpp"

#include <cmath>

#include "core/base/format.hpp"

namespace banklab::figures {
namespace {

// Two decimals at most, no trailing zeros: "12", "12.5".
std::string num(float v) {
  std::string s = format("%.2f", static_cast<double>(v));
  while (s.ends_with('0')) s.pop_back();
  if (s.ends_with('.')) s.pop_back();
  return s == "-0" ? "0" : s;
}

std::string paint(std::string_view attribute, Rgba c) {
  std::string out = std::string(attribute) + "=\"" + hex(c) + "\"";
  if (c.a != 255) out += " " + std::string(attribute) + "-opacity=\"" + num(c.a / 255.0f) + "\"";
  return out;
}

void rect(std::string& out, const Box& b, const std::string& attributes) {
  out += "<rect x=\"" + num(b.x0) + "\" y=\"" + num(b.y0) + "\" width=\"" + num(b.width()) +
         "\" height=\"" + num(b.height()) + "\" " + attributes + "/>\n";
}

void write_rect(std::string& out, const Rect& r) {
  const std::string cls = "class=\"" + std::string(role_name(r.role)) + "\" ";
  if (r.fill == Fill::outline) {
    const float h = r.stroke * 0.5f;  // the frame lies inside the box, as the GUI draws it
    rect(out, Box{r.box.x0 + h, r.box.y0 + h, r.box.x1 - h, r.box.y1 - h},
         cls + "fill=\"none\" " + paint("stroke", r.colour) + " stroke-width=\"" + num(r.stroke) +
             "\"");
    return;
  }
  rect(out, r.box, cls + paint("fill", r.colour));
  if (r.fill == Fill::striped) rect(out, r.box, "fill=\"url(#stripes)\"");
}

}  // namespace

std::string xml_escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\t' || c == '\n') out += c;
    }
  }
  return out;
}

namespace {

// The <svg> element: `open` is its start tag's first attributes; `id` prefixes the pattern's.
std::string svg_element(const Figure& f, const std::string& open, std::string_view id) {
  const std::string stripes = std::string(id) + "stripes";
  std::string out = "<svg " + open + "width=\"" + num(f.width) + "\" height=\"" + num(f.height) +
                    "\" viewBox=\"0 0 " + num(f.width) + " " + num(f.height) +
                    "\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\">\n";
  // The stripes over shared words and padding: dark diagonals, 6 px apart.
  out += "<defs><pattern id=\"" + stripes +
         "\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
         "patternTransform=\"rotate(45)\"><rect width=\"2.5\" height=\"6\" fill=\"#000000\" "
         "fill-opacity=\"0.3\"/></pattern></defs>\n";
  rect(out, Box{0, 0, f.width, f.height}, paint("fill", f.background));
  for (const Heatmap& h : f.heatmaps) {
    const float pw = h.box.width() / static_cast<float>(h.cols);
    const float ph = h.box.height() / static_cast<float>(h.rows);
    out += "<g class=\"heatmap\" shape-rendering=\"crispEdges\">\n";
    for (int r = 0; r < h.rows; ++r) {
      for (int c = 0; c < h.cols; ++c) {
        const std::size_t i = static_cast<std::size_t>(r) * h.cols + c;
        const auto x = static_cast<float>(c), y = static_cast<float>(r);
        const Box b{h.box.x0 + pw * x, h.box.y0 + ph * y, h.box.x0 + pw * (x + 1),
                    h.box.y0 + ph * (y + 1)};
        rect(out, b, paint("fill", h.colours[i]));
        if (h.striped[i]) rect(out, b, "fill=\"url(#stripes)\"");
      }
    }
    out += "</g>\n";
  }
  for (const Rect& r : f.rects) write_rect(out, r);
  for (const Line& l : f.lines) {
    out += "<line class=\"" + std::string(role_name(l.role)) + "\" x1=\"" + num(l.x0) + "\" y1=\"" +
           num(l.y0) + "\" x2=\"" + num(l.x1) + "\" y2=\"" + num(l.y1) + "\" " +
           paint("stroke", l.colour) + " stroke-width=\"" + num(l.width) +
           "\" stroke-linecap=\"round\"/>\n";
  }
  for (const Rect& r : f.overlays) write_rect(out, r);
  for (const Label& l : f.labels) {
    if (l.halo.a != 0) {
      rect(out, Box{l.box.x0 - 1, l.box.y0, l.box.x1 + 1, l.box.y1},
           "rx=\"2\" " + paint("fill", l.halo));
    }
    // The baseline: DejaVu's ascent is 0.76 em of the 1 em box the layout reserved (its descent
    // 0.24 em below).
    out += "<text class=\"" + std::string(role_name(l.role)) + "\" x=\"" + num(l.box.x0) +
           "\" y=\"" + num(l.box.y0 + l.size * 0.76f) + "\" font-size=\"" + num(l.size) + "\" " +
           paint("fill", l.colour) +
           // A code line's indentation is kept (SVG collapses spaces otherwise).
           (l.text.starts_with(' ') || l.text.find("  ") != std::string::npos
                ? " xml:space=\"preserve\">"
                : ">") +
           xml_escape(l.text) + "</text>\n";
  }
  out += "</svg>\n";
  // Every fill="url(#stripes)" names this element's pattern.
  const std::string plain = "url(#stripes)", own = "url(#" + stripes + ")";
  if (plain != own) {
    for (auto at = out.find(plain); at != std::string::npos;
         at = out.find(plain, at + own.size())) {
      out.replace(at, plain.size(), own);
    }
  }
  return out;
}

}  // namespace

std::string to_svg(const Figure& f) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" +
         svg_element(f, "xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" ", "");
}

std::string to_svg_element(const Figure& f, std::string_view id) {
  return svg_element(f, "", id);
}

}  // namespace banklab::figures
