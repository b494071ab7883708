#pragma once
// Helpers the figure layouts share (figure_*.cpp); not part of the library's interface.
#include <array>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "app/figures/figure.hpp"
#include "core/report/study.hpp"

namespace banklab::figures::detail {

// Whether i names a lane or a bank (0..31): a lesson's highlight lists are checked by the core,
// a figure still never shifts by more than a word has bits.
inline bool in_warp(int i) {
  return i >= 0 && i < 32;
}

// What red means, in the same words in every legend (the bank view's cells, the lane map's lines).
inline constexpr std::string_view kConflictLegend = "conflict: bank holds several words";

// A figure of width x height with nothing on it but the palette's background.
Figure blank_figure(float width, float height, const Palette& p);

// A label of `text` at `size`, centred in `cell` (and remembering it as the cell it names).
Label centred(std::string text, float size, Rgba colour, Box cell, Role role, int index);
// A label with its top-left corner at (x, y).
Label at(std::string text, float size, Rgba colour, float x, float y, Role role, int index = -1);

// A caption at (x, y) in `size`: the first of `choices` (longest first) that fits `width` at that
// size; where none does, the last one shrunk to fit, but never below `least` (a projector's
// digit minimum: the words a room reads are shortened, not shrunk).
Label caption_fitting(std::initializer_list<std::string> choices, float size, float least,
                      float width, Rgba colour, float x, float y);

// What a bank-view cell (and the lane map's line to it) shows: conflict, shared or served.
enum class Status : std::uint8_t { empty, served, shared, conflict };
Status slot_status(const Analysis& a, const BankLoad& load, int wavefront, int bank);
Rgba status_colour(const Palette& p, Status s);

// A legend row: swatches and their words, wrapped onto new lines when the width runs out.
// Returns the height it took.
struct LegendItem {
  Rgba colour;
  Fill fill;
  std::string text;
  bool line = false;    // a line sample instead of a swatch
  std::string brief{};  // said instead where room is short ("conflict"); empty: the text
};
// Lays the items out in rows across `width` from (x, y), each in its brief text (where it has
// one) when `brief`; returns the height taken.
float legend(Figure& f, const std::vector<LegendItem>& items, float x, float y, float width,
             float font, const Palette& p, bool brief = false);

}  // namespace banklab::figures::detail
