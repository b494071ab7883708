#pragma once
// A link is a scenario: the browser edition (app/web) reads the URL fragment when the page
// opens and writes it back as the user explores, so the address always reopens what is on
// screen. The fragment is banklab-gui's command line as key=value pairs joined by '&', the
// keys its flags without the dashes and the values URL-encoded:
//
//   #preset=bf16-pad1-odd                      #lesson=transpose&step=6
//   #compare=fp32-naive,fp32-pad1              #drill=hire&drill-seed=7 (or seed=7)
//   #dtype=bf16&pad=1&index=3 #decl=__shared__%20float%20t%5B32%5D%5B33%5D%3B&expr=...
//   #preset=fp32-naive&present=1&theme=light&palette=colour-blind&tile-view=both
//
// A switch (present, gpu) is on when given alone or as =1 or =true, off as =0 or =false. The
// pairs become words for parse_options(), so a link obeys the flags' rules and messages; flags
// that name files on the user's machine (--screenshot, --scenario, ...) or the window's size
// are refused, since a link cannot reach them. Pure functions: the tests run them headless.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/gui/platform/options.hpp"
#include "app/gui/state/app_state.hpp"
#include "core/base/expected.hpp"

namespace banklab::gui {

// Longer fragments are refused whole, before anything is decoded.
inline constexpr std::size_t kMaxLinkBytes = 16 * 1024;

// "%5B" to '[' and so on; a '%' without two hex digits after it is an Error.
Expected<std::string> percent_decode(std::string_view text);
// Every byte but letters, digits and -_.~,:/()*!'@ as %XX.
std::string percent_encode(std::string_view text);

// The options a fragment (without its '#') asks for; an Error says which pair is wrong and why.
// The empty fragment asks for nothing (Options{}).
Expected<Options> options_from_link(std::string_view fragment);

// What is on screen as flag names and values: the lesson and step, or the comparison, or the
// preset, the code or the scenario flags, then the open windows and the appearance (what
// differs from the defaults). A switch's value is "1".
std::vector<std::pair<std::string, std::string>> link_fields(const AppState& s);
// link_fields() as a fragment, without the '#'.
std::string link_to(const AppState& s);

}  // namespace banklab::gui
