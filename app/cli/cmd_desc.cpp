// banklab desc: wgmma / tcgen05 matrix descriptors decoded, encoded and checked against the
// producer that filled the tile. The model is core's (core/model/descriptor*.hpp); this file
// reads the flags and prints the fields, the layout, the rules and the verdict.
#include <optional>
#include <string>
#include <string_view>

#include "app/cli/commands.hpp"
#include "app/cli/syntax.hpp"
#include "app/figures/descriptor_figure.hpp"
#include "app/figures/svg.hpp"
#include "app/frontend/text_file.hpp"
#include "core/base/format.hpp"
#include "core/base/json_writer.hpp"
#include "core/model/descriptor_agreement.hpp"

namespace banklab::cli {
namespace {

// The command's flag names, checked against its syntax when compiled (args.hpp).
using Flag = frontend::FlagName<kDesc>;

struct DescOptions {
  std::string action;
  std::optional<std::uint64_t> word;
  std::optional<MmaArch> arch;
  OperandMajor major = OperandMajor::k;
  DType dtype = DType::bf16;
  std::optional<DescSwizzle> swizzle;
  std::optional<std::int64_t> start, lbo, sbo;
  int base_offset = 0;
  // The producer (agree).
  std::optional<SwizzleSpec> fill;
  std::optional<Cell> box;
  int boxes = 1;
  std::optional<std::int64_t> dest;
  int k_step = 0;
  std::optional<std::string> svg;  // agree: the picture written to this file
  bool json = false;
};

template <class T>
auto parsed(Expected<T> (*parse)(std::string_view)) {
  return [parse](std::string_view text) { return parse(text); };
}

Expected<DescOptions> read_options(const frontend::Args& args) {
  DescOptions o;
  const auto& words = args.positionals();
  o.action = words.front();
  if (o.action != "decode" && o.action != "encode" && o.action != "agree") {
    return Error{"desc expects decode, encode or agree, got " + quote(o.action)};
  }
  if (words.size() == 2) {
    if (o.action != "decode")
      return Error{"only 'desc decode' takes a word; " + o.action +
                   " builds it from --swizzle, --start, --lbo, --sbo"};
    const Expected<std::uint64_t> w = parse_hex_word(words[1]);
    if (!w) return Error{w.error()};
    o.word = *w;
  } else if (o.action == "decode") {
    return Error{"desc decode needs the descriptor word: banklab desc decode 0x4000004000010040"};
  }
  constexpr std::int64_t kMaxBytes = std::int64_t{1} << 40;  // absurd, yet reported, not wrapped
  Expected<void> read =
      frontend::FlagReader<kDesc>(args)
          .value("arch", o.arch, parsed(parse_mma_arch))
          .value("major", o.major, parsed(parse_operand_major))
          .value("dtype", o.dtype,
                 frontend::choice(parse_dtype, "--dtype expects fp8, bf16 or fp32, got "))
          .value("swizzle", o.swizzle, parsed(parse_desc_swizzle))
          .integer("start", o.start, -kMaxBytes, kMaxBytes)
          .integer("lbo", o.lbo, -kMaxBytes, kMaxBytes)
          .integer("sbo", o.sbo, -kMaxBytes, kMaxBytes)
          .integer("base-offset", o.base_offset, 0, 7)
          .value("fill", o.fill, parsed(parse_swizzle))
          .value("box", o.box, parsed(parse_tile_size))
          .integer("boxes", o.boxes, 1, 64)
          .integer("dest", o.dest, 0, kMaxBytes)
          .integer("k-step", o.k_step, 0, 4096)
          .text("svg", o.svg)
          .flag("json", o.json)
          .done();
  if (!read) return Error{read.error()};
  if (o.action == "decode" &&
      (o.swizzle || o.start || o.lbo || o.sbo || args.has(Flag("base-offset")))) {
    return Error{
        "desc decode reads the fields from the word; --swizzle, --start, --lbo, --sbo "
        "and --base-offset belong to encode and agree"};
  }
  if (o.action != "agree" &&
      (o.fill || o.box || o.dest || args.has(Flag("boxes")) || args.has(Flag("k-step")) || o.svg)) {
    return Error{
        "--fill, --box, --boxes, --dest, --k-step and --svg describe the producer and "
        "its picture: use 'desc agree'"};
  }
  if (o.action != "decode" && !o.swizzle) {
    return Error{"desc " + o.action + " needs --swizzle none|32b|64b|128b|128b-atom32"};
  }
  if (o.action == "agree" && (!o.fill || !o.box)) {
    return Error{
        "desc agree needs the producer: --fill SWIZZLE (tma128, cute:3,4,3, none...) "
        "and --box RxC (one box's rows x columns in elements)"};
  }
  return o;
}

MatrixDescriptor descriptor_of(const DescOptions& o) {
  if (o.word) return decode(*o.word, o.arch.value_or(infer_arch(*o.word))).fields;
  return {o.arch.value_or(MmaArch::sm90),
          *o.swizzle,
          o.start.value_or(0),
          o.lbo.value_or(0),
          o.sbo.value_or(0),
          o.base_offset,
          false};
}

// [SECTION] Text

void append_fields(std::string& out, const MatrixDescriptor& d, std::uint64_t word) {
  const DescSwizzleInfo& s = desc_swizzle(d.swizzle);
  const bool sm90 = d.arch == MmaArch::sm90;
  append_format(out, "descriptor %s (%s, %s)\n", hex_word(word).c_str(),
                std::string(to_string(d.arch)).c_str(), sm90 ? "wgmma" : "tcgen05.mma");
  const auto field = [&](const char* bits, const char* name, std::int64_t bytes) {
    append_format(out, "  bits %-6s %-14s 0x%04llx -> %lld B\n", bits, name,
                  static_cast<unsigned long long>((bytes & 0x3FFFF) >> 4),
                  static_cast<long long>(bytes & 0x3FFF0));
  };
  field("0-13", "start address", d.start);
  field("16-29", "LBO", d.lbo);
  field("32-45", "SBO", d.sbo);
  if (!sm90) append_format(out, "  bits %-6s %-14s 0b001\n", "46-48", "fixed");
  append_format(out, "  bits %-6s %-14s %d\n", "49-51", "base offset", d.base_offset & 7);
  if (!sm90) {
    append_format(out, "  bits %-6s %-14s %d (%s)\n", "52", "LBO mode", d.lbo_absolute ? 1 : 0,
                  d.lbo_absolute ? "absolute address" : "relative offset");
  }
  const int code = sm90 ? s.sm90_code : s.sm100_code;
  append_format(out, "  bits %-6s %-14s %d -> %s\n", sm90 ? "62-63" : "61-63", "swizzle", code,
                std::string(s.ptx_name).c_str());
}

void append_findings(std::string& out, const char* title, const std::vector<DescFinding>& list) {
  if (list.empty()) {
    append_format(out, "%s: none broken\n", title);
    return;
  }
  append_format(out, "%s:\n", title);
  for (const DescFinding& f : list) {
    append_format(out, "  %s: %s\n    fix: %s\n", std::string(to_string(f.level)).c_str(),
                  f.rule.c_str(), f.fix.c_str());
  }
}

std::string describe_text(const MatrixDescriptor& d, std::uint64_t word, const OperandShape& op,
                          const std::vector<std::string>& bit_problems) {
  std::string out;
  append_fields(out, d, word);
  for (const std::string& p : bit_problems) append_format(out, "  bits: %s\n", p.c_str());
  append_format(out, "operand: %s-major %s; one instruction reads %d elements (32 bytes) of K\n",
                std::string(to_string(op.major)).c_str(), std::string(dtype_name(op.dtype)).c_str(),
                op.k_step_elements());
  const CuteNotation n = cute_notation(d, op);
  append_format(out, "layout: %s\n        %s\n", n.symbolic.c_str(), n.numeric.c_str());
  append_findings(out, "rules", check_descriptor(d, op));
  return out;
}

std::string element_text(int mn, int k) {
  return format("(mn %d, k %d)", mn, k);
}

std::string agree_text(const MatrixDescriptor& d, const OperandShape& op, const OperandFill& fill,
                       const DescriptorAgreement& a) {
  std::string out;
  const OperandExtent x = operand_extent(fill, op.major);
  append_format(out,
                "producer: %s, %d box%s of %s at %lld: the operand is %d (MN) x %d (K), "
                "%s-major\n",
                fill.is_tma() ? "TMA" : "STS/stmatrix epilogue", fill.boxes,
                fill.boxes == 1 ? "" : "es", to_string(fill.box).c_str(),
                static_cast<long long>(fill.dest), x.mn, x.k,
                std::string(to_string(op.major)).c_str());
  out += describe_text(d, encode(d), op, {});
  append_findings(out, "producer rules", a.producer_rules);
  if (!a.compared) {
    out += "verdict: not compared: a rule above leaves the bytes written or read undefined\n";
    return out;
  }
  for (const StepStart& s : a.steps) {
    append_format(
        out, "k-step %d: start %lld (+%lld B)  %s\n", s.k_step, static_cast<long long>(s.start),
        static_cast<long long>(s.advance),
        s.mismatched == 0
            ? "reads what was written"
            : format("%lld elements misread", static_cast<long long>(s.mismatched)).c_str());
  }
  if (a.agrees()) {
    append_format(out, "verdict: agrees: all %lld elements read where %s wrote them\n",
                  static_cast<long long>(a.elements), fill.is_tma() ? "TMA" : "the epilogue");
    return out;
  }
  append_format(out, "verdict: MISMATCH: %lld of %lld elements read from the wrong bytes\n",
                static_cast<long long>(a.mismatched), static_cast<long long>(a.elements));
  const ElementMismatch& m = *a.first;
  append_format(out, "first mismatch: k-step %d, element %s: written at %lld, read at %lld, %s\n",
                m.k_step, element_text(m.mn, m.k).c_str(), static_cast<long long>(m.written),
                static_cast<long long>(m.read),
                m.found_mn
                    ? ("which holds element " + element_text(*m.found_mn, *m.found_k)).c_str()
                    : "where no element of the operand starts");
  append_format(out, "first mismatching core matrix: MN %d-%d x K %d-%d\n", m.core.mn_first,
                m.core.mn_first + m.core.mn_count - 1, m.core.k_first,
                m.core.k_first + m.core.k_count - 1);
  if (const auto fix = suggest_descriptor(d.arch, op, fill)) {
    append_format(out,
                  "fix: a descriptor that reads this fill: --swizzle %s --start %lld --lbo %lld "
                  "--sbo %lld (%s)\n",
                  std::string(desc_swizzle(fix->swizzle).name).c_str(),
                  static_cast<long long>(fix->start), static_cast<long long>(fix->lbo),
                  static_cast<long long>(fix->sbo), hex_word(encode(*fix)).c_str());
  } else {
    out += "fix: no canonical layout describes this fill; change the producer's swizzle or box\n";
  }
  return out;
}

// [SECTION] JSON

void write_findings(JsonWriter& w, std::string_view key, const std::vector<DescFinding>& list) {
  w.key(key).begin_array();
  for (const DescFinding& f : list) {
    w.begin_object()
        .field("level", to_string(f.level))
        .field("rule", f.rule)
        .field("fix", f.fix)
        .field("undefined", f.undefined)
        .end_object();
  }
  w.end_array();
}

void write_descriptor(JsonWriter& w, const MatrixDescriptor& d, const OperandShape& op,
                      const std::vector<std::string>& bit_problems) {
  const DescSwizzleInfo& s = desc_swizzle(d.swizzle);
  const CuteNotation n = cute_notation(d, op);
  w.field("word", hex_word(encode(d)))
      .field("arch", to_string(d.arch))
      .field("start", d.start)
      .field("lbo", d.lbo)
      .field("sbo", d.sbo)
      .field("base_offset", d.base_offset)
      .field("lbo_absolute", d.lbo_absolute)
      .field("swizzle", s.name)
      .field("swizzle_code", d.arch == MmaArch::sm90 ? s.sm90_code : s.sm100_code)
      .field("major", to_string(op.major))
      .field("dtype", dtype_name(op.dtype))
      .field("k_step_elements", op.k_step_elements())
      .field("layout", n.symbolic)
      .field("layout_numeric", n.numeric);
  w.key("bit_problems").begin_array();
  for (const std::string& p : bit_problems) w.value(p);
  w.end_array();
  write_findings(w, "findings", check_descriptor(d, op));
}

void write_agreement(JsonWriter& w, const OperandFill& fill, const DescriptorAgreement& a) {
  w.key("producer")
      .begin_object()
      .field("kind", fill.is_tma() ? "tma" : "sts")
      .field("box", to_string(fill.box))
      .field("boxes", fill.boxes)
      .field("dest", fill.dest)
      .end_object();
  write_findings(w, "producer_rules", a.producer_rules);
  w.field("compared", a.compared).field("agrees", a.agrees());
  w.field("elements", a.elements).field("mismatched", a.mismatched);
  w.key("steps").begin_array();
  for (const StepStart& s : a.steps) {
    w.begin_object()
        .field("k_step", s.k_step)
        .field("start", s.start)
        .field("advance", s.advance)
        .field("mismatched", s.mismatched)
        .end_object();
  }
  w.end_array();
  if (a.first) {
    const ElementMismatch& m = *a.first;
    w.key("first_mismatch")
        .begin_object()
        .field("k_step", m.k_step)
        .field("mn", m.mn)
        .field("k", m.k)
        .field("written", m.written)
        .field("read", m.read)
        .field("core_mn_first", m.core.mn_first)
        .field("core_mn_count", m.core.mn_count)
        .field("core_k_first", m.core.k_first)
        .field("core_k_count", m.core.k_count);
    if (m.found_mn) w.field("found_mn", *m.found_mn).field("found_k", *m.found_k);
    w.end_object();
  }
}

}  // namespace

int run_desc(const frontend::Args& args) {
  const Expected<DescOptions> o = read_options(args);
  if (!o) return bad_input(o.error());
  const MatrixDescriptor d = descriptor_of(*o);
  const OperandShape op{o->major, o->dtype};
  std::vector<std::string> bit_problems;
  if (o->word) bit_problems = decode(*o->word, d.arch).bit_problems;
  const std::uint64_t word = o->word.value_or(encode(d));
  std::optional<OperandFill> fill;
  std::optional<DescriptorAgreement> agreement;
  if (o->action == "agree") {
    fill = OperandFill{TileLayout{o->dtype, o->box->row, o->box->col, 0, *o->fill}, o->boxes,
                       o->dest.value_or(d.start)};
    agreement = check_agreement(d, op, *fill);
    if (o->svg) {
      const figures::Palette& palette = figures::palette_for(figures::Theme::light);
      const figures::Figure f = figures::descriptor_figure(
          d, op, *fill, o->k_step, figures::Box{0, 0, 1280, 720}, figures::FigureStyle{&palette});
      const Expected<void> written =
          frontend::write_text_file(*o->svg, figures::to_svg(f), "the descriptor picture");
      if (!written) return failure(written.error());
    }
  }
  if (o->json) {
    std::string out;
    JsonWriter w(out);
    w.begin_object().field("action", o->action);
    write_descriptor(w, d, op, bit_problems);
    if (agreement) write_agreement(w, *fill, *agreement);
    w.end_object();
    out += '\n';
    print(out);
    return kExitOk;
  }
  if (agreement) {
    print(agree_text(d, op, *fill, *agreement));
  } else {
    if (o->word && !o->arch) {
      print(format("arch: %s, inferred from bits 46-48 (give --arch to choose)\n",
                   std::string(to_string(d.arch)).c_str()));
    }
    print(describe_text(d, word, op, bit_problems));
  }
  return kExitOk;
}

}  // namespace banklab::cli
