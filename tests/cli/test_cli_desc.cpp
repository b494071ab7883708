// banklab desc as a user meets it: decode, encode and agree in text and JSON, the verdicts of
// the hand-worked cases, and exit status 2 with one line for every kind of bad input.
#include <doctest/doctest.h>

#include <string>

#include "tests/cli/run_banklab.hpp"

namespace banklab::test {
namespace {

nlohmann::json desc_json(const std::string& arguments) {
  const Run run = run_banklab("desc " + arguments + " --json");
  INFO("banklab desc ", arguments, " --json\nstderr: ", run.err);
  REQUIRE(run.status == 0);
  CHECK(run.err.empty());
  return parse_json(run);
}

TEST_CASE("desc decode: every field, the arch inferred, the layout") {
  const Run run = run_banklab("desc decode 0x4000004000010040");
  REQUIRE(run.status == 0);
  CHECK(run.out.find("arch: sm90, inferred") != std::string::npos);
  CHECK(run.out.find("start address  0x0040 -> 1024 B") != std::string::npos);
  CHECK(run.out.find("SBO            0x0040 -> 1024 B") != std::string::npos);
  CHECK(run.out.find("1 -> 128-Byte swizzle") != std::string::npos);
  CHECK(run.out.find("Swizzle<3,4,3> o ((8,m),(8,2)):((64,512),(1,8)) (bf16)") !=
        std::string::npos);
  CHECK(run.out.find("rules: none broken") != std::string::npos);

  const nlohmann::json j = desc_json("decode 0x4000404000010040");
  CHECK(j.at("arch") == "sm100");
  CHECK(j.at("swizzle") == "128b");
  CHECK(j.at("swizzle_code") == 2);
  CHECK(j.at("sbo") == 1024);
  CHECK(j.at("bit_problems").empty());
  // Bits no valid descriptor holds are named.
  const nlohmann::json bad = desc_json("decode 0x6000000000000000 --arch sm100");
  CHECK(bad.at("bit_problems").size() == 2);
}

TEST_CASE("desc encode: the word, and every rule broken with its fix") {
  const nlohmann::json j =
      desc_json("encode --arch sm90 --major K --swizzle 128b --start 1024 --lbo 16 --sbo 1024");
  CHECK(j.at("word") == "0x4000004000010040");
  CHECK(j.at("findings").empty());
  // The round trip through the command line.
  const nlohmann::json back = desc_json("decode 0x4000004000010040");
  CHECK(back.at("start") == 1024);
  CHECK(back.at("lbo") == 16);

  const nlohmann::json broken = desc_json(
      "encode --arch sm90 --major MN --dtype fp8 --swizzle 128b-atom32 --start 40 "
      "--lbo 0 --sbo 0");
  std::string rules;
  for (const auto& f : broken.at("findings")) {
    rules += f.at("level").get<std::string>() + ": " + f.at("rule").get<std::string>() + "\n";
    CHECK(!f.at("fix").get<std::string>().empty());
  }
  INFO(rules);
  CHECK(rules.find("not 16-byte aligned") != std::string::npos);
  CHECK(rules.find("only in tcgen05") != std::string::npos);
  CHECK(rules.find("only for 16-bit types") != std::string::npos);

  const Run text = run_banklab("desc encode --major K --swizzle 128b --lbo 4096 --sbo 1024");
  REQUIRE(text.status == 0);
  CHECK(text.out.find("warning: LBO is 4096") != std::string::npos);
  CHECK(text.out.find("fix: write LBO 16") != std::string::npos);
}

TEST_CASE("desc agree: TMA 128B read by 128B agrees; by 64B the first mismatch and the fix") {
  const nlohmann::json ok = desc_json(
      "agree --major K --swizzle 128b --lbo 16 --sbo 1024 --fill tma128 --box 64x64 "
      "--boxes 2");
  CHECK(ok.at("agrees") == true);
  CHECK(ok.at("elements") == 64 * 128);
  REQUIRE(ok.at("steps").size() == 8);
  CHECK(ok.at("steps")[1].at("advance") == 32);
  CHECK(ok.at("steps")[4].at("advance") == 8192);

  const Run bad = run_banklab(
      "desc agree --major K --swizzle 64b --lbo 16 --sbo 512 --fill tma128 --box 64x64");
  REQUIRE(bad.status == 0);
  CHECK(bad.out.find("verdict: MISMATCH") != std::string::npos);
  CHECK(bad.out.find("first mismatch: k-step 0, element (mn 1, k 0): written at 144, read at 64, "
                     "which holds element (mn 0, k 32)") != std::string::npos);
  CHECK(bad.out.find("first mismatching core matrix: MN 0-7 x K 0-7") != std::string::npos);
  CHECK(bad.out.find("fix: a descriptor that reads this fill: --swizzle 128b --start 0 --lbo 16 "
                     "--sbo 1024") != std::string::npos);

  // TMA at byte 512 swizzles the absolute address, as the descriptor reads it (measured on the
  // H200): it agrees, with a note on each side; 64 bytes off 128 is refused.
  const nlohmann::json off_repeat = desc_json(
      "agree --major K --swizzle 128b --start 512 --lbo 16 --sbo 1024 --fill tma128 "
      "--box 64x64");
  CHECK(off_repeat.at("compared") == true);
  CHECK(off_repeat.at("agrees") == true);
  CHECK(off_repeat.at("producer_rules").size() == 1);
  const nlohmann::json misaligned = desc_json(
      "agree --major K --swizzle 128b --start 64 --lbo 16 --sbo 1024 --fill tma128 --box 64x64");
  CHECK(misaligned.at("compared") == false);
  CHECK(misaligned.at("agrees") == false);
}

TEST_CASE("desc agree --svg writes the picture of a k-step") {
  const TempFile out("");
  const Run run = run_banklab(
      "desc agree --swizzle 64b --sbo 512 --fill tma128 --box 64x64 "
      "--k-step 1 --svg " +
      out.path().string());
  INFO(run.err);
  REQUIRE(run.status == 0);
  const std::string svg = read_file(out.path());
  CHECK(svg.find("<svg") != std::string::npos);
  CHECK(svg.find("reads k-step 1 of a 64x64 bf16 K-major operand") != std::string::npos);
  CHECK(svg.find("MISMATCH") != std::string::npos);
}

TEST_CASE("desc agree --svg draws an MN-major operand: its core matrix, SBO and LBO") {
  // The lesson's MN-major step: two 32x64 bf16 boxes TMA wrote with 128B, two atoms along MN.
  const TempFile out("");
  const Run run = run_banklab(
      "desc agree --major MN --swizzle 128b --lbo 4096 --sbo 1024 --fill tma128 --box 32x64 "
      "--boxes 2 --svg " +
      out.path().string());
  INFO(run.err);
  REQUIRE(run.status == 0);
  const std::string svg = read_file(out.path());
  CHECK(svg.find("reads k-step 0 of a 128x32 bf16 MN-major operand") != std::string::npos);
  CHECK(svg.find("agrees: all 4096 elements") != std::string::npos);
  CHECK(svg.find(">SBO 1024 B<") != std::string::npos);
  CHECK(svg.find(">LBO 4096 B<") != std::string::npos);
  CHECK(svg.find("MISMATCH") == std::string::npos);
  // One box: the operand is one atom wide, and the picture says LBO has nowhere to go.
  const Run one = run_banklab(
      "desc agree --major MN --swizzle 128b --lbo 8192 --sbo 1024 --fill tma128 --box 64x64 "
      "--svg " +
      out.path().string());
  REQUIRE(one.status == 0);
  CHECK(read_file(out.path())
            .find("LBO 8192 B unused: the operand is one 128-byte swizzle atom "
                  "wide along MN") != std::string::npos);
}

TEST_CASE("desc: bad input exits 2 with one line") {
  const char* cases[] = {
      "desc",
      "desc frobnicate",
      "desc decode",
      "desc decode 0xnothex",
      "desc decode 0x4000004000010040 --swizzle 128b",
      "desc encode --major K",
      "desc encode --swizzle 256b",
      "desc encode --swizzle 128b --arch sm80",
      "desc encode --swizzle 128b --major X",
      "desc encode --swizzle 128b --base-offset 9",
      "desc encode --swizzle 128b --fill tma128",
      "desc encode 0x1 --swizzle 128b",
      "desc agree --swizzle 128b",
      "desc agree --swizzle 128b --fill tma999 --box 64x64",
      "desc agree --swizzle 128b --fill tma128 --box 64",
      "desc agree --swizzle 128b --fill tma128 --box 64x64 --boxes 0",
      "desc encode --swizzle 128b --dtype int3",
      "desc encode --swizzle 128b --svg x.svg",
      "desc agree --swizzle 128b --fill tma128 --box 64x64 --k-step -1",
  };
  for (const char* c : cases) {
    const Run run = run_banklab(c);
    INFO(c, "\nstderr: ", run.err);
    CHECK(run.status == 2);
    CHECK(run.out.empty());
    CHECK(run.err.starts_with("banklab: "));
    CHECK(run.err.find('\n') == run.err.size() - 1);
  }
}

TEST_CASE("desc agree never crashes on odd producers: each is reported") {
  const char* cases[] = {
      "--fill tma128 --box 64x128",             // a box row wider than the span
      "--fill tma128 --box 60x64",              // not a whole number of repeats
      "--fill cute:3,4,3 --box 64x24",          // K not whole instructions, swizzle off the tile
      "--fill triton:8,1,8 --box 64x64",        // a column XOR layout
      "--fill none --box 8x8 --dest 100",       // a misaligned destination
      "--fill tma32 --box 4096x16 --boxes 64",  // too large for shared memory
  };
  for (const char* c : cases) {
    const Run run = run_banklab(std::string("desc agree --swizzle 128b --sbo 1024 ") + c);
    INFO(c, "\nstderr: ", run.err);
    CHECK(run.status == 0);
    CHECK(run.out.find("verdict:") != std::string::npos);
  }
}

}  // namespace
}  // namespace banklab::test
