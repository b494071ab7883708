#pragma once
// The page around the program: what the browser edition asks of the browser, each a few lines
// of JavaScript (browser.cpp) over the page that index.html lays out, so that main.cpp and the
// app itself stay C++. Strings cross as UTF-8; nothing here can fail in a way the app must
// handle (a browser that refuses local storage or the clipboard just keeps nothing).
#include <optional>
#include <string>
#include <string_view>

namespace banklab::web {

// Where the app writes what the user saves or exports (the file chooser's folder); main.cpp
// hands each file that appears there to the browser as a download.
inline constexpr const char* kDownloads = "/downloads";

// The URL fragment without its '#', as the address bar has it (still percent-encoded).
std::string location_fragment();
// The address's query value bench-frames (tests/web/bench_web.mjs: ?bench-frames=N), as given;
// "" without one. A benchmark's setting, never a link's key (link.hpp).
std::string bench_frames_query();
// Puts `fragment` in the address bar without reloading or adding a history entry.
void replace_fragment(std::string_view fragment);
// The page's address with this fragment: what Edit > Copy link copies.
std::string link_with_fragment(std::string_view fragment);
// Whether the user changed the fragment (typed another, went back) since the last call.
bool fragment_changed();
// Whether the page asked for a frame since the last call: the fragment changed, the window was
// resized or a chosen file arrived. (GLFW's callbacks report the input events.)
bool woken();

// The browser's local storage, under keys of the page's origin; nothing for a key never stored
// (or stored empty).
std::optional<std::string> stored(std::string_view key);
void store(std::string_view key, std::string_view value);

// Hands the file at `path` (in emscripten's in-memory file system) to the browser as a download
// named by its file name, then removes it.
void download(const std::string& path);
// Opens the browser's file picker for files ending in `extension`; the file chosen is copied
// into the in-memory file system and chosen_file() returns its path once.
void choose_file(std::string_view extension);
std::optional<std::string> chosen_file();

void copy_to_clipboard(std::string_view text);

// A warning for the console (what banklab-gui prints on stderr and goes on): console.warn.
void warn(std::string_view message);

// The page's lines of text beside the canvas: `problem` is the one line saying why a link could
// not be opened ("" hides it); `summary` says what is on screen, for screen readers and scripts.
void show_problem(std::string_view problem);
void show_summary(std::string_view summary);
// A benchmark's report (--bench-frames), printed to the console and kept in the page.
void show_report(std::string_view report);
// After each frame built: Module.banklabFrames counts them (a frame whose picture did not change
// is built, not drawn), and the first one sets performance.mark("banklab-first-frame"), when the
// page first showed the app (tests/web).
void frame_built(int frames);
// A script (tests/web) asked where the views put their cells (Module.banklabGeometryWanted);
// the answer, banklab-gui --geometry's JSON, goes to Module.banklabGeometry.
bool geometry_wanted();
void provide_geometry(std::string_view json);

// The size the canvas should have, in pixels: the window's, times the display's pixel ratio
// (scale) so that text is drawn at the screen's own resolution.
struct CanvasSize {
  int width = 0;
  int height = 0;
  float scale = 1.0f;
};
CanvasSize canvas_size();

}  // namespace banklab::web
