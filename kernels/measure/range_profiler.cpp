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
// Nothing here links libcuda: libcupti loads without it, and the one driver call needed comes
// through cudaGetDriverEntryPointByVersion, so a machine with no driver still starts BankLab.
#include "range_profiler.hpp"

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

#include "cuda_support.hpp"

namespace banklab::gpu::detail {

std::mutex& profiler_session_mutex() {
  static std::mutex m;
  return m;
}

namespace {

// Every CUPTI parameter block: zeroed, with its size set (CUPTI checks it to stay compatible).
template <class Params>
Params params(std::size_t struct_size) {
  Params p{};
  p.structSize = struct_size;
  return p;
}

std::string cupti_text(CUptiResult r) {
  const char* text = nullptr;
  if (cuptiGetResultString(r, &text) != CUPTI_SUCCESS || text == nullptr) {
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
    if (profiler != nullptr) {
      auto p = params<CUpti_RangeProfiler_Disable_Params>(
          CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
      p.pRangeProfilerObject = profiler;
      cuptiRangeProfilerDisable(&p);
    }
    if (host != nullptr) {
      auto p = params<CUpti_Profiler_Host_Deinitialize_Params>(
          CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
      p.pHostObject = host;
      cuptiProfilerHostDeinitialize(&p);
    }
    if (cupti_initialized) {
      auto p = params<CUpti_Profiler_DeInitialize_Params>(
          CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE);
      cuptiProfilerDeInitialize(&p);
    }
  }
};

RangeProfiler::RangeProfiler(std::unique_ptr<State> state) : state_(std::move(state)) {}
RangeProfiler::~RangeProfiler() = default;
int RangeProfiler::passes() const {
  return state_->passes;
}

Expected<std::unique_ptr<RangeProfiler>> RangeProfiler::open(int device,
                                                             std::vector<std::string> metrics,
                                                             int max_launches) {
  auto s = std::make_unique<State>();
  s->metrics = std::move(metrics);
  for (const std::string& m : s->metrics) s->metric_names.push_back(m.c_str());
  s->max_launches = max_launches;

  if (cudaError_t err = cudaSetDevice(device); err != cudaSuccess)
    return Error{cuda_error_text("cudaSetDevice", err)};
  if (cudaError_t err = cudaFree(nullptr); err != cudaSuccess)
    return Error{cuda_error_text("cudaFree(0) (creating the CUDA context)", err)};
  void* entry = nullptr;
  cudaDriverEntryPointQueryResult found{};
  if (cudaError_t err = cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &entry, 12000,
                                                         cudaEnableDefault, &found);
      err != cudaSuccess || found != cudaDriverEntryPointSuccess || entry == nullptr) {
    return Error{"the CUDA driver does not provide cuCtxGetCurrent (" +
                 cuda_error_text("cudaGetDriverEntryPointByVersion", err) + ")"};
  }
  if (CUresult r = reinterpret_cast<CUresult (*)(CUcontext*)>(entry)(&s->ctx);
      r != CUDA_SUCCESS || s->ctx == nullptr) {
    return Error{"cuCtxGetCurrent failed with CUresult " + std::to_string(static_cast<int>(r))};
  }

  auto init =
      params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
  if (CUptiResult r = cuptiProfilerInitialize(&init); r != CUPTI_SUCCESS)
    return Error{cupti_failure("cuptiProfilerInitialize", r)};
  s->cupti_initialized = true;

  auto supported = params<CUpti_Profiler_DeviceSupported_Params>(
      CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE);
  supported.cuDevice = device;
  supported.api = CUPTI_PROFILER_RANGE_PROFILING;
  if (CUptiResult r = cuptiProfilerDeviceSupported(&supported); r != CUPTI_SUCCESS)
    return Error{cupti_failure("cuptiProfilerDeviceSupported", r)};
  if (supported.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
    return Error{unsupported_reason(supported)};

  auto chip = params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  chip.deviceIndex = static_cast<std::size_t>(device);
  if (CUptiResult r = cuptiDeviceGetChipName(&chip); r != CUPTI_SUCCESS)
    return Error{cupti_failure("cuptiDeviceGetChipName", r)};

  auto avail = params<CUpti_Profiler_GetCounterAvailability_Params>(
      CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
  avail.ctx = s->ctx;
  if (CUptiResult r = cuptiProfilerGetCounterAvailability(&avail); r != CUPTI_SUCCESS)
    return Error{cupti_failure("cuptiProfilerGetCounterAvailability", r)};
  std::vector<std::uint8_t> availability(avail.counterAvailabilityImageSize);
  avail.pCounterAvailabilityImage = availability.data();
  if (CUptiResult r = cuptiProfilerGetCounterAvailability(&avail); r != CUPTI_SUCCESS)
    return Error{cupti_failure("cuptiProfilerGetCounterAvailability", r)};

  auto host = params<CUpti_Profiler_Host_Initialize_Params>(
      CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
  host.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  host.pChipName = chip.pChipName;
  host.pCounterAvailabilityImage = availability.data();
  if (CUptiResult r = cuptiProfilerHostInitialize(&host); r != CUPTI_SUCCESS)
    return Error{cupti_failure("cuptiProfilerHostInitialize", r)};
  s->host = host.pHostObject;

  auto add = params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(
      CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
  add.pHostObject = s->host;
  add.ppMetricNames = s->metric_names.data();
  add.numMetrics = s->metric_names.size();
  if (CUptiResult r = cuptiProfilerHostConfigAddMetrics(&add); r != CUPTI_SUCCESS) {
    return Error{cupti_failure("cuptiProfilerHostConfigAddMetrics", r) + " (chip " +
                 chip.pChipName + ")"};
  }
  auto size = params<CUpti_Profiler_Host_GetConfigImageSize_Params>(
      CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
  size.pHostObject = s->host;
  if (CUptiResult r = cuptiProfilerHostGetConfigImageSize(&size); r != CUPTI_SUCCESS)
    return Error{cupti_failure("cuptiProfilerHostGetConfigImageSize", r)};
  s->config.resize(size.configImageSize);
  auto image = params<CUpti_Profiler_Host_GetConfigImage_Params>(
      CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
  image.pHostObject = s->host;
  image.configImageSize = s->config.size();
  image.pConfigImage = s->config.data();
  if (CUptiResult r = cuptiProfilerHostGetConfigImage(&image); r != CUPTI_SUCCESS)
    return Error{cupti_failure("cuptiProfilerHostGetConfigImage", r)};
  auto passes = params<CUpti_Profiler_Host_GetNumOfPasses_Params>(
      CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE);
  passes.configImageSize = s->config.size();
  passes.pConfigImage = s->config.data();
  if (CUptiResult r = cuptiProfilerHostGetNumOfPasses(&passes); r != CUPTI_SUCCESS)
    return Error{cupti_failure("cuptiProfilerHostGetNumOfPasses", r)};
  s->passes = static_cast<int>(passes.numOfPasses);

  auto enable =
      params<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
  enable.ctx = s->ctx;
  if (CUptiResult r = cuptiRangeProfilerEnable(&enable); r != CUPTI_SUCCESS)
    return Error{cupti_failure("cuptiRangeProfilerEnable", r)};
  s->profiler = enable.pRangeProfilerObject;

  auto data = params<CUpti_RangeProfiler_GetCounterDataSize_Params>(
      CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
  data.pRangeProfilerObject = s->profiler;
  data.pMetricNames = s->metric_names.data();
  data.numMetrics = s->metric_names.size();
  data.maxNumOfRanges = static_cast<std::size_t>(max_launches);
  data.maxNumRangeTreeNodes = static_cast<std::uint32_t>(max_launches);
  if (CUptiResult r = cuptiRangeProfilerGetCounterDataSize(&data); r != CUPTI_SUCCESS)
    return Error{cupti_failure("cuptiRangeProfilerGetCounterDataSize", r)};
  s->counter_data.resize(data.counterDataSize);

  return std::unique_ptr<RangeProfiler>(new RangeProfiler(std::move(s)));
}

Expected<std::vector<std::vector<double>>> RangeProfiler::profile(
    int launches, const std::function<std::string()>& enqueue) {
  State& s = *state_;
  if (launches < 1 || launches > s.max_launches) {
    return Error{"a batch holds 1 to " + std::to_string(s.max_launches) + " launches, not " +
                 std::to_string(launches)};
  }
  auto init = params<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
  init.pRangeProfilerObject = s.profiler;
  init.counterDataSize = s.counter_data.size();
  init.pCounterData = s.counter_data.data();
  if (CUptiResult r = cuptiRangeProfilerCounterDataImageInitialize(&init); r != CUPTI_SUCCESS)
    return Error{cupti_failure("cuptiRangeProfilerCounterDataImageInitialize", r)};

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
  if (CUptiResult r = cuptiRangeProfilerSetConfig(&config); r != CUPTI_SUCCESS)
    return Error{cupti_failure("cuptiRangeProfilerSetConfig", r)};

  auto start =
      params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
  start.pRangeProfilerObject = s.profiler;
  if (CUptiResult r = cuptiRangeProfilerStart(&start); r != CUPTI_SUCCESS)
    return Error{cupti_failure("cuptiRangeProfilerStart", r)};
  std::string launch_error = enqueue();
  const cudaError_t sync = cudaDeviceSynchronize();
  auto stop = params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
  stop.pRangeProfilerObject = s.profiler;
  const CUptiResult stopped = cuptiRangeProfilerStop(&stop);
  if (!launch_error.empty()) return Error{launch_error};
  if (sync != cudaSuccess) return Error{cuda_error_text("cudaDeviceSynchronize", sync)};
  if (stopped != CUPTI_SUCCESS) return Error{cupti_failure("cuptiRangeProfilerStop", stopped)};
  if (!stop.isAllPassSubmitted) {
    return Error{
        "CUPTI wanted another replay pass after kernel replay; the metrics do not fit "
        "one kernel-replay session"};
  }

  auto decode = params<CUpti_RangeProfiler_DecodeData_Params>(
      CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
  decode.pRangeProfilerObject = s.profiler;
  if (CUptiResult r = cuptiRangeProfilerDecodeData(&decode); r != CUPTI_SUCCESS)
    return Error{cupti_failure("cuptiRangeProfilerDecodeData", r)};
  if (decode.numOfRangeDropped != 0) {
    return Error{"CUPTI dropped " + std::to_string(decode.numOfRangeDropped) + " of " +
                 std::to_string(launches) + " ranges"};
  }
  auto info = params<CUpti_RangeProfiler_GetCounterDataInfo_Params>(
      CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
  info.pCounterDataImage = s.counter_data.data();
  info.counterDataImageSize = s.counter_data.size();
  if (CUptiResult r = cuptiRangeProfilerGetCounterDataInfo(&info); r != CUPTI_SUCCESS)
    return Error{cupti_failure("cuptiRangeProfilerGetCounterDataInfo", r)};
  // One range per launch is what ties a value to its access: anything else is an error.
  if (info.numTotalRanges != static_cast<std::size_t>(launches)) {
    return Error{"CUPTI recorded " + std::to_string(info.numTotalRanges) + " ranges for " +
                 std::to_string(launches) + " kernel launches"};
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
    if (CUptiResult r = cuptiProfilerHostEvaluateToGpuValues(&eval); r != CUPTI_SUCCESS)
      return Error{cupti_failure("cuptiProfilerHostEvaluateToGpuValues", r)};
  }
  return values;
}

}  // namespace banklab::gpu::detail
