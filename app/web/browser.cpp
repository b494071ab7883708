#include "app/web/browser.hpp"

#include <emscripten/emscripten.h>

#include <cstdlib>
#include <memory>

// Each EM_JS body is JavaScript run in the page. A string handed back to C++ is copied into the
// wasm heap with _malloc (and freed by owned() below); "" comes back as a null pointer. The
// bodies are JavaScript, which clang-format would take for C++ and break.
namespace {

// clang-format off

EM_JS(char*, js_location_fragment, (), {
  const text = window.location.hash.substring(1);
  if (!text) return 0;
  const bytes = lengthBytesUTF8(text) + 1;
  const p = _malloc(bytes);
  stringToUTF8(text, p, bytes);
  return p;
});

EM_JS(char*, js_bench_frames_query, (), {
  const text = new URLSearchParams(window.location.search).get("bench-frames");
  if (!text) return 0;
  const bytes = lengthBytesUTF8(text) + 1;
  const p = _malloc(bytes);
  stringToUTF8(text, p, bytes);
  return p;
});

EM_JS(void, js_replace_fragment, (const char* fragment), {
  const text = UTF8ToString(fragment);
  const url = window.location.pathname + window.location.search + (text ? "#" + text : "");
  window.history.replaceState(window.history.state, "", url);
});

EM_JS(char*, js_link_with_fragment, (const char* fragment), {
  const text = UTF8ToString(fragment);
  const link = window.location.origin + window.location.pathname + window.location.search +
               (text ? "#" + text : "");
  const bytes = lengthBytesUTF8(link) + 1;
  const p = _malloc(bytes);
  stringToUTF8(link, p, bytes);
  return p;
});

// The page (index.html) counts what the program must wake for: the user's changes of the
// fragment (hashchange: history.replaceState() fires none), resizes and chosen files.
EM_JS(int, js_take_fragment_changes, (), {
  const n = Module.banklabFragmentChanges;
  Module.banklabFragmentChanges = 0;
  return n;
});

EM_JS(int, js_take_wakes, (), {
  const n = Module.banklabWakes;
  Module.banklabWakes = 0;
  return n;
});

EM_JS(char*, js_stored, (const char* key), {
  let text = null;
  try {
    text = window.localStorage.getItem(UTF8ToString(key));
  } catch (e) {
    return 0;  // storage refused (a private window, a sandbox): nothing was kept
  }
  if (text === null) return 0;
  const bytes = lengthBytesUTF8(text) + 1;
  const p = _malloc(bytes);
  stringToUTF8(text, p, bytes);
  return p;
});

EM_JS(void, js_store, (const char* key, const char* value), {
  try {
    window.localStorage.setItem(UTF8ToString(key), UTF8ToString(value));
  } catch (e) {
    console.warn("BankLab: local storage refused the settings: " + e.message);
  }
});

EM_JS(void, js_download, (const char* path), {
  const file = UTF8ToString(path);
  const bytes = FS.readFile(file);
  FS.unlink(file);
  const name = file.substring(file.lastIndexOf("/") + 1);
  const types = {png: "image/png", svg: "image/svg+xml", csv: "text/csv", md: "text/markdown",
                 json: "application/json"};
  const type = types[name.substring(name.lastIndexOf(".") + 1)] || "text/plain";
  const url = URL.createObjectURL(new Blob([bytes], {type: type}));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(function () { URL.revokeObjectURL(url); }, 60000);
});

// The picker: an <input type=file> made for each request. The file is read whole, written under
// /uploads and its path queued for chosen_file().
EM_JS(void, js_choose_file, (const char* extension), {
  const input = document.createElement("input");
  input.type = "file";
  input.accept = UTF8ToString(extension);
  input.addEventListener("change", function () {
    const file = input.files[0];
    if (!file) return;
    file.arrayBuffer().then(function (buffer) {
      FS.mkdirTree("/uploads");
      const path = "/uploads/" + file.name.split("/").join("_");
      FS.writeFile(path, new Uint8Array(buffer));
      Module.banklabChosenFile = path;
      Module.banklabWake();
    });
  });
  input.click();
});

EM_JS(char*, js_take_chosen_file, (), {
  const path = Module.banklabChosenFile;
  Module.banklabChosenFile = null;
  if (!path) return 0;
  const bytes = lengthBytesUTF8(path) + 1;
  const p = _malloc(bytes);
  stringToUTF8(path, p, bytes);
  return p;
});

EM_JS(void, js_copy_to_clipboard, (const char* text), {
  const value = UTF8ToString(text);
  if (navigator.clipboard) {
    navigator.clipboard.writeText(value).catch(function (e) {
      console.warn("BankLab: the clipboard refused the link: " + e.message);
    });
  }
});

EM_JS(void, js_warn, (const char* message), { console.warn("BankLab: " + UTF8ToString(message)); });

EM_JS(void, js_show_text, (const char* id, const char* text), {
  const element = document.getElementById(UTF8ToString(id));
  const value = UTF8ToString(text);
  element.textContent = value;
  element.title = value;  // the whole text on hover where the line is cut short
  element.hidden = value.length === 0;
});

EM_JS(void, js_show_report, (const char* text), {
  const value = UTF8ToString(text);
  console.log(value);
  document.getElementById("report").textContent = value;
});

EM_JS(void, js_frame_built, (int frames), {
  Module.banklabFrames = frames;
  if (frames === 1) performance.mark("banklab-first-frame");
});

EM_JS(int, js_geometry_wanted, (), { return Module.banklabGeometryWanted ? 1 : 0; });

EM_JS(void, js_provide_geometry, (const char* json), {
  Module.banklabGeometry = JSON.parse(UTF8ToString(json));
  Module.banklabGeometryWanted = false;
});

EM_JS(int, js_window_pixels, (int height), {
  const ratio = window.devicePixelRatio || 1;
  return Math.max(1, Math.round((height ? window.innerHeight : window.innerWidth) * ratio));
});

EM_JS(double, js_pixel_ratio, (), { return window.devicePixelRatio || 1; });

// clang-format on

// A string from JavaScript, freed when it goes.
std::string owned(char* text) {
  if (!text) return {};
  std::unique_ptr<char, decltype(&std::free)> hold(text, &std::free);
  return std::string(text);
}

}  // namespace

namespace banklab::web {

std::string location_fragment() {
  return owned(js_location_fragment());
}

std::string bench_frames_query() {
  return owned(js_bench_frames_query());
}

void replace_fragment(std::string_view fragment) {
  js_replace_fragment(std::string(fragment).c_str());
}

std::string link_with_fragment(std::string_view fragment) {
  return owned(js_link_with_fragment(std::string(fragment).c_str()));
}

bool fragment_changed() {
  return js_take_fragment_changes() > 0;
}

bool woken() {
  return js_take_wakes() > 0;
}

std::optional<std::string> stored(std::string_view key) {
  std::string text = owned(js_stored(std::string(key).c_str()));
  if (text.empty()) return std::nullopt;
  return text;
}

void store(std::string_view key, std::string_view value) {
  js_store(std::string(key).c_str(), std::string(value).c_str());
}

void download(const std::string& path) {
  js_download(path.c_str());
}

void choose_file(std::string_view extension) {
  js_choose_file(std::string(extension).c_str());
}

std::optional<std::string> chosen_file() {
  std::string path = owned(js_take_chosen_file());
  if (path.empty()) return std::nullopt;
  return path;
}

void copy_to_clipboard(std::string_view text) {
  js_copy_to_clipboard(std::string(text).c_str());
}

void warn(std::string_view message) {
  js_warn(std::string(message).c_str());
}

void show_problem(std::string_view problem) {
  js_show_text("problem", std::string(problem).c_str());
}

void show_summary(std::string_view summary) {
  js_show_text("summary", std::string(summary).c_str());
}

void show_report(std::string_view report) {
  js_show_report(std::string(report).c_str());
}

void frame_built(int frames) {
  js_frame_built(frames);
}

bool geometry_wanted() {
  return js_geometry_wanted() != 0;
}

void provide_geometry(std::string_view json) {
  js_provide_geometry(std::string(json).c_str());
}

CanvasSize canvas_size() {
  return CanvasSize{js_window_pixels(0), js_window_pixels(1), static_cast<float>(js_pixel_ratio())};
}

}  // namespace banklab::web
