// When the app draws (frame_pacing.hpp): the pacer builds frames only when something asks, stops
// once the picture settles and presents only what changed; and the app itself, left alone with
// any window open, builds the same frame again and again, so that the pacer can stop.
#include <doctest/doctest.h>

#include <chrono>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "app/gui/panels/panels.hpp"
#include "app/gui/platform/frame_pacing.hpp"
#include "app/gui/state/app_state.hpp"
#include "app/gui/state/gpu_state.hpp"
#include "app/gui/state/lesson_state.hpp"
#include "app/gui/state/stage_state.hpp"
#include "core/model/presets.hpp"
#include "tests/gui/headless_imgui.hpp"

using namespace banklab;
using namespace banklab::gui;

namespace {

// Builds frames as the desktop loop does, with the given signatures, until the pacer stops
// asking; returns how many it built.
int frames_until_rest(FramePacer& p, double now, const std::vector<std::uint64_t>& pictures) {
  int built = 0;
  while (p.frame_due(now)) {
    const std::uint64_t picture = pictures[std::min<std::size_t>(built, pictures.size() - 1)];
    p.frame_built(picture);
    ++built;
    REQUIRE(built <= FramePacer::kMaxSettleFrames);
  }
  return built;
}

}  // namespace

TEST_CASE("the pacer builds nothing until asked, and waits for events meanwhile") {
  FramePacer p;
  CHECK_FALSE(p.wait_seconds(0.0).has_value());  // wait for an event, however long
  CHECK_FALSE(p.frame_due(0.0));
  CHECK_FALSE(p.frame_due(100.0));
  CHECK(p.frames_built() == 0);

  p.request(FrameReason::input);
  REQUIRE(p.wait_seconds(0.0) == 0.0);  // do not sleep: a frame is due
  CHECK(p.frame_due(0.0));
}

TEST_CASE("after a request the pacer settles in kSettleFrames frames when nothing changes") {
  FramePacer p;
  p.request(FrameReason::input);
  // The picture is the same every frame: the first is presented, the rest are not.
  int presented = 0;
  int built = 0;
  while (p.frame_due(0.0)) {
    presented += p.frame_built(42) ? 1 : 0;
    ++built;
  }
  CHECK(built == FramePacer::kSettleFrames);
  CHECK(presented == 1);
  CHECK_FALSE(p.wait_seconds(0.0).has_value());

  // Asked again with the same picture: built to settle, but nothing new to present.
  p.request(FrameReason::input);
  CHECK(frames_until_rest(p, 0.0, {42}) == FramePacer::kSettleFrames);
  CHECK(p.frames_presented() == 1);
}

TEST_CASE("the pacer goes on while the picture changes, up to kMaxSettleFrames") {
  FramePacer p;
  p.request(FrameReason::input);
  // A window appearing a frame late, then a fade over five more frames, then still.
  CHECK(frames_until_rest(p, 0.0, {1, 1, 2, 3, 4, 5, 6, 7, 7}) == 9);
  CHECK(p.frames_presented() == 7);  // 1, 2, 3, 4, 5, 6, 7

  // A picture that never settles is not chased for ever.
  FramePacer q;
  q.request(FrameReason::input);
  std::vector<std::uint64_t> moving(100);
  for (std::size_t i = 0; i < moving.size(); ++i) moving[i] = i;
  CHECK(frames_until_rest(q, 0.0, moving) == FramePacer::kMaxSettleFrames);
}

TEST_CASE("a resize or an expose presents the next frame even when its picture is unchanged") {
  for (FrameReason why : {FrameReason::resize, FrameReason::expose}) {
    FramePacer p;
    p.request(FrameReason::input);
    frames_until_rest(p, 0.0, {7});
    REQUIRE(p.frames_presented() == 1);
    p.request(why);
    REQUIRE(p.frame_due(0.0));
    CHECK(p.frame_built(7));        // the window lost its pixels: draw them again
    CHECK_FALSE(p.frame_built(7));  // once
  }
  FramePacer p;
  p.request(FrameReason::input);
  frames_until_rest(p, 0.0, {7});
  p.request(FrameReason::input);
  REQUIRE(p.frame_due(0.0));
  CHECK_FALSE(p.frame_built(7));  // an input that changed nothing is not drawn
}

TEST_CASE("the app's timer wakes the pacer when it is due, not before") {
  FramePacer p;
  p.set_timer(10.5);
  REQUIRE(p.wait_seconds(10.0).has_value());
  CHECK(*p.wait_seconds(10.0) == doctest::Approx(0.5));
  CHECK(*p.wait_seconds(11.0) == 0.0);
  CHECK_FALSE(p.frame_due(10.0));
  CHECK(p.frame_due(10.5));
  p.frame_built(1);
  p.set_timer(std::nullopt);  // the step-through stopped
  while (p.frame_due(10.6)) p.frame_built(1);
  CHECK_FALSE(p.wait_seconds(10.6).has_value());
  CHECK_FALSE(p.frame_due(1000.0));
}

TEST_CASE("frames that share a timestamp are drawn, not refused by ImGui (issue 36)") {
  AppState s;
  HeadlessImGui imgui;
  ImGuiIO& io = ImGui::GetIO();
  // What ImGui's GLFW backend leaves when two frames share a timestamp (virtual time, a coarse
  // timer), a clock that stepped back, and no clock at all.
  for (const float backend_delta : {0.0f, -0.25f, std::numeric_limits<float>::quiet_NaN()}) {
    CAPTURE(backend_delta);
    io.DeltaTime = backend_delta;
    keep_delta_time_positive(io);
    CHECK(io.DeltaTime == kShortestFrameSeconds);
    imgui.frame(s);  // ImGui asserts "Need a positive DeltaTime!" otherwise
  }
  io.DeltaTime = 1.0f / 60.0f;
  keep_delta_time_positive(io);
  CHECK(io.DeltaTime == 1.0f / 60.0f);  // a real interval is kept
}

TEST_CASE("a worker thread's request wakes the pacer") {
  FramePacer p;
  std::thread worker([&p] { p.request(FrameReason::worker); });
  worker.join();
  CHECK(p.wait_seconds(0.0) == 0.0);
  CHECK(p.frame_due(0.0));
}

TEST_CASE("the step-through's next wavefront and the GPU job's progress are the app's timers") {
  AppState s;
  load_preset(s, "fp32-naive");  // a 32-way conflict: 32 wavefronts
  refresh(s);
  CHECK_FALSE(seconds_to_next_tick(s).has_value());
  toggle_play(s);
  REQUIRE(s.user.step.playing);
  REQUIRE(seconds_to_next_tick(s).has_value());
  CHECK(*seconds_to_next_tick(s) == doctest::Approx(s.user.step.seconds_per_wavefront));
  advance_time(s, 0.2f);
  CHECK(*seconds_to_next_tick(s) ==
        doctest::Approx(s.user.step.seconds_per_wavefront - 0.2f).epsilon(1e-4));
  toggle_play(s);  // paused: nothing until the user acts
  CHECK_FALSE(seconds_to_next_tick(s).has_value());
}

namespace {

// The app as the desktop loop runs it after one input: frames built until the pacer stops
// asking (the picture settled before kMaxSettleFrames), then left alone for `frames` more with
// time passing. Returns whether every one of those drew the picture the pacer stopped on.
bool still_at_rest(HeadlessImGui& imgui, AppState& s, int frames) {
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  io.DeltaTime = 0.1f;  // 100 ms a frame: a blink or a fade would show within the run
  FramePacer pacer;
  pacer.request(FrameReason::input);
  std::uint64_t shown = 0;
  while (pacer.frame_due(0.0)) {
    imgui.frame(s);
    shown = frame_signature(*ImGui::GetDrawData(), s.frame.draw);
    pacer.frame_built(shown);
  }
  if (pacer.frames_built() >= FramePacer::kMaxSettleFrames) return false;  // never settled
  bool same = true;
  for (int i = 0; i < frames; ++i) {
    imgui.frame(s);
    same = same && frame_signature(*ImGui::GetDrawData(), s.frame.draw) == shown;
  }
  return same;
}

void wait_for_gpu_window(HeadlessImGui& imgui, AppState& s) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!s.gpu->settled()) {
    REQUIRE(std::chrono::steady_clock::now() < deadline);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    imgui.frame(s);
  }
}

}  // namespace

TEST_CASE("left alone, the app draws the same frame again, whichever windows are open") {
  HeadlessImGui imgui;
  stop_idle_animations(ImGui::GetIO());
  struct Setup {
    const char* name;
    void (*apply)(AppState&);
  };
  const Setup setups[] = {
      {"the default windows", [](AppState&) {}},
      {"every window",
       [](AppState& s) {
         Views& v = s.user.views;
         v.presets = v.controls = v.banks = v.lanes = v.tile = v.arithmetic = v.help = true;
         v.code = v.gpu = v.solve = true;
       }},
      {"a lesson step", [](AppState& s) { REQUIRE(open_lesson(s, "transpose", 2)); }},
      {"a 3-way comparison",
       [](AppState& s) {
         s.user.stage.compare = builtin_comparison("naive-pad-swizzle");
         REQUIRE(s.user.stage.compare.size() == 3);
       }},
      {"presentation mode", [](AppState& s) { s.user.stage.presenting = true; }},
      {"the drill", [](AppState& s) { s.user.views.drill = true; }},
      {"the code box with its text cursor", [](AppState& s) { s.user.code.focus = true; }},
  };
  for (const Setup& setup : setups) {
    const std::string name = setup.name;
    CAPTURE(name);
    AppState s;
    load_preset(s, "bf16-256-pad2");
    setup.apply(s);
    if (s.user.views.gpu) wait_for_gpu_window(imgui, s);
    CHECK(still_at_rest(imgui, s, 30));
  }
}

TEST_CASE("the signature tells frames apart: a blinking cursor, a hovered lane, a theme") {
  HeadlessImGui imgui;
  AppState s;
  load_preset(s, "fp32-naive");
  s.user.code.focus = true;  // the code box has the keyboard: its cursor is drawn
  // ImGui's default: the cursor blinks, and the frames at rest differ (what the pacer would
  // chase twice a second were the blink left on).
  ImGui::GetIO().ConfigInputTextCursorBlink = true;
  CHECK_FALSE(still_at_rest(imgui, s, 30));
  stop_idle_animations(ImGui::GetIO());
  CHECK(still_at_rest(imgui, s, 30));

  const std::uint64_t before = frame_signature(*ImGui::GetDrawData(), s.frame.draw);
  s.hovered_lane = 5;  // outlined in every view
  imgui.frame(s);
  CHECK(frame_signature(*ImGui::GetDrawData(), s.frame.draw) != before);
  s.hovered_lane = -1;
  imgui.frame(s);
  CHECK(frame_signature(*ImGui::GetDrawData(), s.frame.draw) == before);
  s.user.settings.theme = Theme::light;
  imgui.frame(s);
  CHECK(frame_signature(*ImGui::GetDrawData(), s.frame.draw) != before);
}
