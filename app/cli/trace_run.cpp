// banklab trace, live (trace_run.hpp).
//
// [SECTION] Tools and processes
// [SECTION] What the injection library left
// [SECTION] Building the trace
// [SECTION] Measuring with Nsight Compute
// [SECTION] run_trace
#include "app/cli/trace_run.hpp"

#include <cxxabi.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <tuple>

#include "app/frontend/file_io.hpp"
#include "app/frontend/gpu_recording.hpp"
#include "app/frontend/trace_view.hpp"
#include "core/base/format.hpp"
#include "core/code/ncu_source.hpp"
#include "core/record/cubin_lines.hpp"
#include "kernels/gpu_device.hpp"
#include "kernels/trace_record.hpp"

extern char** environ;

namespace banklab::cli {
namespace fs = std::filesystem;
namespace {

constexpr std::size_t kMaxListingBytes = 256u << 20;
constexpr std::size_t kMaxSourceBytes = 8u << 20;

// [SECTION] Tools and processes

std::string env_or(const char* name, std::string_view fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : std::string(fallback);
}

// A tool of the CUDA toolkit: on PATH, else in /usr/local/cuda/bin; empty when in neither.
std::string find_tool(const std::string& name) {
  std::string path = env_or("PATH", "");
  path += ":/usr/local/cuda/bin";
  std::stringstream dirs(path);
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (dir.empty()) continue;
    const fs::path candidate = fs::path(dir) / name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return {};
}

// Runs `argv` with `extra_env` added to this process's environment, its standard output and
// error to `log` (empty: passed through, standard output onto standard error where
// `output_to_stderr`), and returns its exit status (128 + N after signal N).
Expected<int> run_process(const std::vector<std::string>& argv,
                          const std::vector<std::string>& extra_env, const std::string& log,
                          bool output_to_stderr = false) {
  std::vector<std::string> env_text(extra_env);
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string_view entry(*e);
    const std::string_view name = entry.substr(0, entry.find('='));
    const bool replaced = std::ranges::any_of(extra_env, [&](const std::string& x) {
      return std::string_view(x).substr(0, x.find('=')) == name;
    });
    if (!replaced) env_text.emplace_back(entry);
  }
  std::vector<char*> envp, args;
  for (std::string& e : env_text) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_copy(argv);
  for (std::string& a : argv_copy) args.push_back(a.data());
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (!log.empty()) {
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
  } else if (output_to_stderr) {
    posix_spawn_file_actions_adddup2(&actions, 2, 1);
  }
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return Error{"cannot run " + argv[0] + ": " + std::strerror(spawned)};
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return Error{"waiting for " + argv[0] + ": " + std::strerror(errno)};
  }
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

std::string read_small_file(const fs::path& p, std::size_t max_bytes) {
  std::ifstream in(p, std::ios::binary);
  std::string text;
  if (!in) return text;
  std::error_code ec;
  const auto size = fs::file_size(p, ec);
  if (ec || size > max_bytes) return text;
  text.resize(static_cast<std::size_t>(size));
  in.read(text.data(), static_cast<std::streamsize>(size));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

// A temporary folder, removed with everything in it when this goes.
struct TemporaryFolder {
  fs::path path;
  TemporaryFolder() {
    std::string pattern = (fs::temp_directory_path() / "banklab-trace-XXXXXX").string();
    if (mkdtemp(pattern.data()) != nullptr) path = pattern;
  }
  ~TemporaryFolder() {
    std::error_code ec;
    if (!path.empty()) fs::remove_all(path, ec);
  }
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;
};

std::string demangle(const std::string& mangled) {
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> d(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && d ? std::string(d.get()) : mangled;
}

// The injection library and the callbacks' fatbin: the environment's, else the build's.
struct InjectionFiles {
  std::string library, patches;
};
Expected<InjectionFiles> injection_files() {
#if defined(BANKLAB_TRACE_LIBRARY) && defined(BANKLAB_TRACE_PATCHES)
  InjectionFiles f{env_or("BANKLAB_TRACE_LIBRARY", BANKLAB_TRACE_LIBRARY),
                   env_or("BANKLAB_TRACE_PATCHES", BANKLAB_TRACE_PATCHES)};
#else
  InjectionFiles f{env_or("BANKLAB_TRACE_LIBRARY", ""), env_or("BANKLAB_TRACE_PATCHES", "")};
  if (f.library.empty() || f.patches.empty()) {
    return Error{
        "no CUDA toolkit: this banklab was built without the trace injection library "
        "(it needs nvcc and the toolkit's compute-sanitizer folder where it is built)"};
  }
#endif
  for (const std::string& p : {f.library, f.patches}) {
    if (access(p.c_str(), R_OK) != 0) return Error{"no CUDA toolkit: " + p + " is missing"};
  }
  return f;
}

// [SECTION] What the injection library left

std::map<std::string, std::string> read_meta(const fs::path& file) {
  std::map<std::string, std::string> meta;
  std::stringstream lines(read_small_file(file, 1 << 20));
  for (std::string line; std::getline(lines, line);) {
    const std::size_t eq = line.find(" = ");
    if (eq != std::string::npos) meta[line.substr(0, eq)] = line.substr(eq + 3);
  }
  return meta;
}

std::int64_t number(const std::map<std::string, std::string>& meta, const std::string& key) {
  const auto it = meta.find(key);
  return it == meta.end() ? 0 : std::strtoll(it->second.c_str(), nullptr, 10);
}

std::array<int, 3> dims3(const std::map<std::string, std::string>& meta, const std::string& key) {
  std::array<int, 3> d = {1, 1, 1};
  const auto it = meta.find(key);
  if (it == meta.end()) return d;
  std::stringstream parts(it->second);
  std::string part;
  for (int axis = 0; axis < 3 && std::getline(parts, part, ','); ++axis)
    d[axis] = std::max(1, std::atoi(part.c_str()));
  return d;
}

// Why the chosen launch left no records, from what the program did launch.
std::string not_reached(const TraceRunOptions& o, const fs::path& dir) {
  std::stringstream names(read_small_file(dir / trace_abi::kKernelsFile, 1 << 20));
  std::string list;
  bool launched = false;
  for (std::string name; std::getline(names, name);) {
    list += (list.empty() ? "" : ", ") + demangle(name);
    launched = launched || name == o.kernel || name.find(o.kernel) != std::string::npos;
  }
  if (list.empty()) return "the program launched no kernel";
  if (!o.kernel.empty() && !launched)
    return "the program launched no kernel named " + o.kernel + " (it launched " + list + ")";
  return format("the program launched %s fewer than %lld times (--launch counts from 0)",
                o.kernel.empty() ? "its first kernel" : o.kernel.c_str(),
                static_cast<long long>(o.launch + 1));
}

// [SECTION] Building the trace

std::optional<WarpAccess> access_of(const trace_abi::Record& r, std::string& problem) {
  WarpAccess a;
  a.width = r.size;
  if (r.kind == trace_abi::kMatrixAccess) {
    const bool store = (r.flags & trace_abi::kFlagWrite) != 0;
    if (store && r.matrices != 4) {
      problem = format("stmatrix of %d matrices is not in the model", r.matrices);
      return std::nullopt;
    }
    a.op = store             ? Op::stmatrix_x4
           : r.matrices == 1 ? Op::ldmatrix_x1
           : r.matrices == 2 ? Op::ldmatrix_x2
                             : Op::ldmatrix_x4;
  } else {
    // A load reads; a store and an atomic (read and write) write: an atomic is counted as the
    // store it makes, its lanes on one word merging.
    a.op =
        (r.flags & trace_abi::kFlagWrite) != 0 || r.kind == trace_abi::kAsyncCopy ? Op::st : Op::ld;
  }
  for (int lane = 0; lane < kWarpSize; ++lane)
    a.offsets[lane] = (r.lanes >> lane) & 1u ? std::int64_t{r.address[lane]} : kInactiveLane;
  if (const std::string e = first_error(check_access(a)); !e.empty()) {
    problem = e;
    return std::nullopt;
  }
  return a;
}

// A path under the working folder as relative to it (a trace names the program and its sources
// as the user does, without the folder it was made in); any other path as it is.
std::string as_given(const std::string& path) {
  std::error_code ec;
  const fs::path here = fs::current_path(ec);
  if (ec || !path.starts_with('/')) return path;
  const fs::path normal = fs::path(path).lexically_normal();  // "/usr/local/cuda/bin/../targets"
  const fs::path relative = normal.lexically_relative(here);
  if (relative.empty() || *relative.begin() == "..") return normal.string();
  return relative.string();
}

// Each record as a counted access of its instruction; instructions as nvdisasm lists them, at
// the places the cubin's line table gives them.
void add_records(record::Trace& t, const std::vector<trace_abi::Record>& records,
                 std::uint64_t function_pc, const std::vector<record::SassLine>& listing,
                 const record::CubinLines& lines) {
  std::map<std::int64_t, int> index_of;  // offset -> instruction
  std::map<std::tuple<std::uint32_t, std::uint32_t, int>, std::int64_t> runs;
  std::map<std::string, int> problems;
  for (const trace_abi::Record& r : records) {
    const auto offset = static_cast<std::int64_t>(r.pc - function_pc);
    auto [it, added] = index_of.try_emplace(offset, static_cast<int>(t.instructions.size()));
    if (added) {
      record::TraceInstruction in;
      in.offset = offset;
      const auto s = std::ranges::find(listing, offset, &record::SassLine::offset);
      if (s != listing.end()) {
        in.sass = s->text;
      } else {
        in.sass = "?";
        ++problems["an instruction at an offset nvdisasm does not list"];
      }
      record::InstructionPlaces places = record::places_at(lines, offset);
      in.where = std::move(places.where);
      in.counted_at = std::move(places.counted_at);
      t.instructions.push_back(std::move(in));
    }
    std::string problem;
    const std::optional<WarpAccess> a = access_of(r, problem);
    if (!a) {
      ++problems[problem];
      continue;
    }
    record::TraceAccess x;
    x.instruction = it->second;
    x.block = r.block;
    x.warp = static_cast<int>(r.warp);
    x.instance = runs[{r.block, r.warp, it->second}]++;
    x.access = *a;
    record::count_access(x);
    t.accesses.push_back(std::move(x));
  }
  for (const auto& [problem, n] : problems)
    t.notes.push_back(format("%d warp-instructions not counted: %s", n, problem.c_str()));
}

void add_sources(record::Trace& t) {
  std::vector<std::string> files;
  for (const record::TraceInstruction& in : t.instructions)
    for (const record::TraceLocation& l : in.where)
      if (std::ranges::find(files, l.file) == files.end()) files.push_back(l.file);
  for (const std::string& f : files) {
    if (f.find("/cuda") != std::string::npos && !f.ends_with(".cu")) continue;  // the toolkit's
    std::string text = read_small_file(f, kMaxSourceBytes);
    if (!text.empty()) t.sources.push_back({f, std::move(text)});
  }
}

double median_ms(const fs::path& timing) {
  std::stringstream lines(read_small_file(timing, 1 << 20));
  std::vector<double> ms;
  for (std::string line; std::getline(lines, line);) ms.push_back(std::atof(line.c_str()));
  if (ms.empty()) return 0;
  std::ranges::sort(ms);
  return ms[ms.size() / 2];
}

// [SECTION] Measuring with Nsight Compute

// The measured lines, their files named as the trace's own places are (as_given).
std::vector<record::TraceMeasuredLine> measured_as_given(const MeasuredKernel& kernel) {
  std::vector<record::TraceMeasuredLine> lines = frontend::measured_lines(kernel);
  for (record::TraceMeasuredLine& l : lines) l.file = as_given(l.file);
  return lines;
}

void measure(record::Trace& t, const TraceRunOptions& o, const fs::path& dir) {
  if (o.ncu_csv) {
    const std::string csv = read_small_file(*o.ncu_csv, 256u << 20);
    auto kernels = parse_ncu_source_csv(csv);
    if (!kernels) {
      t.not_measured = *o.ncu_csv + ": " + kernels.error();
      return;
    }
    const std::string name = kernel_base_name(t.kernel);  // a template's instance too
    const auto k = std::ranges::find(*kernels, name, &MeasuredKernel::name);
    if (k == kernels->end()) {
      t.not_measured = *o.ncu_csv + " has no measurement of " + name;
      return;
    }
    t.measured = measured_as_given(*k);
    t.measured_by = "Nsight Compute's Source page, from " + *o.ncu_csv;
    return;
  }
  if (!o.measure) {
    t.not_measured = "not measured (--no-measure)";
    return;
  }
  const std::string ncu = find_tool("ncu");
  if (ncu.empty()) {
    t.not_measured = "not measured: Nsight Compute (ncu) is not on PATH or in /usr/local/cuda/bin";
    return;
  }
  const std::string report = (dir / "measured").string();
  std::vector<std::string> profile = {ncu,
                                      "--kernel-name-base",
                                      "mangled",
                                      "--kernel-name",
                                      t.function,
                                      "--launch-skip",
                                      std::to_string(t.launch),
                                      "--launch-count",
                                      "1",
                                      "--section",
                                      "SourceCounters",
                                      "--import-source",
                                      "yes",
                                      "-f",
                                      "-o",
                                      report};
  profile.insert(profile.end(), o.command.begin(), o.command.end());
  const std::string log = (dir / "ncu.log").string();
  const Expected<int> ran = run_process(profile, {}, log);
  const std::string said = read_small_file(log, 1 << 20);
  if (said.find("ERR_NVGPUCTRPERM") != std::string::npos) {
    t.not_measured =
        "not measured: the driver allows GPU performance counters to administrators "
        "only (NVreg_RestrictProfilingToAdminUsers=1)";
    return;
  }
  if (!ran || !fs::exists(report + ".ncu-rep")) {
    t.not_measured = "not measured: Nsight Compute did not profile the launch (" +
                     (ran ? format("exit status %d", *ran) : ran.error()) + "; see ncu's output)";
    return;
  }
  const std::string csv_path = (dir / "measured.csv").string();
  const std::vector<std::string> page = {ncu,      "-i",    report + ".ncu-rep", "--page",
                                         "source", "--csv", "--print-source",    "cuda,sass"};
  if (!run_process(page, {}, csv_path)) {
    t.not_measured = "not measured: ncu could not print the report's Source page";
    return;
  }
  auto kernels = parse_ncu_source_csv(read_small_file(csv_path, 256u << 20));
  if (!kernels || kernels->empty()) {
    t.not_measured =
        "not measured: " + (kernels ? std::string("an empty Source page") : kernels.error());
    return;
  }
  t.measured = measured_as_given(kernels->front());
  t.measured_by = "Nsight Compute (ncu --section SourceCounters), the same launch";
}

}  // namespace

// [SECTION] run_trace

Expected<TraceRun> run_trace(const TraceRunOptions& o) {
  const record::DeviceInfo device = gpu::query_device();
  if (!device.ok()) return Error{"no GPU: " + device.detail};
  const Expected<InjectionFiles> files = injection_files();
  if (!files) return Error{files.error()};
  const std::string nvdisasm = find_tool("nvdisasm");
  if (nvdisasm.empty())
    return Error{"no CUDA toolkit: nvdisasm is not on PATH or in /usr/local/cuda/bin"};
  TemporaryFolder dir;
  if (dir.path.empty())
    return Error{"cannot make a temporary folder in " + fs::temp_directory_path().string()};
  const std::vector<std::string> env = {
      "BANKLAB_TRACE_DIR=" + dir.path.string(),
      "BANKLAB_TRACE_KERNEL=" + o.kernel,
      "BANKLAB_TRACE_LAUNCH=" + std::to_string(o.launch),
      "BANKLAB_TRACE_MAX_RECORDS=" + std::to_string(o.cap),
      "BANKLAB_TRACE_PATCHES=" + files->patches,
      "BANKLAB_TRACE_TIME_LAUNCHES=1",
      "LD_PRELOAD=" + files->library +
          (std::getenv("LD_PRELOAD") ? std::string(":") + std::getenv("LD_PRELOAD")
                                     : std::string())};
  const Expected<int> status = run_process(o.command, env, "", o.program_output_to_stderr);
  if (!status) return Error{status.error()};
  TraceRun run;
  run.program_status = *status;
  const auto meta = read_meta(dir.path / trace_abi::kMetaFile);
  if (const auto e = meta.find("error"); e != meta.end()) {
    const bool permission = e->second.find("ermission") != std::string::npos ||
                            e->second.find("NOT_INITIALIZED") != std::string::npos;
    run.error =
        (permission ? "no permission: Compute Sanitizer: " : "Compute Sanitizer: ") + e->second;
    return run;
  }
  if (!meta.contains("function")) {
    run.error = not_reached(o, dir.path);
    return run;
  }
  record::Trace t;
  t.created_utc = frontend::utc_now();
  t.commit = frontend::build_commit();
  t.driver = frontend::driver_version();
  t.device = meta.contains("device") ? meta.at("device") : device.name;
  t.cc_major = static_cast<int>(number(meta, "cc_major"));
  t.cc_minor = static_cast<int>(number(meta, "cc_minor"));
  for (const std::string& word : o.command)
    t.program += t.program.empty() ? as_given(word) : " " + word;
  t.function = meta.at("function");
  t.kernel = demangle(t.function);
  t.launch = o.launch;
  t.grid = dims3(meta, "grid");
  t.block = dims3(meta, "block");
  t.executed = number(meta, "claimed");
  t.cap = std::max<std::int64_t>(1, number(meta, "capacity"));
  t.traced_ms = std::atof(meta.count("traced_ms") ? meta.at("traced_ms").c_str() : "0");
  t.untraced_ms = median_ms(dir.path / "timing.txt");
  if (!meta.contains("function_pc")) {
    run.error = "Compute Sanitizer did not give the traced function's address";
    return run;
  }
  const std::string raw =
      read_small_file(dir.path / trace_abi::kRecordsFile,
                      static_cast<std::size_t>(t.cap) * sizeof(trace_abi::Record));
  std::vector<trace_abi::Record> records(raw.size() / sizeof(trace_abi::Record));
  if (!records.empty())
    std::memcpy(records.data(), raw.data(), records.size() * sizeof(trace_abi::Record));
  const fs::path listing_file = dir.path / "listing.txt";
  const fs::path cubin = dir.path / trace_abi::kCubinFile;
  run_process({nvdisasm, cubin.string()}, {}, listing_file.string());
  auto listing =
      record::parse_sass_listing(read_small_file(listing_file, kMaxListingBytes), t.function);
  if (!listing) {
    t.notes.push_back("nvdisasm gave no listing of the function: " + listing.error());
    listing = std::vector<record::SassLine>{};
  }
  auto lines = record::read_cubin_lines(read_small_file(cubin, kMaxListingBytes), t.function);
  if (!lines) {
    t.notes.push_back(lines.error());
    lines = record::CubinLines{};
  }
  for (std::string& file : lines->files) file = as_given(file);
  add_records(t, records, std::strtoull(meta.at("function_pc").c_str(), nullptr, 10), *listing,
              *lines);
  t.line_info =
      std::ranges::any_of(t.instructions, [](const auto& in) { return !in.where.empty(); });
  add_sources(t);
  measure(t, o, dir.path);
  run.trace = std::move(t);
  return run;
}

}  // namespace banklab::cli
