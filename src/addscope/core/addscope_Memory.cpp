#include "addscope/core/addscope_Memory.hpp"

#include <fstream>
#include <limits>
#include <sstream>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

namespace addscope {
namespace Impl {

MemoryInfo parse_meminfo(const std::string& text) {
  MemoryInfo m;
  std::istringstream is(text);
  std::string key, unit;
  std::uint64_t value = 0;
  bool total = false, avail = false;
  while (is >> key >> value) {
    std::getline(is, unit);  // " kB"
    const std::uint64_t bytes =
        unit.find("kB") != std::string::npos ? value * 1024 : value;
    if (key == "MemTotal:") {
      m.total = bytes;
      total = true;
    } else if (key == "MemAvailable:") {
      m.available = bytes;
      avail = true;
    }
  }
  m.source = total && avail ? "/proc/meminfo (MemTotal, MemAvailable)"
                            : "/proc/meminfo without MemTotal/MemAvailable";
  if (!avail) m.available = 0;
  return m;
}

MemoryInfo host_memory_info() {
  std::ifstream f("/proc/meminfo");
  if (!f) {
    MemoryInfo m;
    m.source = "unknown: /proc/meminfo is not readable";
    return m;
  }
  std::stringstream ss;
  ss << f.rdbuf();
  return parse_meminfo(ss.str());
}

MemoryInfo cuda_memory_info() {
  MemoryInfo m;
#if defined(KOKKOS_ENABLE_CUDA)
  std::size_t free_b = 0, total_b = 0;
  if (cudaMemGetInfo(&free_b, &total_b) == cudaSuccess) {
    m.total = total_b;
    m.available = free_b;
    m.source = "cudaMemGetInfo";
  } else {
    m.source = "unknown: cudaMemGetInfo failed";
  }
#else
  m.source = "unknown: built without CUDA";
#endif
  return m;
}

}  // namespace Impl

std::int64_t max_elements_that_fit(std::uint64_t available,
                                   std::size_t elem_size, int arrays) {
  ADDSCOPE_THROW_IF(elem_size == 0 || arrays < 1,
                    "elem_size = " << elem_size << ", arrays = " << arrays
                                   << " is invalid; allowed: both >= 1");
  // n (elem_size arrays) 21/20 <= available, in integers (5% = 1/20).
  const unsigned __int128 n = (unsigned __int128)available * 20 /
                              ((unsigned __int128)elem_size * arrays * 21);
  const auto cap = (unsigned __int128)std::numeric_limits<std::int64_t>::max();
  return n >= cap ? std::numeric_limits<std::int64_t>::max()
                  : static_cast<std::int64_t>(n);
}

void check_fits(const std::string& param, std::int64_t n, std::size_t elem_size,
                int arrays, std::uint64_t available, const std::string& where) {
  ADDSCOPE_THROW_IF(n < 0, param << " = " << n << " is invalid; allowed: >= 0");
  if (available == 0) return;  // unknown: nothing to check against
  const std::int64_t max = max_elements_that_fit(available, elem_size, arrays);
  const long double need = (long double)n * elem_size * arrays * 1.05L;
  ADDSCOPE_THROW_IF(
      n > max, param << " = " << n << " needs " << (unsigned long long)need
                     << " bytes (" << arrays << " arrays of " << elem_size
                     << "-byte elements, +5%) in " << where << ", but only "
                     << available << " bytes are available; allowed: " << param
                     << " <= " << max);
}

}  // namespace addscope
