// validation_corpus(): what `banklab validate` measures. It must be valid, reproducible from
// its seed, and hold what each family promises, or a 100 % agreement proves less than it says.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "core/model/analysis.hpp"
#include "core/validate/corpus.hpp"

namespace banklab {
namespace {

bool shares_with_partner(const WarpAccess& a, int partner) {
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const int other = lane ^ partner;
    if (a.active(lane) && a.active(other) && a.offsets[lane] == a.offsets[other]) return true;
  }
  return false;
}

std::set<std::int64_t> addresses(const WarpAccess& a) {
  std::set<std::int64_t> out;
  for (int lane = 0; lane < a.addressed_lanes(); ++lane)
    if (a.active(lane)) out.insert(a.offsets[lane]);
  return out;
}

}  // namespace

TEST_CASE("every corpus entry is a valid access") {
  const std::vector<CorpusEntry> corpus = validation_corpus({.random_count = 4000, .seed = 3});
  for (const CorpusEntry& e : corpus) {
    CAPTURE(e.family);
    CAPTURE(e.name);
    CAPTURE(e.access);
    CHECK_FALSE(has_error(check_access(e.access)));
    CHECK_FALSE(e.name.empty());
  }
}

TEST_CASE("the corpus is the fixed part followed by random_count random patterns") {
  const std::size_t fixed = fixed_corpus_size();
  CHECK(validation_corpus({.random_count = 0, .seed = 1}).size() == fixed);
  const std::vector<CorpusEntry> corpus = validation_corpus({.random_count = 123, .seed = 1});
  REQUIRE(corpus.size() == fixed + 123);
  for (std::size_t i = 0; i < corpus.size(); ++i) {
    CAPTURE(i);
    CHECK((corpus[i].family.rfind("random-", 0) == 0) == (i >= fixed));
  }
}

TEST_CASE("the corpus is reproducible from its seed and changes with it") {
  const auto a = validation_corpus({.random_count = 500, .seed = 42});
  const auto b = validation_corpus({.random_count = 500, .seed = 42});
  const auto c = validation_corpus({.random_count = 500, .seed = 43});
  REQUIRE(a.size() == b.size());
  REQUIRE(a.size() == c.size());
  std::size_t differing = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    CAPTURE(i);
    CHECK(a[i].access == b[i].access);
    CHECK(a[i].name == b[i].name);
    differing += a[i].access == c[i].access ? 0 : 1;
  }
  // Only the random part depends on the seed, and nearly all of it does.
  CHECK(differing > 450);
  // The first random pattern of seed 42, written down: the generator is SplitMix64 with no
  // <random> distribution, so every platform and standard library produces exactly this.
  const CorpusEntry& first = a[fixed_corpus_size()];
  CHECK(first.name == "offsets in 16 B at 110592");
  CHECK(to_string(first.access) ==
        "st 2 110596,110604,110602,110600,110602,110604,110606,110604,110604,110606,110600,110596,"
        "110602,110602,110606,110592,110592,110594,110602,110594,110592,110594,110602,110606,"
        "110606,110598,110602,110604,110602,110604,110602,110598");
}

TEST_CASE("the fixed part covers every family, op and width the issue names") {
  const std::vector<CorpusEntry> corpus = validation_corpus({.random_count = 0, .seed = 1});
  std::map<std::string, int> families;
  std::set<std::string> kinds;
  for (const CorpusEntry& e : corpus) {
    ++families[e.family];
    kinds.insert(std::string(op_name(e.access.op)) + " " + std::to_string(e.access.width));
  }
  for (const char* family : {"preset", "stride", "tile-column", "matrix-pitch"}) {
    CAPTURE(family);
    CHECK(families[family] > 0);
  }
  for (const char* kind :
       {"ld 1", "ld 2", "ld 4", "ld 8", "ld 16", "st 1", "st 2", "st 4", "st 8", "st 16",
        "ldmatrix.x1 16", "ldmatrix.x2 16", "ldmatrix.x4 16", "stmatrix.x4 16"}) {
    CAPTURE(kind);
    CHECK(kinds.count(kind) == 1);
  }
  // Strides 1..64 for every width and both directions: 64 each, twice for 1- and 2-byte
  // accesses (word and element units).
  CHECK(families["stride"] == 2 * 64 * (5 + 2));
}

TEST_CASE("the fixed part holds the measured examples of docs/hardware-rules.md") {
  const std::vector<CorpusEntry> corpus = validation_corpus({.random_count = 0, .seed = 1});
  const auto find = [&](Op op, int width, auto offset) {
    return std::any_of(corpus.begin(), corpus.end(), [&](const CorpusEntry& e) {
      if (e.access.op != op || e.access.width != width) return false;
      for (int lane = 0; lane < e.access.addressed_lanes(); ++lane)
        if (e.access.offsets[lane] != offset(lane)) return false;
      return true;
    });
  };
  SUBCASE("float tile[32][32] column, 128 L") {
    CHECK(find(Op::ld, 4, [](int l) { return 128 * l; }));
    CHECK(find(Op::st, 4, [](int l) { return 128 * l; }));
  }
  SUBCASE("float tile[32][33] column, 132 L") {
    CHECK(find(Op::ld, 4, [](int l) { return 132 * l; }));
  }
  SUBCASE("double tile[32][33] column, 264 L") {
    CHECK(find(Op::ld, 8, [](int l) { return 264 * l; }));
  }
  SUBCASE("16-byte column of 128-byte rows, 128 L") {
    CHECK(find(Op::st, 16, [](int l) { return 128 * l; }));
  }
  SUBCASE("ldmatrix.x4 on 128-byte rows, plain and chunk-swizzled") {
    CHECK(find(Op::ldmatrix_x4, 16, [](int l) { return 128 * (l % 8) + 16 * (l / 8); }));
    CHECK(
        find(Op::ldmatrix_x4, 16, [](int l) { return 128 * (l % 8) + 16 * ((l / 8) ^ (l % 8)); }));
    CHECK(find(Op::stmatrix_x4, 16, [](int l) { return 128 * (l % 8) + 16 * (l / 8); }));
  }
  SUBCASE("ldmatrix.x4 on 64- and 80-byte rows") {
    CHECK(find(Op::ldmatrix_x4, 16, [](int l) { return 64 * (l % 8) + 16 * (l / 8); }));
    CHECK(find(Op::ldmatrix_x4, 16, [](int l) { return 80 * (l % 8) + 16 * (l / 8); }));
  }
}

TEST_CASE("each random family holds the property it is named for") {
  const std::vector<CorpusEntry> corpus = validation_corpus({.random_count = 4000, .seed = 7});
  std::map<std::string, int> count;
  std::set<int> partners_sharing;
  std::set<std::string> kinds;
  int pools_with_broadcast = 0, idle_with_inactive = 0, matrix_with_ignored_lanes = 0;
  for (const CorpusEntry& e : corpus) {
    if (e.family.rfind("random-", 0) != 0) continue;
    ++count[e.family];
    kinds.insert(std::string(op_name(e.access.op)) + " " + std::to_string(e.access.width));
    const WarpAccess& a = e.access;
    if (is_matrix_op(a.op) && a.addressed_lanes() < kWarpSize && a.active(a.addressed_lanes()))
      ++matrix_with_ignored_lanes;
    if (e.family == "random-pool") {
      CAPTURE(a);
      CHECK(addresses(a).size() <= 6);
      pools_with_broadcast += analyze(a).distinct_words < analyze(a).active_lanes;
    } else if (e.family == "random-pair") {
      for (int p : {1, 2, 3, 4, 16})
        if (e.name.rfind("pair l^" + std::to_string(p) + " ", 0) == 0 && shares_with_partner(a, p))
          partners_sharing.insert(p);
    } else if (e.family == "random-idle") {
      bool inactive = false;
      for (int lane = 0; lane < kWarpSize; ++lane) inactive |= !a.active(lane);
      idle_with_inactive += inactive;
    }
  }
  CHECK(count["random-offsets"] == 1000);
  CHECK(count["random-pool"] == 1000);
  CHECK(count["random-pair"] == 1000);
  CHECK(count["random-idle"] == 1000);
  CHECK(pools_with_broadcast > 500);
  CHECK(partners_sharing == std::set<int>{1, 2, 3, 4, 16});
  CHECK(idle_with_inactive > 500);
  CHECK(matrix_with_ignored_lanes > 0);
  CHECK(kinds.size() == 14);  // ld and st of 5 widths, 3 ldmatrix, stmatrix
}

}  // namespace banklab
