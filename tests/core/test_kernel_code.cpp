// Kernel code (kernel_code.hpp): the expression evaluator against a reference evaluator written
// here, the classic kernels as code with their known wavefronts, every preset written as code
// giving the preset's offsets, and bad code of every kind giving a clear, located error.
//
// [SECTION] The reference: random expression trees, printed as C++ and evaluated directly
// [SECTION] The classic kernels, as code
// [SECTION] Every preset, written as code by the code view
// [SECTION] Bad code: a located, clear error, never a crash
// [SECTION] Types, names and parameters
#include <doctest/doctest.h>

#include <climits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/banklab.hpp"
#include "core/code/code_view.hpp"

namespace banklab {
namespace {

// [SECTION] The reference: random expression trees, printed as C++ and evaluated directly

struct Expr {
  enum Kind { constant, variable, unary, binary, ternary } kind = constant;
  std::int64_t value = 0;
  std::string op;  // the variable's name, or the operator
  std::vector<Expr> kids;
};

const std::vector<std::string> kBinary = {"*", "/",  "%",  "+",  "-", "<<", ">>", "<",  "<=",
                                          ">", ">=", "==", "!=", "&", "^",  "|",  "&&", "||"};
const std::vector<std::string> kUnary = {"-", "+", "~", "!"};
const std::vector<std::pair<std::string, std::int64_t>> kNames = {
    {"a", 7}, {"b", -3}, {"c", 0}, {"big", INT64_MAX}, {"j", 40}};

int prec(const std::string& op) {
  const std::vector<std::vector<std::string>> levels = {
      {"||"},       {"&&"},     {"|"},          {"^"}, {"&"}, {"==", "!="}, {"<", "<=", ">", ">="},
      {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}};
  for (std::size_t i = 0; i < levels.size(); ++i)
    for (const std::string& o : levels[i])
      if (o == op) return static_cast<int>(i) + 1;
  return 0;
}

Expr random_expr(std::mt19937_64& rng, int depth) {
  const auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  if (depth == 0 || pick(4) == 0) {
    if (pick(3) == 0) return {Expr::variable, 0, kNames[pick(kNames.size())].first, {}};
    static const std::int64_t kConstants[] = {0,  1,  2,  3,    5,         8,         31,       32,
                                              33, 63, 64, 1000, 1LL << 31, 1LL << 62, INT64_MAX};
    return {Expr::constant, kConstants[pick(std::size(kConstants))], "", {}};
  }
  const std::size_t k = pick(10);
  if (k == 0) return {Expr::unary, 0, kUnary[pick(kUnary.size())], {random_expr(rng, depth - 1)}};
  if (k == 1) {
    return {
        Expr::ternary,
        0,
        "?:",
        {random_expr(rng, depth - 1), random_expr(rng, depth - 1), random_expr(rng, depth - 1)}};
  }
  return {Expr::binary,
          0,
          kBinary[pick(kBinary.size())],
          {random_expr(rng, depth - 1), random_expr(rng, depth - 1)}};
}

// C++ text with only the parentheses precedence needs, plus some the generator adds anyway.
std::string print(const Expr& e, std::mt19937_64& rng) {
  const auto wrap = [](std::string s) { return "(" + s + ")"; };
  std::string text;
  switch (e.kind) {
    case Expr::constant:
      text = std::to_string(e.value);
      break;
    case Expr::variable:
      text = e.op;
      break;
    case Expr::unary: {
      const Expr& k = e.kids[0];
      const std::string inner = print(k, rng);
      text = e.op + (k.kind == Expr::constant || k.kind == Expr::variable ? inner : wrap(inner));
      break;
    }
    case Expr::binary: {
      const auto side = [&](const Expr& k, bool right) {
        std::string s = print(k, rng);
        const bool low = k.kind == Expr::ternary ||
                         (k.kind == Expr::binary &&
                          (right ? prec(k.op) <= prec(e.op) : prec(k.op) < prec(e.op)));
        return low ? wrap(s) : s;
      };
      text = side(e.kids[0], false) + " " + e.op + " " + side(e.kids[1], true);
      break;
    }
    case Expr::ternary: {
      std::string cond = print(e.kids[0], rng);
      if (e.kids[0].kind == Expr::ternary) cond = wrap(cond);
      text = cond + " ? " + print(e.kids[1], rng) + " : " + print(e.kids[2], rng);
      break;
    }
  }
  return rng() % 8 == 0 ? wrap(text) : text;
}

__extension__ typedef __int128 Wide;  // holds every result of two 64-bit operands

// A value of the reference, as C++ types it: every expression here is signed, an int (32 bits;
// bool and the comparisons too) or a long long (64 bits).
struct Typed {
  Wide value = 0;
  int bits = 32;
};

int variable_bits(std::int64_t v) {
  return v >= INT32_MIN && v <= INT32_MAX ? 32 : 64;  // a --let value: int, else long long
}

// The C++ type of an expression without its value: what a ternary's two choices meet in.
int static_bits(const Expr& e) {
  switch (e.kind) {
    case Expr::constant:
      return variable_bits(e.value);  // a decimal literal: int, else long long
    case Expr::variable:
      for (const auto& [n, v] : kNames)
        if (n == e.op) return variable_bits(v);
      return 32;
    case Expr::unary:
      return e.op == "!" ? 32 : static_bits(e.kids[0]);
    case Expr::ternary:
      return std::max(static_bits(e.kids[1]), static_bits(e.kids[2]));
    case Expr::binary:
      break;
  }
  if (prec(e.op) <= 2 || (prec(e.op) >= 6 && prec(e.op) <= 7)) return 32;  // && || == < ...
  if (e.op == "<<" || e.op == ">>") return static_bits(e.kids[0]);
  return std::max(static_bits(e.kids[0]), static_bits(e.kids[1]));
}

Wide lowest(int bits) {
  return -(Wide{1} << (bits - 1));
}
Wide highest(int bits) {
  return (Wide{1} << (bits - 1)) - 1;
}

// nullopt: the expression has no value in C++ (signed overflow, division by zero, a shift count
// outside 0..bits-1, a left shift past the unsigned range).
std::optional<Typed> reference(const Expr& e) {
  using R = std::optional<Typed>;
  const auto checked = [](Wide r, int bits) {
    return r < lowest(bits) || r > highest(bits) ? R{} : R{Typed{r, bits}};
  };
  switch (e.kind) {
    case Expr::constant:
    case Expr::variable:
      if (e.kind == Expr::variable) {
        for (const auto& [n, v] : kNames)
          if (n == e.op) return Typed{v, variable_bits(v)};
        return std::nullopt;
      }
      return Typed{e.value, variable_bits(e.value)};
    case Expr::unary: {
      const R a = reference(e.kids[0]);
      if (!a) return a;
      if (e.op == "-") return checked(-a->value, a->bits);
      if (e.op == "~") return Typed{~a->value, a->bits};
      if (e.op == "!") return Typed{a->value == 0 ? 1 : 0, 32};
      return a;
    }
    case Expr::ternary: {
      const R c = reference(e.kids[0]);
      if (!c) return c;
      R r = reference(e.kids[c->value != 0 ? 1 : 2]);
      if (r) r->bits = static_bits(e);  // a widening: the value stays
      return r;
    }
    case Expr::binary:
      break;
  }
  const R a = reference(e.kids[0]);
  if (!a) return a;
  if (e.op == "&&" && a->value == 0) return Typed{0, 32};
  if (e.op == "||" && a->value != 0) return Typed{1, 32};
  const R b = reference(e.kids[1]);
  if (!b) return b;
  const Wide x = a->value, y = b->value;
  const int bits = std::max(a->bits, b->bits);
  const std::string& op = e.op;
  if (op == "+") return checked(x + y, bits);
  if (op == "-") return checked(x - y, bits);
  if (op == "*") return checked(x * y, bits);
  if (op == "/" || op == "%") {
    if (y == 0 || (x == lowest(bits) && y == -1)) return std::nullopt;
    return checked(op == "/" ? x / y : x % y, bits);
  }
  if (op == "<<" || op == ">>") {
    if (y < 0 || y >= a->bits) return std::nullopt;  // the left operand's type alone
    if (op == ">>") return Typed{x >> static_cast<int>(y), a->bits};
    const Wide r = x * (Wide{1} << static_cast<int>(y));
    // C++17: a non-negative value may reach the sign bit (1 << 31 is INT_MIN), no further.
    if (x >= 0) {
      if (r > 2 * highest(a->bits) + 1) return std::nullopt;
      return Typed{r > highest(a->bits) ? r - 2 * (highest(a->bits) + 1) : r, a->bits};
    }
    return checked(r, a->bits);
  }
  if (op == "<") return Typed{x < y, 32};
  if (op == "<=") return Typed{x <= y, 32};
  if (op == ">") return Typed{x > y, 32};
  if (op == ">=") return Typed{x >= y, 32};
  if (op == "==") return Typed{x == y, 32};
  if (op == "!=") return Typed{x != y, 32};
  if (op == "&") return Typed{x & y, bits};
  if (op == "^") return Typed{x ^ y, bits};
  if (op == "|") return Typed{x | y, bits};
  return Typed{y != 0, 32};  // the right side of && and ||
}

TEST_CASE("every operator agrees with a reference evaluator over 20000 generated expressions") {
  std::mt19937_64 rng(16);
  int with_value = 0;
  std::vector<std::string> seen_ops;
  for (int i = 0; i < 20000; ++i) {
    const Expr e = random_expr(rng, 1 + i % 5);
    const std::string text = print(e, rng);
    const std::optional<Typed> want = reference(e);
    const IntResult got = evaluate_integer(text, kNames);
    INFO(text);
    REQUIRE(got.value.has_value() == want.has_value());
    if (want) {
      CHECK(*got.value == static_cast<std::int64_t>(want->value));
      ++with_value;
    } else {
      CHECK(got.error->message.size() > 10);
    }
  }
  // Both outcomes are exercised, not just one.
  CHECK(with_value > 8000);
  CHECK(with_value < 19000);
}

// A condition with no value in any lane (an error in every lane, as here, or a parameter without
// --let) leaves neither choice of ?: to evaluate: the value is as unknown as the condition, for
// the condition's reason. It used to be read from the choice that was never evaluated (an empty
// std::optional): clang's UBSan stopped on it (an array index of 32767), GCC's build went on
// with whatever the memory held. Found by clang's build of the suite above (issue 36).
TEST_CASE("a ?: whose condition no lane knows has the condition's error, not a value") {
  for (const char* text :
       {"(32 >> 63) ? 1 : 2", "((32 >> 63) ? 1 : 2) + 1", "1 | ((32 >> 63) ? (63) << 3 : 7)"}) {
    CAPTURE(text);
    const IntResult r = evaluate_integer(text, {});
    REQUIRE(r.error.has_value());
    CHECK(r.error->message.find("0..31 for int") != std::string::npos);
  }
  const IntResult named = evaluate_integer("(n > 1 ? 4 : 8) * 2", {});
  REQUIRE(named.error.has_value());
  CHECK(named.error->message.find("n") != std::string::npos);
}

TEST_CASE("C++ literals and precedence read as a compiler reads them") {
  const auto value = [](std::string_view text) { return evaluate_integer(text, {}).value; };
  CHECK(value("0x1F") == 31);
  CHECK(value("0b101") == 5);
  CHECK(value("010") == 8);
  CHECK(value("32u") == 32);
  CHECK(value("1'000") == 1000);
  CHECK(value("1 + 2 * 3") == 7);
  CHECK(value("1 << 2 + 1") == 8);
  CHECK(value("7 - 3 - 2") == 2);
  CHECK(value("-7 / 2") == -3);
  CHECK(value("-7 % 2") == -1);
  CHECK(value("1 ? 2 : 0 ? 3 : 4") == 2);
  CHECK(value("0 ? 2 : 0 ? 3 : 4") == 4);
  CHECK(value("5 & 3 == 3") == 1);  // == binds tighter than &
  CHECK(value("0 && 1 / 0") == 0);  // short-circuit: the division is never done
  CHECK(value("1 ? 5 : 1 / 0") == 5);
  CHECK(value("min(3, 9) + max(3, 9)") == 12);
  CHECK(value("(int)7 + static_cast<unsigned>(1)") == 8);
}

// [SECTION] The classic kernels, as code

struct Run {
  std::optional<KernelCode> code;
  std::optional<CodeError> error;
  int wavefronts = -1;
  std::string message;
};

Run run(std::string decl, std::string expr, KernelParams params = {}) {
  const CodeSource sources[] = {{"--decl", std::move(decl)}, {"--expr", std::move(expr)}};
  const CodeResult r = evaluate_code(sources, params);
  Run out{r.code, r.error, -1, ""};
  if (r.error) {
    out.message = format_code_error(*r.error, sources);
    return out;
  }
  const Evaluation e = evaluate(r.code->scenario);
  REQUIRE_MESSAGE(e.ok(), first_error(e.diagnostics));
  out.wavefronts = e.analysis->wavefront_count();
  return out;
}

KernelParams block(int x, int y, std::vector<std::pair<std::string, std::int64_t>> lets = {}) {
  KernelParams p;
  p.block = {x, y, 1};
  p.lets = std::move(lets);
  return p;
}

TEST_CASE("the transpose's column read is 32 wavefronts in tile[32][32] and 1 in tile[32][33]") {
  const std::string expr = "tile[threadIdx.x][threadIdx.y + j]";
  const Run naive = run("__shared__ float tile[32][32];", expr, block(32, 8, {{"j", 0}}));
  CHECK(naive.wavefronts == 32);
  const Run padded = run("__shared__ float tile[32][33];", expr, block(32, 8, {{"j", 0}}));
  CHECK(padded.wavefronts == 1);
  // Lane 5 of warp 0: threadIdx (5, 0, 0), indices [5][0], byte 5 * 132.
  const LaneCode& lane5 = padded.code->lanes[5];
  CHECK(lane5.thread == std::array<int, 3>{5, 0, 0});
  CHECK(lane5.indices == std::vector<std::int64_t>{5, 0});
  CHECK(lane5.byte == 660);
  CHECK(padded.code->access_text == expr);
  // Warp 3 is threadIdx.y 3: column 3 + j.
  KernelParams w3 = block(32, 8, {{"j", 8}});
  w3.warp = 3;
  const Run third = run("__shared__ float tile[32][33];", expr, w3);
  CHECK(third.code->lanes[0].indices == std::vector<std::int64_t>{0, 11});
}

TEST_CASE("a constexpr or #define size, and a store, read as the compiler would") {
  CHECK(run("constexpr int TILE = 32; __shared__ float tile[TILE][TILE + 1];",
            "tile[threadIdx.x][0] = v;")
            .wavefronts == 1);
  const Run r =
      run("#define TILE 32\n__shared__ float tile[TILE][TILE];", "tile[threadIdx.x][1] = v;");
  CHECK(r.wavefronts == 32);
  CHECK(r.code->scenario.op == Op::st);
  CHECK(r.code->array.dims == std::vector<std::int64_t>{32, 32});
  // A macro is text: N+1 times 2 is 32 + 1 * 2.
  CHECK(run("#define N 32+1\n__shared__ float t[N*2];", "t[threadIdx.x]").code->array.dims ==
        std::vector<std::int64_t>{34});
}

TEST_CASE("the float4 row store is 4 wavefronts in 144-byte rows and misaligned in 132-byte rows") {
  const std::string store =
      "*reinterpret_cast<float4*>(&tile[threadIdx.x / 8][threadIdx.x % 8 * 4]) = v;";
  const Run good = run("__shared__ float tile[32][36];", store);
  CHECK(good.wavefronts == 4);
  CHECK(good.code->scenario.width == 16);
  CHECK(good.code->scenario.op == Op::st);
  const Run bad = run("__shared__ float tile[32][33];", store);
  REQUIRE(bad.error);
  CHECK(bad.error->message.find("lane 8") != std::string::npos);
  CHECK(bad.error->message.find("aligned to 16 bytes") != std::string::npos);
  CHECK(bad.error->message.find("byte 132") != std::string::npos);
  // The other spellings of the same access.
  CHECK(run("__shared__ float tile[32][36];",
            "reinterpret_cast<float4*>(&tile[threadIdx.x / 8][threadIdx.x % 8 * 4])[0] = v;")
            .wavefronts == 4);
  CHECK(run("__shared__ float tile[32][36];",
            "*(float4*)&tile[threadIdx.x / 8][threadIdx.x % 8 * 4] = v")
            .wavefronts == 4);
  CHECK(run("__shared__ float4 tile[32][9];", "tile[threadIdx.x / 8][threadIdx.x % 8] = v")
            .wavefronts == 4);
}

TEST_CASE("a GEMM's As[ty][k] is a broadcast: one wavefront for a 32-wide block, two for 16x16") {
  const std::string decl = "__shared__ float As[32][32];";
  const std::string expr = "float a = As[threadIdx.y][k];";
  CHECK(run(decl, expr, block(32, 8, {{"k", 5}})).wavefronts == 1);
  // Two rows per warp, 128 bytes apart: the same bank, two words.
  CHECK(run(decl, expr, block(16, 16, {{"k", 5}})).wavefronts == 2);
  // Bs[k][tx] with 16 columns: both half-warps read the same 16 words, a broadcast.
  CHECK(run("__shared__ float Bs[16][16];", "Bs[k][threadIdx.x]", block(16, 16, {{"k", 3}}))
            .wavefronts == 1);
}

TEST_CASE(
    "bf16 columns: 16 wavefronts in [32][32], 2 for an odd column of [32][33], 1 in [32][34]") {
  CHECK(run("__shared__ __nv_bfloat16 t[32][32];", "t[threadIdx.x][3]").wavefronts == 16);
  CHECK(run("__shared__ __nv_bfloat16 t[32][33];", "t[threadIdx.x][3]").wavefronts == 2);
  CHECK(run("__shared__ half t[32][34];", "t[threadIdx.x][3]").wavefronts == 1);
  // Pairs through half2 components: .y is the upper 2 bytes.
  const Run pair = run("__shared__ half2 t[32][17];", "t[threadIdx.x][1].y");
  CHECK(pair.code->scenario.width == 2);
  CHECK(pair.code->lanes[1].byte == 68 + 4 + 2);
}

TEST_CASE("ldmatrix.x4 on 128-byte rows is 32 wavefronts, and 4 with the chunk swizzle") {
  const std::string decl = "__shared__ __nv_bfloat16 sA[8][64];";
  const Run plain = run(decl, "ldmatrix.x4(&sA[threadIdx.x % 8][threadIdx.x / 8 * 8]);");
  CHECK(plain.wavefronts == 32);
  CHECK(plain.code->scenario.op == Op::ldmatrix_x4);
  const Run swizzled = run(decl,
                           "ldmatrix_x4(r0, r1, r2, r3, &sA[threadIdx.x % 8][((threadIdx.x / 8) ^ "
                           "(threadIdx.x % 8)) * 8]);");
  CHECK(swizzled.wavefronts == 4);
  // The PTX spelling, through a shared address, and stmatrix.
  const Run ptx =
      run(decl,
          "uint32_t addr = __cvta_generic_to_shared(&sA[threadIdx.x % 8][threadIdx.x / 8 * 8]);\n"
          "ldmatrix.sync.aligned.m8n8.x4.shared.b16(addr);");
  CHECK(ptx.wavefronts == 32);
  CHECK(run(decl, "stmatrix.x4(&sA[threadIdx.x % 8][threadIdx.x / 8 * 8])").code->scenario.op ==
        Op::stmatrix_x4);
  // ldmatrix.x1 reads lanes 0-7 only; the other lanes' addresses are ignored, not evaluated.
  const Run x1 = run(decl, "ldmatrix.x1(&sA[threadIdx.x][0])");
  CHECK(x1.wavefronts == 8);
  CHECK(!x1.code->lanes[8].active);
  // --op ldmatrix.x4 with a bare row address.
  KernelParams p;
  p.op = Op::ldmatrix_x4;
  CHECK(run(decl, "&sA[threadIdx.x % 8][threadIdx.x / 8 * 8]", p).wavefronts == 32);
}

TEST_CASE("an if guards the access, and asm ldmatrix/stmatrix read their [%N] operand") {
  const Run half =
      run("__shared__ float t[32][32];", "if (threadIdx.x < 16) x = t[threadIdx.x][0];");
  CHECK(half.wavefronts == 16);
  CHECK(half.code->scenario.lane_mask == 0x0000FFFFu);
  CHECK(!half.code->lanes[16].active);
  CHECK(run("__shared__ float t[32][32];",
            "if (0x0000ffff >> threadIdx.x & 1) { t[threadIdx.x][0] = v; }")
            .code->scenario.lane_mask == 0x0000FFFFu);
  const std::string decl = "__shared__ __nv_bfloat16 sA[8][64];";
  const Run ld =
      run(decl,
          "unsigned addr = __cvta_generic_to_shared(&sA[threadIdx.x % 8][threadIdx.x / 8 * 8]);\n"
          "asm volatile(\"ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\"\n"
          "             : \"=r\"(a0), \"=r\"(a1), \"=r\"(a2), \"=r\"(a3) : \"r\"(addr));");
  CHECK(ld.wavefronts == 32);
  CHECK(ld.code->scenario.op == Op::ldmatrix_x4);
  const Run st =
      run(decl,
          "asm volatile(\"stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};\" ::"
          " \"r\"(__cvta_generic_to_shared(&sA[threadIdx.x % 8][((threadIdx.x / 8) ^ (threadIdx.x "
          "% 8)) * 8])),"
          " \"r\"(b0), \"r\"(b1), \"r\"(b2), \"r\"(b3));");
  CHECK(st.wavefronts == 4);
  CHECK(st.code->scenario.op == Op::stmatrix_x4);
  CHECK(run(decl, "asm(\"ld.shared.f32 %0, [%1];\" : \"=f\"(x) : \"r\"(a));")
            .error->message.find("only ldmatrix and stmatrix") != std::string::npos);
  // The destination declared apart, as code_view writes it.
  CHECK(run("__shared__ float t[32][33];", "float v;\nif (threadIdx.x < 8) v = t[threadIdx.x][2];")
            .wavefronts == 1);
  CHECK(run(decl, "if (threadIdx.x < 4) int q = 3;")
            .error->message.find("an if must guard the access") != std::string::npos);
}

TEST_CASE("locals, laneid and warpid as declared, extern arrays and every warp") {
  const Run r = run("extern __shared__ float smem[];",
                    "const int laneid = threadIdx.x % 32, warpid = threadIdx.x / 32;\n"
                    "float v = smem[warpid * 33 * 32 + laneid * 33];",
                    block(128, 1));
  CHECK(r.wavefronts == 1);
  CHECK(r.code->array.dims == std::vector<std::int64_t>{kMaxSharedPerBlockBytes / 4});
  KernelParams small;
  small.extern_bytes = 4096;
  CHECK(
      run("extern __shared__ float smem[][32];", "smem[threadIdx.x][0]", small).code->array.dims ==
      std::vector<std::int64_t>{32, 32});
  // Warps 0-3 read columns 0-3 of tile[32][32] in warp w's own stride: the worst is warp 3.
  KernelParams all = block(32, 4);
  all.warp = kAllWarps;
  const Run worst = run("__shared__ float t[4][32][32];",
                        "t[threadIdx.y][threadIdx.x * (threadIdx.y + 1) % 32][0]", all);
  CHECK(worst.code->warp_count == 4);
  CHECK(worst.code->warp == 0);  // stride 1 row: 32 rows, one bank: 32-way, the first worst
  CHECK(worst.wavefronts == 32);
}

// [SECTION] Every preset, written as code by the code view

TEST_CASE("every preset's code from the code view parses back to the preset's offsets") {
  int round_trips = 0;
  for (const Preset& p : presets()) {
    INFO(p.name);
    const Study studied = study(p.scenario);
    const Evaluation& want = studied.evaluation;
    const CodeView view = code_view(studied);
    if (!want.ok()) {
      // The lesson is the diagnostic (a misaligned vector store): the code view has no
      // statement to give.
      CHECK(view.statement.empty());
      continue;
    }
    REQUIRE_FALSE(view.statement.empty());
    std::string body;
    for (const std::string& line : view.statement) body += line + "\n";
    INFO(view.declaration << "\n" << body);
    const Run r = run(view.declaration, body);
    REQUIRE_MESSAGE(!r.error, r.message);
    CHECK(r.code->scenario.op == want.analysis->access.op);
    CHECK(r.code->scenario.effective_width() == want.analysis->access.width);
    for (int l = 0; l < kWarpSize; ++l) {
      const auto i = static_cast<std::size_t>(l);
      CHECK(r.code->lanes[i].active == want.analysis->access.active(l));
      if (want.analysis->access.active(l))
        CHECK(r.code->scenario.raw_offsets[i] == want.analysis->access.offsets[i]);
    }
    CHECK(r.wavefronts == want.analysis->wavefront_count());
    ++round_trips;
  }
  CHECK(round_trips + 2 == static_cast<int>(presets().size()));  // all but the two diagnostics
}

TEST_CASE("the shared-memory limits: 48 KB static, 227 KB per block, each refusal with its fix") {
  const char* read = "v = tile[threadIdx.x][7];";
  SUBCASE("a static array up to 48 KB, not one byte more") {
    CHECK_FALSE(run("__shared__ float tile[96][128];", read).error);  // 49152 B
    const Run over = run("__shared__ char tile[49153][1];", "v = tile[threadIdx.x][0];");
    REQUIRE(over.error);
    CHECK(over.error->message ==
          "tile needs 49153 B of shared memory, more than the 49152 B (48 KB) a static "
          "__shared__ array may take (nvcc: \"uses too much shared data\"): declare it extern "
          "__shared__ and, on the host, opt in with cudaFuncSetAttribute(kernel, "
          "cudaFuncAttributeMaxDynamicSharedMemorySize, 49153) before the launch (up to 232448 "
          "B (227 KB) per block)");
  }
  SUBCASE("bf16 tile[256][258]: refused static, accepted extern with the launch's bytes") {
    CHECK(run("__shared__ __nv_bfloat16 tile[256][258];", read).error);
    KernelParams launch;
    launch.extern_bytes = 256 * 258 * 2;
    const Run r = run("extern __shared__ __align__(16) __nv_bfloat16 tile[][258];", read, launch);
    REQUIRE_FALSE(r.error);
    CHECK(r.code->array.dims == std::vector<std::int64_t>{256, 258});
    CHECK(r.wavefronts == 1);
  }
  SUBCASE("a block has at most 227 KB, extern or not: the SM's 228 KB less 1 KB reserved") {
    const Run r = run("extern __shared__ float tile[][58112];",  // 232448 B: one row
                      "v = tile[0][threadIdx.x];");
    REQUIRE_FALSE(r.error);
    KernelParams too_much;
    too_much.extern_bytes = kSharedMemoryBytes;  // 228 KB: the whole SM
    const Run over = run("extern __shared__ float tile[][32];", read, too_much);
    REQUIRE(over.error);
    CHECK(over.error->message ==
          "the extern __shared__ size must be 1..232448 bytes: 232448 B (227 KB), the most one "
          "block can have on an H100/H200 (the SM's 233472 B (228 KB) less the 1024 B reserved "
          "per block)");
    const Run big = run("__shared__ float tile[32][1817];", read);  // 232576 B
    REQUIRE(big.error);
    CHECK(big.error->message.find("more than 232448 B (227 KB), the most one block can have on "
                                  "an H100/H200 (the SM's 233472 B (228 KB) less the 1024 B "
                                  "reserved per block): use fewer rows") != std::string::npos);
  }
}

// [SECTION] Bad code: a located, clear error, never a crash

struct Bad {
  const char* decl;
  const char* expr;
  const char* message;  // a part of the message
  int source, column;   // where the caret goes (column 0-based; source -1: no caret)
};

TEST_CASE("bad code of every kind gives a clear error at the right column") {
  const Bad cases[] = {
      {"__shared__ float tile[32][33];", "tile[threadIdx.x][k]",
       "k is not defined: add --let k=VALUE", 1, 18},
      {"__shared__ float tile[32][33];", "tile[threadIdx.x][4 / (threadIdx.x - 3) + 4]",
       "lane 3 (threadIdx 3,0,0): division by zero", 1, 20},
      {"__shared__ float tile[32][33];", "tile[threadIdx.x][1 << 64]", "shift by 64", 1, 20},
      {"__shared__ float tile[32][33];", "tile[threadIdx.x][9223372036854775807 * 2]",
       "overflows 64 bits", 1, 38},
      {"__shared__ float tile[32][33];", "tile[threadIdx.x + 1][0]",
       "lane 31 (threadIdx 31,0,0): index 32 is outside tile's first dimension [32] (0..31)", 1, 4},
      {"__shared__ float tile[32][33];", "tile[0][threadIdx.x * 2]",
       "lane 17 (threadIdx 17,0,0): index 34 is outside tile's second dimension [33]", 1, 7},
      {"__shared__ float tile[32][33];", "*(float2*)&tile[threadIdx.x][1]",
       "float2* needs an address aligned to 8 bytes", 1, 1},
      {"__shared__ float tile[32][33];", "tile[threadIdx.x][1.5]", "only whole numbers", 1, 18},
      {"__shared__ float tile[32][33];", "tile[threadIdx.x][(1]", "expected ')' to close '('", 1,
       20},
      {"__shared__ float tile[32][33];", "tile[threadIdx.x] @", "'@' is not part of C++ syntax", 1,
       18},
      {"__shared__ float tile[32][33];", "tile[threadIdx.x]", "a whole row of tile", 1, 0},
      {"__shared__ float tile[32][33];", "tile[0][0] = tile[1][0]", "loads and stores", 1, 0},
      {"__shared__ float tile[32][33];", "x = tile[0][0]; y = tile[1][1];",
       "a second shared-memory access", 1, 16},
      {"__shared__ float tile[32][33];", "tile[tile[0][0]][0]", "cannot read a value from tile", 1,
       12},
      {"__shared__ float tile[32][33];", "tile[threadIdx.x][0] += 1", "both loads and stores", 1,
       21},
      {"__shared__ float tile[32][33];", "for (int j = 0; j < 4; ++j)",
       "give the loop variable a value", 1, 0},
      {"__shared__ float tile[32][33];", "stmatrix.x2(&tile[0][0])",
       "stmatrix.x1 and .x2 are not modelled", 1, 0},
      {"__shared__ float tile[32][33];", "ldmatrix(&tile[0][0])", "needs its count", 1, 0},
      {"__shared__ float tile[32][33];", "foo(3)", "foo(...) is not understood", 1, 0},
      {"__shared__ float tile[32][33];", "tile[0][0].x", ".x is not a component", 1, 10},
      {"__shared__ float tile[32][33];", "", "no shared-memory access", -1, 0},
      {"float tile[32][33];", "tile[0][0]", "only a __shared__ array", 0, 6},
      {"__shared__ float tile[threadIdx.x];", "tile[0]",
       "threadIdx.x differs from thread to thread", 0, 22},
      {"__shared__ float tile[0];", "tile[0]", "an array bound must be 1 or more", 0, 21},
      {"__shared__ double tile[256][256];", "tile[0][0]",
       "more than 232448 B (227 KB), the most one block can have", 0, 0},
      // nvcc refuses a static array over 48 KB; the message names the fix.
      {"__shared__ __nv_bfloat16 tile[256][258];", "tile[0][0]",
       "tile needs 132096 B of shared memory, more than the 49152 B (48 KB) a static __shared__ "
       "array may take",
       0, 0},
      {"__shared__ float3 tile[32];", "tile[0]", "expected the element type", 0, 11},
      {"__shared__ float tile[32]; __shared__ float b[2];", "tile[0]",
       "a second __shared__ declaration", 0, 27},
      {"extern __shared__ float s[4];", "s[0]", "empty first bound", 0, 25},
      {"#define N N+1\n__shared__ float t[N];", "t[0]", "N is not defined", 0, -1},
      {"#define A B+B\n#define B C+C\n#define C D+D\n#define D E+E\n#define E F+F\n#define F G+G\n"
       "#define G H+H\n#define H I+I\n#define I J+J\n#define J K+K\n#define K 1\n__shared__ float "
       "t[A];",
       "t[0]", "expands to too much code", 0, -1},
      {"__shared__ float tile[32] /* open", "tile[0]", "never closed", 0, 26},
      {"__shared__ float t[4];", "t[99999999999999999999]", "does not fit in 64 bits", 1, 2},
      {"__shared__ float t[4];", "t[-9223372036854775807 - 1 - 1]", "overflows 64 bits", 1, 27},
  };
  for (const Bad& b : cases) {
    const std::string what = std::string(b.decl) + " | " + b.expr;
    INFO(what);
    const Run r = run(b.decl, b.expr);
    REQUIRE(r.error);
    INFO(r.message);
    CHECK(r.error->message.find(b.message) != std::string::npos);
    CHECK(r.error->source == b.source);
    if (b.column >= 0) CHECK(r.error->column == b.column);
  }
}

TEST_CASE("deep nesting is an error, not a stack overflow") {
  const std::string deep = "t[" + std::string(5000, '(') + "0" + std::string(5000, ')') + "]";
  CHECK(run("__shared__ float t[4];", deep).error->message.find("nests deeper than 200") !=
        std::string::npos);
  const std::string negations = "t[" + std::string(5000, '~') + "0]";
  CHECK(run("__shared__ float t[4];", negations).error->message.find("nests deeper") !=
        std::string::npos);
  const std::string sum = "t[0" + std::string(5000, '+') + "]";
  CHECK(run("__shared__ float t[4];", sum).error.has_value());
}

// Issue 22, defect 1: long code is evaluated or refused with a message, never a stack overflow.
TEST_CASE("long sums, subscript chains, chained locals and a 20,000-dimension array: no overflow") {
  std::string sum = "0";
  for (int i = 1; i <= 30000; ++i) sum += i % 2 ? "+1" : "-1";  // 30,001 terms: 0 again
  const Run terms =
      run("__shared__ float tile[32][33];", std::string("tile[threadIdx.x][") + sum + "]");
  REQUIRE_MESSAGE(!terms.error, terms.message);
  CHECK(terms.wavefronts == 1);
  CHECK(terms.code->lanes[7].indices == std::vector<std::int64_t>{7, 0});

  std::string subscripts = "tile";
  for (int i = 0; i < 10000; ++i) subscripts += "[0]";
  const Run chain = run("__shared__ float tile[32][33];", subscripts);
  REQUIRE(chain.error);
  CHECK(chain.error->message.find("already one element of tile") != std::string::npos);
  CHECK(chain.error->column == 10);  // the third '['

  std::string locals = "int a0 = threadIdx.x;\n";
  for (int i = 1; i < 7000; ++i)
    locals += std::string("int a") + std::to_string(i) + " = a" + std::to_string(i - 1) + " + 1;\n";
  const Run chained = run("__shared__ float tile[32][33];", locals + "tile[a6999 % 32][0]");
  REQUIRE_MESSAGE(!chained.error, chained.message);
  CHECK(chained.code->lanes[0].indices == std::vector<std::int64_t>{6999 % 32, 0});  // 23
  CHECK(chained.wavefronts == 1);  // 32 rows of column 0 in tile[32][33]: 32 banks
}

TEST_CASE("a 20,000-dimension array and its 20,000 subscripts") {
  std::string dims, zeros;
  for (int i = 0; i < 20000; ++i) {
    dims += "[1]";
    zeros += "[0]";
  }
  const Run r = run(std::string("__shared__ float t") + dims + "[32];",
                    std::string("t") + zeros + "[threadIdx.x]");
  REQUIRE_MESSAGE(!r.error, r.message);
  CHECK(r.wavefronts == 1);
  CHECK(r.code->array.dims.size() == 20001);
  CHECK(r.code->lanes[31].byte == 124);
}

// Issue 22, defect 2: each definition is evaluated once per lane, however often it is used.
TEST_CASE("A(n) = A(n-1) + A(n-1) over 62 levels is linear, not exponential") {
  std::string chain = "constexpr long long A0 = 1;\n";
  for (int i = 1; i <= 62; ++i) {
    const std::string prev = std::string("A") + std::to_string(i - 1);
    chain += std::string("constexpr long long A") + std::to_string(i) + " = " + prev + " + " +
             prev + ";\n";
  }
  CHECK(run(chain + "__shared__ float t[64];", "t[A62 >> 57]").code->lanes[0].indices ==
        std::vector<std::int64_t>{32});
  // Locals that depend on the thread, in the access's own code.
  std::string locals = "int B0 = threadIdx.x;\n";
  for (int i = 1; i <= 40; ++i) {
    const std::string prev = std::string("B") + std::to_string(i - 1);
    locals += std::string("long long B") + std::to_string(i) + " = " + prev + " + " + prev + ";\n";
  }
  const Run r = run("__shared__ float t[64];", locals + "t[(B40 >> 40) * 2]");
  REQUIRE_MESSAGE(!r.error, r.message);
  CHECK(r.code->lanes[5].indices == std::vector<std::int64_t>{10});
}

// [SECTION] Types, names and parameters

// Issue 22, defect 3: an integer type's width and signedness apply as C++ applies them.
TEST_CASE("casts and typed locals wrap as C++ does: (unsigned char)(threadIdx.x * 32) is % 256") {
  const Run cast =
      run("__shared__ float tile[8][1024];", "v = tile[0][(unsigned char)(threadIdx.x * 32)]");
  CHECK(cast.wavefronts == 8);  // columns 0, 32, ..., 224 eight times over: 8 lanes a bank
  CHECK(cast.code->lanes[8].indices == std::vector<std::int64_t>{0, 0});
  CHECK(
      run("__shared__ float tile[8][1024];", "v = tile[0][static_cast<uint8_t>(threadIdx.x * 32)]")
          .wavefronts == 8);
  const Run local = run("__shared__ float tile[8][1024];",
                        "unsigned char c = threadIdx.x * 32;\nv = tile[0][c];");
  CHECK(local.wavefronts == 8);
  CHECK(local.code->lanes[9].indices == std::vector<std::int64_t>{0, 32});

  const auto value = [](std::string_view text) { return evaluate_integer(text, {}).value; };
  CHECK(value("(short)65537") == 1);
  CHECK(value("(int)4294967296") == 0);
  CHECK(value("(bool)5") == 1);
  CHECK(value("(bool)0") == 0);
  CHECK(value("(char)200") == -56);
  CHECK(value("(uint8_t)300") == 44);
  CHECK(value("(int8_t)200") == -56);
  CHECK(value("(unsigned short)-1") == 65535);
  CHECK(value("static_cast<unsigned char>(300)") == 44);
  CHECK(value("(unsigned)-1") == 4294967295);
  CHECK(value("(unsigned)-1 + 1") == 0);  // unsigned int wraps
  CHECK(value("-1 < 1u") == 0);           // -1 becomes 4294967295u
  CHECK(value("-1LL < 1u") == 1);         // long long holds every unsigned int
  CHECK(value("1 << 31") == INT32_MIN);   // C++17: into the sign bit, no further
  CHECK(value("1u << 31") == 2147483648);
  CHECK(value("-8 >> 1") == -4);
  CHECK(value("1 ? -1 : 1u") == 4294967295);  // both choices meet in unsigned int
  CHECK(value("min(-1, 1u)") == 1);
  CHECK(value("2147483647LL + 1") == 2147483648);
  CHECK(evaluate_integer("2147483647 + 1", {}).error->message.find("overflows 32 bits (int)") !=
        std::string::npos);
  CHECK(evaluate_integer("1 << 32", {}).error->message.find("0..31 for int") != std::string::npos);
  CHECK(evaluate_integer("(unsigned long long)-1", {}).error->message.find("does not fit") !=
        std::string::npos);
  // threadIdx.x is unsigned: thread 0's threadIdx.x - 1 is 4294967295, not -1, so the guard
  // leaves lane 0 out instead of letting it read tile[-1].
  const Run guard = run("__shared__ float tile[32][33];",
                        "if (threadIdx.x - 1 < 31) x = tile[threadIdx.x - 1][0];");
  REQUIRE_MESSAGE(!guard.error, guard.message);
  CHECK(guard.code->scenario.lane_mask == 0xFFFFFFFEu);
}

TEST_CASE("names are seen after their definition, as C++ reads the code") {
  CHECK(run("__shared__ float t[32];", "int k = m + 1;\nint m = 2;\nt[k]")
            .error->message.find("m is used before its definition") != std::string::npos);
  CHECK(run("__shared__ float t[32];", "int k = k + 1;\nt[k]")
            .error->message.find("k is defined in terms of itself") != std::string::npos);
  // An unused definition that has no value is harmless, as in C++.
  CHECK(run("__shared__ float t[32];", "int unused = 1 / 0;\nt[threadIdx.x]").wavefronts == 1);
  CHECK(run("__shared__ float t[32];", "float f = 3;\nt[f]")
            .error->message.find("f is a float, not an integer") != std::string::npos);
}

// Issue 22, defect 13: a --let gives a value the code leaves open, and only once.
TEST_CASE("--let refuses built-ins, the code's own names and a name given twice") {
  const auto error = [](std::string decl, std::string expr,
                        std::vector<std::pair<std::string, std::int64_t>> lets) {
    KernelParams p;
    p.lets = std::move(lets);
    const Run r = run(std::move(decl), std::move(expr), p);
    return r.error ? r.error->message : std::string("no error");
  };
  const std::string decl = "__shared__ float tile[32][33];";
  CHECK(error(decl, "tile[threadIdx.x][0]", {{"threadIdx.x", 5}}) ==
        "--let threadIdx.x: threadIdx.x is built in (the block and the thread give it), not a "
        "value to choose");
  CHECK(error(decl, "tile[0][blockDim.x]", {{"blockDim.x", 0}}).find("built in") !=
        std::string::npos);
  CHECK(error(decl, "tile[0][warpSize]", {{"warpSize", 0}}).find("built in") != std::string::npos);
  CHECK(error(decl, "int j = 2;\ntile[threadIdx.x][j]", {{"j", 5}}) ==
        "--let j: the code defines j itself; keep one of the two");
  CHECK(error(std::string("#define J 2\n") + decl, "tile[threadIdx.x][J]", {{"J", 5}}) ==
        "--let J: the code #defines J itself; keep one of the two");
  CHECK(error(decl, "tile[threadIdx.x][j]", {{"j", 0}, {"j", 1}}) ==
        "--let j: given twice; give each name one value");
  CHECK(error(decl, "tile[threadIdx.x][0]", {{"tile", 1}}).find("the shared array") !=
        std::string::npos);
  CHECK(error(decl, "tile[threadIdx.x][j]", {{"j", 1}}) == "no error");
}

TEST_CASE("the error display shows the line and a caret under the column") {
  const Run r = run("__shared__ float tile[32][33];", "tile[threadIdx.x][k]");
  CHECK(r.message ==
        "--expr:1:19: error: k is not defined: add --let k=VALUE\n"
        "  tile[threadIdx.x][k]\n"
        "                    ^\n");
  const Run line2 = run("constexpr int N = 32;\n__shared__ float t[M];", "t[0]");
  CHECK(line2.message ==
        "--decl:2:20: error: M is not defined: add --let M=VALUE\n"
        "  __shared__ float t[M];\n"
        "                     ^\n");
}

TEST_CASE("bad parameters: the block, the warp, the --let list") {
  CHECK(run("__shared__ float t[4];", "t[0]", block(64, 32)).error->message.find("1 to 1024") !=
        std::string::npos);
  // Sides near INT_MAX: their product would overflow 64 bits before the check.
  KernelParams huge;
  huge.block = {INT_MAX, INT_MAX, INT_MAX};
  CHECK(run("__shared__ float t[4];", "t[0]", huge).error->message.find("1 to 1024") !=
        std::string::npos);
  KernelParams w;
  w.warp = 1;
  CHECK(run("__shared__ float t[4];", "t[0]", w).error->message ==
        "warp 1 is not in the block: a block of 32 threads has warps 0..0");
  CHECK(parse_lets("j=0,k=-1,blockIdx.x=2*3").value() ==
        std::vector<std::pair<std::string, std::int64_t>>{{"j", 0}, {"k", -1}, {"blockIdx.x", 6}});
  CHECK(parse_lets("j").error().find("NAME=VALUE") != std::string::npos);
  CHECK(parse_lets("3=1").error().find("NAME=VALUE") != std::string::npos);
  CHECK(parse_lets("j=1/0").error().find("division by zero") != std::string::npos);
  CHECK(parse_block("32x8").value() == std::array<int, 3>{32, 8, 1});
  CHECK(parse_block("8x8x4").value() == std::array<int, 3>{8, 8, 4});
  CHECK(!parse_block("64x32").has_value());
  CHECK(!parse_block("32x").has_value());
  CHECK(!parse_block("0").has_value());
  CHECK(!parse_block("1x1x1x1").has_value());
}

TEST_CASE("--block and --grid have one grammar in every command: x or comma, CUDA's limits") {
  // analyze --decl/--expr read "32x8" only, scan "32,8" too: one grammar now, both spellings.
  CHECK(parse_block("32,8").value() == std::array<int, 3>{32, 8, 1});
  CHECK(parse_block("8,8x4").value() == std::array<int, 3>{8, 8, 4});
  CHECK(parse_grid("2147483647,65535,65535").value() ==
        std::array<int, 3>{2147483647, 65535, 65535});
  // A block's z is at most 64: analyze's grammar let 1x1x128 through to the machine.
  CHECK(parse_block("1x1x128").error() ==
        "--block 1x1x128 is not one CUDA launches: a block's z is 1 to 64");
  CHECK(parse_block("64,32").error() ==
        "--block 64x32x1 is not one CUDA launches: a block has at most 1024 threads, this one "
        "2048");
  CHECK(parse_grid("1,70000").error() ==
        "--grid 1x70000x1 is not one CUDA launches: a grid's y is 1 to 65535");
  CHECK(parse_block("32;8").error() ==
        "--block expects X, XxY or XxYxZ (such as 32x8; 32,8 too), each at least 1, got '32;8'");
  CHECK(parse_grid("").error().starts_with("--grid expects X, XxY or XxYxZ"));
  CHECK(!parse_block("99999999999").has_value());
}

}  // namespace
}  // namespace banklab
