// addscope — checking CUDA runtime calls in addscope's own .cpp files.
// Internal: include only where KOKKOS_ENABLE_CUDA holds.
#ifndef ADDSCOPE_CORE_IMPL_CUDACHECK_HPP
#define ADDSCOPE_CORE_IMPL_CUDACHECK_HPP

#include <cuda_runtime.h>

#include "addscope/core/addscope_Error.hpp"

/// Throws addscope::RuntimeError naming the call and CUDA's error string.
#define ADDSCOPE_CUDA_CHECK(call)                                         \
  do {                                                                    \
    const cudaError_t addscope_err_ = (call);                             \
    if (addscope_err_ != cudaSuccess)                                     \
      ADDSCOPE_RUNTIME_ERROR(#call << " failed: "                         \
                                   << cudaGetErrorString(addscope_err_)); \
  } while (0)

#endif
