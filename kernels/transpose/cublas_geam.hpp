#pragma once
// cuBLAS's geam (C = alpha op(A) + beta op(B)) as a transpose: what a user would call instead
// of writing a kernel, timed in the same run as ours. cuBLAS is loaded at run time (dlopen), so
// the project needs it neither to build nor to run: where it cannot be loaded, the suite leaves
// these rows out and says why.
#include <string>

namespace banklab::gpu::detail {

// "" when cuBLAS is loaded and has a handle on the current device; otherwise one line saying
// why not. The first call loads the library and makes the handle (after cudaSetDevice); the
// answer is kept for the life of the process.
const std::string& cublas_unavailable_reason();

// out (cols x rows, row-major) = the transpose of in (rows x cols, row-major), queued on
// stream 0: cublasSgeam for 4-byte elements, cublasDgeam for 8-byte ones, alpha 1, beta 0.
// Throws CudaFailure naming the call and cuBLAS's status.
void cublas_transpose(const void* in, void* out, int rows, int cols, int elem_bytes);

}  // namespace banklab::gpu::detail
