// banklab-gui driven as a user drives it, with no display: every widget of every window is
// clicked (and what a click opens, such as a menu, is clicked in turn), every shortcut pressed,
// numbers typed into the numeric fields, and a fixed-seed run of random clicks, keys and text.
// ImGui's own asserts abort the test on any misuse (two widgets with one ID, a slider range
// past INT_MAX/2). Every ID of every frame is checked for uniqueness, in each lesson and with
// each access pattern.
//
// [SECTION] Folders, views and waiting
// [SECTION] Widget IDs and clicks that pick
// [SECTION] A click on everything
// [SECTION] Numbers typed and shortcuts
// [SECTION] Random input
// [SECTION] The GPU and Code windows
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "app/gui/panels/panels.hpp"
#include "app/gui/platform/options.hpp"
#include "app/gui/state/app_state.hpp"
#include "app/gui/state/gpu_state.hpp"
#include "app/gui/state/lesson_state.hpp"
#include "core/model/layout.hpp"
#include "core/model/presets.hpp"
#include "tests/gui/imgui_items.hpp"

using namespace banklab;
using namespace banklab::gui;
using namespace banklab::gui::test;

namespace {

// [SECTION] Folders, views and waiting

// The File menu's chooser starts in the current folder, and the clicks here (every widget, the
// random run) do reach Save and the exports: this program works in a scratch folder of its own,
// so they never write into wherever it was started from (the source tree, the build tree).
struct InScratchFolder {
  std::filesystem::path folder =
      std::filesystem::temp_directory_path() / ("banklab-gui-input-" + std::to_string(::getpid()));
  InScratchFolder() {
    std::filesystem::create_directories(folder);
    std::filesystem::current_path(folder);
  }
  ~InScratchFolder() {
    std::error_code ignored;
    std::filesystem::current_path(std::filesystem::temp_directory_path(), ignored);
    std::filesystem::remove_all(folder, ignored);
  }
};
const InScratchFolder kScratch;

// The app's modes: the windows as they are, the Drill window over them, a lesson being walked.
enum class Mode { views, drill, lesson };
constexpr Mode kModes[] = {Mode::views, Mode::drill, Mode::lesson};

// Every window open, in the given mode.
void open_every_view(AppState& s, Mode mode = Mode::views) {
  Views& v = s.user.views;
  v.presets = v.controls = v.banks = v.lanes = v.tile = v.arithmetic = v.help = v.gpu = true;
  v.code = true;
  v.drill = mode == Mode::drill;
  if (mode == Mode::lesson) {
    REQUIRE(open_lesson(s, "transpose", 0));
  } else if (in_lesson(s)) {
    leave_lesson(s);
  }
}

std::string all(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

void wait_for_gpu_window(Driver& d, AppState& s) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (s.user.views.gpu && !s.gpu->settled()) {
    REQUIRE(std::chrono::steady_clock::now() < deadline);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    d.frame(s);
  }
}

// A fresh app on the default lesson, laid out (the GPU window with its answer).
struct Fresh {
  AppState state;
  explicit Fresh(Driver& d, bool every_view, Mode mode = Mode::views) {
    load_preset(state, std::string(kDefaultPreset));
    if (every_view) open_every_view(state, mode);
    d.settle(state);
    wait_for_gpu_window(d, state);
    d.settle(state);
  }
};

const Item* find_item(const std::vector<Item>& items, const std::string& window_prefix,
                      ImGuiID id) {
  for (const Item& i : items) {
    if (i.id == id && i.visible && i.window.starts_with(window_prefix)) return &i;
  }
  return nullptr;
}

}  // namespace

// [SECTION] Widget IDs and clicks that pick

TEST_CASE("no two widgets of a frame share an ID, in any lesson, access pattern or view") {
  // 1080p as well: at 720p some views lay out fewer widgets (the arithmetic table's rows).
  for (ImVec2 display : {ImVec2(1280, 720), ImVec2(1920, 1080)}) {
    CAPTURE(display.x);
    Driver d(display);
    AppState s;
    open_every_view(s);
    for (Mode mode : kModes) {
      CAPTURE(static_cast<int>(mode));
      open_every_view(s, mode);
      d.frame(s);
      std::vector<std::string> dups = duplicate_ids(d.frame(s));
      CHECK_MESSAGE(dups.empty(), all(dups));
    }
    open_every_view(s);
    for (const Preset& p : presets()) {
      CAPTURE(p.name);
      load_preset(s, std::string(p.name));
      d.frame(s);
      wait_for_gpu_window(d, s);
      std::vector<std::string> dups = duplicate_ids(d.frame(s));
      CHECK_MESSAGE(dups.empty(), all(dups));
    }
    load_preset(s, std::string(kDefaultPreset));
    for (AccessPattern pattern :
         {AccessPattern::row, AccessPattern::column, AccessPattern::matrix, AccessPattern::raw}) {
      CAPTURE(static_cast<int>(pattern));
      set_pattern(s, pattern);
      s.user.scenario.tile.swizzle.kind = SwizzleKind::cute;  // its three sliders too
      d.frame(s);
      std::vector<Item> items = d.frame(s);
      CHECK(items.size() > 60);  // the recorder sees the widgets
      CHECK_MESSAGE(duplicate_ids(items).empty(), all(duplicate_ids(items)));
    }
  }
}

TEST_CASE("the index slider of the default lesson has its own ID and a click on it moves it") {
  // The bug: the slider was labelled "column", as is the access radio button above it, so both
  // had one ID and a click on the slider aborted in ImGui's ButtonBehavior.
  Driver d;
  Fresh f(d, false);
  REQUIRE(f.state.user.scenario.pattern == AccessPattern::column);
  std::vector<Item> items = d.frame(f.state);
  CHECK(duplicate_ids(items).empty());
  // ImGui's IDs: a window's is the hash of its title, a widget's the hash of its label (from
  // "###" on, when the label has one) seeded with the window's.
  ImGuiID slider = ImHashStr("###index", 0, ImHashStr("Controls"));
  const Item* it = find_item(items, "Controls", slider);
  REQUIRE(it != nullptr);
  // A click at its right end asks for the last column.
  d.click(f.state, ImVec2(it->frame.Max.x - 2.0f, it->centre().y));
  CHECK(f.state.user.scenario.index == max_index(f.state.user.scenario));
  CHECK(f.state.user.scenario.index > 0);
}

TEST_CASE("every access choice is inside the Controls window at 1280x720, and a click picks it") {
  // The bug: the four choices stayed on one line, wider than the panel, and the last (then
  // "custom", now "raw offsets") was clipped out of sight at 1280x720.
  Driver d(ImVec2(1280, 720));
  Fresh f(d, false);
  const std::vector<Item> items = d.frame(f.state);
  const ImGuiWindow* controls = ImGui::FindWindowByName("Controls");
  REQUIRE(controls != nullptr);
  const ImRect inside = controls->InnerRect;
  const std::pair<const char*, AccessPattern> choices[] = {
      {"row", AccessPattern::row},
      {"column", AccessPattern::column},
      {"ldmatrix/stmatrix", AccessPattern::matrix},
      {"raw offsets", AccessPattern::raw}};
  for (const auto& [label, pattern] : choices) {
    CAPTURE(label);
    const Item* it = find_item(items, "Controls", ImHashStr(label, 0, ImHashStr("Controls")));
    REQUIRE(it != nullptr);
    CHECK(inside.Contains(it->rect));
  }
  for (const auto& [label, pattern] : choices) {
    CAPTURE(label);
    const std::vector<Item> now = d.frame(f.state);
    const Item* it = find_item(now, "Controls", ImHashStr(label, 0, ImHashStr("Controls")));
    REQUIRE(it != nullptr);
    d.click(f.state, it->centre());
    CHECK(f.state.user.scenario.pattern == pattern);
  }
}

TEST_CASE("a click on the Tile window's \"side by side\" draws the logical and physical tiles") {
  Driver d(ImVec2(1920, 1080));
  Fresh f(d, false);
  REQUIRE(load_preset(f.state, "fp32-xor"));
  const char* title = "Tile: element colour = bank";
  for (const auto& [label, view] : {std::pair{"side by side", figures::TileView::both},
                                    std::pair{"physical", figures::TileView::physical},
                                    std::pair{"logical", figures::TileView::logical}}) {
    CAPTURE(label);
    const std::vector<Item> now = d.frame(f.state);
    const Item* it = find_item(now, title, ImHashStr(label, 0, ImHashStr(title)));
    REQUIRE(it != nullptr);
    d.click(f.state, it->centre());
    CHECK(f.state.user.settings.tile_view == view);
    d.frame(f.state);
    CHECK(f.state.frame.geometry.tile.has_value());
    CHECK(f.state.frame.geometry.physical_tile.has_value() == (view == figures::TileView::both));
    if (view != figures::TileView::both) continue;
    // Lane 7 reads element (7, 5), stored at slot (7, 5 ^ 7 = 2): over either, lane 7 lights.
    const GridGeometry logical = f.state.frame.geometry.tile->grid;
    const GridGeometry physical = f.state.frame.geometry.physical_tile->grid;
    const auto centre = [](const GridGeometry& g, int r, int c) {
      return ImVec2((g.cell_min(r, c).x + g.cell_max(r, c).x) * 0.5f,
                    (g.cell_min(r, c).y + g.cell_max(r, c).y) * 0.5f);
    };
    for (const auto& [at, lane] :
         {std::pair{centre(logical, 7, 5), 7}, std::pair{centre(physical, 7, 2), 7},
          std::pair{centre(physical, 7, 5), -1}}) {
      ImGui::GetIO().MousePos = at;
      d.frame(f.state);
      CHECK(f.state.hovered_lane == lane);
    }
    d.settle(f.state);
  }
}

// [SECTION] A click on everything

// Clicks each widget of a fresh app (all windows open), then each widget that click made appear.
void click_everything(Driver& d, Mode mode) {
  std::vector<Item> targets;
  {
    Fresh f(d, true, mode);
    for (const Item& i : d.frame(f.state)) {
      if (i.visible) targets.push_back(i);
    }
  }
  REQUIRE(targets.size() > 20);
  int clicks = 0;
  std::set<ImGuiID> seen;
  for (const Item& target : targets) seen.insert(target.id);
  for (const Item& target : targets) {
    CAPTURE(target.window);
    CAPTURE(target.centre().x);
    CAPTURE(target.centre().y);
    Fresh f(d, true, mode);
    d.click(f.state, target.centre());
    ++clicks;
    // What the click opened (a menu, a combo's list, a popup): each of those clicked too.
    std::vector<Item> opened;
    for (const Item& i : d.frame(f.state)) {
      if (i.visible && !seen.contains(i.id)) opened.push_back(i);
    }
    for (const Item& second : opened) {
      CAPTURE(second.window);
      Fresh g(d, true, mode);
      d.click(g.state, target.centre());
      d.frame(g.state);
      d.click(g.state, second.centre());
      std::vector<std::string> dups = duplicate_ids(d.frame(g.state));
      CHECK_MESSAGE(dups.empty(), all(dups));
      ++clicks;
    }
  }
  MESSAGE(clicks << " clicks on " << targets.size() << " widgets");
}

TEST_CASE("a click on every widget of every window, and on what each click opens, is safe") {
  for (ImVec2 display : {ImVec2(1280, 720), ImVec2(1920, 1080)}) {
    for (Mode mode : kModes) {
      CAPTURE(display.x);
      CAPTURE(static_cast<int>(mode));
      Driver d(display);  // a fresh context: the windows at their default places
      click_everything(d, mode);
    }
  }
}

// [SECTION] Numbers typed and shortcuts

TEST_CASE("numbers typed into the tile fields are clamped to what the core accepts") {
  Driver d;
  for (const char* label : {"rows", "columns", "pad"}) {
    for (const char* typed : {"99999999999", "-2147483648", "2147483647", "0", "-1"}) {
      CAPTURE(label);
      CAPTURE(typed);
      Fresh f(d, false);
      // InputInt pushes its label as an ID; its text field's label is "", so the field has
      // that ID. A click selects the whole number (ImGuiInputTextFlags_AutoSelectAll).
      ImGuiID field = ImHashStr(label, 0, ImHashStr("Controls"));
      std::vector<Item> items = d.frame(f.state);
      const Item* box = find_item(items, "Controls", field);
      REQUIRE(box != nullptr);
      d.click(f.state, ImVec2(box->frame.Min.x + 4.0f, box->centre().y));
      d.type(f.state, typed);
      d.key(f.state, GLFW_KEY_ENTER);
      d.settle(f.state);
      d.settle(f.state);  // the slider's range is built from the new size: it must not assert
      const TileLayout& t = f.state.user.scenario.tile;
      CHECK(t.rows >= 1);
      CHECK(t.rows <= kMaxTileSide);
      CHECK(t.cols >= 1);
      CHECK(t.cols <= kMaxTileSide);
      CHECK(t.pad >= 0);
      CHECK(t.pad <= kMaxTilePad);
      CHECK(f.state.user.scenario.index >= 0);
      CHECK(f.state.user.scenario.index <= max_index(f.state.user.scenario));
    }
  }
}

TEST_CASE(
    "numbers typed into the Code window's block and warp are clamped to what the core takes") {
  // The core multiplies the block's three sides in 64 bits: three near INT_MAX overflowed it.
  Driver d(ImVec2(1920, 1080));
  Fresh f(d, false);
  std::vector<Item> items = d.frame(f.state);
  ImGuiID window = 0;
  for (const Item& i : items) {
    // The window itself, not a child of it (the lane table's is "Code.../##code-lanes_...").
    if (i.window.starts_with("Code") && i.window.find('/') == std::string::npos)
      window = ImHashStr(i.window.c_str());
  }
  REQUIRE(window != 0);
  // InputInt3 pushes "block", then each field's index: its text field has that ID.
  ImGuiID block = ImHashStr("block", 0, window);
  for (int axis = 0; axis < 3; ++axis) {
    CAPTURE(axis);
    ImGuiID field = ImHashData(&axis, sizeof axis, block);
    std::vector<Item> now = d.frame(f.state);
    const Item* box = find_item(now, "Code", field);
    REQUIRE(box != nullptr);
    d.click(f.state, ImVec2(box->frame.Min.x + 4.0f, box->centre().y));
    d.type(f.state, "2147483647");
    d.key(f.state, GLFW_KEY_ENTER);
    d.settle(f.state);
  }
  for (int side : f.state.user.code.block) CHECK(side == 1024);
}

TEST_CASE("the index range never overflows, whatever the tile holds") {
  Scenario sc;
  for (AccessPattern p : {AccessPattern::row, AccessPattern::column, AccessPattern::matrix}) {
    sc.pattern = p;
    for (int v : {INT_MIN, -1, 0, 1, INT_MAX}) {
      CAPTURE(static_cast<int>(p));
      CAPTURE(v);
      sc.tile.rows = v;
      sc.tile.cols = v;
      int m = max_index(sc);
      CHECK(m >= 0);
      CHECK(m <= INT_MAX / 2);  // ImGui's SliderInt accepts no wider range
    }
  }
  AppState s;
  load_preset(s, std::string(kDefaultPreset));
  s.user.scenario.index = INT_MAX;
  move_index(s, 1);
  CHECK(s.user.scenario.index == max_index(s.user.scenario));
}

TEST_CASE("every shortcut, pressed in every lesson, leaves a consistent state") {
  Driver d;
  AppState s;
  open_every_view(s);
  for (int i = 0; i < static_cast<int>(presets().size()); ++i) {
    load_preset(s, i);
    d.settle(s);
    for (const Shortcut& k : shortcuts()) {
      CAPTURE(k.key_name);
      d.key(s, k.key);
      CHECK(s.user.scenario.index >= 0);
      CHECK(s.user.scenario.index <= std::max(0, max_index(s.user.scenario)));
      CHECK(s.user.settings.zoom >= kMinZoom);
      CHECK(s.user.settings.zoom <= kMaxZoom);
    }
  }
}

// Issue 33: at 1280x720 the default windows cut their text at the right edge (the Lesson
// panel's "...from a 3" and "Explore from he", the Code window's `__shared__ float til`). Each
// window's content, as ImGui measured it (every text, button and box, the code box's own text
// included), must fit its width: nothing runs past an edge without a scroll bar to reach it.
TEST_CASE("the default windows at 1280x720 cut no text, with a lesson open and without") {
  for (const bool lesson : {false, true}) {
    CAPTURE(lesson);
    Driver d(ImVec2(1280, 720));
    AppState s;
    load_preset(s, std::string(kDefaultPreset));
    if (lesson) REQUIRE(open_lesson(s, "transpose"));
    d.settle(s);
    d.frame(s);
    d.frame(s);
    int checked = 0;
    for (const ImGuiWindow* w : ImGui::GetCurrentContext()->Windows) {
      if (!w->WasActive || w->Hidden || w->ScrollbarX) continue;
      const std::string name = w->Name;
      CAPTURE(name);
      if (name.find("/##code") != std::string::npos) {
        // The code box (its own child window, a few pixels wider than its text whatever the
        // text): each line of the code in the box's font must fit inside it.
        ImFont* font = s.res.mono_font ? s.res.mono_font : ImGui::GetFont();
        std::size_t at = 0;
        for (std::size_t end; at <= s.user.code.text.size(); at = end + 1) {
          end = std::min(s.user.code.text.find('\n', at), s.user.code.text.size());
          const std::string line = s.user.code.text.substr(at, end - at);
          CHECK(font->CalcTextSizeA(font->FontSize, FLT_MAX, 0.0f, line.c_str()).x <=
                w->WorkRect.GetWidth());
        }
        continue;
      }
      CHECK(w->ContentSize.x <= w->WorkRect.GetWidth() + 1.0f);
      ++checked;
    }
    CHECK(checked > 6);
  }
}

// Issue 33: a presentation clicker sends a press and its release within a few milliseconds,
// often between two frames. ImGui 1.86 sees io.KeysDown once a frame, so the platforms queue
// key changes (key_queue.hpp) and hand them over a frame at a time.
TEST_CASE("a key pressed and released within one frame is one step, every time (issue 33)") {
  Driver d;
  AppState s;
  REQUIRE(open_lesson(s, "transpose"));
  d.settle(s);
  REQUIRE(s.lesson.step == 0);

  // What ImGui's own GLFW backend did: both changes written to io.KeysDown before the frame.
  // The key is up when the frame looks, and the tap is lost: the bug the queue exists for.
  ImGuiIO& io = ImGui::GetIO();
  io.KeysDown[GLFW_KEY_PAGE_DOWN] = true;
  io.KeysDown[GLFW_KEY_PAGE_DOWN] = false;
  d.frame(s);
  CHECK(s.lesson.step == 0);

  // Through the queue: the press in one frame, the release in the next.
  CHECK(d.taps(s, {GLFW_KEY_PAGE_DOWN}) == 2);
  CHECK(s.lesson.step == 1);
  // Ten taps between two frames (a clicker held to the slide's end): ten steps.
  d.taps(s, {GLFW_KEY_PAGE_DOWN, GLFW_KEY_PAGE_DOWN, GLFW_KEY_PAGE_DOWN, GLFW_KEY_PAGE_DOWN,
             GLFW_KEY_PAGE_DOWN, GLFW_KEY_PAGE_DOWN, GLFW_KEY_PAGE_DOWN, GLFW_KEY_PAGE_DOWN,
             GLFW_KEY_PAGE_DOWN, GLFW_KEY_PAGE_DOWN});
  CHECK(s.lesson.step == 11);
  // Back and forth in one gap: each counts, in order.
  d.taps(s, {GLFW_KEY_PAGE_UP, GLFW_KEY_PAGE_UP, GLFW_KEY_PAGE_DOWN});
  CHECK(s.lesson.step == 10);
  // F5 then V then Esc, all before one frame: presentation on, the next view, then off.
  const StageView view = s.user.stage.view;
  d.taps(s, {GLFW_KEY_F5});
  CHECK(s.user.stage.presenting);
  d.taps(s, {GLFW_KEY_V, GLFW_KEY_ESCAPE});
  CHECK_FALSE(s.user.stage.presenting);
  CHECK(s.user.stage.view != view);
}

TEST_CASE("the key queue keeps the order, the modifiers and a bound, and ignores unknown keys") {
  ImGuiIO io;
  KeyQueue keys;
  keys.push(-1, true);   // GLFW_KEY_UNKNOWN
  keys.push(512, true);  // past io.KeysDown
  CHECK(keys.empty());
  // Ctrl down, A tapped, Ctrl up: Ctrl and A's press go in the first frame, A's release in the
  // second, Ctrl's release waits behind it (the order is kept).
  keys.push(GLFW_KEY_LEFT_CONTROL, true);
  keys.push(GLFW_KEY_A, true);
  keys.push(GLFW_KEY_A, false);
  keys.push(GLFW_KEY_LEFT_CONTROL, false);
  CHECK(keys.apply(io));
  CHECK(io.KeyCtrl);
  CHECK(io.KeysDown[GLFW_KEY_A]);
  CHECK_FALSE(keys.apply(io));
  CHECK_FALSE(io.KeysDown[GLFW_KEY_A]);
  CHECK_FALSE(io.KeyCtrl);
  // A flood of presses stops at the bound; releases still get in, so no key stays down.
  for (std::size_t i = 0; i < KeyQueue::kMaxPending + 10; ++i) keys.push(GLFW_KEY_B, true);
  keys.push(GLFW_KEY_B, false);
  int frames = 0;
  while (keys.apply(io)) ++frames;
  CHECK(frames == static_cast<int>(KeyQueue::kMaxPending));
  CHECK_FALSE(io.KeysDown[GLFW_KEY_B]);
}

// [SECTION] Random input

// A bounded, fixed-seed fuzz of the controls: random clicks anywhere, random keys and random
// text (digits, signs, letters, control bytes), 3000 steps. BANKLAB_GUI_FUZZ_SEED and
// BANKLAB_GUI_FUZZ_STEPS replay or lengthen it (docs/testing.md).
TEST_CASE("random clicks, keys and text on the whole window never crash it") {
  const char* seed_env = std::getenv("BANKLAB_GUI_FUZZ_SEED");
  const char* steps_env = std::getenv("BANKLAB_GUI_FUZZ_STEPS");
  std::uint32_t seed =
      seed_env ? static_cast<std::uint32_t>(std::strtoul(seed_env, nullptr, 10)) : 20261130u;
  int steps = steps_env ? std::atoi(steps_env) : 3000;
  MESSAGE("seed " << seed << ", " << steps << " steps");
  std::mt19937 rng(seed);
  Driver d;
  AppState s;
  load_preset(s, std::string(kDefaultPreset));
  open_every_view(s);
  d.settle(s);
  const int keys[] = {GLFW_KEY_SPACE, GLFW_KEY_RIGHT,  GLFW_KEY_LEFT,      GLFW_KEY_UP,
                      GLFW_KEY_DOWN,  GLFW_KEY_N,      GLFW_KEY_P,         GLFW_KEY_ENTER,
                      GLFW_KEY_TAB,   GLFW_KEY_ESCAPE, GLFW_KEY_BACKSPACE, GLFW_KEY_MINUS,
                      GLFW_KEY_EQUAL, GLFW_KEY_T};
  const std::string texts[] = {"9",  "99999999999",        "-",  "-2147483648", "4096", "x", ",",
                               "\n", "0x7fffffffffffffff", "-1", "1e9"};
  for (int step = 0; step < steps; ++step) {
    CAPTURE(step);
    switch (rng() % 4) {
      case 0:
      case 1:
        d.click(s, ImVec2(static_cast<float>(rng() % 1280), static_cast<float>(rng() % 720)));
        break;
      case 2:
        d.key(s, keys[rng() % std::size(keys)]);
        break;
      case 3:
        d.type(s, texts[rng() % std::size(texts)]);
        break;
    }
    // The GPU window answers from a worker thread: wait for its answer, so that what the next
    // click lands on does not depend on the thread's timing and a seed replays exactly.
    wait_for_gpu_window(d, s);
    s.quit_requested = false;
    REQUIRE(s.user.scenario.index >= 0);
    REQUIRE(s.user.settings.zoom >= kMinZoom);
    REQUIRE(s.user.settings.zoom <= kMaxZoom);
    if (rng() % 64 == 0) d.settle(s);
  }
}

// [SECTION] The GPU and Code windows

TEST_CASE("the GPU window is settled only once the driver's answer is applied, not just posted") {
  // What --gpu --screenshot waits for. busy() alone turns false when the worker has posted its
  // answer but poll() has not taken it: a screenshot then showed "asking the driver".
  std::mutex m;
  std::condition_variable cv;
  bool release = false;
  GpuState p;
  p.backend = real_gpu_backend();
  p.backend.query_device = [&, real = p.backend.query_device] {
    std::unique_lock lock(m);
    cv.wait(lock, [&] { return release; });
    return real();
  };
  poll(p);  // starts the worker and asks
  CHECK(p.busy());
  CHECK_FALSE(p.settled());
  {
    std::lock_guard lock(m);
    release = true;
  }
  cv.notify_all();
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (p.busy()) {
    REQUIRE(std::chrono::steady_clock::now() < deadline);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  CHECK_FALSE(p.device.has_value());  // posted, not yet applied: the old test said "ready"
  CHECK_FALSE(p.settled());
  poll(p);
  CHECK(p.device.has_value());
  CHECK(p.settled());
}

TEST_CASE("the Code window turns read-only when a control changes the access, and back") {
  // One window for the access as CUDA: the code box while its code stands for the scenario on
  // screen, else the scenario's code read-only, with Edit (that code into the box) and Back.
  constexpr const char* kCode = "Code: the access as CUDA";
  Driver d(ImVec2(1920, 1080));
  Fresh f(d, false);  // the default windows: nothing floats over the Code window
  AppState& s = f.state;
  auto shows = [&](const char* label) {
    const ImGuiID id = widget_id({kCode, label});
    for (const Item& i : d.frame(s)) {
      if (i.id == id && i.visible) return true;
    }
    return false;
  };
  REQUIRE(code_on_screen(s));
  CHECK(shows("##code"));
  CHECK_FALSE(shows("Edit"));
  toggle_lane(s, 3);  // what a click on lane 3 in Controls does
  CHECK_FALSE(shows("##code"));
  CHECK(shows("Edit"));
  CHECK(s.study.evaluation.analysis->wavefront_count() == 31);
  REQUIRE(d.click(s, {kCode, "Back to the code in the box"}));
  // The box's code is the scenario again (as its 32 offsets): every lane, 32 wavefronts.
  CHECK(code_on_screen(s));
  CHECK(shows("##code"));
  CHECK(s.study.evaluation.analysis->wavefront_count() == 32);
  toggle_lane(s, 3);
  const Scenario changed = s.user.scenario;
  REQUIRE(d.click(s, {kCode, "Edit"}));
  CHECK(s.user.scenario == changed);  // Edit shows the code; the access stays as it is
  CHECK(code_on_screen(s));
  CHECK(shows("##code"));
  CHECK(s.user.code.text.find("0xfffffff7 >> threadIdx.x") != std::string::npos);  // lane 3 out
  // Raw offsets that follow no expression: read-only with core's note, and Edit opens an
  // empty-handed box that waits for code, not a crash.
  REQUIRE(set_raw_offsets(s,
                          "0, 5, 2, 17, 9, 1, 30, 4, 8, 22, 3, 6, 11, 14, 19, 27, 12, 7, "
                          "10, 13, 15, 16, 18, 20, 21, 23, 24, 25, 26, 28, 29, 31"));
  set_pattern(s, AccessPattern::raw);
  CHECK(shows("Edit"));
  REQUIRE(d.click(s, {kCode, "Edit"}));
  CHECK_FALSE(code_on_screen(s));
  CHECK(shows("##code"));
}
