// Nsight Compute's Source page beside the scan (ncu_source.hpp).
//
// [SECTION] Reading the CSV
// [SECTION] Comparing, line by line
#include "core/code/ncu_source.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

namespace banklab {
namespace {

// [SECTION] Reading the CSV

// The fields of one row: "a","b",...,"z" (a trailing comma allowed), split at '","'. With
// `columns` given, a row with more pieces gives the surplus back to field `text_field` (the
// source text, whose quotes ncu does not escape).
std::vector<std::string> split_row(std::string_view row, std::size_t columns,
                                   std::size_t text_field) {
  while (!row.empty() && (row.back() == '\r' || row.back() == ',')) row.remove_suffix(1);
  if (row.size() >= 2 && row.front() == '"' && row.back() == '"')
    row = row.substr(1, row.size() - 2);
  std::vector<std::string> fields;
  std::size_t from = 0;
  while (true) {
    const std::size_t sep = row.find("\",\"", from);
    fields.emplace_back(row.substr(from, sep == std::string_view::npos ? sep : sep - from));
    if (sep == std::string_view::npos) break;
    from = sep + 3;
  }
  if (columns > 0 && fields.size() > columns && text_field < fields.size()) {
    const std::size_t surplus = fields.size() - columns;
    for (std::size_t i = 0; i < surplus; ++i)
      fields[text_field] += "\",\"" + fields[text_field + 1 + i];
    fields.erase(fields.begin() + static_cast<std::ptrdiff_t>(text_field + 1),
                 fields.begin() + static_cast<std::ptrdiff_t>(text_field + 1 + surplus));
  }
  return fields;
}

std::int64_t parse_number(const std::string& field) {
  std::int64_t v = 0;
  std::string digits;
  for (char c : field)
    if (c != ',' && c != ' ') digits += c;  // 1,024 in some exports
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  return ec == std::errc() && end == digits.data() + digits.size() ? v : 0;
}

// A count of the CSV (a line number, instructions, wavefronts): a number from `low` to
// INT32_MAX (a line of the scanned file is an int; no count of one kernel's line comes near),
// else why not, naming the CSV's line.
Expected<std::int64_t> count_in(const std::string& field, const char* column, std::int64_t low,
                                std::size_t csv_line) {
  const std::int64_t v = parse_number(field);
  if ((v == 0 && field.find_first_not_of("0, ") != std::string::npos) || v < low || v > INT32_MAX) {
    return Error{"line " + std::to_string(csv_line) + " of the CSV: \"" + column + "\" is " +
                 (field.size() > 40 ? field.substr(0, 40) + "..." : field) + ", not a count from " +
                 std::to_string(low) + " to " + std::to_string(INT32_MAX)};
  }
  return v;
}

// A statement over several lines whose accesses Nsight Compute counts on other lines of it than
// the scan: where the statement's totals agree, its lines agree, and say so.
void match_statements(const KernelScan& scan, std::map<int, LineComparison>& by_line) {
  std::set<std::pair<int, int>> spans;
  for (const ScanLine& l : scan.lines) {
    const auto x = by_line.find(l.line);
    if (l.statement_first < l.statement_last && x != by_line.end() && !x->second.agrees)
      spans.emplace(l.statement_first, l.statement_last);
  }
  for (const auto& [first, last] : spans) {
    LineComparison sum;
    bool evaluated = true;
    for (auto it = by_line.lower_bound(first); it != by_line.end() && it->first <= last; ++it) {
      const LineComparison& x = it->second;
      evaluated = evaluated && !x.explanation.starts_with("not evaluated: ");
      sum.predicted_wavefronts += x.predicted_wavefronts;
      sum.predicted_ideal += x.predicted_ideal;
      sum.predicted_excess += x.predicted_excess;
      sum.measured_wavefronts += x.measured_wavefronts;
      sum.measured_ideal += x.measured_ideal;
      sum.measured_excess += x.measured_excess;
    }
    if (!evaluated || sum.predicted_wavefronts != sum.measured_wavefronts ||
        sum.predicted_ideal != sum.measured_ideal || sum.predicted_excess != sum.measured_excess)
      continue;
    for (auto it = by_line.lower_bound(first); it != by_line.end() && it->first <= last; ++it) {
      LineComparison& x = it->second;
      if (x.agrees) continue;
      x.agrees = true;
      x.explanation = "one statement over lines " + std::to_string(first) + "-" +
                      std::to_string(last) +
                      ": Nsight Compute counts its accesses on another of its lines; the "
                      "statement's totals agree";
    }
  }
}

}  // namespace

std::string kernel_base_name(std::string_view function) {
  std::string name(function.substr(0, function.find('(')));
  if (name.ends_with('>')) {
    int depth = 0;
    for (std::size_t i = name.size(); i-- > 0;) {
      depth += name[i] == '>' ? 1 : name[i] == '<' ? -1 : 0;
      if (depth == 0) {
        name.resize(i);
        break;
      }
    }
  }
  if (const std::size_t space = name.rfind(' '); space != std::string::npos)
    name.erase(0, space + 1);
  return name;
}

std::string MeasuredKernel::name() const {
  return kernel_base_name(function);
}

Expected<std::vector<MeasuredKernel>> parse_ncu_source_csv(std::string_view csv) {
  if (csv.size() > kMaxNcuCsvBytes) {
    return Error{"the CSV has " + std::to_string(csv.size()) + " bytes, more than the " +
                 std::to_string(kMaxNcuCsvBytes >> 20) +
                 " MB of a source page of one kernel; profile the kernel alone (-k KERNEL -c 1)"};
  }
  std::vector<MeasuredKernel> kernels;
  MeasuredFile* file = nullptr;
  std::string path;
  std::vector<std::string> header;
  std::map<std::string, std::size_t> column;
  std::size_t line_number = 0;
  while (!csv.empty()) {
    const std::size_t end = csv.find('\n');
    const std::string_view row = csv.substr(0, end);
    csv = end == std::string_view::npos ? std::string_view{} : csv.substr(end + 1);
    ++line_number;
    if (row.find_first_not_of(" \r") == std::string_view::npos) continue;
    if (row.starts_with("\"File Path\"") || row.starts_with("\"File Name\"")) {
      const std::vector<std::string> f = split_row(row, 0, 0);
      path = f.size() > 1 ? f[1] : "";
      file = nullptr;
      continue;
    }
    if (row.starts_with("\"Function Name\"") || row.starts_with("\"Kernel Name\"")) {
      const std::vector<std::string> f = split_row(row, 0, 0);
      const std::string function = f.size() > 1 ? f[1] : "";
      if (kernels.empty() || kernels.back().function != function) kernels.push_back({function, {}});
      kernels.back().files.push_back({path, {}});
      file = &kernels.back().files.back();
      continue;
    }
    if (row.starts_with("\"Line No\"")) {
      header = split_row(row, 0, 0);
      column.clear();
      for (std::size_t i = 0; i < header.size(); ++i) column.emplace(header[i], i);  // the first
      continue;
    }
    if (file == nullptr || header.empty()) {
      return Error{"line " + std::to_string(line_number) +
                   " of the CSV comes before its \"File Path\", \"Function Name\" and \"Line No\" "
                   "rows: is it Nsight Compute's source page (--page source --csv --print-source "
                   "cuda,sass)?"};
    }
    const std::vector<std::string> f = split_row(row, header.size(), 1);
    const auto get = [&](const char* name) -> std::string {
      const auto it = column.find(name);
      return it != column.end() && it->second < f.size() ? f[it->second] : std::string();
    };
    if (!column.contains("L1 Wavefronts Shared")) {
      return Error{
          "the CSV has no \"L1 Wavefronts Shared\" column: profile with --set full (or the "
          "SourceCounters section) and print --print-source cuda,sass"};
    }
    if (f.size() < header.size()) {
      return Error{"line " + std::to_string(line_number) + " of the CSV has " +
                   std::to_string(f.size()) + " fields, fewer than the " +
                   std::to_string(header.size()) + " of its \"Line No\" header"};
    }
    if (!f[0].empty()) {  // a CUDA line
      MeasuredLine l;
      l.source = f[1];
      std::int64_t* const counts[] = {&l.instructions, &l.wavefronts, &l.ideal, &l.excessive};
      const char* const names[] = {"Instructions Executed", "L1 Wavefronts Shared",
                                   "L1 Wavefronts Shared Ideal", "L1 Wavefronts Shared Excessive"};
      for (std::size_t i = 0; i < 4; ++i) {
        const Expected<std::int64_t> v = count_in(get(names[i]), names[i], 0, line_number);
        if (!v) return Error{v.error()};
        *counts[i] = *v;
      }
      const Expected<std::int64_t> line = count_in(f[0], "Line No", 1, line_number);
      if (!line) return Error{line.error()};
      l.line = static_cast<int>(*line);
      file->lines.push_back(std::move(l));
    } else if (!file->lines.empty() && f.size() > 3) {  // one of its SASS instructions
      const std::int64_t wavefronts = parse_number(get("L1 Wavefronts Shared"));
      if (wavefronts > 0) {
        std::string sass = f[3];
        sass.erase(0, sass.find_first_not_of(' '));
        sass = sass.substr(0, sass.find(' ', sass.starts_with("@") ? sass.find(' ') + 2 : 0));
        file->lines.back().shared_instructions.push_back(
            sass + " (" + get("Instructions Executed") + " executed, " +
            std::to_string(wavefronts) + " wavefronts)");
      }
    }
  }
  if (kernels.empty()) {
    return Error{
        "no kernel in the CSV: expected Nsight Compute's source page (--page source --csv "
        "--print-source cuda,sass)"};
  }
  return kernels;
}

// [SECTION] Comparing, line by line

int KernelComparison::evaluated_lines() const {
  return static_cast<int>(std::count_if(lines.begin(), lines.end(),
                                        [](const LineComparison& l) { return l.evaluated; }));
}

int KernelComparison::agreeing_lines() const {
  return static_cast<int>(std::count_if(
      lines.begin(), lines.end(), [](const LineComparison& l) { return l.evaluated && l.agrees; }));
}

namespace {

// The measured file whose path is file_name or ends in "/file_name"; an error lists the files
// the CSV has.
Expected<const MeasuredFile*> measured_file(const MeasuredKernel& measured,
                                            std::string_view file_name) {
  const MeasuredFile* file = nullptr;
  std::string suffix(1, '/');  // not "/" + name: GCC 12 warns falsely on that (bug 105329)
  suffix += file_name;
  for (const MeasuredFile& f : measured.files) {
    if (f.path == file_name || f.path.ends_with(suffix)) file = &f;
  }
  if (file != nullptr) return file;
  std::string list;
  for (const MeasuredFile& f : measured.files) list += (list.empty() ? "" : ", ") + f.path;
  return Error{"the CSV has no section for " + std::string(file_name) + " in " + measured.function +
               " (its files: " + list + ")"};
}

// The lines of the source, for what a line calls.
std::vector<std::string_view> source_lines(std::string_view source) {
  std::vector<std::string_view> text;
  for (std::size_t from = 0; from <= source.size();) {
    const std::size_t end = std::min(source.find('\n', from), source.size());
    text.push_back(source.substr(from, end - from));
    from = end + 1;
  }
  return text;
}

// The scan's counts of each line, for the whole grid, and the lines it could not evaluate.
Expected<void> add_predictions(const KernelScan& scan, std::int64_t blocks,
                               std::map<int, LineComparison>& by_line) {
  for (const ScanLine& l : scan.lines) {
    LineComparison& x = by_line[l.line];
    x.line = l.line;
    x.evaluated = true;
    // A block's counts times the grid's blocks (up to 2^63 between them): checked.
    std::int64_t wavefronts = 0, ideal = 0, excess = 0;
    if (__builtin_mul_overflow(l.wavefronts, blocks, &wavefronts) ||
        __builtin_mul_overflow(l.ideal_wavefronts, blocks, &ideal) ||
        __builtin_mul_overflow(l.excess_wavefronts, blocks, &excess) ||
        __builtin_add_overflow(x.predicted_wavefronts, wavefronts, &x.predicted_wavefronts)) {
      return Error{"line " + std::to_string(l.line) + "'s wavefronts times the grid's " +
                   std::to_string(blocks) + " blocks are more than a 64-bit count holds"};
    }
    x.predicted_ideal += ideal;
    x.predicted_excess += excess;
  }
  for (const ScanProblem& p : scan.unevaluated) {
    LineComparison& x = by_line[p.line];
    x.line = p.line;
    x.evaluated = false;
    x.explanation = "not evaluated: " + p.reason;
  }
  return {};
}

// Nsight Compute's counts of each line of the file that has wavefronts or a prediction.
void add_measurements(const MeasuredFile& file, std::map<int, LineComparison>& by_line) {
  for (const MeasuredLine& m : file.lines) {
    if (m.wavefronts == 0 && !by_line.contains(m.line)) continue;
    LineComparison& x = by_line[m.line];
    x.line = m.line;
    x.measured_wavefronts = m.wavefronts;
    x.measured_ideal = m.ideal;
    x.measured_excess = m.excessive;
  }
}

// A measured line of another file (a CUDA header), by the file's base name.
using ElsewhereLine = std::pair<std::string, const MeasuredLine*>;

// Measurements in other files (CUDA headers): an intrinsic's instructions are counted at its
// own line there, not at the call.
std::vector<ElsewhereLine> measured_elsewhere(const MeasuredKernel& measured,
                                              const MeasuredFile& file) {
  std::vector<ElsewhereLine> elsewhere;
  for (const MeasuredFile& f : measured.files) {
    if (&f == &file) continue;
    for (const MeasuredLine& m : f.lines)
      if (m.wavefronts > 0) elsewhere.emplace_back(f.path.substr(f.path.rfind('/') + 1), &m);
  }
  return elsewhere;
}

// Why a line's prediction and measurement differ, in x.explanation; a line measured inside
// the intrinsic it calls agrees after all (x.agrees set, the measurement taken from there).
void explain_difference(int line, LineComparison& x, std::string_view code, const KernelScan& scan,
                        const std::vector<ElsewhereLine>& elsewhere) {
  if (x.evaluated && x.measured_wavefronts == 0) {
    const auto there = std::find_if(elsewhere.begin(), elsewhere.end(), [&](const auto& e) {
      return e.second->wavefronts == x.predicted_wavefronts && e.second->ideal == x.predicted_ideal;
    });
    if (there != elsewhere.end()) {
      x.agrees = true;
      x.measured_wavefronts = there->second->wavefronts;
      x.measured_ideal = there->second->ideal;
      x.measured_excess = there->second->excessive;
      x.explanation = "measured at " + there->first + ":" + std::to_string(there->second->line) +
                      ", inside the intrinsic this line calls, where Nsight Compute counts it";
      return;
    }
    x.explanation =
        "no shared-memory wavefront is measured on this line: the compiler may have "
        "removed the access or moved it to another line";
    return;
  }
  if (!x.evaluated) {
    const auto called = std::find_if(scan.inlined_calls.begin(), scan.inlined_calls.end(),
                                     [&](const auto& call) { return call.first == line; });
    x.explanation = called != scan.inlined_calls.end()
                        ? "this line calls " + called->second +
                              "(), inlined: Nsight Compute shows some of its instructions here as "
                              "well as at their own lines, where they are compared"
                        : "the scan found no shared-memory access on this line";
    return;
  }
  const auto merged = std::find_if(scan.lines.begin(), scan.lines.end(), [&](const ScanLine& l) {
    return l.line == line && std::any_of(l.notes.begin(), l.notes.end(), [](const std::string& n) {
             return n.starts_with("nvcc merges");
           });
  });
  x.explanation = merged != scan.lines.end()
                      ? "the scan expects nvcc to merge adjacent accesses on this line; the SASS "
                        "Nsight Compute measured did otherwise"
                      : "the model and the hardware differ on this line" +
                            std::string(code.find("wgmma") != std::string_view::npos ||
                                                code.find("cp.async.bulk") != std::string_view::npos
                                            ? " (tensor-core or TMA traffic shares the pipe)"
                                            : "");
}

}  // namespace

Expected<KernelComparison> compare(const KernelScan& scan, const MeasuredKernel& measured,
                                   std::string_view file_name, std::string_view source) {
  KernelComparison c;
  c.blocks = scan.blocks();
  const Expected<const MeasuredFile*> file = measured_file(measured, file_name);
  if (!file) return Error{file.error()};
  c.measured_file = (*file)->path;
  const std::vector<std::string_view> text = source_lines(source);
  std::map<int, LineComparison> by_line;
  if (const Expected<void> predicted = add_predictions(scan, c.blocks, by_line); !predicted)
    return Error{predicted.error()};
  add_measurements(**file, by_line);
  const std::vector<ElsewhereLine> elsewhere = measured_elsewhere(measured, **file);
  for (auto& [line, x] : by_line) {
    x.agrees = x.predicted_wavefronts == x.measured_wavefronts &&
               x.predicted_ideal == x.measured_ideal && x.predicted_excess == x.measured_excess;
    if (x.agrees || !x.explanation.empty()) continue;
    const std::string_view code = line >= 1 && static_cast<std::size_t>(line) <= text.size()
                                      ? text[static_cast<std::size_t>(line - 1)]
                                      : std::string_view{};
    explain_difference(line, x, code, scan, elsewhere);
  }
  match_statements(scan, by_line);
  for (auto& [line, x] : by_line) c.lines.push_back(std::move(x));
  return c;
}

}  // namespace banklab
