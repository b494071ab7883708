// banklab export: one scenario as a figure (the bank view, the lane map or the tile, as SVG) or
// as text for documents (the lane table as CSV or Markdown, the derivation as Markdown). The
// pictures are banklab_figures' layouts, the same ones banklab-gui draws; no display needed.
#include <optional>
#include <string>
#include <string_view>

#include "app/cli/commands.hpp"
#include "app/figures/figure.hpp"
#include "app/figures/svg.hpp"
#include "app/figures/tables.hpp"
#include "app/frontend/file_io.hpp"
#include "app/frontend/text_file.hpp"
#include "core/banklab.hpp"

namespace banklab::cli {
namespace {

// What can be exported, and in which formats (the first is the default).
struct Kind {
  std::string_view what;
  std::string_view formats[2];
};
constexpr Kind kKinds[] = {{"banks", {"svg"}},
                           {"lanes", {"svg"}},
                           {"tile", {"svg"}},
                           {"table", {"csv", "md"}},
                           {"derivation", {"md"}}};

const Kind* find_kind(std::string_view what) {
  for (const Kind& k : kKinds) {
    if (k.what == what) return &k;
  }
  return nullptr;
}

// "--tile-view both"; --physical is "--tile-view physical".
Expected<figures::TileView> tile_view(const frontend::Args& args) {
  const auto text = args.value("tile-view");
  if (args.has("physical") && text) {
    return Error{"--physical is --tile-view physical; give one of them, not both"};
  }
  if (args.has("physical")) return figures::TileView::physical;
  const auto view = figures::parse_tile_view(text.value_or("logical"));
  if (!view) return Error{"--tile-view is logical, physical or both; got " + quote(*text)};
  return *view;
}

// "--size 1600x900": the page in pixels (SVG user units).
Expected<figures::Box> page_size(const frontend::Args& args) {
  const std::string_view text = args.value("size").value_or("1280x720");
  const auto x = text.find_first_of("xX");
  if (x == std::string_view::npos) {
    return Error{"--size is WIDTHxHEIGHT in pixels, such as 1280x720; got " + quote(text)};
  }
  const auto w = frontend::parse_integer(text.substr(0, x), "--size's width", 320, 16384);
  if (!w) return Error{w.error()};
  const auto h = frontend::parse_integer(text.substr(x + 1), "--size's height", 240, 16384);
  if (!h) return Error{h.error()};
  return figures::Box{0, 0, static_cast<float>(*w), static_cast<float>(*h)};
}

Expected<std::string> svg_of(const frontend::Args& args, std::string_view what, const Scenario& s,
                             const Evaluation& e) {
  const auto size = page_size(args);
  if (!size) return Error{size.error()};
  const std::string_view theme_text = args.value("theme").value_or("light");
  const auto theme = figures::parse_theme(theme_text);
  if (!theme) return Error{"--theme is 'dark' or 'light'; got " + quote(theme_text)};
  const std::string_view scheme_text = args.value("palette").value_or("standard");
  const auto scheme = figures::parse_scheme(scheme_text);
  if (!scheme) {
    return Error{"--palette is 'standard' or 'colour-blind'; got " + quote(scheme_text)};
  }
  const auto font = args.integer("font", 16, 8, 96);
  if (!font) return Error{font.error()};
  const auto view = tile_view(args);
  if (!view) return Error{view.error()};
  figures::FigureStyle style;
  style.palette = &figures::palette_for(*theme, *scheme);
  style.font = static_cast<float>(*font);
  style.min_font = std::min(style.font, 9.0f);
  style.tile_view = *view;
  return figures::to_svg(
      figures::page_figure(*figures::parse_view(what), s, e, size->x1, size->y1, style));
}

}  // namespace

int run_export(const frontend::Args& args) {
  if (const auto mixed = frontend::mixed_forms(args)) return bad_input(*mixed);
  const auto what = args.value("what");
  if (!what) return bad_input("--what is needed: banks, lanes, tile, table or derivation");
  const Kind* kind = find_kind(*what);
  if (kind == nullptr) {
    return bad_input("--what is banks, lanes, tile, table or derivation; got " + quote(*what));
  }
  const std::string_view format = args.value("format").value_or(kind->formats[0]);
  if (format != kind->formats[0] && format != kind->formats[1]) {
    std::string allowed(kind->formats[0]);
    if (!kind->formats[1].empty()) allowed += " or " + std::string(kind->formats[1]);
    return bad_input("--what " + std::string(*what) + " is written as " + allowed + ", not " +
                     quote(format));
  }
  const bool figure = format == "svg";
  for (std::string_view flag : {"size", "theme", "palette", "font", "physical", "tile-view"}) {
    if (args.has(flag) && !figure) {
      return bad_input("--" + std::string(flag) + " shapes a figure (--what banks, lanes or tile)");
    }
  }
  if (args.has("physical") && *what != "tile") {
    return bad_input("--physical shows the tile as stored; it needs --what tile");
  }
  if (args.has("tile-view") && *what != "tile") {
    return bad_input("--tile-view picks the tile's picture; it needs --what tile");
  }

  const Expected<Scenario> s = frontend::scenario_from_flags(args);
  if (!s) return bad_input(s.error());
  const Evaluation e = evaluate(*s);
  // An access the core rejects has no counts, so no table or derivation: its tile can be
  // drawn, and every view of one refused because its rows slip off the access's alignment is
  // that tile with the misaligned rows marked beside the arithmetic (page_figure).
  if (!e.ok() && *what != "tile" && !(figure && figures::refused_rows(*s, e))) {
    return bad_input("cannot export the " + std::string(*what) + ": " + first_error(e.diagnostics));
  }
  if (*what == "tile" && !s->tile.check().empty()) {
    return bad_input("cannot export the tile: " + s->tile.check());
  }

  std::string text;
  const figures::LaneSource lanes{&e.elements, &s->tile};
  if (figure) {
    const Expected<std::string> svg = svg_of(args, *what, *s, e);
    if (!svg) return bad_input(svg.error());
    text = *svg;
  } else if (*what == "table") {
    text = format == "csv" ? figures::lane_table_csv(*e.analysis, lanes)
                           : figures::lane_table_markdown(*e.analysis, lanes);
  } else {
    text = figures::derivation_markdown(describe(*s), *e.analysis, explain(*s, e), e.diagnostics);
  }

  if (const auto path = args.value("output"); path && !frontend::is_standard_stream(*path)) {
    const Expected<bool> written = frontend::write_text_file(std::string(*path), text, "an export");
    if (!written) return failure(written.error());
    return kExitOk;
  }
  print(text);
  return kExitOk;
}

}  // namespace banklab::cli
