// libbanklab_trace.so: the injection library `banklab trace` preloads into the user's program
// (LD_PRELOAD). It subscribes to Compute Sanitizer's callbacks when it is loaded, counts the
// launches of the chosen kernel. Each module is patched with the callbacks of trace_patches.cu
// as it loads; they do nothing (null user data) until the chosen launch, which alone gets a
// device buffer. When it ends the records are copied back and the patches removed: later
// launches run the code as compiled.
//
// It talks to `banklab trace` through the environment (BANKLAB_TRACE_*, set by the command) and
// the folder BANKLAB_TRACE_DIR (trace_record.hpp lists its files). It never changes what the
// program computes, prints or returns; a failure is written to meta.txt as `error = ...`.
#include <cuda.h>
#include <sanitizer.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "kernels/trace_record.hpp"

namespace {

using banklab::trace_abi::Buffer;
using banklab::trace_abi::Record;

struct Settings {
  std::string dir;             // BANKLAB_TRACE_DIR: where the files go
  std::string kernel;          // BANKLAB_TRACE_KERNEL: a name, or empty for the first kernel
  std::uint64_t launch = 0;    // BANKLAB_TRACE_LAUNCH: which launch of it, from 0
  std::uint64_t capacity = 0;  // BANKLAB_TRACE_MAX_RECORDS: warp-instructions kept
  std::string patches;         // BANKLAB_TRACE_PATCHES: the callbacks' fatbin
  bool time_launches = false;  // BANKLAB_TRACE_TIME_LAUNCHES: time the kernel's later launches
};

// The launch being traced, between its begin and end callbacks.
struct ActiveLaunch {
  CUcontext context = nullptr;
  CUmodule module = nullptr;
  CUfunction function = nullptr;
  std::string name;
  void* device_buffer = nullptr;
  std::uint32_t grid[3] = {}, block[3] = {};
  std::chrono::steady_clock::time_point begun;
};

struct State {
  std::recursive_mutex mutex;  // recursive: the sanitizer calls made inside a callback call back
  Settings settings;
  Sanitizer_SubscriberHandle handle = nullptr;
  std::map<CUmodule, std::vector<char>> cubins;  // every loaded module's image
  std::set<CUcontext> contexts_with_patches;
  std::set<CUmodule> patched;    // until the chosen launch has ended
  bool loading_patches = false;  // the callbacks' own module is loading
  std::set<std::string> kernels_seen;
  std::uint64_t matching_launches = 0;
  bool traced = false;  // the chosen launch is done: nothing more is patched
  bool active = false;
  ActiveLaunch launch;
  std::map<CUfunction, std::chrono::steady_clock::time_point> timing_begun;
  std::map<CUcontext, void*> timing_scratch;  // a few device bytes to copy back after a launch
};

State& state() {
  static State* s = new State;  // never destroyed: callbacks may come during exit
  return *s;
}

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

std::string path(const char* file) {
  return state().settings.dir + "/" + file;
}

void append_line(const char* file, const std::string& line) {
  if (FILE* f = std::fopen(path(file).c_str(), "a")) {
    std::fputs((line + "\n").c_str(), f);
    std::fclose(f);
  }
}

void write_error(const std::string& message) {
  append_line(banklab::trace_abi::kMetaFile, "error = " + message);
}

std::string sanitizer_error(const char* call, SanitizerResult r) {
  const char* text = nullptr;
  sanitizerGetResultString(r, &text);
  return std::string(call) + " failed: " + (text ? text : "unknown error") + " (" +
         std::to_string(static_cast<int>(r)) + ")";
}

// Whether a launched function is the one asked for: its mangled name, or the plain name
// inside it (_Z12histogram256PKhiPj is histogram256: the length before the name makes the match
// whole), or the first kernel when none was named.
bool is_chosen_kernel(const std::string& mangled, const std::string& wanted) {
  if (wanted.empty() || mangled == wanted) return true;
  return mangled.rfind("_Z" + std::to_string(wanted.size()) + wanted, 0) == 0;
}

std::string device_description(CUcontext context) {
  cuCtxPushCurrent(context);
  CUdevice device = 0;
  std::string text;
  if (cuCtxGetDevice(&device) == CUDA_SUCCESS) {
    char name[256] = {};
    int major = 0, minor = 0, sms = 0;
    cuDeviceGetName(name, sizeof name, device);
    cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
    cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
    cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device);
    text = "device = " + std::string(name) + "\ncc_major = " + std::to_string(major) +
           "\ncc_minor = " + std::to_string(minor) + "\nsm_count = " + std::to_string(sms);
  }
  int cuda_version = 0;
  cuDriverGetVersion(&cuda_version);
  text += "\ndriver_cuda_version = " + std::to_string(cuda_version);
  CUcontext popped = nullptr;
  cuCtxPopCurrent(&popped);
  return text;
}

// Patches a module's shared-memory, matrix and async-copy instructions with the callbacks
// (NVIDIA's MemoryTracker sample patches as a module loads, too). Until the chosen launch gives
// them a buffer they return at once: a launch's callbacks get null user data by default.
bool patch_module(State& s, CUcontext context, CUmodule module) {
  if (s.contexts_with_patches.insert(context).second) {
    s.loading_patches = true;  // the patches' own module loads now: it is not patched
    const SanitizerResult r = sanitizerAddPatchesFromFile(s.settings.patches.c_str(), context);
    s.loading_patches = false;
    if (r != SANITIZER_SUCCESS) {
      write_error(sanitizer_error("sanitizerAddPatchesFromFile", r) + " for " + s.settings.patches);
      return false;
    }
  }
  const struct {
    Sanitizer_InstructionId id;
    const char* callback;
  } points[] = {
      {SANITIZER_INSTRUCTION_SHARED_MEMORY_ACCESS, "banklab_trace_shared"},
      {SANITIZER_INSTRUCTION_MATRIX_MEMORY_ACCESS, "banklab_trace_matrix"},
      {SANITIZER_INSTRUCTION_MEMCPY_ASYNC, "banklab_trace_async_copy"},
  };
  for (const auto& p : points) {
    const SanitizerResult r = sanitizerPatchInstructions(p.id, module, p.callback);
    if (r != SANITIZER_SUCCESS) {
      write_error(sanitizer_error("sanitizerPatchInstructions", r) + " for " + p.callback);
      return false;
    }
  }
  const SanitizerResult r = sanitizerPatchModule(module);
  if (r != SANITIZER_SUCCESS) {
    write_error(sanitizer_error("sanitizerPatchModule", r));
    return false;
  }
  s.patched.insert(module);
  return true;
}

void begin_traced_launch(State& s, const Sanitizer_LaunchData& ld) {
  s.traced = true;  // whatever happens, only this launch is ever tried
  if (!s.patched.contains(ld.module)) {
    write_error("the traced kernel's module was not patched when it loaded");
    return;
  }
  const std::size_t bytes = sizeof(Buffer) + s.settings.capacity * sizeof(Record);
  void* device = nullptr;
  SanitizerResult r = sanitizerAlloc(ld.context, &device, bytes);
  if (r != SANITIZER_SUCCESS) {
    write_error(sanitizer_error("sanitizerAlloc", r) + " of " + std::to_string(bytes) + " bytes");
    return;
  }
  Buffer header;
  header.capacity = s.settings.capacity;
  header.records = reinterpret_cast<Record*>(static_cast<char*>(device) + sizeof(Buffer));
  r = sanitizerMemcpyHostToDeviceAsync(device, &header, sizeof header, ld.hStream);
  if (r == SANITIZER_SUCCESS)
    r = sanitizerSetLaunchCallbackData(ld.hLaunch, ld.function, ld.hStream, device);
  if (r != SANITIZER_SUCCESS) {
    write_error(sanitizer_error("setting up the trace buffer", r));
    return;
  }
  s.active = true;
  s.launch = ActiveLaunch{ld.context,
                          ld.module,
                          ld.function,
                          ld.functionName,
                          device,
                          {ld.gridDim_x, ld.gridDim_y, ld.gridDim_z},
                          {ld.blockDim_x, ld.blockDim_y, ld.blockDim_z},
                          std::chrono::steady_clock::now()};
  const auto cubin = s.cubins.find(ld.module);
  if (cubin != s.cubins.end()) {
    if (FILE* f = std::fopen(path(banklab::trace_abi::kCubinFile).c_str(), "wb")) {
      std::fwrite(cubin->second.data(), 1, cubin->second.size(), f);
      std::fclose(f);
    }
  }
}

// Waits for everything on the launch's stream (the launch itself) by copying a few bytes back:
// a copy to the host returns once it is done, and it is ordered after the launch.
SanitizerResult wait_for_stream(CUcontext context, Sanitizer_StreamHandle stream, void* from) {
  void* pinned = nullptr;
  SanitizerResult r = sanitizerAllocHost(context, &pinned, sizeof(Buffer));
  if (r == SANITIZER_SUCCESS) r = sanitizerMemcpyDeviceToHost(pinned, from, sizeof(Buffer), stream);
  if (pinned) sanitizerFreeHost(context, pinned);
  return r;
}

std::string launch_meta(const State& s, std::uint64_t kept, const Buffer& header, double ms) {
  const ActiveLaunch& a = s.launch;
  std::string meta = "function = " + a.name + "\nlaunch = " + std::to_string(s.settings.launch);
  meta += "\ngrid = " + std::to_string(a.grid[0]) + "," + std::to_string(a.grid[1]) + "," +
          std::to_string(a.grid[2]);
  meta += "\nblock = " + std::to_string(a.block[0]) + "," + std::to_string(a.block[1]) + "," +
          std::to_string(a.block[2]);
  meta += "\nrecords = " + std::to_string(kept) + "\nclaimed = " + std::to_string(header.next) +
          "\ncapacity = " + std::to_string(header.capacity) +
          "\ntraced_ms = " + std::to_string(ms) + "\n" + device_description(a.context);
  std::uint64_t function_pc = 0, function_size = 0;
  if (sanitizerGetFunctionPcAndSize(a.module, a.name.c_str(), &function_pc, &function_size) ==
      SANITIZER_SUCCESS) {
    meta += "\nfunction_pc = " + std::to_string(function_pc) +
            "\nfunction_size = " + std::to_string(function_size);
  }
  return meta;
}

void end_traced_launch(State& s, const Sanitizer_LaunchData& ld) {
  s.active = false;
  ActiveLaunch& a = s.launch;
  // Copies to the host from a launch callback must land in pinned memory (sanitizer_memory.h).
  Buffer* header = nullptr;
  SanitizerResult r =
      sanitizerAllocHost(a.context, reinterpret_cast<void**>(&header), sizeof(Buffer));
  if (r == SANITIZER_SUCCESS)
    r = sanitizerMemcpyDeviceToHost(header, a.device_buffer, sizeof(Buffer), ld.hStream);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a.begun).count();
  if (r != SANITIZER_SUCCESS) {
    write_error(sanitizer_error("reading the trace buffer", r));
    return;
  }
  const std::uint64_t kept = header->next < header->capacity ? header->next : header->capacity;
  Record* records = nullptr;
  if (kept > 0) {
    r = sanitizerAllocHost(a.context, reinterpret_cast<void**>(&records), kept * sizeof(Record));
    if (r == SANITIZER_SUCCESS)
      r = sanitizerMemcpyDeviceToHost(records, header->records, kept * sizeof(Record), ld.hStream);
    if (r != SANITIZER_SUCCESS) {
      write_error(sanitizer_error("reading the records", r));
      return;
    }
  }
  if (FILE* f = std::fopen(path(banklab::trace_abi::kRecordsFile).c_str(), "wb")) {
    if (kept > 0) std::fwrite(records, sizeof(Record), kept, f);
    std::fclose(f);
  }
  append_line(banklab::trace_abi::kMetaFile, launch_meta(s, kept, *header, ms));
  for (CUmodule m : s.patched) sanitizerUnpatchModule(m);  // later launches run as compiled
  s.patched.clear();
  if (records) sanitizerFreeHost(a.context, records);
  sanitizerFreeHost(a.context, header);
  sanitizerFree(a.context, a.device_buffer);
}

void on_launch(State& s, Sanitizer_CallbackId cbid, const Sanitizer_LaunchData& ld) {
  const std::string name = ld.functionName ? ld.functionName : "";
  if (cbid == SANITIZER_CBID_LAUNCH_BEGIN) {
    if (s.kernels_seen.insert(name).second) append_line(banklab::trace_abi::kKernelsFile, name);
    if (!is_chosen_kernel(name, s.settings.kernel)) return;
    // Launches after the traced one run unpatched: they are the untraced time.
    if (s.traced && s.settings.time_launches)
      s.timing_begun[ld.function] = std::chrono::steady_clock::now();
    if (!s.traced && s.matching_launches++ == s.settings.launch) begin_traced_launch(s, ld);
    return;
  }
  if (cbid != SANITIZER_CBID_LAUNCH_END) return;
  if (s.active && ld.function == s.launch.function) {
    end_traced_launch(s, ld);
    return;
  }
  const auto timing = s.timing_begun.find(ld.function);
  if (timing != s.timing_begun.end()) {
    void*& scratch = s.timing_scratch[ld.context];
    if (scratch == nullptr) sanitizerAlloc(ld.context, &scratch, sizeof(Buffer));
    wait_for_stream(ld.context, ld.hStream, scratch);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - timing->second)
            .count();
    s.timing_begun.erase(timing);
    append_line("timing.txt", std::to_string(ms));
  }
}

void callback(void*, Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid, const void* data) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  if (domain == SANITIZER_CB_DOMAIN_RESOURCE) {
    const auto* md = static_cast<const Sanitizer_ResourceModuleData*>(data);
    if (cbid == SANITIZER_CBID_RESOURCE_MODULE_LOADED && !s.loading_patches) {
      if (md->pCubin && md->cubinSize > 0)
        s.cubins[md->module].assign(md->pCubin, md->pCubin + md->cubinSize);
      if (!s.traced) patch_module(s, md->context, md->module);
    } else if (cbid == SANITIZER_CBID_RESOURCE_MODULE_UNLOAD_STARTING) {
      s.cubins.erase(md->module);
    }
  } else if (domain == SANITIZER_CB_DOMAIN_LAUNCH) {
    on_launch(s, cbid, *static_cast<const Sanitizer_LaunchData*>(data));
  }
}

// Subscribes when the library is loaded, before the program's main().
__attribute__((constructor)) void subscribe() {
  State& s = state();
  s.settings.dir = env("BANKLAB_TRACE_DIR");
  if (s.settings.dir.empty()) return;  // preloaded by something else than banklab trace
  s.settings.kernel = env("BANKLAB_TRACE_KERNEL");
  s.settings.launch = std::strtoull(env("BANKLAB_TRACE_LAUNCH").c_str(), nullptr, 10);
  s.settings.capacity = std::strtoull(env("BANKLAB_TRACE_MAX_RECORDS").c_str(), nullptr, 10);
  if (s.settings.capacity == 0) s.settings.capacity = 1;
  s.settings.patches = env("BANKLAB_TRACE_PATCHES");
  s.settings.time_launches = !env("BANKLAB_TRACE_TIME_LAUNCHES").empty();
  SanitizerResult r = sanitizerSubscribe(&s.handle, callback, nullptr);
  if (r == SANITIZER_SUCCESS) r = sanitizerEnableDomain(1, s.handle, SANITIZER_CB_DOMAIN_RESOURCE);
  if (r == SANITIZER_SUCCESS) r = sanitizerEnableDomain(1, s.handle, SANITIZER_CB_DOMAIN_LAUNCH);
  if (r != SANITIZER_SUCCESS) write_error(sanitizer_error("sanitizerSubscribe", r));
}

}  // namespace
