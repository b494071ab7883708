// Lesson steps read through a matrix descriptor (core/teach/lesson_descriptor.hpp): every
// {desc_...} placeholder is the Descriptor Lab's value, recomputed here from the step's own
// tile and descriptor; the descriptor track's fault steps are the cases the H200 ran
// (docs/descriptor-lab.md, tests/gpu/test_descriptor_gpu.cpp); a step file that gets a
// descriptor wrong is refused with FILE:LINE and what is wrong.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/model/descriptor_agreement.hpp"
#include "core/teach/lesson.hpp"

namespace banklab {
namespace {

const Lesson& descriptor_track() {
  static const Lesson lesson = find_lesson("descriptor").value();
  return lesson;
}

std::string filled(const LessonStep& step, const std::string& placeholder) {
  const Evaluation e = evaluate(step.scenario);
  const Expected<std::string> v = fill_text("{" + placeholder + "}", step.scenario, e, nullptr,
                                            nullptr, step.descriptor ? &*step.descriptor : nullptr);
  const std::string why = placeholder + ": " + (v ? std::string() : v.error());
  REQUIRE_MESSAGE(v.has_value(), why);
  return *v;
}

std::string error_of(const std::string& toml) {
  const Expected<Lesson> l = parse_lesson(toml, "bad.toml");
  REQUIRE_FALSE(l.has_value());
  return l.error();
}

constexpr const char* kTmaTile =
    R"(args = ["--dtype", "bf16", "--tile", "64x64", "--swizzle", "tma128", "--access", "ldmatrix.x4"])";

std::string one_step(const std::string& body) {
  return std::string("title = \"t\"\n[[step]]\ntitle = \"s\"\n") + body + "\ntext = \"x\"\n";
}

TEST_CASE("the descriptor track: every step reads its tile through a descriptor, drawn") {
  const Lesson& l = descriptor_track();
  CHECK(l.steps.size() >= 4);
  CHECK(l.steps.size() <= 8);
  for (const LessonStep& step : l.steps) {
    CAPTURE(step.title);
    REQUIRE(step.descriptor.has_value());
    CHECK(std::find(step.show.begin(), step.show.end(), "descriptor") != step.show.end());
    const FilledStep f = fill_step(step);
    REQUIRE(f.descriptor.has_value());
    CHECK(*f.descriptor == *step.descriptor);
    CHECK(describe_step(f).find(hex_word(encode(step.descriptor->desc))) != std::string::npos);
  }
}

TEST_CASE("every descriptor placeholder is the Descriptor Lab's value for the step") {
  for (const LessonStep& step : descriptor_track().steps) {
    CAPTURE(step.title);
    const StepDescriptor& d = *step.descriptor;
    const MatrixDescriptor& m = d.desc;
    const TileLayout& t = step.scenario.tile;
    const OperandShape op{d.major, t.dtype};
    const OperandFill fill{t, d.boxes, d.dest};
    const DescriptorAgreement a = check_agreement(m, op, fill);
    const DescSwizzleInfo& sw = desc_swizzle(m.swizzle);
    CHECK(filled(step, "desc_word") == hex_word(encode(m)));
    CHECK(filled(step, "desc_swizzle") == sw.ptx_name);
    CHECK(filled(step, "desc_start") == std::to_string(m.start));
    CHECK(filled(step, "desc_lbo") == std::to_string(m.lbo));
    CHECK(filled(step, "desc_sbo") == std::to_string(m.sbo));
    CHECK(filled(step, "desc_base_offset") == std::to_string(m.base_offset));
    CHECK(filled(step, "desc_dest") == std::to_string(d.dest));
    CHECK(filled(step, "desc_isa_base_offset") == std::to_string((m.start >> 7) & 7));
    CHECK(cute_notation(m, op).symbolic.starts_with(filled(step, "desc_layout")));
    CHECK(filled(step, "desc_layout_numbers") == cute_notation(m, op).numeric);
    CHECK(cute_notation(m, {OperandMajor::mn, t.dtype})
              .symbolic.starts_with(filled(step, "desc_layout_mn")));
    CHECK(filled(step, "desc_k_elements") == std::to_string(kMmaStepBytes / t.elem_bytes()));
    CHECK(filled(step, "desc_step_bytes") == std::to_string(kMmaStepBytes));
    CHECK(filled(step, "desc_chunk_elements") == std::to_string(16 / t.elem_bytes()));
    CHECK(filled(step, "desc_core_rows") == "8");
    CHECK(filled(step, "desc_core_bytes") == "16");
    CHECK(filled(step, "desc_row_bytes") == std::to_string(sw.width_bytes));
    CHECK(filled(step, "desc_atom_bytes") == std::to_string(sw.width_bytes * sw.atom_rows));
    CHECK(filled(step, "desc_boundary") == std::to_string(sw.boundary_bytes));
    CHECK(filled(step, "desc_atom_rows") == std::to_string(sw.atom_rows));
    CHECK(filled(step, "desc_atom_elements") == std::to_string(sw.width_bytes / t.elem_bytes()));
    CHECK(filled(step, "desc_major") == (d.major == OperandMajor::k ? "K" : "MN"));
    if (!a.compared) continue;
    CHECK(filled(step, "desc_elements") == std::to_string(a.elements));
    CHECK(filled(step, "desc_mismatched") == std::to_string(a.mismatched));
    CHECK(filled(step, "desc_steps") == std::to_string(a.steps.size()));
    for (std::size_t s = 0; s < a.steps.size(); ++s) {
      CHECK(filled(step, "desc_advance:" + std::to_string(s)) ==
            std::to_string(a.steps[s].advance));
      CHECK(filled(step, "desc_start_of:" + std::to_string(s)) == std::to_string(a.steps[s].start));
    }
    const std::optional<MatrixDescriptor> fix = suggest_descriptor(m.arch, op, fill);
    REQUIRE(fix.has_value());
    CHECK(filled(step, "desc_fix_sbo") == std::to_string(fix->sbo));
    CHECK(filled(step, "desc_fix").find(hex_word(encode(*fix))) != std::string::npos);
    if (a.first) {
      const std::string first = filled(step, "desc_first_mismatch");
      CHECK(first.find("written at byte " + std::to_string(a.first->written)) != std::string::npos);
      CHECK(first.find("read at byte " + std::to_string(a.first->read)) != std::string::npos);
    }
  }
}

TEST_CASE("the track's fault steps are the cases the H200 computed") {
  // docs/descriptor-lab.md, "Checked on the H200": a 64x64 bf16 box TMA wrote with 128B, read
  // through wgmma; the misread counts are the lab's, which the GPU suite checks bit for bit.
  struct Case {
    std::string swizzle;
    std::int64_t sbo, dest;
    std::string mismatched;  // "" for a descriptor that reads it
  };
  const Case cases[] = {{"128-Byte swizzle", 1024, 0, "0"},
                        {"64-Byte swizzle", 512, 0, "4032"},
                        {"128-Byte swizzle", 512, 0, "3584"},
                        {"128-Byte swizzle", 1024, 512, "0"}};
  for (const Case& c : cases) {
    bool found = false;
    for (const LessonStep& step : descriptor_track().steps) {
      const StepDescriptor& d = *step.descriptor;
      if (d.major != OperandMajor::k || desc_swizzle(d.desc.swizzle).ptx_name != c.swizzle ||
          d.desc.sbo != c.sbo || d.dest != c.dest || d.desc.base_offset != 0)
        continue;
      found = true;
      CHECK(filled(step, "desc_mismatched") == c.mismatched);
      CHECK(filled(step, "desc_elements") == "4096");
    }
    CAPTURE(c.swizzle);
    CAPTURE(c.sbo);
    CHECK(found);
  }
}

TEST_CASE("the MN-major step: LBO is TMA's second box, and the descriptor reads the tile") {
  // Its text says LBO steps from one swizzle atom along MN to the next, TMA's second box.
  int found = 0;
  for (const LessonStep& step : descriptor_track().steps) {
    const StepDescriptor& d = *step.descriptor;
    if (d.major != OperandMajor::mn) continue;
    ++found;
    const TileLayout& t = step.scenario.tile;
    CHECK(d.boxes == 2);
    CHECK(d.desc.lbo == t.size_bytes());
    CHECK(t.cols * t.elem_bytes() == desc_swizzle(d.desc.swizzle).width_bytes);  // one atom
    CHECK(step_agreement(d, t).agrees());
    CHECK(filled(step, "desc_layout") == "Swizzle<3,4,3> o ((T,8,m),(8,k)):((1,T,LBO),(8T,SBO))");
  }
  CHECK(found == 1);
}

TEST_CASE("a step's descriptor is checked: FILE:LINE and what is wrong") {
  CHECK(error_of(one_step(R"(args = ["--dtype", "bf16"])"
                          "\n"
                          R"(descriptor = ["--sbo", "1024"])"))
            .find("a descriptor step reads a tile TMA fills") != std::string::npos);
  CHECK(error_of(one_step(std::string(kTmaTile) + "\n" +
                          R"(descriptor = ["--arch", "sm90", "--swizzle", "128b-atom32"])"))
            .find("is not a mode of sm90's descriptor") != std::string::npos);
  CHECK(error_of(one_step(std::string(kTmaTile) + "\n" + R"(descriptor = ["--k-step", "4"])"))
            .find("the tile holds k-steps 0 to 3") != std::string::npos);
  CHECK(error_of(one_step(std::string(kTmaTile) + "\n" + R"(descriptor = ["--pad", "1"])"))
            .find("--pad is not a descriptor flag") != std::string::npos);
  CHECK(error_of(one_step(std::string(kTmaTile) + "\n" + R"(descriptor = ["--major", "row"])"))
            .starts_with("bad.toml:5: the descriptor: "));
  CHECK(error_of(one_step(std::string(kTmaTile) + "\n" + R"(descriptor = ["--boxes", "9"])"))
            .starts_with("bad.toml:5: the descriptor: "));
  CHECK(error_of(one_step(std::string(kTmaTile) + "\n" + R"(descriptor = ["--boxes", "0"])"))
            .starts_with("bad.toml:5: the descriptor: "));
  CHECK(error_of(one_step(std::string(kTmaTile) + "\n" + R"(descriptor = ["--sbo"])"))
            .find("--sbo needs a value") != std::string::npos);
  CHECK(error_of(one_step(std::string(kTmaTile) + "\n" + R"(descriptor = ["--sbo", "-16"])"))
            .starts_with("bad.toml:5: the descriptor: "));
  CHECK(error_of(one_step(std::string(kTmaTile) + "\n" + R"(descriptor = "128b")"))
            .find("'descriptor' must be a list of strings") != std::string::npos);
  CHECK(error_of(one_step(std::string(kTmaTile) + "\n" + R"(show = ["descriptor"])"))
            .find("give the step its 'descriptor'") != std::string::npos);
  // A descriptor placeholder in a step without one, at its line.
  const std::string text_error = error_of("title = \"t\"\n[[step]]\ntitle = \"s\"\n" +
                                          std::string(kTmaTile) + "\ntext = \"{desc_sbo}\"\n");
  CHECK(text_error.starts_with("bad.toml:5: {desc_sbo}: needs a step read through a descriptor"));
  // A placeholder the step cannot give: no mismatch where the descriptor reads every element.
  CHECK(error_of("title = \"t\"\n[[step]]\ntitle = \"s\"\n" + std::string(kTmaTile) +
                 "\ndescriptor = [\"--sbo\", \"1024\"]\ntext = \"{desc_first_mismatch}\"\n")
            .find("reads every element where it was written") != std::string::npos);
}

}  // namespace
}  // namespace banklab
