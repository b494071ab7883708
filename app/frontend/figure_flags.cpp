#include "app/frontend/figure_flags.hpp"

#include "app/frontend/args.hpp"

namespace banklab::frontend {

Expected<figures::Theme> read_theme(std::string_view text) {
  return choice(figures::parse_theme, "--theme is 'dark' or 'light'; got ")(text);
}

Expected<figures::Scheme> read_palette(std::string_view text) {
  return choice(figures::parse_scheme, "--palette is 'standard' or 'colour-blind'; got ")(text);
}

Expected<figures::TileView> read_tile_view(std::string_view text) {
  return choice(figures::parse_tile_view, "--tile-view is logical, physical or both; got ")(text);
}

}  // namespace banklab::frontend
