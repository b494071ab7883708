// The Descriptor window driven as a user drives it, headless: the Tile window's Descriptor...
// button on a TMA tile, then clicks on the major-ness, architecture and swizzle buttons (at the
// rectangles the window reports). Every verdict and number checked against the core's
// check_agreement().
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "app/gui/panels/panels.hpp"
#include "app/gui/state/descriptor_state.hpp"
#include "app/gui/state/lesson_state.hpp"
#include "core/base/format.hpp"
#include "tests/gui/headless_imgui.hpp"

namespace banklab::gui {
namespace {

const DescriptorGeometry& descriptor_geometry(const AppState& s) {
  REQUIRE(s.frame.geometry.descriptor.has_value());
  return *s.frame.geometry.descriptor;
}

std::string verdict_label(const AppState& s) {
  std::string found;
  for (const figures::Label& l : s.frame.geometry.labels) {
    if (l.role == figures::Role::verdict &&
        (l.text.rfind("agrees", 0) == 0 || l.text.rfind("MISMATCH", 0) == 0)) {
      found = l.text;
    }
  }
  return found;
}

ButtonRect swizzle_button(const AppState& s, DescSwizzle mode) {
  const DescriptorGeometry& g = descriptor_geometry(s);
  REQUIRE(g.swizzle.size() == g.swizzle_modes.size());
  for (std::size_t i = 0; i < g.swizzle_modes.size(); ++i) {
    if (g.swizzle_modes[i] == mode) return g.swizzle[i];
  }
  FAIL("no button for swizzle " << desc_swizzle(mode).name);
  return {};
}

}  // namespace

TEST_CASE("Tile > Descriptor... reads the TMA tile; 64b misreads it as the core counts") {
  HeadlessImGui ui;
  AppState s;
  REQUIRE(load_preset(s, "stmatrix-swizzled"));  // bf16 tile[8][64], TMA 128B
  ui.frame(s);
  CHECK_FALSE(s.user.views.descriptor);
  REQUIRE(s.frame.geometry.descriptor_link.has_value());
  ui.click(s, s.frame.geometry.descriptor_link->centre());
  REQUIRE(s.user.views.descriptor);
  ui.frame(s);

  // The descriptor that reads the tile, as the core suggests it, and the core's verdict on top.
  const TileLayout& tile = s.study.scenario.tile;
  const OperandShape op = descriptor_operand(s.user.descriptor, tile);  // K-major, one box
  const OperandFill fill = descriptor_fill(s.user.descriptor, tile);
  const std::optional<MatrixDescriptor> fits = suggest_descriptor(MmaArch::sm90, op, fill);
  REQUIRE(fits.has_value());
  CHECK(s.user.descriptor.desc == *fits);
  const DescriptorAgreement agrees = check_agreement(*fits, op, fill);
  REQUIRE(agrees.agrees());
  CHECK(verdict_label(s) == format("agrees: all %lld elements are read where they were written",
                                   static_cast<long long>(agrees.elements)));
  // Its chunk grid: one row per 128-byte line of the tile, 8 chunks each.
  CHECK(descriptor_geometry(s).grid.rows == static_cast<int>(tile.size_bytes() / 128));
  CHECK(descriptor_geometry(s).grid.cols == 8);

  // 64b: the wrong swizzle for a 128B fill.
  ui.click(s, swizzle_button(s, DescSwizzle::b64).centre());
  CHECK(s.user.descriptor.desc.swizzle == DescSwizzle::b64);
  ui.frame(s);
  const DescriptorAgreement wrong = check_agreement(s.user.descriptor.desc, op, fill);
  REQUIRE(wrong.compared);
  REQUIRE(wrong.mismatched > 0);
  CHECK(verdict_label(s) == format("MISMATCH: %lld of %lld elements misread (%lld in k-step 0)",
                                   static_cast<long long>(wrong.mismatched),
                                   static_cast<long long>(wrong.elements),
                                   static_cast<long long>(wrong.steps[0].mismatched)));

  // tcgen05 has the 32-byte-atom mode wgmma lacks; Read the tile puts the right one back.
  const std::size_t sm90_modes = descriptor_geometry(s).swizzle.size();
  ui.click(s, descriptor_geometry(s).arch[1].centre());
  CHECK(s.user.descriptor.desc.arch == MmaArch::sm100);
  ui.frame(s);
  CHECK(descriptor_geometry(s).swizzle.size() == sm90_modes + 1);
  ui.click(s, descriptor_geometry(s).read_tile.centre());
  ui.frame(s);
  CHECK(check_agreement(s.user.descriptor.desc, op, fill).agrees());
  CHECK(s.user.descriptor.desc.arch == MmaArch::sm100);
}

TEST_CASE("the K-major / MN-major buttons read the tile each way, as the core suggests") {
  HeadlessImGui ui;
  AppState s;
  REQUIRE(open_lesson(s, "descriptor", 0));
  // The MN-major step: bf16 tile[32][64] TMA wrote with 128B, two boxes along its columns.
  int mn_step = -1;
  const Lesson& lesson = *s.lesson.lesson;
  for (std::size_t i = 0; i < lesson.steps.size(); ++i)
    if (lesson.steps[i].descriptor->major == OperandMajor::mn) mn_step = static_cast<int>(i);
  REQUIRE(mn_step >= 0);
  go_to_step(s, mn_step);
  ui.frame(s);
  const StepDescriptor step = s.user.descriptor;
  CHECK(step.major == OperandMajor::mn);
  CHECK(step.boxes == 2);
  const TileLayout& tile = s.study.scenario.tile;
  REQUIRE(descriptor_geometry(s).major.size() == 2);
  for (const OperandMajor major : {OperandMajor::k, OperandMajor::mn}) {
    CAPTURE(to_string(major));
    ui.click(s, descriptor_geometry(s).major[major == OperandMajor::k ? 0 : 1].centre());
    ui.frame(s);
    CHECK(s.user.descriptor.major == major);
    CHECK(s.user.descriptor.boxes == 2);
    const OperandShape op = descriptor_operand(s.user.descriptor, tile);
    const OperandFill fill = descriptor_fill(s.user.descriptor, tile);
    const std::optional<MatrixDescriptor> fits = suggest_descriptor(MmaArch::sm90, op, fill);
    REQUIRE(fits.has_value());
    CHECK(s.user.descriptor.desc == *fits);
    const DescriptorAgreement a = check_agreement(*fits, op, fill);
    REQUIRE(a.agrees());
    CHECK(verdict_label(s) == format("agrees: all %lld elements are read where they were written",
                                     static_cast<long long>(a.elements)));
    // The arrows' words are the descriptor's SBO and, MN-major, LBO.
    int arrows = 0;
    for (const figures::Label& l : s.frame.geometry.labels) {
      arrows += l.text == format("SBO %lld B", static_cast<long long>(fits->sbo));
      arrows += major == OperandMajor::mn &&
                l.text == format("LBO %lld B", static_cast<long long>(fits->lbo));
    }
    CHECK(arrows == (major == OperandMajor::mn ? 2 : 1));
  }
  // Back to MN-major: the step's own descriptor, LBO one box (one swizzle atom along MN).
  CHECK(s.user.descriptor.desc == step.desc);
  CHECK(step.desc.lbo == tile.size_bytes());
}

TEST_CASE("a tile without a TMA swizzle offers no Descriptor window, and the window says why") {
  HeadlessImGui ui;
  AppState s;
  REQUIRE(load_preset(s, "fp32-naive"));
  ui.frame(s);
  CHECK_FALSE(s.frame.geometry.descriptor_link.has_value());
  s.user.views.descriptor = true;  // opened from the View menu
  ui.frame(s);
  REQUIRE(s.frame.geometry.descriptor.has_value());
  CHECK(descriptor_geometry(s).swizzle.empty());
  CHECK(descriptor_geometry(s).grid.empty());
}

TEST_CASE("a descriptor lesson step opens the window on its descriptor; the slide follows it") {
  HeadlessImGui ui;
  AppState s;
  REQUIRE(open_lesson(s, "descriptor", 0));
  const Lesson& lesson = *s.lesson.lesson;
  for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
    CAPTURE(lesson.steps[i].title);
    go_to_step(s, static_cast<int>(i));
    ui.frame(s);
    const StepDescriptor& d = *lesson.steps[i].descriptor;
    CHECK(s.user.views.descriptor);
    CHECK(s.user.descriptor == d);
    REQUIRE(s.frame.geometry.descriptor.has_value());
    // The window draws the core's verdict for the step's fill (its destination included).
    const DescriptorAgreement a = step_agreement(d, s.study.scenario.tile);
    const std::string verdict = verdict_label(s);
    CHECK(verdict.rfind(a.agrees() ? "agrees" : "MISMATCH", 0) == 0);
    if (!a.agrees())
      CHECK(verdict.find(std::to_string(a.mismatched) + " of ") != std::string::npos);
    // The slide's header says the same, and draws the Descriptor Lab's picture.
    const figures::Slide slide = lesson_slide(s);
    REQUIRE(slide.descriptor.has_value());
    CHECK(figures::slide_verdict(slide) == descriptor_verdict(d, s.study.scenario.tile));
    CHECK(std::find(slide.parts.begin(), slide.parts.end(), figures::SlidePart::descriptor) !=
          slide.parts.end());
  }
  // What the user changes in the window, the slide shows: the wrong swizzle step read with 128B.
  go_to_step(s, 5);
  ui.frame(s);
  REQUIRE_FALSE(step_agreement(s.user.descriptor, s.study.scenario.tile).agrees());
  ui.click(s, swizzle_button(s, DescSwizzle::b128).centre());
  s.user.descriptor.desc.sbo = 1024;
  ui.frame(s);
  CHECK(figures::slide_verdict(lesson_slide(s)) ==
        descriptor_verdict(s.user.descriptor, s.study.scenario.tile));
  CHECK(step_agreement(s.user.descriptor, s.study.scenario.tile).agrees());
}

}  // namespace banklab::gui
