// The code box (code_state.hpp, code_panel.cpp), driven as a user drives it: keys and characters
// through ImGui's input state, headless. Every view follows the code as it is typed; the code is
// evaluated when it changes, never per frame; an error shows under the box and keeps the last
// valid picture.
#include <doctest/doctest.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <string>

#include "app/gui/panels/panels.hpp"
#include "app/gui/platform/options.hpp"
#include "app/gui/state/app_state.hpp"
#include "app/gui/state/code_state.hpp"
#include "core/model/presets.hpp"
#include "tests/gui/headless_imgui.hpp"

namespace banklab::gui {
namespace {

struct Keyboard {
  HeadlessImGui& imgui;
  AppState& s;

  // One character a frame, as a typist would.
  void type(const std::string& text) {
    for (char c : text) {
      ImGui::GetIO().AddInputCharacter(static_cast<unsigned char>(c));
      imgui.frame(s);
    }
  }
  void press(int key, bool ctrl = false) {
    ImGuiIO& io = ImGui::GetIO();
    io.KeyCtrl = ctrl;
    io.KeysDown[key] = true;
    imgui.frame(s);
    io.KeysDown[key] = false;
    io.KeyCtrl = false;
    imgui.frame(s);
  }
};

int wavefronts(const AppState& s) {
  return s.study.evaluation.ok() ? s.study.evaluation.analysis->wavefront_count() : -1;
}

TEST_CASE("typing code in the code box updates every view, key by key") {
  HeadlessImGui imgui;
  ImGuiIO& io = ImGui::GetIO();
  // The key map the GLFW backend sets up, for the keys this test presses.
  io.KeyMap[ImGuiKey_Backspace] = GLFW_KEY_BACKSPACE;
  io.KeyMap[ImGuiKey_A] = GLFW_KEY_A;
  io.KeyMap[ImGuiKey_End] = GLFW_KEY_END;
  AppState s;
  load_preset(s, "fp32-pad1");
  imgui.frame(s);
  REQUIRE(wavefronts(s) == 1);
  CHECK(s.user.views.code);
  // The preset opens with its code, which stands for the scenario on screen.
  CHECK(s.user.code.text == "__shared__ float tile[32][33];\nfloat v;\nv = tile[threadIdx.x][0];");
  CHECK(code_on_screen(s));
  CHECK(s.user.code.code->lanes[1].byte == 132);

  Keyboard k{imgui, s};
  s.user.code.block = {32, 8, 1};  // the block and j = 0, as set in the fields under the box
  s.user.code.lets = "j=0";
  s.user.code.focus = true;
  imgui.frame(s);             // the focus request
  imgui.frame(s);             // the box is active from here on
  k.press(GLFW_KEY_A, true);  // select all, then type over it
  const std::uint64_t before = s.user.code.evaluations;
  const std::string decl = "__shared__ float tile[32][32];\n";
  k.type(decl);
  // Each character changed the text once; the access is missing, so the preset stays drawn.
  CHECK(s.user.code.evaluations == before + decl.size());
  CHECK(s.user.code.error.find("no shared-memory access") != std::string::npos);
  CHECK(wavefronts(s) == 1);

  k.type("tile[threadIdx.x][threadIdx.y + j");
  CHECK(s.user.code.error.find("expected ']'") != std::string::npos);
  k.type("]");
  imgui.frame(s);  // the next frame's refresh() derives the new scenario
  CHECK(s.user.code.error.empty());
  CHECK(s.user.scenario.pattern == AccessPattern::raw);
  CHECK(wavefronts(s) == 32);  // block 32x8, j = 0: the naive transpose's column
  CHECK(s.study.scenario.raw_offsets[1] == 128);
  CHECK(s.study.scenario.tile.cols == 32);  // the tile view draws the declared array

  // Idle frames evaluate nothing.
  const std::uint64_t typed = s.user.code.evaluations;
  for (int i = 0; i < 10; ++i) imgui.frame(s);
  CHECK(s.user.code.evaluations == typed);

  // Pad the row: select all and type the padded declaration.
  k.press(GLFW_KEY_A, true);
  k.type("__shared__ float tile[32][33];\ntile[threadIdx.x][threadIdx.y + j]");
  imgui.frame(s);
  CHECK(wavefronts(s) == 1);
  CHECK(s.study.scenario.raw_offsets[1] == 132);

  // An undefined name: the error, located with a caret, under the box; the picture stays.
  k.press(GLFW_KEY_END);
  k.press(GLFW_KEY_BACKSPACE);
  k.press(GLFW_KEY_BACKSPACE);
  k.type("k]");
  CHECK(s.user.code.error ==
        "code:2:33: error: k is not defined: give it a value under names, k=VALUE\n"
        "  tile[threadIdx.x][threadIdx.y + k]\n"
        "                                  ^\n");
  CHECK(s.user.code.error_line == 2);
  CHECK(wavefronts(s) == 1);
  // Changing the code through its own fields: a value for k, every warp.
  s.user.code.lets = "j=0,k=4";
  CHECK(apply_code(s));
  imgui.frame(s);
  CHECK(s.study.scenario.raw_offsets[0] == 16);
}

TEST_CASE("presets fill the code box; the controls take the scenario back; --code opens on code") {
  HeadlessImGui imgui;
  AppState s;
  load_preset(s, "fp32-naive");
  REQUIRE(set_code(s, "__shared__ float t[32][33];\nt[threadIdx.x][0]"));
  imgui.frame(s);
  CHECK(code_on_screen(s));
  CHECK(wavefronts(s) == 1);
  load_preset(s, "fp32-naive");
  imgui.frame(s);
  CHECK(code_on_screen(s));
  CHECK(s.user.code.text.starts_with("__shared__ float tile[32][32];"));
  CHECK(wavefronts(s) == 32);
  toggle_lane(s, 3);  // a control changes the access: the code no longer stands for it
  CHECK_FALSE(code_on_screen(s));
  // Every preset's code, as the box holds it, evaluates to the preset's offsets.
  for (const Preset& p : presets()) {
    load_preset(s, std::string(p.name));
    INFO(p.name, "\n", s.user.code.text);
    if (!evaluate(p.scenario).ok()) continue;
    CHECK(code_on_screen(s));
  }
  // A bad block is an error in the box, not a crash; every warp picks the worst.
  s.user.code.block = {64, 32, 1};
  CHECK_FALSE(apply_code(s));
  CHECK(s.user.code.error.find("1 to 1024") != std::string::npos);
  s.user.code.block = {32, 4, 1};
  s.user.code.warp = kAllWarps;
  REQUIRE(set_code(s, "__shared__ float t[4][32][32];\nt[threadIdx.y][threadIdx.x][threadIdx.y]"));
  CHECK(s.user.code.code->warp_count == 4);

  const std::string_view words[] = {"--code", "__shared__ float t[32];"};
  const Expected<Options> o = parse_options(words);
  REQUIRE(o.has_value());
  CHECK(o->code == "__shared__ float t[32];");
}

// Issue 22, defects 1 and 2: what was pasted into the box and killed or froze the app.
TEST_CASE("a 12,000-term sum and a doubling chain pasted into the code box evaluate") {
  HeadlessImGui imgui;
  AppState s;
  std::string sum = "__shared__ float t[32][33];\nt[threadIdx.x][0";
  for (int i = 0; i < 12000; ++i) sum += i % 2 ? "-1" : "+1";
  REQUIRE_MESSAGE(set_code(s, sum + "]"), s.user.code.error);
  imgui.frame(s);
  CHECK(wavefronts(s) == 1);
  std::string chain = "constexpr int A0 = 1;\n";
  for (int i = 1; i <= 30; ++i) {
    const std::string prev = std::string("A") + std::to_string(i - 1);
    chain +=
        std::string("constexpr int A") + std::to_string(i) + " = " + prev + " + " + prev + ";\n";
  }
  REQUIRE_MESSAGE(set_code(s, chain + "__shared__ float t[32][33];\nt[threadIdx.x][A30 >> 30]"),
                  s.user.code.error);
  imgui.frame(s);
  CHECK(s.user.code.code->lanes[3].indices == std::vector<std::int64_t>{3, 1});
}

}  // namespace
}  // namespace banklab::gui
