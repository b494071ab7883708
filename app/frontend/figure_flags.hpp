#pragma once
// The flags that pick how a figure looks, read the same way by banklab export and banklab-gui:
// --theme dark|light, --palette standard|colour-blind, --tile-view logical|physical|both. Each
// reader is a FlagReader::value() reader (args.hpp): the value, or the message naming the flag
// and its choices ("--theme is 'dark' or 'light'; got 'blue'").
#include <string_view>

#include "app/figures/figure.hpp"
#include "app/figures/figure_palette.hpp"
#include "core/base/expected.hpp"

namespace banklab::frontend {

Expected<figures::Theme> read_theme(std::string_view text);
Expected<figures::Scheme> read_palette(std::string_view text);
Expected<figures::TileView> read_tile_view(std::string_view text);

}  // namespace banklab::frontend
