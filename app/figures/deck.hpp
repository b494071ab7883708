#pragma once
// A lesson as one self-contained HTML deck a lecturer opens on any laptop: one <section> per
// step, its slide one inline SVG laid out as the exported PNG is (slide_layout(), projector.hpp's
// minimums) and scaled to fill the window with its aspect kept (a phone's width shows a second,
// portrait slide laid out to the hand-held minimums instead), and the step's speaker notes
// (the text that did not fit the slide) in an <aside> that N shows. A click or a tap, Space,
// the arrows, Page Up/Down (a clicker) and Home/End step; the step is in the address (#3) so a
// reload stays there. No script, style, font or image is fetched: everything is in the file,
// and nothing in it names another address.
#include <span>
#include <string>
#include <string_view>

#include "app/figures/slide.hpp"

namespace banklab::figures {

// `slides` in order, each laid out as a width x height slide in `st`'s palette (their footers
// replaced by the deck's keys).
std::string html_deck(std::string_view title, std::span<const Slide> slides, float width,
                      float height, const FigureStyle& st);

}  // namespace banklab::figures
