#include "app/figures/deck.hpp"

#include <cmath>
#include <sstream>

#include "app/figures/svg.hpp"

namespace banklab::figures {
namespace {

// The page's look, in the palette's colours: one section on screen at a time, the text column
// beside the figures (over them on a narrow screen), sizes in viewport units so the slide fills
// the window.
std::string style_sheet(const Palette& p) {
  return "<style>\n"
         "html,body{margin:0;height:100%;background:" +
         hex(p.background) + ";color:" + hex(p.text) +
         ";font-family:'DejaVu Sans',Verdana,sans-serif}\n"
         "section{display:none;box-sizing:border-box;height:100vh;padding:2.5vh 3vw;"
         "flex-direction:column}\n"
         "section.current{display:flex}\n"
         "header .track{margin:0;color:" +
         hex(p.text_dim) +
         ";font-size:2.4vh;display:flex;justify-content:space-between}\n"
         "header h1{margin:.4vh 0;color:" +
         hex(p.title) +
         ";font-size:4.4vh;font-weight:normal}\n"
         "header .scenario{margin:0 0 1.5vh;color:" +
         hex(p.text_dim) +
         ";font-size:2.2vh;font-family:'DejaVu Sans Mono',monospace}\n"
         ".body{flex:1;display:flex;gap:2vw;min-height:0}\n"
         ".text{flex:0 0 "
         "38%;overflow:auto;overflow-wrap:anywhere;font-size:2.9vh;line-height:1.35}\n"
         ".text p{margin:0 0 1vh}\n"
         ".text pre{margin:0 0 1vh;padding:.5vh .6vw;background:" +
         hex(p.cell_empty) +
         ";white-space:pre-wrap;font-size:2.4vh}\n"
         ".figures{flex:1;min-width:0;display:flex;align-items:flex-start;justify-content:center}\n"
         ".figures svg{width:100%;height:100%}\n"
         "footer{color:" +
         hex(p.text_dim) +
         ";font-size:1.8vh}\n"
         "@media (max-aspect-ratio:1/1){.body{flex-direction:column}.text{flex:none}}\n"
         "</style>\n";
}

// Keys step through the sections; the step is kept in the address's fragment.
constexpr std::string_view kScript = R"(<script>
(function () {
  var slides = document.querySelectorAll('section');
  var at = 0;
  function show(i) {
    at = Math.max(0, Math.min(slides.length - 1, i));
    for (var k = 0; k < slides.length; ++k) slides[k].classList.toggle('current', k === at);
    history.replaceState(null, '', '#' + (at + 1));
  }
  document.addEventListener('keydown', function (e) {
    if (['ArrowRight', 'PageDown', ' ', 'Enter'].indexOf(e.key) >= 0) show(at + 1);
    else if (['ArrowLeft', 'PageUp', 'Backspace'].indexOf(e.key) >= 0) show(at - 1);
    else if (e.key === 'Home') show(0);
    else if (e.key === 'End') show(slides.length - 1);
    else return;
    e.preventDefault();
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
      code += (code.empty() ? "" : "\n") + l.substr(4);
    } else if (l.empty()) {
      flush();
    } else {
      if (!code.empty()) flush();
      paragraph += (paragraph.empty() ? "" : " ") + l;
    }
  }
  flush();
  return out;
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
    out += "<section id=\"step-" + n + "\">\n<header>\n<p class=\"track\"><span>" +
           xml_escape(s.track) + "</span><span>Step " + n + " of " + std::to_string(s.steps) +
           "</span></p>\n<h1>" + xml_escape(s.title) + "</h1>\n<p class=\"scenario\">" +
           xml_escape(slide_scenario_line(s)) +
           "</p>\n</header>\n<div class=\"body\">\n<div class=\"text\">\n" + text_html(s.text) +
           "</div>\n<div class=\"figures\">\n" +
           // The figures' box: the CSS gives the text 38% of the width and the header a fifth
           // of the height; the SVG scales to what is left.
           to_svg_element(
               slide_figures(s, std::floor(width * 0.6f), std::floor(height * 0.78f), height, st),
               "s" + n + "-") +
           "</div>\n</div>\n" +
           "<footer>&larr; / &rarr;, Page Up / Page Down: previous / next step</footer>\n" +
           "</section>\n";
  }
  out += kScript;
  out += "</body>\n</html>\n";
  return out;
}

}  // namespace banklab::figures
