#pragma once
// A library of the CUDA toolkit (cuBLAS, CUPTI) loaded at run time with dlopen rather than
// linked, so that BankLab starts on a machine without it and the one feature that needs it says
// why it is off. Each user looks its entry points up with the types of the library's own header
// (decltype(&function)), so a mismatch fails to compile rather than to run. Internal to
// kernels/ (cublas_geam.cpp, measure/range_profiler.cpp).
#include <dlfcn.h>

#include <initializer_list>
#include <string>
#include <utility>

namespace banklab::gpu::detail {

class SharedLibrary {
 public:
  // Loads `soname` (e.g. "libcupti.so.13") from the loader's path, then its unversioned name,
  // then the CUDA toolkit's own copy in kToolkitDir, for a machine whose loader path does not
  // include the toolkit. `companions` are libraries that this one dlopens by bare name itself
  // (CUPTI's libnvperf_host.so): with the toolkit's copy they are loaded from the same folder
  // first, since the loader would not look there. What is loaded stays until the process ends.
  // `what` names the library in the reasons ("CUPTI").
  SharedLibrary(std::string what, const std::string& soname,
                std::initializer_list<const char*> companions = {})
      : what_(std::move(what)) {
    const std::string unversioned = soname.substr(0, soname.find(".so") + 3);
    for (const std::string& name : {soname, unversioned}) {
      handle_ = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (handle_ != nullptr) return;
    }
    for (const char* companion : companions)
      dlopen((std::string(kToolkitDir) + companion).c_str(), RTLD_NOW | RTLD_LOCAL);
    handle_ = dlopen((std::string(kToolkitDir) + soname).c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle_ == nullptr) {
      unavailable_ = what_ + " could not be loaded (" + soname + " not found)";
    }
  }
  SharedLibrary(const SharedLibrary&) = delete;
  SharedLibrary& operator=(const SharedLibrary&) = delete;

  // Sets *fn to the entry point `name`, typed as the header declares it. A missing one makes the
  // library unavailable, naming the first that was missing.
  template <class Fn>
  void find(const char* name, Fn* fn) {
    *fn = handle_ == nullptr ? nullptr : reinterpret_cast<Fn>(dlsym(handle_, name));
    if (*fn == nullptr && unavailable_.empty()) unavailable_ = what_ + " has no " + name;
  }

  // Why the library cannot be used: not found, or an entry point missing; empty when it can.
  const std::string& unavailable() const { return unavailable_; }

  static constexpr const char* kToolkitDir = "/usr/local/cuda/lib64/";

 private:
  std::string what_;
  void* handle_ = nullptr;
  std::string unavailable_;
};

}  // namespace banklab::gpu::detail
