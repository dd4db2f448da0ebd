// addscope — how much memory a space has left, and refusing work that
// cannot fit before anything is allocated.
#ifndef ADDSCOPE_CORE_MEMORY_HPP
#define ADDSCOPE_CORE_MEMORY_HPP

#include <unistd.h>

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <type_traits>

#include "addscope/core/addscope_Error.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

namespace addscope {

/// Bytes that can still be allocated in MemorySpace (device: free device
/// memory; host: available physical pages).
template <class MemorySpace>
std::uint64_t available_bytes() {
#if defined(KOKKOS_ENABLE_CUDA)
  if (std::is_same<MemorySpace, Kokkos::CudaSpace>::value ||
      std::is_same<MemorySpace, Kokkos::CudaUVMSpace>::value) {
    std::size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) return 0;
    return free_b;
  }
#endif
  const long pages = ::sysconf(_SC_AVPHYS_PAGES);
  const long page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return 0;
  return std::uint64_t(pages) * std::uint64_t(page);
}

/// Throws InvalidArgument if `arrays` arrays of `n` elements of `elem_size`
/// bytes (plus 5% headroom) do not fit in MemorySpace; `param` names the
/// user's parameter in the message.
template <class MemorySpace>
void check_fits(const std::string& param, std::int64_t n, std::size_t elem_size,
                int arrays) {
  ADDSCOPE_THROW_IF(n < 0, param << " = " << n << " is invalid; allowed: >= 0");
  const long double need_ld = (long double)n * elem_size * arrays * 1.05L;
  const std::uint64_t avail = available_bytes<MemorySpace>();
  ADDSCOPE_THROW_IF(
      need_ld > (long double)avail,
      param << " = " << n << " needs " << (unsigned long long)need_ld
            << " bytes (" << arrays << " arrays of " << elem_size
            << "-byte elements, +5%) in " << MemorySpace::name()
            << ", but only " << avail
            << " bytes are available; allowed: " << param
            << " <= " << (long long)(avail / (elem_size * arrays * 1.05L)));
}

}  // namespace addscope

#endif
