#include "addscope/bench/addscope_DeviceInfo.hpp"

#include <unistd.h>

#include <fstream>
#include <sstream>

#include "addscope/core/addscope_Error.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include "addscope/core/impl/addscope_CudaCheck.hpp"
#endif

namespace addscope {

double dram_peak_gbps(int clock_khz, int bus_bits) {
  ADDSCOPE_THROW_IF(clock_khz < 0 || bus_bits < 0,
                    "clock_khz = " << clock_khz << ", bus_bits = " << bus_bits
                                   << " is invalid; allowed: >= 0");
  return 2.0 * double(clock_khz) * 1e3 * double(bus_bits) / 8.0 * 1e-9;
}

namespace Impl {

namespace {
std::uint64_t sysconf_bytes(int name) {
  const long v = ::sysconf(name);
  return v > 0 ? std::uint64_t(v) : 0;
}
}  // namespace

void fill_host_info(DeviceInfo& d) {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  d.name = "unknown CPU";
  while (std::getline(f, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) {
        d.name = line.substr(colon + 1);
        d.name.erase(0, d.name.find_first_not_of(" \t"));
        break;
      }
    }
  }
#if defined(_SC_LEVEL2_CACHE_SIZE)
  d.l2_bytes = sysconf_bytes(_SC_LEVEL2_CACHE_SIZE);
#endif
#if defined(_SC_LEVEL3_CACHE_SIZE)
  d.llc_bytes = sysconf_bytes(_SC_LEVEL3_CACHE_SIZE);
#endif
  if (d.llc_bytes == 0) d.llc_bytes = d.l2_bytes;
  d.dram_peak_source =
      "unknown: a host exposes no memory clock or bus width to programs "
      "(the measured STREAM-style copy is a reference, not a limit)";
}

#if defined(KOKKOS_ENABLE_CUDA)

void fill_cuda_device_info(DeviceInfo& d) {
  int dev = 0;
  ADDSCOPE_CUDA_CHECK(cudaGetDevice(&dev));
  cudaDeviceProp p;
  ADDSCOPE_CUDA_CHECK(cudaGetDeviceProperties(&p, dev));
  auto attr = [&](cudaDeviceAttr a) {
    int v = 0;
    ADDSCOPE_CUDA_CHECK(cudaDeviceGetAttribute(&v, a, dev));
    return v;
  };
  d.name = p.name;
  d.units = attr(cudaDevAttrMultiProcessorCount);
  d.units_name = "SMs";
  d.l2_bytes = std::uint64_t(attr(cudaDevAttrL2CacheSize));
  d.llc_bytes = d.l2_bytes;
  d.compute_capability =
      std::to_string(attr(cudaDevAttrComputeCapabilityMajor)) + "." +
      std::to_string(attr(cudaDevAttrComputeCapabilityMinor));
  d.memory_clock_khz = attr(cudaDevAttrMemoryClockRate);
  d.memory_bus_bits = attr(cudaDevAttrGlobalMemoryBusWidth);
  d.has_cuda_runtime = true;
  if (d.memory_clock_khz > 0 && d.memory_bus_bits > 0) {
    d.dram_peak_gbps = dram_peak_gbps(d.memory_clock_khz, d.memory_bus_bits);
    std::ostringstream os;
    os << "2 x memory clock " << d.memory_clock_khz / 1000 << " MHz x "
       << d.memory_bus_bits << "-bit bus (cudaDevAttrMemoryClockRate, "
       << "cudaDevAttrGlobalMemoryBusWidth)";
    d.dram_peak_source = os.str();
  } else {
    d.dram_peak_source =
        "unknown: the device reports no memory clock or bus "
        "width";
  }
}
#else
void fill_cuda_device_info(DeviceInfo&) {
  ADDSCOPE_RUNTIME_ERROR(
      "CUDA device facts requested, but addscope was "
      "built without CUDA");
}
#endif

}  // namespace Impl
}  // namespace addscope
