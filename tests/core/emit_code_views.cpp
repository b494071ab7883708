// Writes the CUDA that code_view() shows, for every preset and a sweep of tiles, and the lessons'
// whole transpose kernel, as one .cu file
// of kernels, for nvcc to compile (tests/core/CMakeLists.txt, test code_view_nvcc): what the app
// and `banklab explain` print must be code nvcc accepts, static arrays over 48 KB included.
//
//   emit_code_views OUT.cu
//
// Each kernel is the view's declaration and statement, with what the statement leaves to its
// surroundings declared first (the value a store writes, the registers of ldmatrix/stmatrix),
// and the host lines of an extern array in a host function.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "core/code/code_view.hpp"
#include "core/model/presets.hpp"

namespace banklab {
namespace {

std::vector<Scenario> scenarios() {
  std::vector<Scenario> out;
  for (const Preset& p : presets()) out.push_back(p.scenario);
  const SwizzleSpec swizzles[] = {{},
                                  {SwizzleKind::xor_columns, {}},
                                  {SwizzleKind::tma128, {}},
                                  {SwizzleKind::cute, {3, 4, 3}}};
  for (DType d : {DType::fp8, DType::bf16, DType::fp32, DType::fp64}) {
    const int cols = 128 / dtype_bytes(d);  // 128-byte rows: every swizzle above fits
    for (const SwizzleSpec& sw : swizzles)
      for (int pad : {0, 1, 2, 4})
        for (AccessPattern pat : {AccessPattern::row, AccessPattern::column})
          for (int width : {dtype_bytes(d), 16})
            for (Op op : {Op::ld, Op::st})
              out.push_back(tile_access(d, 32, cols, pad, sw, pat, op, 1, width));
  }
  // Tiles past the 48 KB of a static array, up to the 227 KB of a block.
  out.push_back(tile_access(DType::fp32, 128, 128, 1, {}, AccessPattern::column, Op::ld, 3));
  out.push_back(tile_access(DType::fp64, 113, 256, 0, {}, AccessPattern::row, Op::st, 2, 16));
  out.push_back(tile_access(DType::bf16, 256, 256, 0, {SwizzleKind::tma128, {}},
                            AccessPattern::column, Op::ld, 0));
  return out;
}

std::string kernel(const Scenario& s, const CodeView& v, int n) {
  // Each kernel in its own namespace: extern __shared__ arrays of one namespace are one entity,
  // and these differ in type.
  std::string name = "k";  // appended: GCC 12 warns falsely (-Wrestrict) on "k" + std::string
  name += std::to_string(n);
  std::string out = "// ";
  out += describe(s);
  out += "\nnamespace n" + name + " {\n__global__ void " + name + "() {\n  ";
  out += v.declaration;
  out += "\n";
  if (is_matrix_op(s.op)) {
    out += "  unsigned d0 = 0, d1 = 0, d2 = 0, d3 = 0;\n";
  } else if (!is_load(s.op)) {
    out += "  ";
    out += v.vector_type.empty() ? std::string(cuda_type_name(s.tile.dtype)) : v.vector_type;
    out += " v{};\n";
  }
  for (const std::string& line : v.statement) out += "  " + line + "\n";
  out += "}\n";
  if (!v.host.empty()) {
    // The opt-in as the view shows it, for this kernel; the launch line needs a grid.
    std::string opt_in = v.host.front();
    opt_in.replace(opt_in.find("kernel"), 6, name);
    out += "void " + name + "_host() { " + opt_in + " }\n";
  }
  return out + "}  // namespace n" + name + "\n";
}

}  // namespace
}  // namespace banklab

int main(int argc, char** argv) {
  using namespace banklab;
  if (argc != 2) {
    std::fprintf(stderr, "usage: emit_code_views OUT.cu\n");
    return 2;
  }
  std::string cu = "#include <cuda_bf16.h>\n#include <cuda_fp8.h>\n#include <cuda_runtime.h>\n\n";
  int n = 0;
  for (const Scenario& s : scenarios()) {
    const Study st = study(s);
    if (!st.evaluation.ok()) continue;
    const CodeView v = code_view(st);
    if (v.statement.empty()) continue;
    cu += kernel(s, v, n++) + "\n";
  }
  // The lesson's whole transpose kernel, for every element type, pad and the xor swizzle.
  for (DType d : {DType::fp8, DType::bf16, DType::fp32, DType::fp64}) {
    for (int pad : {0, 1, 2, 4}) {
      for (SwizzleKind k : {SwizzleKind::none, SwizzleKind::xor_columns}) {
        if (pad != 0 && k != SwizzleKind::none) continue;
        const Expected<TransposeKernel> t = transpose_kernel(TileLayout{d, 32, 32, pad, {k, {}}});
        if (!t) continue;
        cu += "namespace t" + std::to_string(n++) + " {\n";
        for (const std::string& line : t->lines) cu += line + "\n";
        cu += "}\n\n";
      }
    }
  }
  std::ofstream(argv[1]) << cu;
  std::printf("%d kernels written to %s\n", n, argv[1]);
  return n > 0 ? 0 : 1;
}
