// libFuzzer target over everything in the core that takes outside input: the text parsers
// (batch lines, offsets, widths, swizzles, tile sizes, dtypes, ops) and evaluate() / analyze() /
// explain() / the JSON writers on scenarios decoded from the fuzz bytes, absurd ones included.
// Built with AddressSanitizer and UndefinedBehaviorSanitizer, so any crash, assert, leak or UB
// fails the run; the properties below abort() when the core contradicts itself.
//
// Input format (the seed corpus in tests/fuzz/corpus/ follows it):
//   first byte % 4 == 0   the rest is text, handed to every parser
//                           (e.g. "@ld 4 0,4,8,...", "@cute:3,4,3", "@32x33")
//   otherwise             the rest is a binary scenario, read field by field by ByteReader;
//                           missing bytes read as zero, so any input decodes.
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>

#include "core/banklab.hpp"
#include "tests/fuzz/require.hpp"

namespace banklab {
namespace {

// Reads the scenario fields from the fuzz bytes. Integers come in two shapes so that the
// fuzzer reaches both the plausible range and the absurd one: one byte below 0xF0 is a small
// value (-16..223), a byte of 0xF0 or more is followed by a raw 32-bit value.
class ByteReader {
 public:
  ByteReader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  std::uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  std::uint32_t u32() {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v = v << 8 | byte();
    return v;
  }
  int small_or_raw() {
    const std::uint8_t b = byte();
    if (b < 0xF0) return static_cast<int>(b) - 16;
    return static_cast<int>(u32());
  }
  // A byte offset: usually a 16-bit value scaled by 1..16 (so every alignment appears), the
  // inactive lane, or a raw 64-bit value.
  std::int64_t offset() {
    const std::uint8_t tag = byte();
    if (tag < 0xF0) {
      const std::int64_t v = std::int64_t{byte()} << 8 | byte();
      return v << (tag % 5);
    }
    if (tag < 0xF8) return kInactiveLane;
    return static_cast<std::int64_t>(std::uint64_t{u32()} << 32 | u32());
  }
  // The lane mask: all lanes unless the input says otherwise.
  std::uint32_t mask() { return pos_ + 4 <= size_ ? u32() : 0xFFFFFFFFu; }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

void fuzz_text(std::string_view text) {
  // Any text, and any parser's message about it, makes valid JSON.
  std::string quoted;
  JsonWriter(quoted).value(text);
  require_json(quoted);
  if (Expected<WarpAccess> bad = parse_pattern_line(text); !bad) {
    std::string out;
    append_json_error(out, {{Severity::error, "syntax", bad.error(), -1}});
    require_json(out);
  }
  if (Expected<WarpAccess> a = parse_pattern_line(text)) {
    // The batch line of what was parsed parses back to the same access.
    const Expected<WarpAccess> again = parse_pattern_line(to_string(*a));
    require(again.has_value() && *again == *a);
    const std::vector<Diagnostic> diagnostics = check_access(*a);
    std::string out;
    if (has_error(diagnostics)) {
      append_json_error(out, diagnostics);
    } else {
      const Analysis r = analyze(*a);
      require(r.wavefront_count() >= r.ideal_wavefronts && r.wavefront_count() <= kMaxWavefronts);
      to_text(explain(r));
      append_json(out, r, diagnostics);
    }
    require_json(out);
  }
  if (Expected<SwizzleSpec> s = parse_swizzle(text)) {
    const Expected<SwizzleSpec> again = parse_swizzle(to_string(*s));
    require(again.has_value() && *again == *s);
    require(s->byte_swizzle(1).check().has_value());
  }
  if (Expected<Cell> size = parse_tile_size(text)) {
    // Any parsed size, however absurd, is judged by check() without trouble.
    TileLayout{DType::fp32, size->row, size->col, 0, {}}.check();
  }
  parse_offsets(text);
  parse_width(text);
  parse_dtype(text);
  parse_op(text);
  find_preset(text);
}

void fuzz_scenario(ByteReader& in) {
  Scenario s;
  s.tile.dtype = kAllDTypes[in.byte() % std::size(kAllDTypes)];
  s.tile.rows = in.small_or_raw();
  s.tile.cols = in.small_or_raw();
  s.tile.pad = in.small_or_raw();
  // Any kind: the enumerators run from 0 without gaps (swizzle.cpp asserts one descriptor per
  // enumerator), so a kind added to swizzle_kinds() is fuzzed without a change here, and a
  // corpus byte keeps naming the kind it named.
  s.tile.swizzle.kind = static_cast<SwizzleKind>(in.byte() % swizzle_kinds().size());
  // The three parameters serve the kind that has them: B, M, S for cute and cute-elem; vec,
  // perPhase, maxPhase for triton (the other kinds read neither).
  const int parameters[3] = {in.small_or_raw(), in.small_or_raw(), in.small_or_raw()};
  s.tile.swizzle.cute = {parameters[0], parameters[1], parameters[2]};
  s.tile.swizzle.triton = {parameters[0], parameters[1], parameters[2]};
  s.pattern = static_cast<AccessPattern>(in.byte() % 4);
  s.op = kAllOps[in.byte() % std::size(kAllOps)];
  s.width = in.small_or_raw();
  s.index = in.small_or_raw();
  s.lane_mask = in.mask();
  if (s.pattern == AccessPattern::raw)
    for (std::int64_t& o : s.raw_offsets) o = in.offset();

  const Evaluation e = evaluate(s);
  require(e.ok() == !has_error(e.diagnostics));
  if (e.ok()) {
    const Analysis& a = *e.analysis;
    require(a.wavefront_count() >= a.ideal_wavefronts && a.wavefront_count() <= kMaxWavefronts);
    require((a.ideal_wavefronts > 0) == (a.active_lanes > 0));
    const Expected<WarpAccess> line = parse_pattern_line(to_string(a.access));
    require(line.has_value() && *line == a.access);
  }
  const Study st = study(s);
  to_text(st.explanation);
  describe(s);
  tile_bank_map(s.tile);
  std::string out;
  append_json(out, st);
  require_json(out);
}

}  // namespace
}  // namespace banklab

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  if (data[0] % 4 == 0) {
    banklab::fuzz_text(std::string_view(reinterpret_cast<const char*>(data + 1), size - 1));
  } else {
    banklab::ByteReader in(data + 1, size - 1);
    banklab::fuzz_scenario(in);
  }
  return 0;
}
