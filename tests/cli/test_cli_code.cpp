// banklab analyze --decl/--expr: the code form gives what analyze gives for the same offsets,
// plus the code evaluated per lane; bad code is a located error with exit status 2.
#include <doctest/doctest.h>

#include <string>

#include "tests/cli/run_banklab.hpp"

namespace banklab::test {
namespace {

const std::string kTranspose =
    "analyze --decl '__shared__ float tile[32][33];' --expr 'tile[threadIdx.x][threadIdx.y + j]' "
    "--block 32x8 --let j=0";

TEST_CASE("the code form's JSON is analyze's for the same offsets, with the code per lane") {
  const Run code = run_banklab(kTranspose + " --json");
  INFO(code.err);
  REQUIRE(code.status == 0);
  const nlohmann::json j = parse_json(code);
  std::string offsets;
  for (int l = 0; l < 32; ++l) offsets += (l ? "," : "") + std::to_string(132 * l);
  const Run raw = run_banklab("analyze --op ld --width 4 --offsets " + offsets + " --json");
  const nlohmann::json r = parse_json(raw);
  CHECK(j["wavefronts"] == 1);
  CHECK(j["wavefronts"] == r["wavefronts"]);
  CHECK(j["bank_conflicts"] == r["bank_conflicts"]);
  CHECK(j["code"]["lanes"][5]["indices"] == nlohmann::json::array({5, 0}));
  CHECK(j["code"]["lanes"][5]["byte"] == 660);
  CHECK(j["code"]["lanes"][5]["thread"] == nlohmann::json::array({5, 0, 0}));
  CHECK(j["code"]["array"]["dims"] == nlohmann::json::array({32, 33}));
}

TEST_CASE("analyze's --block reads scan's spelling too: one grammar for every command") {
  std::string comma = kTranspose;
  comma.replace(comma.find("--block 32x8"), 12, "--block 32,8");
  const Run x = run_banklab(kTranspose + " --json");
  const Run c = run_banklab(comma + " --json");
  INFO(c.err);
  REQUIRE(c.status == 0);
  CHECK(c.out == x.out);
  // A block's z is at most 64, here as in scan (the machine used to be given 1x1x128).
  const Run deep = run_banklab(
      "analyze --decl '__shared__ float t[32];' --expr 't[threadIdx.x]' --block 1x1x128");
  CHECK(deep.status == 2);
  CHECK(deep.err.find("--block 1x1x128 is not one CUDA launches: a block's z is 1 to 64") !=
        std::string::npos);
}

TEST_CASE("the code form's text has the report, the explanation and the per-lane table") {
  const Run run = run_banklab(
      "analyze --decl '__shared__ float tile[32][32];' --expr 'tile[threadIdx.x][threadIdx.y + j]' "
      "--block 32x8 --let j=0 --warp all");
  REQUIRE(run.status == 0);
  CHECK(run.out.find("wavefronts 32, ideal 1, bank conflicts 31") != std::string::npos);
  CHECK(run.out.find("warp 0 of 8 (the worst)") != std::string::npos);
  CHECK(run.out.find("=> 32-way bank conflict") != std::string::npos);
  CHECK(run.out.find("  31  31,0,0        [31][0]              3968\n") != std::string::npos);
}

TEST_CASE("the code form's store, float4 and ldmatrix reach analyze") {
  const auto wavefronts = [](const std::string& args) {
    const Run run = run_banklab("analyze " + args + " --json");
    INFO(args, "\n", run.err);
    REQUIRE(run.status == 0);
    return parse_json(run)["wavefronts"].get<int>();
  };
  CHECK(wavefronts("--decl '__shared__ float t[32][36];' "
                   "--expr '*(float4*)&t[threadIdx.x / 8][threadIdx.x % 8 * 4] = v'") == 4);
  CHECK(wavefronts("--decl '__shared__ __nv_bfloat16 s[8][64];' "
                   "--expr 'ldmatrix.x4(&s[threadIdx.x % 8][threadIdx.x / 8 * 8])'") == 32);
  CHECK(wavefronts("--decl '__shared__ float t[32][32];' --expr 't[0][threadIdx.x]' --op st") == 1);
}

TEST_CASE("bad code is a located error with a caret and exit status 2") {
  const Run run =
      run_banklab("analyze --decl '__shared__ float tile[32][33];' --expr 'tile[threadIdx.x][k]'");
  CHECK(run.status == 2);
  CHECK(run.out.empty());
  CHECK(run.err ==
        "banklab: --expr:1:19: error: k is not defined: add --let k=VALUE\n"
        "  tile[threadIdx.x][k]\n"
        "                    ^\n");
  const Run bounds = run_banklab(
      "analyze --decl '__shared__ float t[32][32];' --expr 't[threadIdx.x][threadIdx.y + 1]' "
      "--block 32x32 --warp 31");
  CHECK(bounds.status == 2);
  CHECK(bounds.err.find("lane 0 (threadIdx 0,31,0): index 32 is outside t's second dimension") !=
        std::string::npos);
  const struct {
    const char* args;
    const char* message;
  } cases[] = {
      {"--decl '__shared__ float t[4];'", "needs both --decl"},
      {"--decl '__shared__ float t[4];' --expr 't[0]' --pad 1", "--pad cannot be combined"},
      {"--decl '__shared__ float t[4];' --expr 't[0]' --block 64x32", "at most 1024 threads"},
      {"--decl '__shared__ float t[4];' --expr 't[0]' --warp 2", "warp 2 is not in the block"},
      {"--decl '__shared__ float t[4];' --expr 't[0]' --warp x", "--warp expects a whole number"},
      {"--decl '__shared__ float t[4];' --expr 't[0]' --let j", "--let expects NAME=VALUE"},
      {"--decl '__shared__ float t[4];' --expr 't[0]' --op xx", "--op expects ld, st"},
      {"--decl '__shared__ float t[4];' --expr 't[0] = v' --op ld", "the code stores, but --op ld"},
      {"--decl '__shared__ float t[4];' --expr 't[0]' --smem 0", "--smem must be between 1"},
      {"--decl 'extern __shared__ float t[];' --expr 't[0]' --smem 233472",
       "--smem must be between 1 and 232448, got 233472 (the extern __shared__ bytes of one "
       "block, up to 232448 B (227 KB), the most one block can have on an H100/H200 (the SM's "
       "233472 B (228 KB) less the 1024 B reserved per block))"},
  };
  for (const auto& c : cases) {
    const Run r = run_banklab(std::string("analyze ") + c.args + " --json");
    INFO(c.args, "\n", r.err);
    CHECK(r.status == 2);
    CHECK(r.err.find(c.message) != std::string::npos);
  }
}

}  // namespace
}  // namespace banklab::test
