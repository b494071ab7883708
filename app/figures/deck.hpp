#pragma once
// A lesson as one self-contained HTML deck a lecturer opens on any laptop: one <section> per
// step (the slide's header, its text as HTML paragraphs and code, its figures as inline SVG laid
// out as the slide lays them out), arrow keys, Page Up/Down (clickers) and Home/End to step, the
// step in the address (#3) so a reload stays there. No script, style, font or image is fetched:
// everything is in the file, and nothing in it names another address.
#include <span>
#include <string>
#include <string_view>

#include "app/figures/slide.hpp"

namespace banklab::figures {

// `slides` in order; each slide's figures are laid out for a width x height slide in `st`'s
// palette.
std::string html_deck(std::string_view title, std::span<const Slide> slides, float width,
                      float height, const FigureStyle& st);

}  // namespace banklab::figures
