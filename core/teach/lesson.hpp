#pragma once
// Lessons as data: one TOML file per track in assets/lessons/, editable without recompiling.
//
//   name = "transpose"                  # optional: the file's stem
//   title = "The shared-memory transpose, from 32-way to swizzled"
//   summary = "..."                     # optional
//
//   [[step]]
//   title = "The naive tile"
//   args = ["--dtype", "fp32", "--pad", "0"]   # the scenario flags of `banklab analyze`
//   lanes = "busiest"                   # or [0, 8, 16]: lanes to highlight
//   banks = "busiest"                   # or [0, 4]
//   rows = "misaligned"                 # or [1, 2, 3]: tile rows to mark
//   elements = [[0, 0], [1, 0]]         # tile elements (row, column) to highlight
//   show = ["banks", "tiles"]           # what its slide draws: banks, lanes, tile, tiles (as
//                                       # indexed and as stored side by side), code, compare
//   compare = ["fp32-pad1", "fp32-xor"] # with "compare": presets shown beside the step's scenario
//   descriptor = ["--swizzle", "64b", "--sbo", "512"]  # the tile read through a wgmma/tcgen05
//                                       # descriptor (lesson_descriptor.hpp): {desc_...} fill,
//                                       # the app opens its Descriptor window, show "descriptor"
//   text = """
//   {busiest_lanes} all want bank {busiest_bank}: {ways}-way, {wavefronts} wavefronts.
//   """
//
// Every number a text states is a placeholder the core fills ({wavefronts}, {ways} ...; see
// placeholders()); an unknown placeholder, or one the step's scenario cannot give, is an error.
// "{{" and "}}" stand for literal braces. Texts are reflowed: a paragraph may be wrapped
// anywhere, and lines indented by four spaces are code, kept as they are (a multi-line value
// such as {code} keeps its line's indentation). Every error reads "FILE:LINE: what is wrong".
#include <cstddef>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/base/expected.hpp"
#include "core/code/kernel_code.hpp"
#include "core/model/scenario.hpp"
#include "core/report/study.hpp"
#include "core/teach/lesson_descriptor.hpp"

namespace banklab {

struct Highlights {
  std::vector<int> lanes;
  std::vector<int> banks;
  std::vector<int> rows;
  std::vector<Cell> elements;
  bool empty() const { return lanes.empty() && banks.empty() && rows.empty() && elements.empty(); }
};

// A step written as code, in the code form of `banklab analyze`:
//   args = ["--decl", "__shared__ float tile[32][33];", "--expr", "tile[threadIdx.x][threadIdx.y]",
//           "--block", "16x16", "--warp", "0"]        (--let NAME=V,... too)
// The core evaluates the code for that warp of that block; its 32 offsets are the step's
// scenario, and the placeholders {block}, {block_x}, {warp}, {warp_threads}, {thread:L} and
// {index:L} say which threads form the warp and what each reads.
struct StepCode {
  std::string decl, expr, lets;  // as written ("" for no --let)
  KernelParams params;
  KernelCode code;
};

struct LessonStep {
  std::string title;
  std::vector<std::string> args;  // as written
  Scenario scenario;
  std::optional<StepCode> code;  // a step written as code: what gave the scenario
  std::string text;              // with placeholders
  // Highlights as written: a list, or the name of a set the core computes.
  std::vector<int> lanes, banks, rows;
  std::vector<Cell> elements;
  bool busiest_lanes = false, busiest_banks = false, misaligned_rows = false;
  // What the step's slide draws (kSlideParts), in order; empty: the app's default. The presets
  // of `compare`, drawn beside the step's scenario when `show` has "compare".
  std::vector<std::string> show;
  std::vector<std::string> compare;
  // The tile read as a wgmma / tcgen05 operand through a descriptor, as `descriptor` names it.
  std::vector<std::string> descriptor_args;
  std::optional<StepDescriptor> descriptor;
  int line = 0;       // where the step's table starts
  int text_line = 0;  // where its text starts
};

struct Lesson {
  std::string name;
  std::string title;
  std::string summary;
  std::string file;  // the path it was read from, as given
  std::vector<LessonStep> steps;
};

// A step with its numbers filled in, ready to show: its scenario and the presets it compares
// with studied once, here (the slide, the app and the handout read the studies).
struct FilledStep {
  std::string title;
  std::string text;
  Study study;                   // the step's scenario, studied
  std::optional<StepCode> code;  // a step written as code
  Highlights highlights;
  std::vector<std::string> show;                       // as the step names it
  std::vector<std::pair<std::string, Study>> compare;  // preset name, its scenario studied
  std::optional<StepDescriptor> descriptor;            // a step read through a descriptor
};

// The names `show` takes: the bank view, the lane map, the tile, both tile pictures side by
// side, the code line, a comparison, the Descriptor Lab's picture (a step with a descriptor).
inline constexpr std::string_view kSlideParts[] = {"banks", "lanes",   "tile",      "tiles",
                                                   "code",  "compare", "descriptor"};

struct Placeholder {
  std::string_view name;  // "wavefronts"; "bank:L" takes a lane number
  std::string_view what;  // one line for the docs and `banklab lesson placeholders`
};
std::span<const Placeholder> placeholders();

// The text with every placeholder filled from the study of the step's scenario (and, for a step
// written as code, from its code; for one read through a descriptor, from its agreement), or the
// first placeholder that is unknown or cannot be filled, as "{name}: why" with the offset in
// `text`.
struct FillError {
  std::string message;
  std::size_t offset = 0;
};
Expected<std::string> fill_text(std::string_view text, const Study& st, FillError* error = nullptr,
                                const StepCode* code = nullptr,
                                const StepDescriptor* descriptor = nullptr);

// Paragraphs (lines separated by blank lines) joined into one line each, or wrapped at `width`
// columns when width > 0; lines indented by four spaces (code) are kept as they are.
std::string reflow(std::string_view text, int width);

// A lesson file is read only when it is a regular file of at most this size (file_read.hpp):
// the shipped ones are under 10 KB; a FIFO, a folder or a huge file is refused at once.
inline constexpr std::size_t kMaxLessonFileBytes = 1024 * 1024;

// Reads and checks a lesson: TOML syntax, the keys, every step's scenario, every placeholder.
Expected<Lesson> parse_lesson(std::string_view toml, const std::string& file);
Expected<Lesson> load_lesson(const std::filesystem::path& file);

// data_dir() / "lessons": the folder the lessons ship in (assets/lessons in a source tree).
Expected<std::filesystem::path> lessons_dir();

// The lessons of a folder: every *.toml that loads, by file name, and for each one that does not
// (a mistake in it, a FIFO, a folder named x.toml) its error, "FILE:LINE: what". One bad file
// never hides the others.
struct LessonCatalogue {
  std::vector<Lesson> lessons;
  std::vector<std::string> problems;
};
// An error only when the folder cannot be found or listed.
Expected<LessonCatalogue> load_lessons(const std::filesystem::path& dir);
Expected<LessonCatalogue> load_lessons();  // from lessons_dir()
// The lesson called name, or why there is none: the error of the file that would have been it
// (NAME.toml) when that one does not load, else the names there are.
Expected<Lesson> find_lesson(std::string_view name);

// Precondition: the step comes from a lesson that loaded (its placeholders all fill).
FilledStep fill_step(const LessonStep& step);

// The step's scenario in one line: describe() of it, or for a step written as code the access
// and the launch, "tile[threadIdx.x][threadIdx.y] on __shared__ float tile[32][33], block
// 16x16, warp 0".
std::string describe_step(const FilledStep& f);

// The whole lesson as one Markdown handout: a heading per step, its scenario, the image of
// step i when images[i] is given (a path relative to the Markdown file), and its text with the
// code in fenced blocks.
std::string to_markdown(const Lesson& lesson, std::span<const std::string> images = {});

}  // namespace banklab
