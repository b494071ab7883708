#include "app/gui/state/kernel_state.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <utility>

#include "app/frontend/trace_view.hpp"
#include "app/gui/state/app_state.hpp"
#include "app/gui/state/scan_worker.hpp"
#include "core/base/file_read.hpp"

namespace banklab::gui {
namespace {

// The scan of a file: `text` named `name`, with the block and names of `k` (a file scanned
// again), or with its own launch's block and no names (a new file); the names' error else.
Expected<ScanRequest> scan_request(const KernelFile& k, std::string path, std::string text,
                                   bool new_file) {
  ScanRequest request;
  request.path = std::move(path);
  request.name = request.path.substr(request.path.rfind('/') + 1);
  request.text = std::move(text);
  request.new_file = new_file;
  ScanOptions& options = request.options;
  options.keep_instances = true;
  options.let_hint = "give it a value under names, NAME=VALUE";
  if (new_file) return request;
  if (k.block_given) options.block = k.block;
  if (k.lets.find_first_not_of(" \t") != std::string::npos) {
    auto lets = parse_lets(k.lets);
    if (!lets) return Error{"names: " + lets.error()};
    options.lets = std::move(*lets);
  }
  return request;
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

// A finished scan applied: a new file replaces the open one or trace (its own launch's block,
// no names) and the Kernel window opens on it; a failed scan leaves what was open and says why.
bool apply_scan(AppState& s, ScanDone done) {
  KernelFile& k = s.user.kernel;
  if (done.result.error) {
    const CodeSource source{done.request.name, done.request.text};
    k.error = format_code_error(*done.result.error, std::span(&source, 1));
    return false;
  }
  if (done.request.new_file) {
    k.block_given = false;
    k.lets.clear();
    k.path = std::move(done.request.path);
    k.name = std::move(done.request.name);
    take_text(k, std::move(done.request.text));
    k.trace.reset();
    k.measured.reset();
    s.user.views.kernel = true;
  }
  take_scan(s, std::move(done.result));
  return true;
}

// The file's scan, on this thread.
bool scan_now(AppState& s, Expected<ScanRequest> request) {
  if (!request) {
    s.user.kernel.error = request.error();
    return false;
  }
  ScanResult result = scan_source({request->name, request->text}, request->options);
  return apply_scan(s, {std::move(*request), std::move(result)});
}

// The file's scan, on the scan worker (created on first use).
void scan_later(AppState& s, Expected<ScanRequest> request) {
  if (!request) {
    // The scan still running was asked for what is now wrong: its result must not clear this.
    cancel_kernel_scan(s);
    s.user.kernel.error = request.error();
    return;
  }
  if (!s.scan_worker) s.scan_worker = std::make_unique<ScanWorker>(s.wake_ui);
  s.user.kernel.error.clear();
  s.scan_worker->submit(std::move(*request));
}

Expected<ScanRequest> open_request(const KernelFile& k, const std::string& path) {
  Expected<std::string> text = read_regular_file(path, kMaxScanSourceBytes, "kernel source");
  if (!text) return Error{text.error()};
  return scan_request(k, path, std::move(*text), true);
}

}  // namespace

bool open_kernel_file(AppState& s, const std::string& path) {
  return scan_now(s, open_request(s.user.kernel, path));
}

void start_kernel_scan(AppState& s, const std::string& path) {
  scan_later(s, open_request(s.user.kernel, path));
}

bool open_trace_file(AppState& s, const std::string& path) {
  KernelFile& k = s.user.kernel;
  const Expected<std::string> text = read_regular_file(path, record::kMaxTraceBytes, "trace");
  if (!text) {
    k.error = text.error();
    return false;
  }
  Expected<record::Trace> trace = record::parse_trace(*text);
  if (!trace) {
    k.error = path + ": " + trace.error();
    return false;
  }
  cancel_kernel_scan(s);  // a scan still running was for what the trace replaces
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

void start_rescan(AppState& s) {
  KernelFile& k = s.user.kernel;
  if (k.path.empty()) return;
  if (k.trace) {
    k.error = "a trace holds the counts of the run it recorded: there is nothing to rescan";
    return;
  }
  scan_later(s, scan_request(k, k.path, k.text, false));
}

bool kernel_scanning(const AppState& s) {
  return s.scan_worker && s.scan_worker->busy();
}

void cancel_kernel_scan(AppState& s) {
  if (s.scan_worker) s.scan_worker->cancel();
}

bool poll_kernel_scan(AppState& s) {
  if (!s.scan_worker) return false;
  std::optional<ScanDone> done = s.scan_worker->take();
  if (!done) return false;
  if (!done->request.new_file) return apply_scan(s, std::move(*done));
  // A file opened from the File menu: its status line says how the scan ended, and the Kernel
  // window, opened to show the progress, closes again when it has no file to show.
  const std::string path = done->request.path;
  const bool opened = apply_scan(s, std::move(*done));
  FileMenu& f = s.user.files;
  f.failed = !opened;
  f.status = opened ? "scanned " + path : s.user.kernel.error;
  if (!opened && s.user.kernel.path.empty()) s.user.views.kernel = false;
  return opened;
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
  s.user.raw_error.clear();
  s.user.raw_text = offsets_text(s.user.scenario.raw_offsets);
}

bool show_kernel_named(AppState& s, std::string_view name) {
  const std::vector<KernelScan>& kernels = s.user.kernel.scan.kernels;
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    if (kernels[i].kernel == name) {
      show_kernel(s, static_cast<int>(i));
      return true;
    }
  }
  return false;
}

std::string kernel_names(const KernelFile& k) {
  std::string names;
  for (const KernelScan& kernel : k.scan.kernels)
    names += (names.empty() ? "" : ", ") + kernel.kernel;
  return names;
}

bool show_line(AppState& s, int line, bool any_kernel) {
  KernelFile& k = s.user.kernel;
  // The access of kernel `index` on the line with the most excess (the accesses are sorted by
  // excess: the first on the line); -1: none.
  const auto access_on_line = [&](std::size_t index) {
    const std::vector<ScanLine>& lines = k.scan.kernels[index].lines;
    for (std::size_t i = 0; i < lines.size(); ++i)
      if (lines[i].line == line) return static_cast<int>(i);
    return -1;
  };
  std::vector<int> order;  // the kernel shown first
  if (shown_kernel(s)) order.push_back(k.kernel);
  for (std::size_t i = 0; any_kernel && i < k.scan.kernels.size(); ++i)
    if (static_cast<int>(i) != k.kernel) order.push_back(static_cast<int>(i));
  for (const int index : order) {
    const int access = access_on_line(static_cast<std::size_t>(index));
    if (access < 0) continue;
    if (index != k.kernel) show_kernel(s, index);
    show_access(s, access);
    k.scroll_to = 0;
    return true;
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

const ScanLine* access_on_screen(const AppState& s) {
  const KernelScan* kernel = shown_kernel(s);
  if (!kernel || !kernel_on_screen(s) ||
      static_cast<std::size_t>(s.user.kernel.access) >= kernel->lines.size())
    return nullptr;
  return &kernel->lines[static_cast<std::size_t>(s.user.kernel.access)];
}

std::string array_declaration(const SharedArray& a) {
  std::string text = a.type + " " + a.name;
  for (const std::int64_t bound : a.dims) text += "[" + std::to_string(bound) + "]";
  if (a.is_extern && a.dims.empty()) text += "[]";
  return text;
}

bool array_drawable(const SharedArray& a) {
  if (a.dims.empty()) return false;
  const TileLayout t = tile_of(a);
  return t.elem_bytes() == a.scalar_bytes && t.size_bytes() == a.bytes();
}

}  // namespace banklab::gui
