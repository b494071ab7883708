// `banklab analyze --batch`: one JSON object a line, in order, equal to what the single raw
// form prints for the same pattern; bad lines reported in place without stopping the batch.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "core/model/access.hpp"
#include "tests/cli/run_banklab.hpp"
#include "tests/core/random_access.hpp"

namespace banklab::test {
namespace {

std::vector<nlohmann::json> parse_lines(const Run& run) {
  std::vector<nlohmann::json> objects;
  std::size_t start = 0;
  while (start < run.out.size()) {
    const std::size_t end = run.out.find('\n', start);
    REQUIRE_MESSAGE(end != std::string::npos, "the last output line has no newline");
    objects.push_back(nlohmann::json::parse(run.out.substr(start, end - start), nullptr, false));
    REQUIRE_FALSE(objects.back().is_discarded());
    start = end + 1;
  }
  return objects;
}

// The single form's flags for a pattern: "--op ld --width 4 --offsets 0,4,...".
std::string single_flags(const WarpAccess& a) {
  std::string list;
  for (std::int64_t o : a.offsets) list += (list.empty() ? "" : ",") + std::to_string(o);
  return "--op " + std::string(op_name(a.op)) + " --width " + std::to_string(a.width) +
         " --offsets " + list;
}

TEST_CASE("The batch and single forms agree on random patterns") {
  brute::Rng rng(20261129);
  std::vector<WarpAccess> accesses;
  std::string batch;
  for (int i = 0; i < 48; ++i) {
    accesses.push_back(brute::random_access(rng));
    batch += to_string(accesses.back()) + "\n";
  }

  SUBCASE("from a file") {
    const TempFile file(batch);
    const Run run = run_banklab("analyze --batch '" + file.path().string() + "'");
    REQUIRE(run.status == 0);
    CHECK(run.err.empty());
    const std::vector<nlohmann::json> lines = parse_lines(run);
    REQUIRE(lines.size() == accesses.size());
    for (std::size_t i = 0; i < accesses.size(); ++i) {
      CAPTURE(i);
      CAPTURE(to_string(accesses[i]));
      const Run single = run_banklab("analyze " + single_flags(accesses[i]) + " --json");
      REQUIRE(single.status == 0);
      CHECK(lines[i] == parse_json(single));
    }
  }
  SUBCASE("from standard input, byte for byte the same as from a file") {
    const TempFile file(batch);
    const Run from_file = run_banklab("analyze --batch '" + file.path().string() + "'");
    const Run from_stdin = run_banklab("analyze --batch -", batch);
    CHECK(from_stdin.status == 0);
    CHECK(from_stdin.out == from_file.out);
  }
}

TEST_CASE("A bad batch line gives an error object in its place, and the batch goes on") {
  const std::string batch =
      "# a comment, then a blank line\n"
      "\n"
      "ld 4 " +
      std::string("0,4,8,12,16,20,24,28,32,36,40,44,48,52,56,60,") +
      "64,68,72,76,80,84,88,92,96,100,104,108,112,116,120,124\n"
      "ld 4 1,2,3\n"
      "frobnicate 4 0\r\n"
      "st 8 " +
      std::string("0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0") + "\r\n";
  const Run run = run_banklab("analyze --batch -", batch);
  CHECK(run.status == 2);
  CHECK(run.err.starts_with("banklab: 2 of 4 batch patterns were bad; the first, line 4: "));
  CHECK(run.err.find('\n') == run.err.size() - 1);
  const std::vector<nlohmann::json> lines = parse_lines(run);
  REQUIRE(lines.size() == 4);
  CHECK(lines[0].at("ok") == true);
  CHECK(lines[0].at("wavefronts") == 1);
  CHECK(lines[1].at("ok") == false);
  CHECK(lines[1].at("diagnostics").at(0).at("message").get<std::string>().starts_with("line 4: "));
  CHECK(lines[2].at("ok") == false);
  CHECK(lines[2].at("diagnostics").at(0).at("message").get<std::string>().starts_with("line 5: "));
  // All lanes storing 8 bytes to one address: two half-warp phases, stores never pack.
  CHECK(lines[3].at("ok") == true);
  CHECK(lines[3].at("wavefronts") == 2);
}

TEST_CASE("A long batch keeps its order and its first bad line across blocks and threads") {
  // Line n (from 1) is a 4-byte load with a stride of n mod 33 words: lanes that share a bank
  // number gcd(stride, 32), each on its own word, so that is its wavefront count (a stride of
  // 0 is one broadcast word: 1). Lines 700 and 2500 are bad. The batch is cut into blocks of a
  // few hundred lines, analysed on several threads.
  constexpr int kLines = 3000;
  const std::set<int> bad_lines = {700, 2500};
  std::string batch;
  for (int n = 1; n <= kLines; ++n) {
    if (bad_lines.contains(n)) {
      batch += "ld 4 0,4\n";
      continue;
    }
    WarpAccess a{.op = Op::ld, .width = 4};
    for (int lane = 0; lane < 32; ++lane) {
      a.offsets[static_cast<std::size_t>(lane)] = 4 * (n % 33) * lane;
    }
    batch += to_string(a) + "\n";
  }
  const Run run = run_banklab("analyze --batch -", batch);
  CHECK(run.status == 2);
  CHECK(run.err.starts_with("banklab: 2 of 3000 batch patterns were bad; the first, line 700: "));
  const std::vector<nlohmann::json> lines = parse_lines(run);
  REQUIRE(lines.size() == kLines);
  for (int n = 1; n <= kLines; ++n) {
    CAPTURE(n);
    const nlohmann::json& j = lines[static_cast<std::size_t>(n - 1)];
    if (bad_lines.contains(n)) {
      CHECK(j.at("ok") == false);
      continue;
    }
    const int stride = n % 33;
    CHECK(j.at("wavefronts") == (stride == 0 ? 1 : std::gcd(stride, 32)));
  }
}

TEST_CASE("The summary form is the full form's objects without the lane records") {
  // Random patterns across blocks and threads, with bad lines among them: each summary line is
  // the full line with "lanes" taken out, and nothing else; the exit status and stderr agree.
  brute::Rng rng(20261201);
  std::string batch;
  for (int i = 0; i < 700; ++i) {
    batch += i % 97 == 5 ? "ld 4 0,4\n" : to_string(brute::random_access(rng)) + "\n";
  }
  const Run full = run_banklab("analyze --batch -", batch);
  const Run summary = run_banklab("analyze --batch - --summary", batch);
  CHECK(summary.status == full.status);
  CHECK(summary.status == 2);
  CHECK(summary.err == full.err);
  const std::vector<nlohmann::json> a = parse_lines(full), b = parse_lines(summary);
  REQUIRE(a.size() == 700);
  REQUIRE(b.size() == a.size());
  int good = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    CAPTURE(i);
    nlohmann::json expected = a[i];
    if (expected.at("ok") == true) {
      ++good;
      REQUIRE(expected.contains("lanes"));
      expected.erase("lanes");
      CHECK(b[i].contains("wavefronts"));
      CHECK(b[i].contains("bank_conflicts"));
    }
    CHECK(b[i] == expected);
  }
  CHECK(good == 700 - 8);
  // Summed as a script would: the totals the full form gives.
  long long wavefronts_full = 0, wavefronts_summary = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].at("ok") != true) continue;
    wavefronts_full += a[i].at("wavefronts").get<long long>();
    wavefronts_summary += b[i].at("wavefronts").get<long long>();
  }
  CHECK(wavefronts_summary == wavefronts_full);
  CHECK(summary.out.size() * 5 < full.out.size());  // counts only: a fraction of the bytes
}

TEST_CASE("--summary belongs to the batch form") {
  const Run run = run_banklab("analyze --preset fp32-naive --summary");
  CHECK(run.status == 2);
  CHECK(run.err == "banklab: --summary goes with --batch: it shortens each pattern's JSON line\n");
  const Run raw = run_banklab("analyze --op ld --width 4 --offsets 0 --summary");
  CHECK(raw.status == 2);
  CHECK(raw.err.find("--summary goes with --batch") != std::string::npos);
}

TEST_CASE("A batch whose output cannot be written stops with exit status 1") {
  std::string all_lanes_on_zero = "ld 4 0";
  for (int lane = 1; lane < 32; ++lane) all_lanes_on_zero += ",0";
  std::string batch;
  for (int i = 0; i < 2000; ++i) batch += all_lanes_on_zero + "\n";
  const Run run = run_banklab("analyze --batch - > /dev/full", batch);
  CHECK(run.status == 1);
  CHECK(run.err == "banklab: cannot write the output\n");
}

// The 32 offsets of a conflict-free 4-byte load: "ld 4 0,4,...,124".
std::string dense_line() {
  WarpAccess a{.op = Op::ld, .width = 4};
  for (int lane = 0; lane < 32; ++lane) a.offsets[static_cast<std::size_t>(lane)] = 4 * lane;
  return to_string(a);
}

// Runs a shell command line and returns what it printed, with the seconds until its first
// output line arrived.
std::pair<std::string, double> run_shell_timed(const std::string& command) {
  const auto start = std::chrono::steady_clock::now();
  std::FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string out;
  double first_line = -1;
  char line[1 << 16];
  while (std::fgets(line, sizeof line, pipe) != nullptr) {
    if (first_line < 0) {
      first_line = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    out += line;
  }
  ::pclose(pipe);
  return {out, first_line};
}

TEST_CASE("The batch streams: an endless input answers as it goes, a slow one line by line") {
  const std::string exe = BANKLAB_EXE;
  SUBCASE("endless input (regression: it read everything before writing anything)") {
    // Bounded memory: 2 GB of address space would not hold the input (yes writes it at GB/s),
    // and the process would never end if it waited for it. The bound leaves room for the
    // batch's up to 16 threads: each reserves an 8 MB stack and a 64 MB malloc arena, so 300 MB
    // ran out on the 16-core H200 one run in fifteen ("out of memory"), streaming or not.
    const auto [out, first] =
        run_shell_timed("timeout 60 sh -c \"yes '" + dense_line() + "' | (ulimit -v 2000000; '" +
                        exe + "' analyze --batch -) | head -n 3\"");
    CHECK(std::count(out.begin(), out.end(), '\n') == 3);
    CHECK(out.starts_with("{\"ok\":true,\"op\":\"ld\",\"width\":4,\"wavefronts\":1,"));
  }
  SUBCASE("a slow writer sees each answer before its next line") {
    const auto [out, first] =
        run_shell_timed("(echo '" + dense_line() + "'; sleep 3; echo '" + dense_line() + "') | '" +
                        exe + "' analyze --batch -");
    CHECK(std::count(out.begin(), out.end(), '\n') == 2);
    CHECK(first >= 0);
    CHECK(first < 2.5);
  }
}

TEST_CASE("A batch from Windows (CRLF, a byte-order mark) reads as any other") {
  const std::string batch = "\xEF\xBB\xBF" + dense_line() + "\r\n" + dense_line() + "\r\n";
  const Run run = run_banklab("analyze --batch -", batch);
  CHECK(run.status == 0);
  CHECK(run.err.empty());
  const std::vector<nlohmann::json> lines = parse_lines(run);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0] == lines[1]);
  CHECK(lines[0].at("ok") == true);
}

TEST_CASE("A line too long to be a pattern is bad, and neither kept nor echoed whole") {
  const std::string huge(200'000, '7');
  const Run run = run_banklab("analyze --batch -", "ld 4 " + huge + "\n" + dense_line() + "\n");
  CHECK(run.status == 2);
  CHECK(run.err.find("line 1: the line is longer than 65536 bytes") != std::string::npos);
  CHECK(run.err.size() < 300);
  const std::vector<nlohmann::json> lines = parse_lines(run);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].at("ok") == false);
  CHECK(lines[1].at("ok") == true);
}

TEST_CASE("An empty batch prints nothing and succeeds") {
  const Run run = run_banklab("analyze --batch -", "");
  CHECK(run.status == 0);
  CHECK(run.out.empty());
  CHECK(run.err.empty());
}

}  // namespace
}  // namespace banklab::test
