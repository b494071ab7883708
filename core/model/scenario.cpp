#include "core/model/scenario.hpp"

#include <algorithm>
#include <bit>
#include <climits>
#include <map>
#include <ostream>
#include <sstream>

#include "core/model/shared_limits.hpp"

namespace banklab {

std::string_view pattern_name(AccessPattern p) {
  return access_pattern(p).name;
}

std::ostream& operator<<(std::ostream& os, AccessPattern p) {
  return os << pattern_name(p);
}

int Scenario::effective_width() const {
  if (pattern == AccessPattern::matrix) return 16;
  if (width > 0) return width;
  return pattern == AccessPattern::raw ? 4 : tile.elem_bytes();
}

int Scenario::elements_per_lane() const {
  if (pattern == AccessPattern::raw) return 0;
  return effective_width() / tile.elem_bytes();
}

// [SECTION] The access patterns: one descriptor each

namespace {

std::string dtype_text(const Scenario& s) {
  return std::string(dtype_name(s.tile.dtype));
}

// row --index N: lane L takes the k elements at row-major position N*C + L*k onward.
Expected<void> check_row_index(const Scenario& s, int) {
  const TileLayout& t = s.tile;
  if (s.index < 0 || s.index >= t.rows) {
    return Error{"row index " + std::to_string(s.index) + " is outside the tile: rows are 0.." +
                 std::to_string(t.rows - 1)};
  }
  return {};
}

std::optional<Cell> row_lane_first(const Scenario& s, int lane, int k) {
  const TileLayout& t = s.tile;
  const std::int64_t pos = std::int64_t{s.index} * t.cols + std::int64_t{lane} * k;
  if (pos + k > std::int64_t{t.rows} * t.cols) return std::nullopt;  // past the tile
  return Cell{static_cast<int>(pos / t.cols), static_cast<int>(pos % t.cols)};
}

int row_last_index(const Scenario& s, int k) {
  const TileLayout& t = s.tile;
  // The warp's k*32 elements start at N*C and must end inside the tile.
  if (t.rows < 1 || t.cols < 1) return 0;  // not a tile: the core says why
  const std::int64_t last_start = std::int64_t{t.rows} * t.cols - std::int64_t{kWarpSize} * k;
  return last_start < 0 ? 0 : static_cast<int>(last_start / t.cols);
}

// column --index N: lane L takes elements (L, N*k ... N*k + k - 1).
Expected<void> check_column_index(const Scenario& s, int k) {
  const TileLayout& t = s.tile;
  if (s.index < 0 || (std::int64_t{s.index} + 1) * k > t.cols) {  // 64-bit: index may be INT_MAX
    return Error{"column index " + std::to_string(s.index) + " is outside the tile: with " +
                 std::to_string(k) + " " + dtype_text(s) + " per lane (" +
                 std::to_string(s.effective_width()) + " B) the indices are 0.." +
                 std::to_string(t.cols / k - 1) + " for " + std::to_string(t.cols) + " columns"};
  }
  return {};
}

std::optional<Cell> column_lane_first(const Scenario& s, int lane, int k) {
  if (lane >= s.tile.rows) return std::nullopt;  // the tile has no row for it
  return Cell{lane, s.index * k};
}

int column_last_index(const Scenario& s, int k) {
  // cols may be anything a user typed, INT_MIN included.
  return static_cast<int>(std::max<std::int64_t>(0, std::int64_t{s.tile.cols} / k - 1));
}

// matrix --index N: lanes 8m..8m+7 address 16-byte chunk N+m of rows 0..7.
Expected<void> check_matrix_index(const Scenario& s, int) {
  const TileLayout& t = s.tile;
  const int matrices = matrix_count(s.op);
  const std::int64_t chunks = std::int64_t{t.cols} * t.elem_bytes() / 16;
  if (t.rows < 8) {
    return Error{std::string(op_name(s.op)) + " reads 8 rows per matrix; the tile has " +
                 std::to_string(t.rows)};
  }
  if (s.index < 0 || std::int64_t{s.index} + matrices > chunks) {  // 64-bit: index may be INT_MAX
    return Error{std::string(op_name(s.op)) + " at chunk " + std::to_string(s.index) +
                 " needs 16-byte chunks " + std::to_string(s.index) + ".." +
                 std::to_string(std::int64_t{s.index} + matrices - 1) +
                 " of each row, but a row of " + std::to_string(t.cols) + " " + dtype_text(s) +
                 " holds " + std::to_string(chunks) + " chunks"};
  }
  return {};
}

std::optional<Cell> matrix_lane_first(const Scenario& s, int lane, int) {
  if (lane >= 8 * matrix_count(s.op)) return std::nullopt;  // beyond the op's matrices
  return Cell{lane % 8, (s.index + lane / 8) * 16 / s.tile.elem_bytes()};
}

int matrix_last_index(const Scenario& s, int) {
  const int chunks = static_cast<int>(std::int64_t{s.tile.cols} * s.tile.elem_bytes() / 16);
  return std::max(0, chunks - std::max(1, matrix_count(s.op)));
}

// The raw form: 32 explicit byte offsets, no tile element and no index.
Expected<void> no_index_rule(const Scenario&, int) {
  return {};
}

std::optional<Cell> no_lane_element(const Scenario&, int, int) {
  return std::nullopt;
}

int no_last_index(const Scenario&, int) {
  return 0;
}

constexpr AccessPatternInfo kPatterns[] = {
    {AccessPattern::row, "row", "row", "row", check_row_index, row_lane_first, row_last_index},
    {AccessPattern::column, "column", "column", "column", check_column_index, column_lane_first,
     column_last_index},
    {AccessPattern::matrix, "matrix", "ldmatrix/stmatrix", "16-byte chunk", check_matrix_index,
     matrix_lane_first, matrix_last_index},
    // The raw form. Its name stays "custom": it is promised output (the JSON's "access", the
    // scenario files' comment line, describe()'s "custom offsets", scripts/golden-outputs.sh),
    // and read back as such; the GUI, the help and the errors call it the raw form.
    {AccessPattern::raw, "custom", "raw offsets", "", no_index_rule, no_lane_element,
     no_last_index},
};

// The table covers the enum, in its order, so that a pattern indexes its descriptor.
static_assert([] {
  for (std::size_t i = 0; i < std::size(kPatterns); ++i)
    if (static_cast<std::size_t>(kPatterns[i].pattern) != i) return false;
  return static_cast<std::size_t>(AccessPattern::raw) + 1 == std::size(kPatterns);
}());

}  // namespace

const AccessPatternInfo& access_pattern(AccessPattern p) {
  return kPatterns[static_cast<std::size_t>(p)];
}

std::span<const AccessPatternInfo> access_patterns() {
  return kPatterns;
}

// [SECTION] Checking a scenario and placing its lanes

namespace {

// Lane errors of one kind usually hit many lanes at once (a misaligned pitch misaligns every
// other row); the first lane tells the story, the count says how widespread it is.
void add_lane_errors(std::vector<Diagnostic>* out, const std::vector<Diagnostic>& lane_errors) {
  std::map<std::string, std::pair<Diagnostic, int>> first_by_rule;
  std::vector<std::string> order;
  for (const Diagnostic& d : lane_errors) {
    auto [it, inserted] = first_by_rule.try_emplace(d.rule, d, 0);
    if (inserted) order.push_back(d.rule);
    ++it->second.second;
  }
  for (const std::string& rule : order) {
    auto [d, count] = first_by_rule[rule];
    if (count > 1) d.message += " (and " + std::to_string(count - 1) + " more lanes)";
    out->push_back(std::move(d));
  }
}

std::string cell_text(Cell c) {
  std::string text = "(";
  text += std::to_string(c.row);
  text += ", ";
  text += std::to_string(c.col);
  text += ')';
  return text;
}

// "element (1, 0)" or "its 4 elements from (1, 0)", for the lane diagnostics.
std::string elements_text(Cell first, int k) {
  if (k == 1) return "element " + cell_text(first);
  return "its " + std::to_string(k) + " elements from " + cell_text(first);
}

// Checks that the scenario's choices fit together before any address is computed.
Expected<void> check_choices(const Scenario& s) {
  const TileLayout& t = s.tile;
  const int e = t.elem_bytes();
  const int width = s.effective_width();
  const std::string dtype(dtype_name(t.dtype));
  if (s.pattern == AccessPattern::matrix) {
    if (!is_matrix_op(s.op)) {
      return Error{"the matrix pattern is executed by ldmatrix.x1/.x2/.x4 or stmatrix.x4, not by " +
                   std::string(op_name(s.op))};
    }
  } else if (is_matrix_op(s.op)) {
    return Error{std::string(op_name(s.op)) +
                 " takes the matrix access pattern (lanes give row addresses"
                 " of 8x8 matrices), not the " +
                 std::string(pattern_name(s.pattern)) + " pattern"};
  }
  if (width != 1 && width != 2 && width != 4 && width != 8 && width != 16) {
    return Error{"a lane accesses 1, 2, 4, 8 or 16 bytes; " + std::to_string(width) +
                 " is not an access width the hardware has"};
  }
  if (width < e) {
    return Error{"a " + std::to_string(width) + "-byte access cannot hold one " +
                 std::to_string(e) + "-byte " + dtype + " element; use a width of at least " +
                 std::to_string(e)};
  }
  return access_pattern(s.pattern).check_index(s, width / e);
}

}  // namespace

LaneBlock lane_block(const TileLayout& t, Cell first, int k) {
  return lane_block_of([&t](int r, int c) { return t(r, c); }, t.cols, t.elem_bytes(), first, k);
}

Expected<WarpAccess> build_access(const Scenario& s, std::array<LaneElements, kWarpSize>* elements,
                                  std::vector<Diagnostic>* diagnostics) {
  std::array<LaneElements, kWarpSize> lane_elements{};
  std::vector<Diagnostic> diags;
  auto fail = [&](std::string rule, std::string message) -> Expected<WarpAccess> {
    diags.push_back({Severity::error, std::move(rule), message, -1});
    if (diagnostics) *diagnostics = std::move(diags);
    if (elements) *elements = lane_elements;
    return Error{std::move(message)};
  };

  WarpAccess access;
  access.op = s.op;
  access.width = s.effective_width();
  access.offsets.fill(kInactiveLane);

  if (s.pattern == AccessPattern::raw) {
    for (int lane = 0; lane < kWarpSize; ++lane)
      if (s.lane_mask >> lane & 1u) access.offsets[lane] = s.raw_offsets[lane];
  } else {
    if (const Expected<void> valid = s.tile.check(); !valid) return fail("tile", valid.error());
    if (const Expected<void> fit = check_choices(s); !fit) return fail("choice", fit.error());
    // A tile above 48 KB is legal only as an extern array: the code shows that form, and the
    // note says why (a static declaration of it is what nvcc refuses).
    if (!shared_bytes_fit(s.tile.size_bytes(), SharedDeclaration::static_array)) {
      diags.push_back({Severity::note, "static-limit",
                       check_shared_bytes(s.tile.size_bytes(), SharedDeclaration::static_array,
                                          to_string(s.tile))
                           .error(),
                       -1});
    }
    const TileLayout& t = s.tile;
    const int k = s.elements_per_lane();
    std::vector<Diagnostic> lane_errors;
    bool permuted_note = false;
    const AccessPatternInfo& pattern = access_pattern(s.pattern);
    for (int lane = 0; lane < kWarpSize; ++lane) {
      if (!(s.lane_mask >> lane & 1u)) continue;
      const std::optional<Cell> placed = pattern.lane_first(s, lane, k);
      if (!placed) continue;  // past the tile, or beyond the op's matrices: idle
      const Cell first = *placed;
      lane_elements[lane] = {first, k};
      const LaneBlock block = lane_block(t, first, k);
      const std::int64_t lowest = block.lowest;
      if (!block.contiguous) {
        lane_errors.push_back({Severity::error, "contiguity",
                               "lane " + std::to_string(lane) + ": " + elements_text(first, k) +
                                   (k == 1 ? " does" : " do") + " not form one contiguous " +
                                   std::to_string(access.width) + "-byte block in " + to_string(t) +
                                   " (padding or the swizzle separates them), so one " +
                                   std::to_string(access.width) + "-byte access cannot move them",
                               lane});
        continue;
      }
      if (lowest % access.width != 0) {
        lane_errors.push_back({Severity::error, "alignment",
                               "lane " + std::to_string(lane) + ": a " +
                                   std::to_string(access.width) + "-byte access must be " +
                                   std::to_string(access.width) + "-byte aligned, but " +
                                   elements_text(first, k) + (k == 1 ? " starts" : " start") +
                                   " at byte " + std::to_string(lowest) + " of " + to_string(t) +
                                   ", whose rows are " + std::to_string(t.pitch_bytes()) + " B",
                               lane});
        continue;
      }
      if (!block.in_order && !permuted_note) {
        permuted_note = true;
        diags.push_back({Severity::note, "permuted",
                         "the swizzle permutes the elements inside lane " + std::to_string(lane) +
                             "'s " + std::to_string(access.width) +
                             "-byte block: the banks are as shown, but a kernel must reorder "
                             "the elements in registers",
                         lane});
      }
      access.offsets[lane] = lowest;
    }
    if (!lane_errors.empty()) {
      std::vector<Diagnostic> grouped;
      add_lane_errors(&grouped, lane_errors);
      diags.insert(diags.begin(), grouped.begin(), grouped.end());
      std::string message = grouped.front().message;
      if (diagnostics) *diagnostics = std::move(diags);
      if (elements) *elements = lane_elements;
      return Error{std::move(message)};
    }
  }
  std::vector<Diagnostic> access_diags = check_access(access);
  diags.insert(diags.end(), access_diags.begin(), access_diags.end());
  const bool bad = has_error(diags);
  std::string message = first_error(diags);
  if (diagnostics) *diagnostics = std::move(diags);
  if (elements) *elements = lane_elements;
  if (bad) return Error{std::move(message)};
  return access;
}

Evaluation evaluate(const Scenario& s) {
  Evaluation e;
  Expected<WarpAccess> access = build_access(s, &e.elements, &e.diagnostics);
  if (access) e.analysis = analyze(*access);
  return e;
}

std::string describe(const Scenario& s) {
  std::ostringstream os;
  if (s.pattern == AccessPattern::raw) {  // "custom": promised output (kPatterns)
    os << "custom offsets, " << op_name(s.op) << " " << s.effective_width() << " B per lane";
  } else {
    os << to_string(s.tile) << ", ";
    os << access_pattern(s.pattern).index_noun << " " << s.index;
    os << ", " << op_name(s.op);
    if (!is_matrix_op(s.op)) os << " " << s.effective_width() << " B per lane";
  }
  if (s.lane_mask != 0xFFFFFFFFu) {
    os << ", " << std::popcount(s.lane_mask) << " of 32 lanes on";
  }
  return os.str();
}

std::ostream& operator<<(std::ostream& os, const Scenario& s) {
  return os << describe(s);
}

std::vector<std::uint8_t> tile_bank_map(const TileLayout& t) {
  std::vector<std::uint8_t> banks;
  if (!t.check()) return banks;
  banks.resize(static_cast<std::size_t>(t.rows) * static_cast<std::size_t>(t.cols));
  std::size_t i = 0;
  for (int r = 0; r < t.rows; ++r)
    for (int c = 0; c < t.cols; ++c) banks[i++] = static_cast<std::uint8_t>(t.bank(r, c));
  return banks;
}

Scenario tile_access(DType dtype, int rows, int cols, int pad, SwizzleSpec swizzle,
                     AccessPattern pattern, Op op, int index, int width) {
  Scenario s;
  s.tile = {dtype, rows, cols, pad, swizzle};
  s.pattern = pattern;
  s.op = op;
  s.index = index;
  s.width = width;
  return s;
}

}  // namespace banklab
