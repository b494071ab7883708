// What every kernel of the scan corpus shares on the host: a check of each CUDA call that
// stops the program with the call and its error. The kernels themselves are in the .cu files
// beside this one, each with the launch that `banklab scan` reads its block from.
#pragma once
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CORPUS_CHECK(call)                                               \
  do {                                                                   \
    const cudaError_t corpus_status = (call);                            \
    if (corpus_status != cudaSuccess) {                                  \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, \
                   cudaGetErrorString(corpus_status));                   \
      std::exit(1);                                                      \
    }                                                                    \
  } while (0)
