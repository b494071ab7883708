// CUPTI range profiler, auto ranges with kernel replay. The sequence the API requires:
//
//   open     cudaSetDevice + cudaFree(0)        the runtime's primary context exists
//            cuCtxGetCurrent (driver entry point through the runtime: no libcuda link)
//            cuptiProfilerInitialize, cuptiProfilerDeviceSupported
//            cuptiDeviceGetChipName, cuptiProfilerGetCounterAvailability
//            cuptiProfilerHost{Initialize, ConfigAddMetrics, GetConfigImage}   the config image
//            cuptiRangeProfilerEnable, cuptiRangeProfilerGetCounterDataSize
//   profile  cuptiRangeProfilerCounterDataImageInitialize, cuptiRangeProfilerSetConfig,
//            cuptiRangeProfilerStart, <launches>, sync, cuptiRangeProfilerStop,
//            cuptiRangeProfilerDecodeData, then cuptiProfilerHostEvaluateToGpuValues per range
//   close    cuptiRangeProfilerDisable, cuptiProfilerHostDeinitialize, cuptiProfilerDeInitialize
//
// Nothing here links libcuda or libcupti, so a machine with neither still starts BankLab: the
// one driver call needed comes through cudaGetDriverEntryPointByVersion, and CUPTI is loaded
// with dlopen (shared_library.hpp) the first time it is needed, its entry points typed by
// CUPTI's own headers. libcupti in turn dlopens libnvperf_host.so by bare name (the metric
// evaluation); when the toolkit's copy in /usr/local/cuda/lib64 is the one used, that folder
// is not on the loader's path, so libnvperf_host.so is loaded from it first.
//
// [SECTION] CUPTI's entry points and errors
// [SECTION] The profiler's state
// [SECTION] A session and a batch
// [SECTION] The public functions
#include "kernels/measure/range_profiler.hpp"

#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/runtime/cuda_support.hpp"
#include "kernels/runtime/shared_library.hpp"

namespace banklab::gpu::detail {

std::mutex& profiler_session_mutex() {
  static std::mutex m;
  return m;
}

namespace {

// [SECTION] CUPTI's entry points and errors

// Every CUPTI function called here, in one list: the table's members and its look-ups.
#define BANKLAB_CUPTI_FUNCTIONS(X)                \
  X(cuptiGetResultString)                         \
  X(cuptiProfilerInitialize)                      \
  X(cuptiProfilerDeInitialize)                    \
  X(cuptiProfilerDeviceSupported)                 \
  X(cuptiDeviceGetChipName)                       \
  X(cuptiProfilerGetCounterAvailability)          \
  X(cuptiProfilerHostInitialize)                  \
  X(cuptiProfilerHostDeinitialize)                \
  X(cuptiProfilerHostConfigAddMetrics)            \
  X(cuptiProfilerHostGetConfigImageSize)          \
  X(cuptiProfilerHostGetConfigImage)              \
  X(cuptiProfilerHostGetNumOfPasses)              \
  X(cuptiProfilerHostEvaluateToGpuValues)         \
  X(cuptiRangeProfilerEnable)                     \
  X(cuptiRangeProfilerDisable)                    \
  X(cuptiRangeProfilerGetCounterDataSize)         \
  X(cuptiRangeProfilerCounterDataImageInitialize) \
  X(cuptiRangeProfilerSetConfig)                  \
  X(cuptiRangeProfilerStart)                      \
  X(cuptiRangeProfilerStop)                       \
  X(cuptiRangeProfilerDecodeData)                 \
  X(cuptiRangeProfilerGetCounterDataInfo)

// One CUPTI entry point: its name, for the messages, and its address, typed by CUPTI's header.
template <class Fn>
struct Entry {
  const char* name;
  Fn fn = nullptr;
};

// CUPTI, loaded once; its entry points are the members named like the functions.
struct Cupti {
#define BANKLAB_CUPTI_ENTRY(function) Entry<decltype(&::function)> function{#function};
  BANKLAB_CUPTI_FUNCTIONS(BANKLAB_CUPTI_ENTRY)
#undef BANKLAB_CUPTI_ENTRY
  std::string unavailable;  // why measuring is impossible without it; empty when loaded
};

Cupti load_cupti() {
  Cupti c;
  SharedLibrary library("CUPTI", "libcupti.so.13", {"libnvperf_host.so"});
#define BANKLAB_CUPTI_FIND(function) library.find(c.function.name, &c.function.fn);
  BANKLAB_CUPTI_FUNCTIONS(BANKLAB_CUPTI_FIND)
#undef BANKLAB_CUPTI_FIND
  if (!library.unavailable().empty()) {
    c.unavailable = library.unavailable() +
                    "; the hardware counters are read through CUDA 13's CUPTI, which comes with "
                    "the CUDA toolkit";
  }
  return c;
}

const Cupti& cupti() {
  static const Cupti c = load_cupti();
  return c;
}

// Every CUPTI parameter block: zeroed, with its size set (CUPTI checks it to stay compatible).
template <class Params>
Params params(std::size_t struct_size) {
  Params p{};
  p.structSize = struct_size;
  return p;
}

std::string cupti_text(CUptiResult r) {
  const char* text = nullptr;
  if (cupti().cuptiGetResultString.fn(r, &text) != CUPTI_SUCCESS || text == nullptr) {
    return "CUPTI error " + std::to_string(static_cast<int>(r));
  }
  return text;
}

// The sentence a user needs for each way profiling can be refused.
std::string cupti_failure(const char* call, CUptiResult r) {
  std::string out = std::string(call) + " failed: " + cupti_text(r);
  switch (r) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
      out +=
          ". This user may not read the GPU's performance counters: run BankLab as root (or "
          "with CAP_SYS_ADMIN), or let all users profile by loading the nvidia kernel module "
          "with NVreg_RestrictProfilingToAdminUsers=0 "
          "(https://developer.nvidia.com/ERR_NVGPUCTRPERM)";
      break;
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
      out += ". Performance counters are not available on this virtual GPU";
      break;
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
      out += ". Performance counters cannot be read on a MIG instance";
      break;
    case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
      out += ". Profiling is disabled while confidential computing is on";
      break;
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
      out += ". Another profiler (Nsight Compute, Nsight Systems) is attached to this process";
      break;
    default:
      break;
  }
  return out;
}

// The status check of every CUPTI call: a failure throws CudaFailure with cupti_failure()'s
// sentence, naming the call (and `context`), which open() and profile() return as their Error.
void check_cupti(CUptiResult r, const char* call, const std::string& context = {}) {
  if (r != CUPTI_SUCCESS) throw CudaFailure(cupti_failure(call, r) + context);
}

// Calls a CUPTI entry point with its parameter block, checked.
template <class Fn, class Params>
void call(const Entry<Fn>& entry, Params& block, const std::string& context = {}) {
  check_cupti(entry.fn(&block), entry.name, context);
}

// Runs `body`, which reports a failed CUDA or CUPTI call by throwing CudaFailure, as an Expected.
template <class Body>
auto guarded(const Body& body) -> Expected<decltype(body())> {
  try {
    return body();
  } catch (const CudaFailure& failure) {
    return Error{failure.what()};
  }
}

const char* level_name(CUpti_Profiler_Support_Level level) {
  switch (level) {
    case CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED:
      return "unsupported";
    case CUPTI_PROFILER_CONFIGURATION_DISABLED:
      return "disabled";
    case CUPTI_PROFILER_CONFIGURATION_SUPPORTED:
      return "supported";
    default:
      return "unknown";
  }
}

// Names every feature that keeps the profiler off this device.
std::string unsupported_reason(const CUpti_Profiler_DeviceSupported_Params& p) {
  std::string reasons;
  const auto add = [&](const char* what, CUpti_Profiler_Support_Level level) {
    if (level == CUPTI_PROFILER_CONFIGURATION_SUPPORTED) return;
    if (!reasons.empty()) reasons += ", ";
    reasons += std::string(what) + " " + level_name(level);
  };
  add("architecture", p.architecture);
  add("SLI", p.sli);
  add("vGPU", p.vGpu);
  add("confidential computing", p.confidentialCompute);
  add("CMP", p.cmp);
  add("WSL", p.wsl);
  return "CUPTI's range profiler does not support this device or system (" +
         (reasons.empty() ? std::string("no reason given") : reasons) + ")";
}

}  // namespace

// [SECTION] The profiler's state

struct RangeProfiler::State {
  CUcontext ctx = nullptr;
  bool cupti_initialized = false;
  CUpti_Profiler_Host_Object* host = nullptr;
  CUpti_RangeProfiler_Object* profiler = nullptr;
  std::vector<std::string> metrics;
  std::vector<const char*> metric_names;  // pointers into `metrics`
  std::vector<std::uint8_t> config;
  std::vector<std::uint8_t> counter_data;
  int max_launches = 0;
  int passes = 0;

  ~State() {
    const Cupti& c = cupti();
    if (profiler != nullptr) {
      auto p = params<CUpti_RangeProfiler_Disable_Params>(
          CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
      p.pRangeProfilerObject = profiler;
      c.cuptiRangeProfilerDisable.fn(&p);
    }
    if (host != nullptr) {
      auto p = params<CUpti_Profiler_Host_Deinitialize_Params>(
          CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
      p.pHostObject = host;
      c.cuptiProfilerHostDeinitialize.fn(&p);
    }
    if (cupti_initialized) {
      auto p = params<CUpti_Profiler_DeInitialize_Params>(
          CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE);
      c.cuptiProfilerDeInitialize.fn(&p);
    }
  }
};

namespace {

// The current context of the runtime's device, through the driver entry point (no libcuda link).
CUcontext current_context() {
  void* entry = nullptr;
  cudaDriverEntryPointQueryResult found{};
  if (cudaError_t err = cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &entry, 12000,
                                                         cudaEnableDefault, &found);
      err != cudaSuccess || found != cudaDriverEntryPointSuccess || entry == nullptr) {
    throw CudaFailure("the CUDA driver does not provide cuCtxGetCurrent (" +
                      cuda_error_text("cudaGetDriverEntryPointByVersion", err) + ")");
  }
  CUcontext ctx = nullptr;
  if (CUresult r = reinterpret_cast<CUresult (*)(CUcontext*)>(entry)(&ctx);
      r != CUDA_SUCCESS || ctx == nullptr) {
    throw CudaFailure("cuCtxGetCurrent failed with CUresult " +
                      std::to_string(static_cast<int>(r)));
  }
  return ctx;
}

// [SECTION] A session and a batch

// open()'s sequence, filling `s`; what it has set up, `s`'s destructor takes down.
void open_session(RangeProfiler::State& s, int device) {
  const Cupti& c = cupti();
  check(cudaSetDevice(device), "cudaSetDevice");
  check(cudaFree(nullptr), "cudaFree(0) (creating the CUDA context)");
  s.ctx = current_context();

  auto init =
      params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
  call(c.cuptiProfilerInitialize, init);
  s.cupti_initialized = true;

  auto supported = params<CUpti_Profiler_DeviceSupported_Params>(
      CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE);
  supported.cuDevice = device;
  supported.api = CUPTI_PROFILER_RANGE_PROFILING;
  call(c.cuptiProfilerDeviceSupported, supported);
  if (supported.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
    throw CudaFailure(unsupported_reason(supported));

  auto chip = params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  chip.deviceIndex = static_cast<std::size_t>(device);
  call(c.cuptiDeviceGetChipName, chip);

  auto avail = params<CUpti_Profiler_GetCounterAvailability_Params>(
      CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
  avail.ctx = s.ctx;
  call(c.cuptiProfilerGetCounterAvailability, avail);  // the image's size
  std::vector<std::uint8_t> availability(avail.counterAvailabilityImageSize);
  avail.pCounterAvailabilityImage = availability.data();
  call(c.cuptiProfilerGetCounterAvailability, avail);

  auto host = params<CUpti_Profiler_Host_Initialize_Params>(
      CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
  host.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  host.pChipName = chip.pChipName;
  host.pCounterAvailabilityImage = availability.data();
  call(c.cuptiProfilerHostInitialize, host);
  s.host = host.pHostObject;

  auto add = params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(
      CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
  add.pHostObject = s.host;
  add.ppMetricNames = s.metric_names.data();
  add.numMetrics = s.metric_names.size();
  call(c.cuptiProfilerHostConfigAddMetrics, add, std::string(" (chip ") + chip.pChipName + ")");
  auto size = params<CUpti_Profiler_Host_GetConfigImageSize_Params>(
      CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
  size.pHostObject = s.host;
  call(c.cuptiProfilerHostGetConfigImageSize, size);
  s.config.resize(size.configImageSize);
  auto image = params<CUpti_Profiler_Host_GetConfigImage_Params>(
      CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
  image.pHostObject = s.host;
  image.configImageSize = s.config.size();
  image.pConfigImage = s.config.data();
  call(c.cuptiProfilerHostGetConfigImage, image);
  auto passes = params<CUpti_Profiler_Host_GetNumOfPasses_Params>(
      CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE);
  passes.configImageSize = s.config.size();
  passes.pConfigImage = s.config.data();
  call(c.cuptiProfilerHostGetNumOfPasses, passes);
  s.passes = static_cast<int>(passes.numOfPasses);

  auto enable =
      params<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
  enable.ctx = s.ctx;
  call(c.cuptiRangeProfilerEnable, enable);
  s.profiler = enable.pRangeProfilerObject;

  auto data = params<CUpti_RangeProfiler_GetCounterDataSize_Params>(
      CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
  data.pRangeProfilerObject = s.profiler;
  data.pMetricNames = s.metric_names.data();
  data.numMetrics = s.metric_names.size();
  data.maxNumOfRanges = static_cast<std::size_t>(s.max_launches);
  data.maxNumRangeTreeNodes = static_cast<std::uint32_t>(s.max_launches);
  call(c.cuptiRangeProfilerGetCounterDataSize, data);
  s.counter_data.resize(data.counterDataSize);
}

// profile()'s batch: configure, run `enqueue` between start and stop, decode, evaluate.
std::vector<std::vector<double>> profile_batch(RangeProfiler::State& s, int launches,
                                               const std::function<Expected<void>()>& enqueue) {
  const Cupti& c = cupti();
  auto init = params<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
  init.pRangeProfilerObject = s.profiler;
  init.counterDataSize = s.counter_data.size();
  init.pCounterData = s.counter_data.data();
  call(c.cuptiRangeProfilerCounterDataImageInitialize, init);

  auto config = params<CUpti_RangeProfiler_SetConfig_Params>(
      CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
  config.pRangeProfilerObject = s.profiler;
  config.configSize = s.config.size();
  config.pConfig = s.config.data();
  config.counterDataImageSize = s.counter_data.size();
  config.pCounterDataImage = s.counter_data.data();
  config.range = CUPTI_AutoRange;
  config.replayMode = CUPTI_KernelReplay;
  config.maxRangesPerPass = static_cast<std::size_t>(launches);
  config.numNestingLevels = 1;
  config.minNestingLevel = 1;
  config.passIndex = 0;
  config.targetNestingLevel = 1;
  call(c.cuptiRangeProfilerSetConfig, config);

  auto start =
      params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
  start.pRangeProfilerObject = s.profiler;
  call(c.cuptiRangeProfilerStart, start);
  // The profiler is stopped whatever the launches did; their failure is the one reported.
  const Expected<void> launched = enqueue();
  const cudaError_t sync = cudaDeviceSynchronize();
  auto stop = params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
  stop.pRangeProfilerObject = s.profiler;
  const CUptiResult stopped = c.cuptiRangeProfilerStop.fn(&stop);
  if (!launched) throw CudaFailure(launched.error());
  check(sync, "cudaDeviceSynchronize");
  check_cupti(stopped, c.cuptiRangeProfilerStop.name);
  if (!stop.isAllPassSubmitted) {
    throw CudaFailure(
        "CUPTI wanted another replay pass after kernel replay; the metrics do not fit "
        "one kernel-replay session");
  }

  auto decode = params<CUpti_RangeProfiler_DecodeData_Params>(
      CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
  decode.pRangeProfilerObject = s.profiler;
  call(c.cuptiRangeProfilerDecodeData, decode);
  if (decode.numOfRangeDropped != 0) {
    throw CudaFailure("CUPTI dropped " + std::to_string(decode.numOfRangeDropped) + " of " +
                      std::to_string(launches) + " ranges");
  }
  auto info = params<CUpti_RangeProfiler_GetCounterDataInfo_Params>(
      CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
  info.pCounterDataImage = s.counter_data.data();
  info.counterDataImageSize = s.counter_data.size();
  call(c.cuptiRangeProfilerGetCounterDataInfo, info);
  // One range per launch is what ties a value to its access: anything else is an error.
  if (info.numTotalRanges != static_cast<std::size_t>(launches)) {
    throw CudaFailure("CUPTI recorded " + std::to_string(info.numTotalRanges) + " ranges for " +
                      std::to_string(launches) + " kernel launches");
  }

  std::vector<std::vector<double>> values(static_cast<std::size_t>(launches),
                                          std::vector<double>(s.metric_names.size()));
  for (std::size_t range = 0; range < values.size(); ++range) {
    auto eval = params<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
        CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
    eval.pHostObject = s.host;
    eval.pCounterDataImage = s.counter_data.data();
    eval.counterDataImageSize = s.counter_data.size();
    eval.rangeIndex = range;
    eval.ppMetricNames = s.metric_names.data();
    eval.numMetrics = s.metric_names.size();
    eval.pMetricValues = values[range].data();
    call(c.cuptiProfilerHostEvaluateToGpuValues, eval);
  }
  return values;
}

}  // namespace

// [SECTION] The public functions

const std::string& cupti_unavailable_reason() {
  return cupti().unavailable;
}

RangeProfiler::RangeProfiler(std::unique_ptr<State> state) : state_(std::move(state)) {}
RangeProfiler::~RangeProfiler() = default;
int RangeProfiler::passes() const {
  return state_->passes;
}

Expected<std::unique_ptr<RangeProfiler>> RangeProfiler::open(int device,
                                                             std::vector<std::string> metrics,
                                                             int max_launches) {
  if (const std::string& why = cupti_unavailable_reason(); !why.empty()) return Error{why};
  auto s = std::make_unique<State>();
  s->metrics = std::move(metrics);
  for (const std::string& m : s->metrics) s->metric_names.push_back(m.c_str());
  s->max_launches = max_launches;
  return guarded([&] {
    open_session(*s, device);
    return std::unique_ptr<RangeProfiler>(new RangeProfiler(std::move(s)));
  });
}

Expected<std::vector<std::vector<double>>> RangeProfiler::profile(
    int launches, const std::function<Expected<void>()>& enqueue) {
  if (launches < 1 || launches > state_->max_launches) {
    return Error{"a batch holds 1 to " + std::to_string(state_->max_launches) + " launches, not " +
                 std::to_string(launches)};
  }
  return guarded([&] { return profile_batch(*state_, launches, enqueue); });
}

}  // namespace banklab::gpu::detail
