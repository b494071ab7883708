// code_view(): the CUDA statement behind a scenario. Its index expressions are evaluated here
// for every lane (a small C++ integer-expression evaluator, the grammar code_view.hpp
// promises) and must give the byte offsets the analysis counted.
#include <doctest/doctest.h>

#include <cctype>
#include <string>

#include "core/code/code_view.hpp"
#include "core/code/kernel_code.hpp"
#include "core/model/presets.hpp"

namespace banklab {
namespace {

// Recursive descent over | ^ & << >> + - * / % ( ), numbers and threadIdx.x / threadIdx.y.
struct Evaluator {
  std::string_view text;
  std::size_t at = 0;
  std::int64_t tx = 0;
  bool ok = true;

  void skip() {
    while (at < text.size() && text[at] == ' ') ++at;
  }
  bool eat(std::string_view token) {
    skip();
    if (text.substr(at, token.size()) != token) return false;
    // "<" must not eat the first half of "<<", nor "|" of "||".
    at += token.size();
    return true;
  }
  std::int64_t primary() {
    skip();
    if (eat("(")) {
      const std::int64_t v = bit_or();
      ok = ok && eat(")");
      return v;
    }
    if (eat("threadIdx.x")) return tx;
    if (eat("threadIdx.y")) return 0;
    std::int64_t v = 0;
    const std::size_t start = at;
    while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at])))
      v = v * 10 + (text[at++] - '0');
    ok = ok && at > start;
    return v;
  }
  std::int64_t unary() { return eat("-") ? -unary() : primary(); }
  std::int64_t mul() {
    std::int64_t v = unary();
    for (;;) {
      if (eat("*"))
        v *= unary();
      else if (eat("/"))
        v /= unary();
      else if (eat("%"))
        v %= unary();
      else
        return v;
    }
  }
  std::int64_t add() {
    std::int64_t v = mul();
    for (;;) {
      if (eat("+"))
        v += mul();
      else if (eat("-"))
        v -= mul();
      else
        return v;
    }
  }
  std::int64_t shift() {
    std::int64_t v = add();
    for (;;) {
      if (eat("<<"))
        v <<= add();
      else if (eat(">>"))
        v >>= add();
      else
        return v;
    }
  }
  std::int64_t bit_and() {
    std::int64_t v = shift();
    while (eat("&")) v &= shift();
    return v;
  }
  std::int64_t bit_xor() {
    std::int64_t v = bit_and();
    while (eat("^")) v ^= bit_and();
    return v;
  }
  std::int64_t bit_or() {
    std::int64_t v = bit_xor();
    while (eat("|")) v |= bit_xor();
    return v;
  }
};

// "tile[ROW][COL]" for lane tx -> the byte offset in the tile.
std::int64_t byte_of(const std::string& element, const TileLayout& t, int tx) {
  REQUIRE(element.starts_with("tile["));
  Evaluator e{element, 5, tx};
  const std::int64_t row = e.bit_or();
  REQUIRE(e.eat("]["));
  const std::int64_t col = e.bit_or();
  REQUIRE(e.eat("]"));
  REQUIRE(e.ok);
  REQUIRE(e.at == element.size());
  return row * t.pitch_bytes() + col * t.elem_bytes();
}

void check_lanes(const Study& st) {
  const Scenario& s = st.scenario;
  const Evaluation& e = st.evaluation;
  if (!e.ok()) return;
  const CodeView v = code_view(st);
  CAPTURE(describe(s));
  CAPTURE(v.element);
  if (v.element.empty()) return;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    CAPTURE(lane);
    const LaneRecord& l = e.analysis->lanes[lane];
    CHECK(v.lanes[lane].active == l.active);
    if (!l.active) continue;
    CHECK(byte_of(v.element, s.tile, lane) == l.byte);
    CHECK(v.lanes[lane].byte == l.byte);
    CHECK(v.lanes[lane].index.row * s.tile.pitch_bytes() +
              v.lanes[lane].index.col * s.tile.elem_bytes() ==
          l.byte);
  }
}

}  // namespace

TEST_CASE("every preset's code gives, lane by lane, the offsets the analysis counted") {
  for (const Preset& p : presets()) {
    CAPTURE(p.name);
    check_lanes(study(p.scenario));
  }
}

TEST_CASE("the code of every tile, swizzle, pattern and width evaluates to the analysed offsets") {
  int checked = 0;
  Study studied;  // its tile's parts are reused while only the access changes, as in the app
  for (DType d : kAllDTypes)
    for (int pad : {0, 1, 2, 4})
      for (const char* swizzle :
           {"none", "xor", "tma32", "tma64", "tma128", "cute:3,4,3", "cute:2,2,3",
            "cute-elem:2,1,3", "cute:2,2,-2", "triton:2,2,4", "triton:3,1,8", "triton:1,2,4"})
        for (int cols : {16, 32, 64})
          for (AccessPattern pattern :
               {AccessPattern::row, AccessPattern::column, AccessPattern::matrix})
            for (int index : {0, 1, 3}) {
              Scenario s;
              s.tile = {d, pattern == AccessPattern::matrix ? 8 : 32, cols, pad,
                        *parse_swizzle(swizzle)};
              s.pattern = pattern;
              s.index = index;
              s.op = pattern == AccessPattern::matrix ? Op::ldmatrix_x4 : Op::st;
              for (int width : {0, 16}) {
                s.width = pattern == AccessPattern::matrix ? 16 : width;
                studied = study(s, &studied);
                if (studied.evaluation.ok()) ++checked;
                check_lanes(studied);
              }
            }
  CHECK(checked > 200);
}

TEST_CASE("the statement is the one a kernel writer types") {
  auto code = [](const char* name) {
    const Preset* p = find_preset(name);
    REQUIRE(p != nullptr);
    return code_view(study(p->scenario));
  };
  const CodeView pad1 = code("fp32-pad1");
  CHECK(pad1.declaration == "__shared__ float tile[32][33];");
  CHECK(pad1.statement.back() == "v = tile[threadIdx.x][0];");
  CHECK(code("fp32-xor").element == "tile[threadIdx.x][5 ^ threadIdx.x]");
  CHECK(code("fp32-pad4-vec16-store").statement.back() ==
        "reinterpret_cast<float4*>(&tile[4 * threadIdx.x / 32][4 * threadIdx.x % 32])[0] = v;");
  const CodeView ldsm = code("ldmatrix-swizzled");
  CHECK(ldsm.address == "&tile[threadIdx.x % 8][((threadIdx.x / 8) ^ (threadIdx.x % 8)) * 8]");
  CHECK(ldsm.statement.front() ==
        "unsigned addr = __cvta_generic_to_shared(" + ldsm.address + ");");
  CHECK(ldsm.statement.back().find("ldmatrix.sync.aligned.m8n8.x4.shared.b16") !=
        std::string::npos);
  CHECK(code("fp32-half-warp").guard == "threadIdx.x < 16");
  CHECK(code("broadcast").element == "tile[0][0]");
  Scenario raw = find_preset("broadcast")->scenario;
  raw.tile.cols = 0;  // raw offsets analyse without a valid tile, but index none
  const CodeView no_tile = code_view(study(raw));
  CHECK(no_tile.statement.empty());
  CHECK(no_tile.note.starts_with("no statement: tile 32x0"));
  const CodeView bad = code("fp32-pad1-vec16-store");
  CHECK(bad.statement.empty());
  CHECK(bad.note.find("16-byte aligned") != std::string::npos);
  const std::string text = to_text(code("fp32-pad4"), std::vector<int>{8});
  CHECK(text.find("lane 8: threadIdx = (8, 0), tile[8][0], byte 1152, bank 0") !=
        std::string::npos);
}

TEST_CASE("the declaration is one nvcc accepts: extern above 48 KB, aligned for its fill") {
  auto code = [](const char* name) {
    const Preset* p = find_preset(name);
    REQUIRE(p != nullptr);
    return code_view(study(p->scenario));
  };
  // 132096 B: nvcc refuses it as a static array ("uses too much shared data", 0xc000 max).
  const CodeView big = code("bf16-256-pad2");
  CHECK(big.declaration == "extern __shared__ __nv_bfloat16 tile[][258];");
  CHECK(big.host == std::vector<std::string>{
                        "cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, "
                        "132096);",
                        "kernel<<<grid, block, 132096>>>(...);"});
  CHECK(to_text(big, {}).starts_with(
      "extern __shared__ __nv_bfloat16 tile[][258];\n// on the host: cudaFuncSetAttribute("));
  // 48 KB exactly is still static.
  const TileLayout at_limit{DType::fp32, 96, 128, 0, {}};
  CHECK(shared_declaration(at_limit, 4) == "__shared__ float tile[96][128];");
  const TileLayout over{DType::fp32, 97, 128, 0, {}};
  CHECK(shared_declaration(over, 4) == "extern __shared__ float tile[][128];");
  CHECK(code("fp32-pad1").host.empty());
  // What the fill needs: 16 B for float4 rows and ldmatrix, the swizzle's repeat for TMA.
  CHECK(code("fp32-pad4-vec16-store").declaration ==
        "__shared__ __align__(16) float tile[32][36];");
  CHECK(code("ldmatrix-plain").declaration ==
        "__shared__ __align__(16) __nv_bfloat16 tile[8][64];");
  CHECK(code("ldmatrix-swizzled").declaration ==
        "__shared__ __align__(1024) __nv_bfloat16 tile[8][64];");
  CHECK(code("ldmatrix-64B-tma64").declaration ==
        "__shared__ __align__(512) __nv_bfloat16 tile[8][32];");
  CHECK(code("ldmatrix-32B-tma32").declaration ==
        "__shared__ __align__(256) __nv_bfloat16 tile[8][16];");
}

}  // namespace banklab

namespace banklab {

// The other direction: kernel_code.hpp's parser (the Code panel, analyze --decl/--expr) reads
// the generated declaration and access back, lane by lane, to the analysed offsets.
TEST_CASE("every preset's generated code parses back to the preset's offsets") {
  int checked = 0;
  for (const Preset& p : presets()) {
    CAPTURE(p.name);
    const Study st = study(p.scenario);
    const Evaluation& e = st.evaluation;
    if (!e.ok()) continue;
    const CodeView v = code_view(st);
    if (v.element.empty()) continue;
    KernelParams params;
    params.op = p.scenario.op;
    std::string expr = v.element;
    if (is_matrix_op(p.scenario.op)) {
      expr = v.address;  // a bare row address, as ldmatrix takes it
    } else if (!v.vector_type.empty()) {
      expr = "reinterpret_cast<" + v.vector_type + "*>(" + v.address + ")[0]";
    }
    // The guard "threadIdx.x < n" is a block of n threads; another mask has no block to match.
    if (v.guard.starts_with("threadIdx.x < ")) {
      params.block[0] = std::stoi(v.guard.substr(14));
    } else if (!v.guard.empty()) {
      continue;
    }
    CAPTURE(v.declaration);
    CAPTURE(expr);
    const CodeSource sources[] = {{"--decl", v.declaration}, {"--expr", expr}};
    const CodeResult r = evaluate_code(sources, params);
    REQUIRE_MESSAGE(!r.error, format_code_error(*r.error, sources));
    for (int l = 0; l < kWarpSize; ++l) {
      CAPTURE(l);
      const bool active = e.analysis->access.active(l);
      CHECK(r.code->lanes[static_cast<std::size_t>(l)].active == active);
      if (active)
        CHECK(r.code->lanes[static_cast<std::size_t>(l)].byte == e.analysis->lanes[l].byte);
    }
    ++checked;
  }
  CHECK(checked >= 25);
}

}  // namespace banklab
