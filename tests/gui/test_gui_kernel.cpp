// The Kernel window (kernel_state.hpp, kernel_panel.cpp) driven as a user drives it, headless:
// File > Open kernel (.cu)... through the chooser on a file of the scan corpus, then clicks on
// the ranked accesses, on one warp-instruction and on a source line, each putting that access
// in every view; presentation mode and File > Export on it; files that cannot be scanned, a
// kernel without a block, the block and names set in the window. What each click must show
// comes from core's scan of the same file.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "app/gui/state/app_state.hpp"
#include "app/gui/state/kernel_state.hpp"
#include "core/base/file_read.hpp"
#include "core/code/scan.hpp"
#include "core/model/presets.hpp"
#include "tests/gui/imgui_items.hpp"
#include "tests/gui/scratch_dir.hpp"

using namespace banklab;
using namespace banklab::gui;
using namespace banklab::gui::test;
namespace fs = std::filesystem;

namespace {

const fs::path kCorpus = fs::path(BANKLAB_SOURCE_DIR) / "tests" / "scan" / "corpus";
constexpr const char* kWindow = "Kernel: every shared-memory line of a .cu file";

// Core's scan of a corpus file, every warp-instruction kept: what the window must show.
KernelScan core_scan(const std::string& file, const std::string& kernel) {
  const Expected<std::string> text =
      read_regular_file((kCorpus / file).string(), kMaxScanSourceBytes, "kernel source");
  REQUIRE(text.has_value());
  ScanOptions o;
  o.kernel = kernel;
  o.keep_instances = true;
  ScanResult r = scan_source({file, *text}, o);
  REQUIRE(!r.error);
  REQUIRE(r.kernels.size() == 1);
  return r.kernels[0];
}

int wavefronts_on_screen(const AppState& s) {
  return s.derived.evaluation.ok() ? s.derived.evaluation.analysis->wavefront_count() : -1;
}

// The visible rows of one of the window's tables, top to bottom, its header row left out.
std::vector<Item> rows(Driver& d, AppState& s, const std::string& table) {
  std::vector<Item> out;
  for (const Item& i : d.frame(s)) {
    if (i.visible && i.window.starts_with(kWindow) && i.window.find(table) != std::string::npos)
      out.push_back(i);
  }
  std::sort(out.begin(), out.end(),
            [](const Item& a, const Item& b) { return a.frame.Min.y < b.frame.Min.y; });
  if (out.empty()) return out;
  const float header = out.front().frame.Min.y;
  std::erase_if(out, [header](const Item& i) { return i.frame.Min.y == header; });
  return out;
}

std::string all_of(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

// Clicks the source's row of `line` near its left end: the row spans every column, and the
// code's column may run far past the window's right edge (the table scrolls sideways).
bool click_source_line(Driver& d, AppState& s, int line) {
  const ImGuiID id = widget_id({kWindow, "##source", line, std::to_string(line).c_str()});
  for (const Item& i : d.frame(s)) {
    if (i.id != id || !i.visible) continue;
    d.click(s, ImVec2(i.frame.Min.x + 4.0f, i.centre().y));
    return true;
  }
  return false;
}

struct App : AppInFolder {
  using AppInFolder::AppInFolder;
  // File > Open kernel (.cu)..., the name typed, Open.
  void open(const std::string& name) {
    REQUIRE(d.menu(s, "File", "Open kernel (.cu)..."));
    d.frame(s);
    REQUIRE(d.replace_text(s, {kChooser, "name"}, name));
    REQUIRE(d.click(s, {kChooser, "Open"}));
    d.frame(s);
  }
};

}  // namespace

TEST_CASE(
    "File > Open kernel scans a .cu file; a click on an access, an instruction or a line "
    "puts it in every view") {
  App app(kCorpus);
  app.open("transpose.cu");
  AppState& s = app.s;
  CHECK_FALSE(s.user.files.failed);
  CHECK(s.user.files.status == "scanned " + (kCorpus / "transpose.cu").string());
  CHECK(s.user.views.kernel);
  const KernelScan* shown = shown_kernel(s);
  REQUIRE(shown != nullptr);
  CHECK(s.user.kernel.scan.kernels.size() == 2);
  const KernelScan naive = core_scan("transpose.cu", "transpose_naive");
  REQUIRE(shown->kernel == naive.kernel);
  REQUIRE(shown->lines.size() == naive.lines.size());
  CHECK(shown->block == std::array<int, 3>{32, 8, 1});

  // Opened on the worst access: the column read of line 19, 32 wavefronts an instruction.
  const ScanLine& worst = naive.lines[0];
  CHECK(worst.line == 19);
  CHECK(worst.worst_ways == 32);
  CHECK(kernel_on_screen(s));
  CHECK(s.user.kernel.access == 0);
  CHECK(wavefronts_on_screen(s) == worst.worst_wavefronts);
  CHECK(s.derived.scenario.tile.cols == 32);  // the tile view draws tile[32][32]

  // The ranking lists every access; a click on the second puts its worst instruction on screen.
  const std::vector<Item> ranked = rows(app.d, s, "##accesses");
  REQUIRE(ranked.size() == naive.lines.size());
  app.d.click(s, ranked[1].centre());
  app.d.frame(s);  // the next frame derives what the click put on screen
  const ScanLine& second = naive.lines[1];
  CHECK(s.user.kernel.access == 1);
  CHECK(s.derived.scenario.op == second.op);
  CHECK(wavefronts_on_screen(s) == second.worst_wavefronts);

  // Back to the first; its third warp-instruction, clicked, is the one on screen.
  app.d.click(s, rows(app.d, s, "##accesses")[0].centre());
  const std::vector<Item> instructions = rows(app.d, s, "##instructions");
  REQUIRE(instructions.size() >= 3);
  app.d.click(s, instructions[2].centre());
  app.d.frame(s);
  CHECK(s.user.kernel.instance == 2);
  CHECK(s.derived.scenario.custom_offsets == worst.instances[2].offsets);
  CHECK(s.derived.scenario.lane_mask == worst.instances[2].lanes);
  CHECK(wavefronts_on_screen(s) == worst.instances[2].wavefronts);

  // A source line with an access: the click puts its worst access on screen.
  const int store_line = 14;  // tile[threadIdx.y + j][threadIdx.x] = ...
  REQUIRE(click_source_line(app.d, s, store_line));
  app.d.frame(s);
  CHECK(s.user.kernel.access >= 0);
  CHECK(shown_kernel(s)->lines[static_cast<std::size_t>(s.user.kernel.access)].line == store_line);
  CHECK(s.derived.scenario.op == Op::st);
  CHECK(wavefronts_on_screen(s) == 1);  // a row of the tile: conflict-free
  // A line without one (__syncthreads()) changes nothing.
  const Scenario before = s.user.scenario;
  REQUIRE(click_source_line(app.d, s, 15));
  CHECK(s.user.scenario == before);

  // The second kernel from the combo: the padded tile, its column read conflict-free.
  show_kernel(s, 1);
  app.d.frame(s);
  CHECK(shown_kernel(s)->kernel == "transpose_padded");
  CHECK(s.derived.scenario.tile.cols == 33);
  CHECK(wavefronts_on_screen(s) ==
        core_scan("transpose.cu", "transpose_padded").lines[0].worst_wavefronts);

  // A control changes the access: the window says so, the scan stays.
  show_kernel(s, 0);
  app.d.frame(s);
  toggle_lane(s, 5);
  app.d.frame(s);
  CHECK_FALSE(kernel_on_screen(s));
  CHECK(shown_kernel(s)->lines.size() == naive.lines.size());
}

TEST_CASE("presentation mode and File > Export draw the kernel's access") {
  ScratchDir dir;
  App app(kCorpus);
  app.open("transpose.cu");
  AppState& s = app.s;
  const KernelScan naive = core_scan("transpose.cu", "transpose_naive");
  const ScanLine& worst = naive.lines[0];
  REQUIRE(wavefronts_on_screen(s) == worst.worst_wavefronts);
  app.d.key(s, GLFW_KEY_F5);
  CHECK(s.user.stage.presenting);
  CHECK(wavefronts_on_screen(s) == worst.worst_wavefronts);
  app.d.key(s, GLFW_KEY_ESCAPE);
  CHECK_FALSE(s.user.stage.presenting);

  // The lane table as CSV: lane L's byte is the instruction's offset of lane L.
  s.user.settings.folder = dir.path.string();
  REQUIRE(app.d.menu(s, "File", "Export lane table as CSV..."));
  app.d.frame(s);
  REQUIRE(app.d.replace_text(s, {kChooser, "name"}, "kernel-lanes"));
  REQUIRE(app.d.click(s, {kChooser, "Save"}));
  const fs::path csv = dir.path / "kernel-lanes.csv";
  REQUIRE(fs::is_regular_file(csv));
  std::ifstream in(csv);
  std::string header, lane1;
  std::getline(in, header);
  std::getline(in, lane1);  // lane 0
  std::getline(in, lane1);
  const std::size_t instance = static_cast<std::size_t>(s.user.kernel.instance);
  const std::string byte = std::to_string(worst.instances[instance].offsets[1]);
  CHECK(lane1.find("," + byte + ",") != std::string::npos);
}

TEST_CASE("a file that cannot be scanned says why and keeps what was open; the block and names") {
  ScratchDir dir;
  std::ofstream(dir.path / "broken.cu") << "__global__ void k() {\n  __shared__ float s[32;\n}\n";
  std::ofstream(dir.path / "noblock.cu")
      << "template <int N>\n__global__ void k(int stride) {\n  __shared__ float s[1024];\n"
         "  s[threadIdx.x * stride] = N;\n  s[threadIdx.x % N] += 1.0f;\n}\n";
  App app(dir.path);
  AppState& s = app.s;
  app.open("broken.cu");
  CHECK(s.user.files.failed);
  CHECK(s.user.files.status.starts_with("broken.cu:4:1: error: expected '}'"));

  CHECK_FALSE(s.user.views.kernel);
  fs::create_directory(dir.path / "folder.cu");
  CHECK_FALSE(open_kernel_file(s, (dir.path / "folder.cu").string()));
  CHECK(s.user.kernel.error.find("a folder") != std::string::npos);
  CHECK_FALSE(open_kernel_file(s, (dir.path / "missing.cu").string()));

  // No launch and no __launch_bounds__: the kernel's error in the window, nothing on screen.
  const Scenario before = s.user.scenario;
  app.open("noblock.cu");
  CHECK_FALSE(s.user.files.failed);
  REQUIRE(shown_kernel(s) != nullptr);
  CHECK(shown_kernel(s)->error.has_value());
  CHECK(s.user.scenario == before);
  // The block set in the window: every line is unevaluated until the names give stride and N.
  REQUIRE(app.d.click(s, {kWindow, "set the block"}));
  REQUIRE(s.user.kernel.block_given);
  s.user.kernel.block = {64, 1, 1};
  REQUIRE(rescan_kernel(s));
  CHECK_FALSE(shown_kernel(s)->error.has_value());
  CHECK(shown_kernel(s)->lines.empty());
  REQUIRE(shown_kernel(s)->unevaluated.size() == 2);  // stride on line 4, N on line 5
  CHECK(shown_kernel(s)->unevaluated[0].reason.find("under names") != std::string::npos);
  app.d.frame(s);
  REQUIRE(app.d.replace_text(s, {kWindow, "names"}, "stride=2,N=8"));
  app.d.frame(s);
  REQUIRE(shown_kernel(s)->lines.size() == 3);
  CHECK(shown_kernel(s)->block[0] == 64);
  CHECK(kernel_on_screen(s));
  CHECK(shown_kernel(s)->lines[0].worst_ways == 2);  // stride 2: two words a bank
  // A bad name or a block of more than 1024 threads: the message, the last scan kept.
  const std::uint64_t scans = s.user.kernel.scans;
  REQUIRE(app.d.replace_text(s, {kWindow, "names"}, "stride=="));
  CHECK(s.user.kernel.error.find("names:") == 0);
  CHECK(s.user.kernel.scans == scans);
  CHECK(shown_kernel(s)->lines.size() == 3);
}

TEST_CASE("no two widgets of the Kernel window share an ID, and a click on each shows its access") {
  for (ImVec2 display : {ImVec2(1280, 720), ImVec2(1920, 1080)}) {
    CAPTURE(display.x);
    Driver d(display);
    AppState s;
    load_preset(s, std::string(kDefaultPreset));
    // Four kernels, loops, guards and several accesses a line.
    REQUIRE(open_kernel_file(s, (kCorpus / "reduce.cu").string()));
    d.settle(s);
    const std::vector<Item> items = d.frame(s);
    CHECK_MESSAGE(duplicate_ids(items).empty(), all_of(duplicate_ids(items)));
    std::vector<ImGuiID> ids;
    for (const Item& i : items)
      if (i.visible && i.window.starts_with(kWindow)) ids.push_back(i.id);
    CHECK(ids.size() > 20);
    for (ImGuiID id : ids) {
      CAPTURE(id);
      for (const Item& i : d.frame(s)) {
        if (i.id != id || !i.visible || !i.window.starts_with(kWindow)) continue;
        d.click(s, i.centre());
        break;
      }
      d.settle(s);
      REQUIRE(shown_kernel(s) != nullptr);
      if (!kernel_on_screen(s)) continue;
      const ScanLine& l = shown_kernel(s)->lines[static_cast<std::size_t>(s.user.kernel.access)];
      CHECK(wavefronts_on_screen(s) ==
            l.instances[static_cast<std::size_t>(s.user.kernel.instance)].wavefronts);
    }
  }
}

TEST_CASE("the Kernel window widens the left column while it is open, and gives it back") {
  Driver d(ImVec2(1280, 720));
  AppState s;
  load_preset(s, std::string(kDefaultPreset));
  d.settle(s);
  const ImGuiWindow* banks = ImGui::FindWindowByName("Bank view: 32 banks x one row per wavefront");
  REQUIRE(banks != nullptr);
  const float narrow = banks->Pos.x;
  REQUIRE(open_kernel_file(s, (kCorpus / "transpose.cu").string()));
  d.frame(s);
  d.frame(s);
  const ImGuiWindow* kernel = ImGui::FindWindowByName(kWindow);
  REQUIRE(kernel != nullptr);
  CHECK(kernel->Pos.x == 0.0f);
  CHECK(banks->Pos.x > narrow);
  CHECK(kernel->Size.x == banks->Pos.x);  // the bank view starts where the source ends
  s.user.views.kernel = false;            // its close button
  d.frame(s);
  d.frame(s);
  CHECK(banks->Pos.x == narrow);
}
