// addscope — how much memory a space has, and refusing work that cannot fit
// before anything is allocated. One budget for everything addscope sizes.
#ifndef ADDSCOPE_CORE_MEMORY_HPP
#define ADDSCOPE_CORE_MEMORY_HPP

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <type_traits>

#include "addscope/core/addscope_Error.hpp"

namespace addscope {

/// Memory of a space in bytes; 0 where unknown.
struct MemoryInfo {
  std::uint64_t total = 0;
  std::uint64_t available = 0;
  std::string source;  ///< where the numbers come from
};

namespace Impl {
/// Host RAM from /proc/meminfo: MemTotal and MemAvailable (what can be
/// allocated without swapping, page cache included).
MemoryInfo host_memory_info();
/// Parses the text of /proc/meminfo (for tests).
MemoryInfo parse_meminfo(const std::string& text);
/// Free and total memory of the current CUDA device (cudaMemGetInfo);
/// unknown without CUDA.
MemoryInfo cuda_memory_info();

template <class MemorySpace>
constexpr bool is_cuda_memory() {
#if defined(KOKKOS_ENABLE_CUDA)
  return std::is_same<MemorySpace, Kokkos::CudaSpace>::value ||
         std::is_same<MemorySpace, Kokkos::CudaUVMSpace>::value;
#else
  return false;
#endif
}
}  // namespace Impl

/// Total and available bytes of MemorySpace: CUDA device memory through
/// cudaMemGetInfo; host-accessible spaces through /proc/meminfo; other
/// device spaces (HIP, SYCL, ...) are unknown (0).
template <class MemorySpace>
MemoryInfo memory_info() {
  if (Impl::is_cuda_memory<MemorySpace>()) return Impl::cuda_memory_info();
  if (Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemorySpace>::accessible)
    return Impl::host_memory_info();
  MemoryInfo m;
  m.source = std::string("unknown for ") + MemorySpace::name();
  return m;
}

template <class MemorySpace>
std::uint64_t available_bytes() {
  return memory_info<MemorySpace>().available;
}

/// The largest n for which `arrays` arrays of n elements of `elem_size`
/// bytes, plus 5% headroom, fit in `available` bytes (the one budget for
/// every size addscope chooses or accepts).
std::int64_t max_elements_that_fit(std::uint64_t available,
                                   std::size_t elem_size, int arrays);

/// Throws InvalidArgument if `arrays` arrays of `n` elements of `elem_size`
/// bytes (plus 5% headroom) do not fit in `available` bytes of `where`;
/// `param` names the user's parameter in the message. Unknown memory
/// (available == 0) accepts everything.
void check_fits(const std::string& param, std::int64_t n, std::size_t elem_size,
                int arrays, std::uint64_t available, const std::string& where);

/// The same for what MemorySpace has available now.
template <class MemorySpace>
void check_fits(const std::string& param, std::int64_t n, std::size_t elem_size,
                int arrays) {
  check_fits(param, n, elem_size, arrays, available_bytes<MemorySpace>(),
             MemorySpace::name());
}

}  // namespace addscope

#endif
