#include "app/gui/state/kernel_state.hpp"

#include <span>
#include <utility>

#include "app/frontend/trace_view.hpp"
#include "app/gui/state/app_state.hpp"
#include "core/base/file_read.hpp"

namespace banklab::gui {
namespace {

// The file's text scanned with the window's block and names: the result, or the message.
Expected<ScanResult> scan_text(const KernelFile& k, const std::string& name,
                               const std::string& text) {
  ScanOptions options;
  options.keep_instances = true;
  options.let_hint = "give it a value under names, NAME=VALUE";
  if (k.block_given) options.block = k.block;
  if (k.lets.find_first_not_of(" \t") != std::string::npos) {
    auto lets = parse_lets(k.lets);
    if (!lets) return Error{"names: " + lets.error()};
    options.lets = std::move(*lets);
  }
  ScanResult r = scan_source({name, text}, options);
  if (r.error) {
    const CodeSource source{name, text};
    return Error{format_code_error(*r.error, std::span(&source, 1))};
  }
  return r;
}

// The scan taken: the kernel of the same name stays shown, its worst access goes on screen.
void take_scan(AppState& s, ScanResult r) {
  KernelFile& k = s.user.kernel;
  const std::string shown = shown_kernel(s) ? shown_kernel(s)->kernel : "";
  k.scan = std::move(r);
  k.kernel = 0;
  for (std::size_t i = 0; i < k.scan.kernels.size(); ++i) {
    if (k.scan.kernels[i].kernel == shown) k.kernel = static_cast<int>(i);
  }
  k.error.clear();
  k.access = -1;
  k.instance = -1;
  ++k.scans;
  const KernelScan* kernel = shown_kernel(s);
  if (kernel && !kernel->lines.empty()) show_access(s, 0);
}

// The text shown as the file: its lines, found once.
void take_text(KernelFile& k, std::string text) {
  k.text = std::move(text);
  k.line_starts = {0};
  for (std::size_t i = 0; i < k.text.size(); ++i) {
    if (k.text[i] == '\n' && i + 1 < k.text.size()) k.line_starts.push_back(i + 1);
  }
}

}  // namespace

bool open_kernel_file(AppState& s, const std::string& path) {
  KernelFile& k = s.user.kernel;
  Expected<std::string> text = read_regular_file(path, kMaxScanSourceBytes, "kernel source");
  if (!text) {
    k.error = text.error();
    return false;
  }
  const std::string name = path.substr(path.rfind('/') + 1);
  k.block_given = false;  // a new file: its own launch's block, its own names
  k.lets.clear();
  Expected<ScanResult> r = scan_text(k, name, *text);
  if (!r) {
    k.error = r.error();
    return false;
  }
  k.path = path;
  k.name = name;
  take_text(k, std::move(*text));
  k.trace.reset();
  k.measured.reset();
  s.user.views.kernel = true;
  take_scan(s, std::move(*r));
  return true;
}

bool open_trace_file(AppState& s, const std::string& path) {
  KernelFile& k = s.user.kernel;
  const Expected<std::string> text = read_regular_file(path, gpu::kMaxTraceBytes, "trace");
  if (!text) {
    k.error = text.error();
    return false;
  }
  Expected<gpu::Trace> trace = gpu::parse_trace(*text);
  if (!trace) {
    k.error = path + ": " + trace.error();
    return false;
  }
  frontend::TraceView v = frontend::view_of(*trace);
  k.path = path;
  k.name = v.file.empty() ? trace->function : v.file.substr(v.file.rfind('/') + 1);
  take_text(k, std::move(v.source));
  k.block_given = false;
  k.lets.clear();
  k.measured = std::move(v.measured);
  k.not_measured = std::move(v.not_measured);
  k.trace = std::move(*trace);
  s.user.views.kernel = true;
  ScanResult r;
  r.kernels.push_back(std::move(v.scan));
  take_scan(s, std::move(r));
  return true;
}

std::string describe_instance(const KernelFile& k, const ScanLine& line, int warp,
                              std::span<const std::int32_t> iteration) {
  if (k.trace && !iteration.empty())
    return frontend::describe_trace_place(*k.trace, warp, iteration.front());
  return describe_place(line, warp, iteration);
}

bool rescan_kernel(AppState& s) {
  KernelFile& k = s.user.kernel;
  if (k.path.empty()) return false;
  if (k.trace) {
    k.error = "a trace holds the counts of the run it recorded: there is nothing to rescan";
    return false;
  }
  Expected<ScanResult> r = scan_text(k, k.name, k.text);
  if (!r) {
    k.error = r.error();
    return false;
  }
  take_scan(s, std::move(*r));
  return true;
}

const KernelScan* shown_kernel(const AppState& s) {
  const KernelFile& k = s.user.kernel;
  if (k.kernel < 0 || static_cast<std::size_t>(k.kernel) >= k.scan.kernels.size()) return nullptr;
  return &k.scan.kernels[static_cast<std::size_t>(k.kernel)];
}

void show_kernel(AppState& s, int index) {
  KernelFile& k = s.user.kernel;
  if (index < 0 || static_cast<std::size_t>(index) >= k.scan.kernels.size()) return;
  k.kernel = index;
  k.access = -1;
  k.instance = -1;
  if (!k.scan.kernels[static_cast<std::size_t>(index)].lines.empty()) show_access(s, 0);
}

void show_access(AppState& s, int access, int instance) {
  const KernelScan* kernel = shown_kernel(s);
  if (!kernel || access < 0 || static_cast<std::size_t>(access) >= kernel->lines.size()) return;
  const ScanLine& line = kernel->lines[static_cast<std::size_t>(access)];
  if (line.instances.empty()) return;
  const int count = static_cast<int>(line.instances.size());
  if (instance < 0 || instance >= count) {  // the worst: the first with the most wavefronts
    instance = 0;
    for (int i = 1; i < count; ++i) {
      if (line.instances[static_cast<std::size_t>(i)].wavefronts >
          line.instances[static_cast<std::size_t>(instance)].wavefronts)
        instance = i;
    }
  }
  KernelFile& k = s.user.kernel;
  k.access = access;
  k.instance = instance;
  k.scroll_to = line.line;
  k.on_screen = scenario_of(line, line.instances[static_cast<std::size_t>(instance)]);
  s.user.scenario = k.on_screen;
  s.user.preset = -1;  // the kernel's access is its own scenario, not a preset
  s.user.custom_error.clear();
  s.user.custom_text = offsets_text(s.user.scenario.custom_offsets);
}

bool show_line(AppState& s, int line) {
  const KernelScan* kernel = shown_kernel(s);
  if (!kernel) return false;
  // The accesses are sorted by excess: the first on the line has the most.
  for (std::size_t i = 0; i < kernel->lines.size(); ++i) {
    if (kernel->lines[i].line == line) {
      show_access(s, static_cast<int>(i));
      s.user.kernel.scroll_to = 0;
      return true;
    }
  }
  return false;
}

std::string_view source_line(const KernelFile& k, int line) {
  if (line < 1 || static_cast<std::size_t>(line) > k.line_starts.size()) return {};
  const std::string_view text = k.text;
  const std::size_t start = k.line_starts[static_cast<std::size_t>(line - 1)];
  std::string_view rest = text.substr(start);
  rest = rest.substr(0, rest.find('\n'));
  if (!rest.empty() && rest.back() == '\r') rest.remove_suffix(1);
  return rest;
}

bool kernel_on_screen(const AppState& s) {
  return s.user.kernel.access >= 0 && s.user.kernel.on_screen == s.user.scenario;
}

}  // namespace banklab::gui
