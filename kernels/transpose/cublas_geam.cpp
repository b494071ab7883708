// cuBLAS through dlopen (shared_library.hpp): the four entry points the suite needs, with the
// types of cuBLAS's own header so that a mismatch fails to compile rather than to run.
#include "kernels/transpose/cublas_geam.hpp"

#include <cublas_v2.h>

#include "kernels/runtime/cuda_support.hpp"
#include "kernels/runtime/shared_library.hpp"

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

// Loaded once; the library and the handle stay until the process ends (destroying a handle
// from a static destructor can run after CUDA has torn the context down).
Cublas load() {
  Cublas c;
  SharedLibrary library("cuBLAS", "libcublas.so.13");
  library.find("cublasCreate_v2", &c.create);
  library.find("cublasSgeam", &c.sgeam);
  library.find("cublasDgeam", &c.dgeam);
  library.find("cublasGetStatusString", &c.status_string);
  if (!library.unavailable().empty()) {
    c.unavailable = library.unavailable();
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
