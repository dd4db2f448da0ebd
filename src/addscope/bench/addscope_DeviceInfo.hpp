// addscope — what the execution space runs on and what it can do at most:
// the model, its parallel units, memory and caches, and the DRAM peak from
// the device's own attributes (memory clock x bus width). A *limit* is what
// the hardware can do; a measured copy is a *reference* (bench/References).
#ifndef ADDSCOPE_BENCH_DEVICEINFO_HPP
#define ADDSCOPE_BENCH_DEVICEINFO_HPP

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <string>

#include "addscope/core/addscope_Memory.hpp"
#include "addscope/core/addscope_SpaceKind.hpp"
#include "addscope/transfer/addscope_Transfer.hpp"

namespace addscope {

struct DeviceInfo {
  std::string exec_space;       ///< "Cuda", "OpenMP", ...
  bool is_gpu = false;          ///< is_gpu_space<ExecSpace>()
  std::string name;             ///< GPU or CPU model
  int units = 1;                ///< SMs (GPU) or threads (host concurrency)
  std::string units_name;       ///< "SMs" | "threads" | "units"
  int concurrency = 1;          ///< exec.concurrency()
  MemoryInfo memory;            ///< of the space's memory (device or host RAM)
  std::uint64_t l2_bytes = 0;   ///< L2 size (0 unknown)
  std::uint64_t llc_bytes = 0;  ///< last-level cache (0 unknown)
  std::string compute_capability;  ///< CUDA only: "9.0"
  int memory_clock_khz = 0;        ///< CUDA only
  int memory_bus_bits = 0;         ///< CUDA only
  /// DRAM peak in GB/s: 2 (double data rate) x memory clock x bus width / 8;
  /// 0 where unknown (hosts: no attribute gives it).
  double dram_peak_gbps = 0;
  /// How the peak was obtained, or why it is unknown.
  std::string dram_peak_source;
  bool has_cuda_runtime = false;  ///< cudaMemcpy references can be measured
  bool has_pinned = false;        ///< has_pinned_host_space
};

/// DRAM peak in GB/s of a memory clocked at `clock_khz` (as CUDA reports
/// it) with a `bus_bits`-wide bus, double data rate.
double dram_peak_gbps(int clock_khz, int bus_bits);

namespace Impl {
/// The current CUDA device's facts (throws RuntimeError without CUDA).
void fill_cuda_device_info(DeviceInfo& d);
/// This machine's CPU model and caches.
void fill_host_info(DeviceInfo& d);
}  // namespace Impl

/// What `exec` runs on (call after Kokkos::initialize).
template <class ExecSpace>
DeviceInfo device_info(const ExecSpace& exec) {
  DeviceInfo d;
  d.exec_space = ExecSpace::name();
  d.is_gpu = is_gpu_space<ExecSpace>();
  d.concurrency = exec.concurrency();
  d.has_pinned = has_pinned_host_space && d.is_gpu;
  d.memory = memory_info<typename ExecSpace::memory_space>();
#if defined(KOKKOS_ENABLE_CUDA)
  if (std::is_same<ExecSpace, Kokkos::Cuda>::value) {
    Impl::fill_cuda_device_info(d);
    return d;
  }
#endif
  if (d.is_gpu) {
    // A GPU backend addscope does not query (HIP, SYCL, OpenMPTarget).
    d.name = d.exec_space + " device";
    d.units = std::max(1, d.concurrency / 1024);
    d.units_name = "units";
    d.dram_peak_source =
        "unknown: addscope queries the memory clock and bus "
        "width of CUDA devices only";
    return d;
  }
  Impl::fill_host_info(d);
  d.units = std::max(1, d.concurrency);
  d.units_name = "threads";
  return d;
}

/// The default execution space's device.
inline DeviceInfo device_info() {
  return device_info(Kokkos::DefaultExecutionSpace());
}

}  // namespace addscope

#endif
