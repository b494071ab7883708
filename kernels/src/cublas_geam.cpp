// cuBLAS through dlopen: the four entry points the suite needs, with the types of cuBLAS's own
// header so that a mismatch fails to compile rather than to run.
#include "cublas_geam.hpp"

#include <cublas_v2.h>
#include <dlfcn.h>

#include "cuda_support.hpp"

namespace banklab::gpu::detail {
namespace {

struct Cublas {
  decltype(&cublasCreate_v2) create = nullptr;
  decltype(&cublasSgeam) sgeam = nullptr;
  decltype(&cublasDgeam) dgeam = nullptr;
  decltype(&cublasGetStatusString) status_string = nullptr;
  cublasHandle_t handle = nullptr;
  std::string unavailable;
};

template <class Fn>
bool find(void* library, const char* name, Fn* fn, std::string* why) {
  *fn = reinterpret_cast<Fn>(dlsym(library, name));
  if (*fn == nullptr) *why = std::string("libcublas has no ") + name;
  return *fn != nullptr;
}

// Loaded once; the library and the handle stay until the process ends (destroying a handle
// from a static destructor can run after CUDA has torn the context down).
Cublas load() {
  Cublas c;
  // The soname of the CUDA 13 toolkit's cuBLAS, then any cuBLAS, then the toolkit's own copy
  // for a machine whose loader path does not include it.
  void* library = nullptr;
  for (const char* name :
       {"libcublas.so.13", "libcublas.so", "/usr/local/cuda/lib64/libcublas.so.13"}) {
    library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (library != nullptr) break;
  }
  if (library == nullptr) {
    c.unavailable = "cuBLAS could not be loaded (libcublas.so.13 not found)";
    return c;
  }
  if (!find(library, "cublasCreate_v2", &c.create, &c.unavailable) ||
      !find(library, "cublasSgeam", &c.sgeam, &c.unavailable) ||
      !find(library, "cublasDgeam", &c.dgeam, &c.unavailable) ||
      !find(library, "cublasGetStatusString", &c.status_string, &c.unavailable)) {
    return c;
  }
  if (const cublasStatus_t s = c.create(&c.handle); s != CUBLAS_STATUS_SUCCESS) {
    c.unavailable = std::string("cublasCreate failed: ") + c.status_string(s);
    c.handle = nullptr;
  }
  return c;
}

const Cublas& cublas() {
  static const Cublas c = load();
  return c;
}

}  // namespace

const std::string& cublas_unavailable_reason() {
  return cublas().unavailable;
}

void cublas_transpose(const void* in, void* out, int rows, int cols, int elem_bytes) {
  const Cublas& c = cublas();
  if (!c.unavailable.empty()) throw CudaFailure(c.unavailable);
  // cuBLAS is column-major: the row-major rows x cols input is the column-major cols x rows
  // matrix A (leading dimension cols), and the output, row-major cols x rows, is the
  // column-major rows x cols matrix C = A^T (leading dimension rows). beta is 0, so B is
  // never read; C stands in for it.
  cublasStatus_t s = CUBLAS_STATUS_SUCCESS;
  if (elem_bytes == 4) {
    const float one = 1.0f;
    const float zero = 0.0f;
    s = c.sgeam(c.handle, CUBLAS_OP_T, CUBLAS_OP_N, rows, cols, &one, static_cast<const float*>(in),
                cols, &zero, static_cast<const float*>(out), rows, static_cast<float*>(out), rows);
  } else {
    const double one = 1.0;
    const double zero = 0.0;
    s = c.dgeam(c.handle, CUBLAS_OP_T, CUBLAS_OP_N, rows, cols, &one,
                static_cast<const double*>(in), cols, &zero, static_cast<const double*>(out), rows,
                static_cast<double*>(out), rows);
  }
  if (s != CUBLAS_STATUS_SUCCESS) {
    throw CudaFailure(std::string(elem_bytes == 4 ? "cublasSgeam" : "cublasDgeam") + ": " +
                      c.status_string(s));
  }
}

}  // namespace banklab::gpu::detail
