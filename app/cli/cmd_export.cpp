// banklab export: one scenario as a figure (the bank view, the lane map or the tile, as SVG) or
// as text for documents (the lane table as CSV or Markdown, the derivation as Markdown). The
// pictures are banklab_figures' layouts, the same ones banklab-gui draws; no display needed.
#include <optional>
#include <string>
#include <string_view>

#include "app/cli/commands.hpp"
#include "app/cli/syntax.hpp"
#include "app/figures/figure.hpp"
#include "app/figures/svg.hpp"
#include "app/figures/tables.hpp"
#include "app/frontend/figure_flags.hpp"
#include "app/frontend/file_io.hpp"
#include "app/frontend/text_file.hpp"
#include "core/banklab.hpp"
#include "core/base/format.hpp"

namespace banklab::cli {
namespace {

// The command's flag names, checked against its syntax when compiled (args.hpp).
using Flag = frontend::FlagName<kExport>;

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

// "--size 1600x900": the page in pixels (SVG user units).
Expected<figures::Box> read_page_size(std::string_view text) {
  const std::optional<Dimensions> size = parse_dimensions(text);
  if (!size) return Error{"--size is WIDTHxHEIGHT in pixels, such as 1280x720; got " + quote(text)};
  if (size->first < 320 || size->first > 16384) {
    return Error{format("--size's width must be between 320 and 16384, got %d", size->first)};
  }
  if (size->second < 240 || size->second > 16384) {
    return Error{format("--size's height must be between 240 and 16384, got %d", size->second)};
  }
  return figures::Box{0, 0, static_cast<float>(size->first), static_cast<float>(size->second)};
}

struct ExportOptions {
  frontend::ScenarioFlags scenario;
  const Kind* kind = nullptr;  // --what
  std::string format;          // one of the kind's formats
  std::optional<std::string> output;
  // The figure's style (--what banks, lanes or tile).
  figures::Box page{0, 0, 1280, 720};
  int font = 16;
  figures::Theme theme = figures::Theme::light;
  figures::Scheme scheme = figures::Scheme::standard;
  figures::TileView tile_view = figures::TileView::logical;
};

Expected<ExportOptions> read_options(const frontend::Args& args) {
  ExportOptions o;
  o.scenario = frontend::scenario_flags(args);
  if (const Expected<void> one = frontend::check_one_form(o.scenario); !one) {
    return Error{one.error()};
  }
  const auto what = args.value(Flag("what"));
  if (!what) return Error{"--what is needed: banks, lanes, tile, table or derivation"};
  o.kind = find_kind(*what);
  if (o.kind == nullptr) {
    return Error{"--what is banks, lanes, tile, table or derivation; got " + quote(*what)};
  }
  o.format = std::string(args.value(Flag("format")).value_or(o.kind->formats[0]));
  if (o.format != o.kind->formats[0] && o.format != o.kind->formats[1]) {
    std::string allowed(o.kind->formats[0]);
    if (!o.kind->formats[1].empty()) allowed += " or " + std::string(o.kind->formats[1]);
    return Error{"--what " + std::string(*what) + " is written as " + allowed + ", not " +
                 quote(o.format)};
  }
  for (const Flag flag : {Flag("size"), Flag("theme"), Flag("palette"), Flag("font"),
                          Flag("physical"), Flag("tile-view")}) {
    if (args.has(flag) && o.format != "svg") {
      return Error{"--" + std::string(flag) + " shapes a figure (--what banks, lanes or tile)"};
    }
  }
  if (args.has(Flag("physical")) && *what != "tile") {
    return Error{"--physical shows the tile as stored; it needs --what tile"};
  }
  if (args.has(Flag("tile-view")) && *what != "tile") {
    return Error{"--tile-view picks the tile's picture; it needs --what tile"};
  }
  if (args.has(Flag("physical")) && args.has(Flag("tile-view"))) {
    return Error{"--physical is --tile-view physical; give one of them, not both"};
  }
  bool physical = false;
  const Expected<void> read = frontend::FlagReader<kExport>(args)
                                  .text("output", o.output)
                                  .value("size", o.page, read_page_size)
                                  .value("theme", o.theme, frontend::read_theme)
                                  .value("palette", o.scheme, frontend::read_palette)
                                  .integer("font", o.font, 8, 96)
                                  .value("tile-view", o.tile_view, frontend::read_tile_view)
                                  .flag("physical", physical)
                                  .done();
  if (!read) return Error{read.error()};
  if (physical) o.tile_view = figures::TileView::physical;
  return o;
}

std::string svg_of(const ExportOptions& o, const Study& s) {
  figures::FigureStyle style;
  style.palette = &figures::palette_for(o.theme, o.scheme);
  style.font = static_cast<float>(o.font);
  style.min_font = std::min(style.font, 9.0f);
  style.tile_view = o.tile_view;
  return figures::to_svg(
      figures::page_figure(*figures::parse_view(o.kind->what), s, o.page.x1, o.page.y1, style));
}

}  // namespace

int run_export(const frontend::Args& args) {
  const Expected<ExportOptions> o = read_options(args);
  if (!o) return bad_input(o.error());
  const std::string_view what = o->kind->what;
  const Expected<Scenario> scenario = frontend::scenario_from_flags(o->scenario);
  if (!scenario) return bad_input(scenario.error());
  const Study s = study(*scenario);
  const Evaluation& e = s.evaluation;
  // An access the core rejects has no counts, so no table or derivation: its tile can be
  // drawn, and every view of one refused because its rows slip off the access's alignment is
  // that tile with the misaligned rows marked beside the arithmetic (page_figure).
  if (!e.ok() && what != "tile" && !(o->format == "svg" && figures::refused_rows(s))) {
    return bad_input("cannot export the " + std::string(what) + ": " + first_error(e.diagnostics));
  }
  if (what == "tile" && !s.tile_valid) {
    return bad_input("cannot export the tile: " + s.tile_valid.error());
  }

  std::string text;
  const figures::LaneSource lanes{&e.elements, &s.scenario.tile};
  if (o->format == "svg") {
    text = svg_of(*o, s);
  } else if (what == "table") {
    text = o->format == "csv" ? figures::lane_table_csv(*e.analysis, lanes)
                              : figures::lane_table_markdown(*e.analysis, lanes);
  } else {
    text = figures::derivation_markdown(describe(s.scenario), *e.analysis, s.explanation,
                                        e.diagnostics);
  }

  if (o->output && !frontend::is_standard_stream(*o->output)) {
    const Expected<void> written = frontend::write_text_file(*o->output, text, "an export");
    if (!written) return failure(written.error());
    return kExitOk;
  }
  print(text);
  return kExitOk;
}

}  // namespace banklab::cli
