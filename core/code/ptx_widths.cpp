// The scan's widths against nvcc's PTX (ptx_widths.hpp).
#include "core/code/ptx_widths.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

#include "core/base/format.hpp"

namespace banklab {
namespace {

// A piece of a PTX line without its blanks and the ';'s that close a statement.
std::string_view trim_statement(std::string_view s) {
  s = trim(s);
  while (s.ends_with(';')) s = trim(s.substr(0, s.size() - 1));
  return s;
}

// The first name of a mangled kernel name: _Z15merge_two_tripsPKfPf is merge_two_trips; an
// extern "C" kernel's name is itself.
std::string demangled_name(std::string_view mangled) {
  if (!mangled.starts_with("_Z")) return std::string(mangled);
  mangled.remove_prefix(2);
  if (mangled.starts_with("N")) mangled.remove_prefix(1);  // a name in a namespace: its first
  std::size_t length = 0;
  const auto [end, ec] = std::from_chars(mangled.data(), mangled.data() + mangled.size(), length);
  if (ec != std::errc() || end == mangled.data()) return std::string(mangled);
  const std::size_t digits = static_cast<std::size_t>(end - mangled.data());
  return std::string(mangled.substr(digits, length));
}

// "ld.shared.v2.f32 %f1, [%r6+4]" (or st., or ld.volatile.shared, or .shared::cta): the access,
// or nothing for another instruction.
bool parse_access(std::string_view text, PtxAccess& a) {
  const bool load = text.starts_with("ld.");
  if (!load && !text.starts_with("st.")) return false;
  const std::string_view op = text.substr(0, text.find_first_of(" \t"));
  if (op.find(".shared") == std::string_view::npos) return false;
  a.load = load;
  a.is_volatile = op.find(".volatile") != std::string_view::npos;
  int count = 1;
  if (op.find(".v2") != std::string_view::npos) count = 2;
  if (op.find(".v4") != std::string_view::npos) count = 4;
  // The type is the last part: .f32, .u16, .b64, .s8, .pred ...
  const std::string_view type = op.substr(op.rfind('.') + 1);
  int bits = 0;
  std::from_chars(type.data() + 1, type.data() + type.size(), bits);
  if (bits < 8) return false;
  a.width = count * bits / 8;
  const std::size_t open = text.find('[');
  const std::size_t close = text.find(']', open);
  if (open == std::string_view::npos || close == std::string_view::npos) return false;
  std::string_view address = text.substr(open + 1, close - open - 1);
  const std::size_t plus = address.find_first_of("+-", 1);
  a.base = std::string(trim_statement(address.substr(0, plus)));
  if (plus != std::string_view::npos) {
    std::string_view number = trim_statement(address.substr(plus + 1));
    std::int64_t offset = 0;
    std::from_chars(number.data(), number.data() + number.size(), offset);
    a.offset = address[plus] == '-' ? -offset : offset;
  }
  a.text = std::string(text);
  return true;
}

std::string describe_accesses(const std::vector<const PtxAccess*>& accesses) {
  std::map<std::string, int> counts;
  for (const PtxAccess* a : accesses) ++counts[a->text.substr(0, a->text.find_first_of(" \t"))];
  std::string out;
  for (const auto& [op, n] : counts)
    out += (out.empty() ? "" : ", ") + (n > 1 ? std::to_string(n) + " x " : "") + op;
  return out;
}

// k accesses of `width / k` bytes from one base at consecutive offsets, none volatile: what
// ptxas merges into one access of `width` bytes where the address is aligned.
bool adjacent_run(const std::vector<const PtxAccess*>& accesses, int width) {
  std::map<std::pair<std::string, int>, std::set<std::int64_t>> by_base;
  for (const PtxAccess* a : accesses)
    if (!a->is_volatile && a->width < width && width % a->width == 0)
      by_base[{a->base, a->width}].insert(a->offset);
  for (const auto& [key, offsets] : by_base) {
    const int k = width / key.second;
    for (const std::int64_t first : offsets) {
      int run = 1;
      while (run < k && offsets.contains(first + std::int64_t{run} * key.second)) ++run;
      if (run == k) return true;
    }
  }
  return false;
}

}  // namespace

Expected<std::vector<PtxKernel>> parse_ptx(std::string_view ptx, std::string_view file_name) {
  // The .file table (at the end of nvcc's PTX): the numbers of the files named file_name.
  std::set<int> files;
  std::string suffix(1, '/');  // not "/" + name: GCC 12 warns falsely on that (bug 105329)
  suffix += file_name;
  std::vector<std::string_view> lines;
  for (std::size_t from = 0; from < ptx.size();) {
    const std::size_t end = std::min(ptx.find('\n', from), ptx.size());
    lines.push_back(trim_statement(ptx.substr(from, end - from)));
    from = end + 1;
  }
  for (std::string_view l : lines) {
    if (!l.starts_with(".file")) continue;
    l = trim_statement(l.substr(5));
    int number = 0;
    const auto [end, ec] = std::from_chars(l.data(), l.data() + l.size(), number);
    const std::size_t open = l.find('"');
    const std::size_t close = l.find('"', open + 1);
    if (ec != std::errc() || open == std::string_view::npos || close == std::string_view::npos)
      continue;
    const std::string_view path = l.substr(open + 1, close - open - 1);
    if (path == file_name || path.ends_with(suffix)) files.insert(number);
  }
  if (files.empty()) {
    return Error{"the PTX has no line table for " + std::string(file_name) +
                 " (compile with -lineinfo)"};
  }
  std::vector<PtxKernel> kernels;
  int line = 0;
  for (std::string_view l : lines) {
    if (l.find(".entry") != std::string_view::npos) {
      std::string_view name = trim_statement(l.substr(l.find(".entry") + 6));
      name = name.substr(0, name.find_first_of("( \t"));
      kernels.push_back({demangled_name(name), {}});
      line = 0;
      continue;
    }
    if (l.starts_with(".loc")) {
      std::string_view rest = trim_statement(l.substr(4));
      int file = 0;
      auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), file);
      rest = trim_statement(rest.substr(static_cast<std::size_t>(end - rest.data())));
      int number = 0;
      std::from_chars(rest.data(), rest.data() + rest.size(), number);
      line = ec == std::errc() && files.contains(file) ? number : 0;
      continue;
    }
    PtxAccess a;
    if (!kernels.empty() && line > 0 && parse_access(l, a)) {
      a.line = line;
      kernels.back().accesses.push_back(std::move(a));
    }
  }
  return kernels;
}

std::vector<WidthCheck> check_widths(const KernelScan& scan, const PtxKernel& ptx) {
  std::vector<WidthCheck> out;
  const auto on_line = [&](int line, bool load) {
    std::vector<const PtxAccess*> found;
    for (const PtxAccess& a : ptx.accesses)
      if (a.line == line && a.load == load) found.push_back(&a);
    return found;
  };
  std::map<int, std::string> listed_why;  // lines the scan lists as not evaluated
  for (const ScanProblem& p : scan.unevaluated) listed_why.emplace(p.line, p.reason);
  std::set<std::pair<int, bool>> counted;
  for (const ScanLine& l : scan.lines) {
    if ((l.op != Op::ld && l.op != Op::st) || l.cp_async) continue;
    const bool load = l.op == Op::ld;
    counted.emplace(l.line, load);
    WidthCheck c{.line = l.line, .load = load, .width = l.width, .detail = {}};
    const std::vector<const PtxAccess*> there = on_line(l.line, load);
    if (there.empty()) {
      c.detail = std::string("not checked: the PTX has no shared ") + (load ? "load" : "store") +
                 " on this line";
      out.push_back(std::move(c));
      continue;
    }
    c.checked = true;
    const std::string has = "the PTX has " + describe_accesses(there);
    if (l.width == 4 && (adjacent_run(there, 8) || adjacent_run(there, 16))) {
      // Adjacent 4-byte accesses, which ptxas merges where it proves them aligned (the PTX
      // does not show whether it did): they agree where the scan found them unaligned.
      c.agrees = !l.unmerged.empty();
      c.detail = has + (c.agrees ? ": adjacent, but " + l.unmerged + ", so ptxas keeps them"
                                 : ": adjacent, which ptxas merges into 8- or 16-byte "
                                   "accesses where it proves them aligned; the scan counts "
                                   "4-byte ones");
    } else if (std::any_of(there.begin(), there.end(),
                           [&](const PtxAccess* a) { return a->width == l.width; })) {
      c.agrees = true;
      c.detail = has;
    } else if (adjacent_run(there, l.width)) {
      c.agrees = true;
      c.detail = has + ": adjacent, which ptxas merges into the " + std::to_string(l.width) +
                 "-byte access counted";
    } else {
      c.detail = has + ", not the " + std::to_string(l.width) + "-byte access the scan counts";
    }
    if (const auto why = listed_why.find(l.line); !c.agrees && why != listed_why.end()) {
      c.checked = false;  // what the scan could not decide, it lists: nothing to compare
      c.detail = "not checked: " + c.detail + "; the scan lists the line as not evaluated (" +
                 why->second + ")";
    }
    out.push_back(std::move(c));
  }
  // Shared accesses of the PTX on lines the scan neither counts nor lists.
  std::set<int> listed;
  for (const auto& [line, why] : listed_why) listed.insert(line);
  for (const auto& [line, function] : scan.inlined_calls) listed.insert(line);
  std::set<std::pair<int, bool>> missing;
  for (const PtxAccess& a : ptx.accesses)
    if (!counted.contains({a.line, a.load}) && !listed.contains(a.line))
      missing.emplace(a.line, a.load);
  for (const auto& [line, load] : missing) {
    out.push_back({.line = line,
                   .load = load,
                   .checked = true,
                   .detail = "the PTX has " + describe_accesses(on_line(line, load)) +
                             " here, and the scan neither counts nor lists it"});
  }
  std::sort(out.begin(), out.end(), [](const WidthCheck& a, const WidthCheck& b) {
    return a.line != b.line ? a.line < b.line : a.load > b.load;
  });
  return out;
}

}  // namespace banklab
