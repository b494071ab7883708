#include "app/figures/deck.hpp"

#include <cstdio>
#include <sstream>

#include "app/figures/projector.hpp"
#include "app/figures/svg.hpp"

namespace banklab::figures {
namespace {

// The portrait slide a phone's width shows (a window narrower than kHandheldWidth), laid out to
// the hand-held minimums for the smallest common phone, so that any phone scales it up (1.08
// times in a 390x844 window): a 1280x720 slide on a phone was drawn at 0.3 times, 6 px text.
constexpr float kPhoneSlideWidth = 360.0f, kPhoneSlideHeight = 780.0f;

// The page's look, in the palette's colours: one section on screen at a time, its slide one SVG
// scaled to fill the window (its aspect kept: a 1280x720 slide is drawn 1:1 in a 1280x720
// window, 1.5 times in a 1920x1080 one; a phone's width shows the portrait slide instead), the
// notes over its lower half when asked for, in the body minimum's type scaled the same way.
std::string style_sheet(const Palette& p) {
  // The notes' type: the body minimum in a window of the projector's height, growing with it.
  const float body = projector_minimums(kProjectorHeight).body;
  char notes_font[64];
  std::snprintf(notes_font, sizeof notes_font, "max(%.0fpx,%.2fvh)", body,
                body * 100.0f / kProjectorHeight);
  return "<style>\n"
         "html,body{margin:0;height:100%;overflow:hidden;background:" +
         hex(p.background) + ";color:" + hex(p.text) +
         ";font-family:'DejaVu Sans',Verdana,sans-serif}\n"
         "section{display:none;width:100vw;height:100vh;align-items:center;"
         "justify-content:center}\n"
         "section.current{display:flex}\n"
         "section>svg{display:block;width:100vw;height:100vh}\n"
         "section>svg~svg,section>aside.phone{display:none}\n"
         "aside{display:none;position:fixed;left:0;right:0;bottom:0;max-height:50vh;"
         "overflow:auto;box-sizing:border-box;padding:1vh 3vw;font-size:" +
         std::string(notes_font) + ";line-height:1.35;background:" + hex(p.cell_empty) +
         ";border-top:2px solid " + hex(p.text_dim) +
         "}\n"
         "body.notes section.current aside.wide{display:block}\n"
         // A phone's width: the phone's slide and notes instead.
         "@media (max-width:" +
         std::to_string(static_cast<int>(kHandheldWidth) - 1) +
         "px){section>svg{display:none}section>svg~svg{display:block}"
         "body.notes section.current aside.wide{display:none}"
         "body.notes section.current aside.phone{display:block}}\n"
         "aside h2{margin:0 0 .5em;font-size:1em;color:" +
         hex(p.text_dim) +
         "}\n"
         "aside p{margin:0 0 .5em}\n"
         "aside pre{margin:0 0 .5em;white-space:pre-wrap;font-family:'DejaVu Sans "
         "Mono',monospace}\n"
         "</style>\n";
}

// Keys, clicks and taps step through the sections (a clicker sends Page Up/Down or the arrows);
// N shows the speaker notes; the step is kept in the address's fragment.
constexpr std::string_view kScript = R"(<script>
(function () {
  var slides = document.querySelectorAll('section');
  var at = 0;
  function show(i) {
    at = Math.max(0, Math.min(slides.length - 1, i));
    for (var k = 0; k < slides.length; ++k) slides[k].classList.toggle('current', k === at);
    history.replaceState(null, '', '#' + (at + 1));
  }
  function notes(on) { document.body.classList.toggle('notes', on); }
  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (['ArrowRight', 'ArrowDown', 'PageDown', ' ', 'Enter'].indexOf(e.key) >= 0) show(at + 1);
    else if (['ArrowLeft', 'ArrowUp', 'PageUp', 'Backspace'].indexOf(e.key) >= 0) show(at - 1);
    else if (e.key === 'Home') show(0);
    else if (e.key === 'End') show(slides.length - 1);
    else if (e.key === 'n' || e.key === 'N') notes(!document.body.classList.contains('notes'));
    else if (e.key === 'Escape') notes(false);
    else return;
    e.preventDefault();
  });
  // A click or a tap: the next step, or the previous one on the left fifth of the window; the
  // notes take their own clicks (they scroll).
  document.addEventListener('click', function (e) {
    if (e.target.closest && e.target.closest('aside')) return;
    show(at + (e.clientX < window.innerWidth / 5 ? -1 : 1));
  });
  show((parseInt(location.hash.slice(1), 10) || 1) - 1);
})();
</script>
)";

// The slide's text: paragraphs as <p>, runs of code lines as one <pre>.
std::string text_html(std::string_view text) {
  std::string out;
  std::string paragraph, code;
  const auto flush = [&] {
    if (!paragraph.empty()) out += "<p>" + xml_escape(paragraph) + "</p>\n";
    if (!code.empty()) out += "<pre>" + xml_escape(code) + "</pre>\n";
    paragraph.clear();
    code.clear();
  };
  std::istringstream lines{std::string(reflow(text, 0))};
  for (std::string l; std::getline(lines, l);) {
    if (l.starts_with("    ")) {
      if (!paragraph.empty()) flush();
      if (!code.empty()) code += '\n';
      code += l.substr(4);
    } else if (l.empty()) {
      flush();
    } else {
      if (!code.empty()) flush();
      if (!paragraph.empty()) paragraph += ' ';
      paragraph += l;
    }
  }
  flush();
  return out;
}

// The keys, in every slide's footer; a phone's are taps.
constexpr std::string_view kDeckKeys =
    "Click, Space, PgDn, Right: next   PgUp, Left: previous   N: speaker notes";
constexpr std::string_view kDeckTaps = "Tap: next   Tap the left edge: previous";

// Step n's slide in the deck, width x height, its footer `keys`: the SVG (its ids prefixed
// "s3-", a phone's "p3-") and the speaker notes (the text that slide left out) in an <aside> of
// class `kind` ("wide" or "phone").
std::string slide_html(Slide s, const std::string& n, std::string_view keys, float width,
                       float height, const FigureStyle& st, std::string_view kind) {
  s.footer = std::string(keys);
  const SlideLayout layout = slide_layout(s, width, height, st);
  const std::string ids = (kind == "phone" ? "p" : "s") + n + "-";
  return to_svg_element(slide_figure(s, layout, st), ids) + "<aside class=\"" + std::string(kind) +
         "\">\n<h2>Speaker notes, step " + n + "</h2>\n" +
         (layout.notes.empty() ? "<p>The whole text of this step is on the slide.</p>\n"
                               : text_html(layout.notes)) +
         "</aside>\n";
}

}  // namespace

std::string html_deck(std::string_view title, std::span<const Slide> slides, float width,
                      float height, const FigureStyle& st) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += "<title>" + xml_escape(title) + "</title>\n" + style_sheet(*st.palette) + "</head>\n";
  out += "<body>\n";
  for (std::size_t i = 0; i < slides.size(); ++i) {
    const Slide& s = slides[i];
    const std::string n = std::to_string(i + 1);
    // The projector's slide, then a phone's (the style sheet shows one of them).
    out += "<section id=\"step-" + n + "\" aria-label=\"Step " + n + ": " + xml_escape(s.title) +
           "\">\n" + slide_html(s, n, kDeckKeys, width, height, st, "wide") +
           slide_html(s, n, kDeckTaps, kPhoneSlideWidth, kPhoneSlideHeight, st, "phone") +
           "</section>\n";
  }
  out += kScript;
  out += "</body>\n</html>\n";
  return out;
}

}  // namespace banklab::figures
