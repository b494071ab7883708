// The CUDA behind a scenario, as text a kernel writer would type and nvcc accepts.
//
//   1. integer expressions as text, folded where they are numbers (Expr, combine)
//   2. a lane's element before and after the tile's swizzle (physical, logical, affine)
//   3. the guard and the statement of the access (guard_of, statement_of)
//   4. the public functions: type names, code_view, the whole transpose kernel, the
//      declaration (static up to 48 KB, extern above, aligned for its fill), to_text
//
// [SECTION] Expressions, folded
// [SECTION] Indices under the swizzle
// [SECTION] The access as a statement
// [SECTION] CUDA's names for types
// [SECTION] The public functions
#include "core/code/code_view.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <memory>
#include <optional>

#include "core/model/shared_limits.hpp"

namespace banklab {

namespace {

// [SECTION] Expressions, folded

// An integer expression as C++ text, folded to a number where it is one. `prec` is the C++
// precedence of its outermost operator (kAtom for a number, a name or a bracketed expression);
// `base` and `by` remember "base * by" and "base % by" so that (x * 8) / 8, (x * 8) % 8 and
// (x % 8) % 8 fold to x, 0 and x % 8.
constexpr int kAtom = 100;

struct Expr {
  std::string text;
  std::optional<std::int64_t> value;
  int prec = kAtom;
  char op = 0;
  std::shared_ptr<const Expr> base;
  std::int64_t by = 0;

  static Expr num(std::int64_t v) {
    Expr e;
    e.text = std::to_string(v);
    e.value = v;
    e.prec = v >= 0 ? kAtom : 0;
    return e;
  }
  static Expr name(std::string n) {
    Expr e;
    e.text = std::move(n);
    return e;
  }
};

int precedence(char op) {
  switch (op) {
    case '*':
    case '/':
    case '%':
      return 5;
    case '+':
    case '-':
      return 4;
    case '>':
    case '<':
      return 3;
    case '&':
      return 2;
    case '^':
      return 1;
    default:
      return 0;
  }
}

std::int64_t fold(std::int64_t a, char op, std::int64_t b) {
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      return a / b;
    case '%':
      return a % b;
    case '^':
      return a ^ b;
    case '&':
      return a & b;
    case '>':
      return a >> b;  // ">>"
    case '<':
      return a << b;  // "<<"
    default:
      return 0;
  }
}

// Arithmetic follows C++ precedence; a bitwise or shift operand that is not an atom is
// bracketed, as compilers ask (-Wparentheses) and readers need.
std::string operand(const Expr& e, char op, bool right) {
  const int p = precedence(op);
  const bool bracket = e.prec != kAtom && (p <= 3 || e.prec < p || (right && e.prec == p));
  return bracket ? "(" + e.text + ")" : e.text;
}

Expr num_of(std::int64_t v) {
  return Expr::num(v);
}

// a OP b, with the identities that keep the text short (a + 0, a * 1, a ^ 0, 0 * a, and the
// products and remainders above).
Expr combine(const Expr& a, char op, const Expr& b) {
  if (a.value && b.value) return Expr::num(fold(*a.value, op, *b.value));
  const bool b0 = b.value == 0, b1 = b.value == 1, a0 = a.value == 0, a1 = a.value == 1;
  if ((op == '+' || op == '^' || op == '-' || op == '>') && b0) return a;
  if ((op == '+' || op == '^') && a0) return b;
  if ((op == '*' || op == '/') && b1) return a;
  if (op == '*' && a1) return b;
  if ((op == '*' && (a0 || b0)) || (op == '%' && b1) || (op == '&' && (a0 || b0)))
    return Expr::num(0);
  if (op == '*' && b.value && a.op == '*' && a.base)
    return combine(*a.base, '*', num_of(a.by * *b.value));
  if (b.value && a.base && a.by == *b.value) {
    if (a.op == '*' && op == '/') return *a.base;
    if (a.op == '*' && op == '%') return Expr::num(0);
    if (a.op == '%' && op == '%') return a;
  }
  const std::string sym = op == '>' ? ">>" : op == '<' ? "<<" : std::string(1, op);
  Expr out;
  out.text = operand(a, op, false) + " " + sym + " " + operand(b, op, true);
  out.prec = precedence(op);
  out.op = op;
  if ((op == '*' || op == '%') && b.value) {
    out.base = std::make_shared<const Expr>(a);
    out.by = *b.value;
  }
  return out;
}

Expr num(std::int64_t v) {
  return Expr::num(v);
}

// [SECTION] Indices under the swizzle

// The physical [row][col] of logical element (r, c) under the tile's swizzle. `r_below_cols`:
// r is known to stay below C, so c ^ (r mod C) is c ^ r.
// A lane of k > 1 elements addresses the lowest byte of its (contiguous, aligned) block, where
// the swizzle may have moved its first element: for XOR that clears the low bits of r mod C,
// for a byte swizzle the low bits of the swizzled byte.
std::pair<Expr, Expr> physical(const TileLayout& t, const Expr& r, const Expr& c, bool r_below_cols,
                               int k) {
  const int e = t.elem_bytes();
  const SwizzleKindInfo& kind = swizzle_kind(t.swizzle.kind);
  if (kind.moves == SwizzleMoves::nothing) return {r, c};
  if (kind.column_xor_form == ColumnXorForm::row_mod_columns) {
    const Expr rr = r_below_cols ? r : combine(r, '%', num(t.cols));
    return {r, combine(c, '^', k > 1 ? combine(combine(rr, '/', num(k)), '*', num(k)) : rr)};
  }
  if (kind.column_xor_form == ColumnXorForm::row_bit_basis) {
    // The column XOR is linear over the row's bits (swizzle.hpp): row bit k adds
    // column_xor(2^k) when set, so the XOR of those terms is the row's whole column XOR.
    std::optional<Expr> x;
    for (int bit = 0; (1 << bit) < t.rows; ++bit) {
      const int basis = t.swizzle.column_xor(1 << bit, t.cols);
      if (basis == 0) continue;
      const Expr term = combine(combine(combine(r, '>', num(bit)), '&', num(1)), '*', num(basis));
      x = x ? combine(*x, '^', term) : term;
    }
    if (!x) return {r, c};
    if (k > 1) x = combine(combine(*x, '/', num(k)), '*', num(k));
    return {r, combine(c, '^', *x)};
  }
  if (const int span = kind.tma_span_bytes; span != 0) {
    // TMA rows are one span long (TileLayout::check): the XORed bits 7.. are row bits, the
    // row's chunk XOR (r / (128 / span)) mod (span / chunk), chunks of 16 bytes (32 or 64 for
    // Blackwell's atoms).
    const int chunk = kind.tma_chunk_bytes;
    const int per_chunk = chunk / e;
    const Expr q = combine(c, '/', num(per_chunk)), w = combine(c, '%', num(per_chunk));
    const Expr row_phase = span == 128 ? r : combine(r, '/', num(128 / span));
    const Expr f = combine(row_phase, '%', num(span / chunk));
    return {r, combine(combine(combine(q, '^', f), '*', num(per_chunk)), '+', w)};
  }
  // Any other byte swizzle: the offset through x ^ ((x & yyy_mask) >> S).
  const Swizzle z = t.byte_swizzle();
  const Expr pitch = num(t.pitch_bytes());
  const Expr o = combine(combine(r, '*', pitch), '+', combine(c, '*', num(e)));
  const Expr masked = combine(o, '&', num(z.yyy_mask()));
  // A negative shift moves the bits up (CuTe's Swizzle<2,0,-2>).
  const Expr moved =
      z.shift >= 0 ? combine(masked, '>', num(z.shift)) : combine(masked, '<', num(-z.shift));
  Expr swizzled = combine(o, '^', moved);
  if (k > 1 && (1 << z.base) < k * e)
    swizzled = combine(combine(swizzled, '/', num(k * e)), '*', num(k * e));
  return {combine(swizzled, '/', pitch), combine(combine(swizzled, '%', pitch), '/', num(e))};
}

// [SECTION] The access as a statement

// Offsets a + b * lane over every active lane, for raw offsets: the one expression they have.
std::optional<std::pair<std::int64_t, std::int64_t>> affine(const WarpAccess& a) {
  int first = -1;
  std::optional<std::int64_t> step;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!a.active(lane)) continue;
    if (first < 0) {
      first = lane;
    } else {
      const std::int64_t d = a.offsets[lane] - a.offsets[first];
      if (d % (lane - first) != 0) return std::nullopt;
      if (!step) step = d / (lane - first);
      if (d != *step * (lane - first)) return std::nullopt;
    }
  }
  if (first < 0) return std::nullopt;
  const std::int64_t b = step.value_or(0);
  return std::pair{a.offsets[first] - b * first, b};
}

// The logical (r, c) of a lane's first element as expressions over threadIdx.x.
std::optional<std::pair<Expr, Expr>> logical(const Scenario& s, const WarpAccess& access) {
  const TileLayout& t = s.tile;
  const Expr tx = Expr::name("threadIdx.x");
  const int k = std::max(1, s.elements_per_lane());
  switch (s.pattern) {
    case AccessPattern::column:
      return std::pair{tx, num(std::int64_t{s.index} * k)};
    case AccessPattern::row: {
      const Expr pos = combine(num(k), '*', tx);
      if (std::int64_t{k} * (kWarpSize - 1) < t.cols) return std::pair{num(s.index), pos};
      return std::pair{combine(num(s.index), '+', combine(pos, '/', num(t.cols))),
                       combine(pos, '%', num(t.cols))};
    }
    case AccessPattern::matrix:
      return std::pair{combine(tx, '%', num(8)),
                       combine(combine(num(s.index), '+', combine(tx, '/', num(8))), '*',
                               num(16 / t.elem_bytes()))};
    case AccessPattern::raw: {
      const auto ab = affine(access);
      if (!ab) return std::nullopt;
      const Expr byte = combine(num(ab->first), '+', combine(num(ab->second), '*', tx));
      const Expr pitch = num(t.pitch_bytes());
      return std::pair{combine(byte, '/', pitch),
                       combine(combine(byte, '%', pitch), '/', num(t.elem_bytes()))};
    }
  }
  return std::nullopt;
}

// "threadIdx.x < 16" for the lanes 0..n-1, "(0x00ff00ff >> threadIdx.x & 1)" otherwise.
std::string guard_of(std::uint32_t active) {
  if (active == 0xFFFFFFFFu) return "";
  if (std::has_single_bit(std::uint64_t{active} + 1))
    return "threadIdx.x < " + std::to_string(std::popcount(active));
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%08x", active);
  std::string guard(1, '(');  // appended: GCC 12 warns falsely (-Wrestrict) on "(" + ...
  guard += hex;
  guard += " >> threadIdx.x & 1)";
  return guard;
}

std::vector<std::string> statement_of(const Scenario& s, const CodeView& v) {
  const Op op = s.op;
  const std::string pre = v.guard.empty() ? "" : "if (" + v.guard + ") ";
  if (is_matrix_op(op)) {
    const int n = matrix_count(op);
    std::string regs, outs;
    for (int i = 0; i < n; ++i) {
      regs += (i ? ", %" : "%") + std::to_string(op == Op::stmatrix_x4 ? i + 1 : i);
      outs += std::string(i ? ", " : "") + "\"r\"(d" + std::to_string(i) + ")";
    }
    const std::string shape = "m8n8.x" + std::to_string(n) + ".shared.b16";
    std::string asm_line;
    if (op == Op::stmatrix_x4) {
      asm_line = "asm volatile(\"stmatrix.sync.aligned." + shape + " [%0], {" + regs +
                 "};\" :: \"r\"(addr), " + outs + ");";
    } else {
      std::string eq = outs;
      for (std::size_t at = eq.find("\"r\""); at != std::string::npos;
           at = eq.find("\"r\"", at + 4))
        eq.replace(at, 3, "\"=r\"");
      asm_line = "asm volatile(\"ldmatrix.sync.aligned." + shape + " {" + regs + "}, [%" +
                 std::to_string(n) + "];\" : " + eq + " : \"r\"(addr));";
    }
    return {"unsigned addr = __cvta_generic_to_shared(" + v.address + ");", pre + asm_line};
  }
  const std::string access = v.vector_type.empty()
                                 ? v.element
                                 : "reinterpret_cast<" + v.vector_type + "*>(" + v.address + ")[0]";
  const std::string type =
      v.vector_type.empty() ? std::string(cuda_type_name(s.tile.dtype)) : v.vector_type;
  if (is_load(op)) return {type + " v;", pre + "v = " + access + ";"};
  return {pre + access + " = v;"};
}

}  // namespace

// [SECTION] CUDA's names for types

std::string_view cuda_type_name(DType t) {
  return dtype_info(t).cuda_name;
}

std::string_view vector_type_name(int width) {
  switch (width) {
    case 1:
      return "unsigned char";
    case 2:
      return "unsigned short";
    case 4:
      return "unsigned";
    case 8:
      return "float2";
    case 16:
      return "float4";
    default:
      return "";
  }
}

// [SECTION] The public functions

std::string scenario_declaration(const Scenario& s, std::vector<std::string>* host) {
  const TileLayout& t = s.tile;
  // TMA writes a swizzled tile to an address aligned to the swizzle's repeat; a vector access
  // needs its width. Raw offsets and the tile's own alignment need nothing more.
  int align = std::max(s.pattern == AccessPattern::raw ? 0 : s.effective_width(),
                       t.swizzle.is_tma() ? t.swizzle.tma_alignment_bytes() : 0);
  if (is_matrix_op(s.op) && !t.swizzle.is_tma()) align = 16;
  return shared_declaration(t, align, host);
}

CodeView code_view(const Study& st) {
  const Scenario& s = st.scenario;
  const Evaluation& e = st.evaluation;
  CodeView v;
  const TileLayout& t = s.tile;
  v.declaration = scenario_declaration(s, &v.host);
  if (!e.ok()) {
    v.note = "no statement: the scenario breaks a rule (" + first_error(e.diagnostics) + ")";
    return v;
  }
  // Raw offsets analyse without a tile; their expression indexes the tile, so it must be one.
  if (const Expected<void> valid = t.check(); !valid) {
    v.note = "no statement: " + valid.error();
    return v;
  }
  const Analysis& a = *e.analysis;
  const auto rc = logical(s, a.access);
  if (!rc) {
    v.note = "no statement: the 32 raw offsets follow no single stride";
    return v;
  }
  const bool raw = s.pattern == AccessPattern::raw;
  const bool r_below_cols = s.pattern == AccessPattern::matrix ||
                            (s.pattern == AccessPattern::column && t.rows <= t.cols);
  const auto [row, col] =
      raw ? *rc : physical(t, rc->first, rc->second, r_below_cols, s.elements_per_lane());
  v.element = "tile[" + row.text + "][" + col.text + "]";
  v.address = "&" + v.element;
  const int width = a.access.width;
  if (!is_matrix_op(s.op) && width != t.elem_bytes())
    v.vector_type = std::string(vector_type_name(width));
  std::uint32_t active = 0;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const LaneRecord& l = a.lanes[lane];
    CodeLane& c = v.lanes[lane];
    c.lane = c.thread_x = lane;
    c.active = l.active;
    if (!l.active) continue;
    active |= 1u << lane;
    c.byte = l.byte;
    c.bank = l.banks[0];
    c.index = {static_cast<int>(l.byte / t.pitch_bytes()),
               static_cast<int>(l.byte % t.pitch_bytes() / t.elem_bytes())};
  }
  // ldmatrix ignores the lanes beyond its matrices: they need no guard.
  if (is_matrix_op(s.op) && matrix_count(s.op) < 4) active |= ~0u << (8 * matrix_count(s.op));
  v.guard = guard_of(active);
  v.statement = statement_of(s, v);
  return v;
}

Expected<TransposeKernel> transpose_kernel(const TileLayout& t) {
  if (t.rows != kWarpSize || t.cols != kWarpSize)
    return Error{"the transpose kernel is written for a 32 x 32 tile, not " + to_string(t)};
  if (const Expected<void> valid = t.check(); !valid) return Error{valid.error()};
  const Expr j = Expr::name("j"), x = Expr::name("threadIdx.x");
  const auto [wr, wc] = physical(t, j, x, true, 1);
  const auto [rr, rc] = physical(t, x, j, true, 1);
  TransposeKernel k;
  k.write_element = "tile[" + wr.text + "][" + wc.text + "]";
  k.read_element = "tile[" + rr.text + "][" + rc.text + "]";
  const std::string type(cuda_type_name(t.dtype));
  const std::string rows = std::to_string(kTransposeBlockRows);
  // Short lines: a lesson shows them in a narrow panel.
  k.lines = {
      "// blockDim = (32, " + rows + "): warp threadIdx.y takes rows j = threadIdx.y, +" + rows +
          ", ...",
      "__global__ void transpose(const " + type + "* __restrict__ in,",
      "                          " + type + "* __restrict__ out, int rows, int cols) {",
      "  " + shared_declaration(t, 0),
      "  int x = blockIdx.x * 32 + threadIdx.x;",
      "  for (int j = threadIdx.y; j < 32; j += blockDim.y) {",
      "    int y = blockIdx.y * 32 + j;",
      "    if (x < cols && y < rows)",
      "      " + k.write_element + " = in[(size_t)y * cols + x];",
      "  }",
      "  __syncthreads();",
      "  x = blockIdx.y * 32 + threadIdx.x;",
      "  for (int j = threadIdx.y; j < 32; j += blockDim.y) {",
      "    int y = blockIdx.x * 32 + j;",
      "    if (x < rows && y < cols)",
      "      out[(size_t)y * rows + x] = " + k.read_element + ";",
      "  }",
      "}",
  };
  return k;
}

std::string shared_declaration(const TileLayout& t, int align, std::vector<std::string>* host) {
  const std::int64_t bytes = t.size_bytes();
  const bool is_extern = declaration_for(bytes) == SharedDeclaration::extern_array;
  std::string out = is_extern ? "extern __shared__ " : "__shared__ ";
  if (align > t.elem_bytes()) out += "__align__(" + std::to_string(align) + ") ";
  out += std::string(cuda_type_name(t.dtype)) + " tile[";
  if (!is_extern) out += std::to_string(t.rows);
  out += "][" + std::to_string(t.slots_per_row()) + "];";
  if (is_extern && host) {
    *host = {opt_in_line(bytes), "kernel<<<grid, block, " + std::to_string(bytes) + ">>>(...);"};
  }
  return out;
}

std::string to_text(const CodeView& v, std::span<const int> lanes) {
  std::string out = v.declaration + "\n";
  for (const std::string& line : v.host) out += "// on the host: " + line + "\n";
  for (const std::string& line : v.statement) out += line + "\n";
  if (!v.note.empty()) out += "// " + v.note + "\n";
  if (v.statement.empty()) return out;
  for (int lane : lanes) {
    if (lane < 0 || lane >= kWarpSize) continue;
    const CodeLane& c = v.lanes[lane];
    out += "lane " + std::to_string(lane) + ": threadIdx = (" + std::to_string(c.thread_x) + ", " +
           std::to_string(c.thread_y) + ")";
    if (!c.active) {
      out += ", no access\n";
      continue;
    }
    out += ", tile[" + std::to_string(c.index.row) + "][" + std::to_string(c.index.col) +
           "], byte " + std::to_string(c.byte) + ", bank " + std::to_string(c.bank) + "\n";
  }
  return out;
}

}  // namespace banklab
