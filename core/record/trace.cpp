// Traces as JSON (one list of fields per structure, record_fields.hpp), the checks a trace file
// is held to, and the reader of nvdisasm's listing that gives each instruction's text.
//
// [SECTION] The fields
// [SECTION] The checks
// [SECTION] The public functions
// [SECTION] nvdisasm's listing
#include "core/record/trace.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>
#include <utility>

#include "core/base/format.hpp"
#include "core/base/json_fields.hpp"
#include "core/base/json_writer.hpp"
#include "core/model/analysis.hpp"
#include "core/record/record_fields.hpp"
#include "core/record/recording_check.hpp"

namespace banklab::record {
namespace {

constexpr std::string_view kTraceFormatName = "banklab-trace";
constexpr int kTraceVersion = 2;   // 2: an instruction's counted_at
constexpr int kTraceMaxDepth = 8;  // a trace nests 5 deep; deeper text is refused unbuilt
constexpr std::size_t kMaxSourceBytes = 8u << 20;  // one source file the trace carries

}  // namespace

// [SECTION] The fields
// Outside the unnamed namespace: the readers and writers (record_fields.hpp) find them by
// argument-dependent lookup, in this namespace.
// In the order the file holds them; `f` is a FieldWriter or a FieldReader (record_fields.hpp).

template <class F>
void fields(F& f, TraceLocation& l) {
  f("file", l.file);
  f("line", l.line);
}

template <class F>
void fields(F& f, TraceInstruction& i) {
  f("offset", i.offset);
  f("sass", i.sass);
  f.list("where", i.where);
  f.list("counted_at", i.counted_at);
}

template <class F>
void fields(F& f, TraceAccess& a) {
  f("instruction", a.instruction);
  f("block", a.block);
  f("warp", a.warp);
  f("instance", a.instance);
  fields(f, a.access);
  f("wavefronts", a.wavefronts);
  f("ideal", a.ideal);
  f.check([&]() -> std::string {
    TraceAccess recounted = a;
    count_access(recounted);
    if (recounted.wavefronts == a.wavefronts && recounted.ideal == a.ideal) return {};
    return " counts " + std::to_string(a.wavefronts) + " wavefronts (" + std::to_string(a.ideal) +
           " ideal), but the model gives " + std::to_string(recounted.wavefronts) + " (" +
           std::to_string(recounted.ideal) + ") for its lanes";
  });
}

template <class F>
void fields(F& f, TraceMeasuredLine& m) {
  f("file", m.file);
  f("line", m.line);
  f("instructions", m.instructions);
  f("wavefronts", m.wavefronts);
  f("ideal", m.ideal);
  f("excessive", m.excessive);
}

template <class F>
void fields(F& f, TraceSource& s) {
  f("path", s.path);
  f("text", s.text);
}

// After "format" and "version", which the reader checks before anything else.
template <class F>
void fields(F& f, Trace& t) {
  f("created_utc", t.created_utc);
  f("commit", t.commit);
  f("driver", t.driver);
  f("device", t.device);
  f("cc_major", t.cc_major);
  f("cc_minor", t.cc_minor);
  f("program", t.program);
  f("kernel", t.kernel);
  f("function", t.function);
  f("launch", t.launch);
  for (const char* axis : {"x", "y", "z"}) {
    const std::size_t i = static_cast<std::size_t>(*axis - 'x');
    f(std::string("grid_") + axis, t.grid[i]);
    f(std::string("block_") + axis, t.block[i]);
  }
  f("executed", t.executed);
  f("cap", t.cap);
  f("line_info", t.line_info);
  f("traced_ms", t.traced_ms);
  f("untraced_ms", t.untraced_ms);
  f("measured_by", t.measured_by);
  f("not_measured", t.not_measured);
  f.list("measured", t.measured);
  f.list("notes", t.notes);
  f.list("sources", t.sources);
  f.list("instructions", t.instructions);
  f.list("accesses", t.accesses);
}

namespace {

// [SECTION] The checks
// What can be known without the GPU: sizes and counts in range, every index inside what it
// indexes, every access's count what the model gives (checked as it is read, above).

void check_within(const std::string& path, std::int64_t value, std::int64_t lo, std::int64_t hi) {
  if (value < lo || value > hi) {
    throw JsonFieldError(path + " is " + std::to_string(value) + "; it must be " +
                         std::to_string(lo) + " to " + std::to_string(hi));
  }
}

void short_text(const std::string& path, const std::string& text) {
  check_within(path + "'s length", static_cast<std::int64_t>(text.size()), 0,
               static_cast<std::int64_t>(kMaxRecordedText));
}

void check_launch(const Trace& t) {
  for (const auto& [path, text] : {std::pair{"created_utc", &t.created_utc},
                                   {"commit", &t.commit},
                                   {"driver", &t.driver},
                                   {"device", &t.device},
                                   {"program", &t.program},
                                   {"kernel", &t.kernel},
                                   {"function", &t.function},
                                   {"measured_by", &t.measured_by},
                                   {"not_measured", &t.not_measured}}) {
    short_text(std::string("trace.") + path, *text);
  }
  std::int64_t threads = 1;
  for (int axis = 0; axis < 3; ++axis) {
    check_within("trace.block[" + std::to_string(axis) + "]", t.block[axis], 1, 1024);
    check_within("trace.grid[" + std::to_string(axis) + "]", t.grid[axis], 1, 2147483647);
    threads *= t.block[axis];
  }
  check_within("trace.block's threads", threads, 1, 1024);
  check_within("trace.launch", t.launch, 0, INT64_MAX);
  check_within("trace.cap", t.cap, 1, INT64_MAX);
  check_within("trace.accesses' count", static_cast<std::int64_t>(t.accesses.size()), 0, t.cap);
  check_within("trace.executed", t.executed, static_cast<std::int64_t>(t.accesses.size()),
               INT64_MAX);
  for (const auto& [path, ms] :
       {std::pair{"trace.traced_ms", t.traced_ms}, {"trace.untraced_ms", t.untraced_ms}}) {
    if (!(ms >= 0 && ms < 1e9)) throw JsonFieldError(std::string(path) + " is not a time in ms");
  }
}

void check_lines(const Trace& t) {
  std::set<std::int64_t> offsets;
  for (std::size_t i = 0; i < t.instructions.size(); ++i) {
    const TraceInstruction& in = t.instructions[i];
    const std::string path = "trace.instructions[" + std::to_string(i) + "]";
    check_within(path + ".offset", in.offset, 0, INT64_MAX);
    if (!offsets.insert(in.offset).second) throw JsonFieldError(path + ".offset is listed twice");
    short_text(path + ".sass", in.sass);
    for (const auto& [name, places] :
         {std::pair{".where", &in.where}, {".counted_at", &in.counted_at}}) {
      for (const TraceLocation& l : *places) {
        short_text(path + name + "'s file", l.file);
        check_within(path + name + "'s line", l.line, 1, INT32_MAX);
      }
    }
  }
  for (std::size_t i = 0; i < t.measured.size(); ++i) {
    const TraceMeasuredLine& m = t.measured[i];
    const std::string path = "trace.measured[" + std::to_string(i) + "]";
    short_text(path + ".file", m.file);
    check_within(path + ".line", m.line, 1, INT32_MAX);
    check_within(path + ".instructions", m.instructions, 0, INT64_MAX);
    check_within(path + ".wavefronts", m.wavefronts, 0, INT64_MAX);
    check_within(path + ".ideal", m.ideal, 0, m.wavefronts);
    check_within(path + ".excessive", m.excessive, 0, m.wavefronts);
  }
  for (std::size_t i = 0; i < t.sources.size(); ++i) {
    const std::string path = "trace.sources[" + std::to_string(i) + "]";
    short_text(path + ".path", t.sources[i].path);
    check_within(path + ".text's length", static_cast<std::int64_t>(t.sources[i].text.size()), 0,
                 kMaxSourceBytes);
  }
  for (std::size_t i = 0; i < t.notes.size(); ++i)
    short_text("trace.notes[" + std::to_string(i) + "]", t.notes[i]);
}

void check_accesses(const Trace& t) {
  const std::int64_t blocks = std::int64_t{t.grid[0]} * t.grid[1] * t.grid[2];
  for (std::size_t i = 0; i < t.accesses.size(); ++i) {
    const TraceAccess& a = t.accesses[i];
    const std::string path = "trace.accesses[" + std::to_string(i) + "]";
    check_within(path + ".instruction", a.instruction, 0,
                 static_cast<std::int64_t>(t.instructions.size()) - 1);
    check_within(path + ".block", a.block, 0, blocks - 1);
    check_within(path + ".warp", a.warp, 0, t.warps_per_block() - 1);
    check_within(path + ".instance", a.instance, 0, t.executed);
  }
}

constexpr RecordFormat kTraceFormat{"trace", "trace", kTraceFormatName, kTraceVersion,
                                    kTraceMaxDepth};

Trace read_trace(const nlohmann::json& j) {
  FieldReader f = open_record(j, kTraceFormat);
  Trace t;
  fields(f, t);
  return t;
}

}  // namespace

// [SECTION] The public functions

std::string TraceInstruction::opcode() const {
  std::string_view s = sass;
  if (s.starts_with('@')) s.remove_prefix(std::min(s.size(), s.find(' ') + 1));  // @P0, @!P1
  return std::string(s.substr(0, s.find(' ')));
}

bool TraceInstruction::atomic() const {
  const std::string op = opcode();
  return op.starts_with("ATOM") || op.starts_with("RED");
}

int Trace::warps_per_block() const {
  const std::int64_t threads = std::int64_t{block[0]} * block[1] * block[2];
  return static_cast<int>((threads + kWarpSize - 1) / kWarpSize);
}

void count_access(TraceAccess& a) {
  const Analysis analysis = analyze(a.access);
  a.wavefronts = analysis.wavefront_count();
  a.ideal = analysis.ideal_wavefronts;
}

std::string trace_json(const Trace& t) {
  Trace copy = t;
  std::string out;
  JsonWriter w(out);
  FieldWriter f(w);
  w.begin_object().field("format", kTraceFormatName).field("version", kTraceVersion);
  fields(f, copy);
  w.end_object();
  out += '\n';
  return out;
}

Expected<Trace> parse_trace(std::string_view text) {
  return read_record<Trace>(text, kTraceFormat, [](const nlohmann::json& j) -> Expected<Trace> {
    Trace t = read_trace(j);
    check_launch(t);
    check_lines(t);
    check_accesses(t);
    return t;
  });
}

// [SECTION] nvdisasm's listing
// The listing holds each function under a label ".text.NAME:", and in it each instruction on a
// line "/*0a70*/  LDS R4, [R2] ;".

namespace {

// "/*0a70*/   LDS R4, [R2] ;" -> offset 0xa70 and "LDS R4, [R2]"; false for other lines.
bool parse_instruction(std::string_view line, SassLine& out) {
  line = trim(line);
  if (!line.starts_with("/*")) return false;
  const std::size_t close = line.find("*/");
  if (close == std::string_view::npos || close == 2) return false;
  std::int64_t offset = 0;
  for (const char c : line.substr(2, close - 2)) {
    if (!std::isxdigit(static_cast<unsigned char>(c)) || offset > (INT64_MAX >> 8)) return false;
    offset = offset * 16 +
             (std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : (c | 0x20) - 'a' + 10);
  }
  std::string_view text = trim(line.substr(close + 2));
  if (text.starts_with('{')) text = trim(text.substr(1));
  const std::size_t end = text.find(';');
  out.offset = offset;
  out.text = std::string(trim(text.substr(0, end)));
  return !out.text.empty();
}

}  // namespace

Expected<std::vector<SassLine>> parse_sass_listing(std::string_view listing,
                                                   std::string_view function) {
  const std::string label = ".text." + std::string(function) + ":";
  std::vector<SassLine> lines;
  bool inside = false, found = false;
  while (!listing.empty()) {
    const std::size_t nl = listing.find('\n');
    const std::string_view line = listing.substr(0, nl);
    listing.remove_prefix(nl == std::string_view::npos ? listing.size() : nl + 1);
    const std::string_view t = trim(line);
    if (t.starts_with(".text.") || t.starts_with(".section")) {
      inside = t == label;
      found = found || inside;
      continue;
    }
    if (!inside) continue;
    SassLine s;
    if (parse_instruction(t, s)) lines.push_back(std::move(s));
  }
  if (!found) return Error{"nvdisasm's listing has no function " + std::string(function)};
  return lines;
}

}  // namespace banklab::record
