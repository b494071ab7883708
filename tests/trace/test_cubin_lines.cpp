// The line table of real cubins (tests/trace/cubins, made by nvcc 13.0 with
// `nvcc -cubin -O3 -lineinfo -arch=sm_90 -o tests/trace/cubins/NAME.cubin SOURCE.cu` from the
// repository's root; histogram_skewed_no_lineinfo.cubin without -lineinfo): each instruction's
// places as Nsight Compute's Source page counts them, where nvdisasm's line comments placed the
// histogram's atomics of lines 16-18 all on line 16 and warp_reduce's lines 49-53 on line 65.
// The rows asked about are those `llvm-dwarfdump --debug-line` lists for these cubins.
#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <random>
#include <string>

#include "core/record/cubin_lines.hpp"

namespace banklab::record {
namespace {

std::string cubin(const std::string& name) {
  std::ifstream in(std::string(BANKLAB_SOURCE_DIR) + "/tests/trace/cubins/" + name + ".cubin",
                   std::ios::binary);
  REQUIRE(in);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// "histogram_skewed.cu:16" for each place, the file by its name alone.
std::vector<std::string> named(const std::vector<TraceLocation>& places) {
  std::vector<std::string> out;
  for (const TraceLocation& l : places)
    out.push_back(l.file.substr(l.file.rfind('/') + 1) + ":" + std::to_string(l.line));
  return out;
}

using Names = std::vector<std::string>;

TEST_CASE("the histogram's four inlined atomicAdd calls keep their own lines") {
  const auto lines =
      read_cubin_lines(cubin("histogram_skewed"), "_Z16histogram_skewedPK6uchar4iPj");
  REQUIRE(lines);
  REQUIRE_FALSE(lines->rows.empty());
  const std::int64_t atomics[] = {0x1f0, 0x210, 0x220, 0x230};
  for (int i = 0; i < 4; ++i) {
    const std::string call = "histogram_skewed.cu:" + std::to_string(15 + i);
    const InstructionPlaces p = places_at(*lines, atomics[i]);
    INFO(call);
    CHECK(named(p.where) == Names{"device_atomic_functions.hpp:112", call});
    CHECK(named(p.counted_at) == Names{call, "device_atomic_functions.hpp:112"});
  }
  // An instruction inside a row's range takes that row's places; none before 0 or past the end.
  CHECK(named(places_at(*lines, 0x1c8).where) == Names{"histogram_skewed.cu:15"});
  CHECK(places_at(*lines, lines->end).where.empty());
  CHECK(places_at(*lines, -16).counted_at.empty());
}

TEST_CASE("an inlined device function: its first instructions count at the call as well") {
  const auto lines = read_cubin_lines(cubin("reduce"), "_Z15reduce_unrolledPKiPi");
  REQUIRE(lines);
  // warp_reduce(sdata, tid) on line 65 begins at 0x210 with line 48 of its body.
  InstructionPlaces p = places_at(*lines, 0x210);
  CHECK(named(p.where) == Names{"reduce.cu:48", "reduce.cu:65"});
  CHECK(named(p.counted_at) == Names{"reduce.cu:65", "reduce.cu:48"});
  p = places_at(*lines, 0x240);
  CHECK(named(p.counted_at) == Names{"reduce.cu:65", "reduce.cu:48"});
  // Line 49 on: the body's line alone is counted, the call is still where it came from.
  p = places_at(*lines, 0x250);
  CHECK(named(p.where) == Names{"reduce.cu:49", "reduce.cu:65"});
  CHECK(named(p.counted_at) == Names{"reduce.cu:49"});
  CHECK(named(places_at(*lines, 0x350).counted_at) == Names{"reduce.cu:53"});
  // Another function of the same cubin has its own sequence, none of it inlined.
  const auto divergent = read_cubin_lines(cubin("reduce"), "_Z16reduce_divergentPKiPi");
  REQUIRE(divergent);
  CHECK(named(places_at(*divergent, 0x10).where) == Names{"reduce.cu:13"});
}

TEST_CASE("the second function's inlining rows are numbered within its own sequence") {
  const std::string bytes = cubin("ldmatrix");
  const auto plain = read_cubin_lines(bytes, "_Z14ldmatrix_plainPK5uint4Pj");
  REQUIRE(plain);
  for (const std::int64_t ldsm : {0x2e0, 0x2f0, 0x300, 0x310}) {
    const InstructionPlaces p = places_at(*plain, ldsm);
    CHECK(named(p.where) == Names{"ldmatrix.cu:21", "ldmatrix.cu:38"});
    CHECK(named(p.counted_at) == Names{"ldmatrix.cu:38", "ldmatrix.cu:21"});
  }
  const auto swizzled = read_cubin_lines(bytes, "_Z17ldmatrix_swizzledPK5uint4Pj");
  REQUIRE(swizzled);
  // Inlined at the row of 0x3c0 (line 57), from a row at another address: counted on 21 alone.
  const InstructionPlaces p = places_at(*swizzled, 0x410);
  CHECK(named(p.where) == Names{"ldmatrix.cu:21", "ldmatrix.cu:57"});
  CHECK(named(p.counted_at) == Names{"ldmatrix.cu:21"});
}

TEST_CASE("a cubin without -lineinfo, a function it lacks, bytes that are no cubin") {
  const auto none =
      read_cubin_lines(cubin("histogram_skewed_no_lineinfo"), "_Z16histogram_skewedPK6uchar4iPj");
  REQUIRE(none);
  CHECK(none->rows.empty());
  const auto other = read_cubin_lines(cubin("histogram_skewed"), "_Z7missingv");
  REQUIRE(other);
  CHECK(other->rows.empty());
  const auto text = read_cubin_lines(
      "not a cubin at all, but long enough to be read as one "
      "if nothing checked the first four bytes of it",
      "f");
  REQUIRE_FALSE(text);
  CHECK(text.error() == "the cubin's line table cannot be read: it is not an ELF file (a cubin)");
}

TEST_CASE("any cut or changed bytes of a cubin read without a crash") {
  const std::string whole = cubin("ldmatrix");
  const std::string function = "_Z14ldmatrix_plainPK5uint4Pj";
  int refused = 0;
  for (std::size_t size = 0; size < whole.size(); size += 7) {
    const auto cut = read_cubin_lines(std::string_view(whole).substr(0, size), function);
    if (cut) {
      for (const CubinLines::Row& r : cut->rows) (void)places_at(*cut, r.offset);
    } else {
      ++refused;
    }
  }
  CHECK(refused > 0);
  std::mt19937 random(35);
  for (int trial = 0; trial < 3000; ++trial) {
    std::string changed = whole;
    for (int n = 0; n < 4; ++n)
      changed[random() % changed.size()] = static_cast<char>(random() & 0xff);
    const auto lines = read_cubin_lines(changed, function);
    if (lines) {
      for (std::int64_t offset = 0; offset < 0x500; offset += 0x40) (void)places_at(*lines, offset);
    }
  }
}

// A relocation's symbol index times 24 (the size of a symbol) lies past the table. With
// 0x0AAAAAAB the product is 0x1'0000'0008, which a 32-bit size_t (the browser edition's) wraps
// to 8, the middle of the first symbol: it must be refused before it is multiplied.
TEST_CASE("a relocation naming a symbol past the symbol table is refused") {
  std::string bytes = cubin("ldmatrix");
  const auto read = [&](std::size_t at, int size) {
    std::uint64_t v = 0;
    for (int i = size - 1; i >= 0; --i)
      v = v << 8 | static_cast<unsigned char>(bytes[at + static_cast<std::size_t>(i)]);
    return v;
  };
  const std::uint64_t table = read(0x28, 8), entry = read(0x3a, 2), count = read(0x3c, 2);
  int changed = 0;
  for (std::uint64_t i = 0; i < count; ++i) {
    const auto header = static_cast<std::size_t>(table + i * entry);
    if (read(header + 4, 4) != 4) continue;  // SHT_RELA
    const auto first = static_cast<std::size_t>(read(header + 24, 8));
    // r_info's high half is the symbol: write 0x0AAAAAAB there, little-endian.
    const std::uint32_t symbol = 0x0AAAAAABu;
    for (std::size_t b = 0; b < 4; ++b)
      bytes[first + 12 + b] = static_cast<char>((symbol >> (8 * b)) & 0xff);
    ++changed;
  }
  REQUIRE(changed > 0);
  const auto lines = read_cubin_lines(bytes, "_Z14ldmatrix_plainPK5uint4Pj");
  REQUIRE_FALSE(lines);
  CHECK(lines.error().find("a relocation names a symbol past the symbol table") !=
        std::string::npos);
}

}  // namespace
}  // namespace banklab::record
