#pragma once
// A figure as SVG 1.1: vector shapes, text as <text> in DejaVu Sans Mono (the metric the
// layout measured with), each mark's role as its class ("bank_label", "cell", ...), so that a
// slide can restyle or pick them out.
#include <string>

#include "app/figures/figure.hpp"

namespace banklab::figures {

std::string to_svg(const Figure& f);
// The same as an <svg> element to put inside an HTML page: no XML declaration and no namespace
// (HTML knows <svg>), and its pattern's id prefixed by `id`, unique in the page.
std::string to_svg_element(const Figure& f, std::string_view id);

// Text for XML: & < > " ' escaped, control bytes other than tab and newline dropped.
std::string xml_escape(std::string_view text);

}  // namespace banklab::figures
