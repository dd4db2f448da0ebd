#include "bench_system.hpp"

#include <unistd.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <type_traits>
#include <vector>

#include "addscope/core/addscope_Error.hpp"
#include "addscope/core/addscope_Memory.hpp"
#include "addscope/timing/addscope_Timer.hpp"
#include "addscope/transfer/addscope_Transfer.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

namespace addscope {
namespace bench {

namespace {

#if defined(KOKKOS_ENABLE_CUDA)
#define ADDSCOPE_BENCH_CUDA_CHECK(call)                                     \
  do {                                                                      \
    const cudaError_t addscope_bench_err_ = (call);                         \
    if (addscope_bench_err_ != cudaSuccess)                                 \
      ADDSCOPE_RUNTIME_ERROR(                                               \
          #call << " failed: " << cudaGetErrorString(addscope_bench_err_)); \
  } while (0)

constexpr bool kDefaultIsCuda =
    std::is_same<Kokkos::DefaultExecutionSpace, Kokkos::Cuda>::value;
#else
constexpr bool kDefaultIsCuda = false;
#endif

std::uint64_t sysconf_bytes(int name) {
  const long v = ::sysconf(name);
  return v > 0 ? std::uint64_t(v) : 0;
}

std::string cpu_model() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) {
        std::string m = line.substr(colon + 1);
        m.erase(0, m.find_first_not_of(" \t"));
        return m;
      }
    }
  }
  return "unknown CPU";
}

std::string kokkos_version_string(int v) {
  std::ostringstream os;
  os << v / 10000 << '.' << (v / 100) % 100 << '.' << v % 100;
  return os.str();
}

int floor_log2(std::uint64_t v) {
  int k = -1;
  while (v) {
    v >>= 1;
    ++k;
  }
  return k;
}

}  // namespace

DeviceInfo query_device() {
  using Exec = Kokkos::DefaultExecutionSpace;
  const Exec exec;
  DeviceInfo d;
  d.exec_space = Exec::name();
  d.is_gpu = !Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                         Exec::memory_space>::accessible;
  d.concurrency = exec.concurrency();
  d.kokkos_version_number = KOKKOS_VERSION;
  d.kokkos_version = kokkos_version_string(KOKKOS_VERSION);
  d.has_pinned = has_pinned_host_space;
  d.has_cuda_runtime = cuda_ref::available();
#if defined(KOKKOS_ENABLE_CUDA)
  if (kDefaultIsCuda) {
    int dev = 0;
    ADDSCOPE_BENCH_CUDA_CHECK(cudaGetDevice(&dev));
    cudaDeviceProp p;
    ADDSCOPE_BENCH_CUDA_CHECK(cudaGetDeviceProperties(&p, dev));
    std::size_t free_b = 0, total_b = 0;  // free: available_bytes below
    ADDSCOPE_BENCH_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    d.name = p.name;
    d.units = p.multiProcessorCount;
    d.units_name = "SMs";
    d.memory_total = total_b;
    d.memory_available = free_b;
    d.l2_bytes = std::uint64_t(p.l2CacheSize);
    d.llc_bytes = d.l2_bytes;
    d.compute_capability =
        std::to_string(p.major) + "." + std::to_string(p.minor);
    d.memory_available = available_bytes<Exec::memory_space>();
    return d;
  }
#endif
  if (d.is_gpu) {
    // A GPU backend without a runtime this tool queries (HIP, SYCL).
    d.name = d.exec_space + " device";
    d.units = std::max(1, d.concurrency / 1024);
    d.units_name = "units";
    return d;
  }
  d.name = cpu_model();
  d.units = std::max(1, d.concurrency);
  d.units_name = "threads";
  const std::uint64_t page = sysconf_bytes(_SC_PAGESIZE);
  d.memory_total = sysconf_bytes(_SC_PHYS_PAGES) * page;
  d.memory_available = available_bytes<Exec::memory_space>();
#if defined(_SC_LEVEL2_CACHE_SIZE)
  d.l2_bytes = sysconf_bytes(_SC_LEVEL2_CACHE_SIZE);
#endif
#if defined(_SC_LEVEL3_CACHE_SIZE)
  d.llc_bytes = sysconf_bytes(_SC_LEVEL3_CACHE_SIZE);
#endif
  if (d.llc_bytes == 0) d.llc_bytes = d.l2_bytes;
  return d;
}

std::uint64_t sweep_bytes(std::int64_t n, std::size_t elem_size) {
  return 3 * std::uint64_t(n) * elem_size;
}

int default_max_log2(const DeviceInfo& dev, std::size_t elem_size,
                     std::string* why) {
  const int cap = dev.is_gpu ? 28 : 26;
  std::ostringstream os;
  if (dev.memory_available == 0) {
    os << "2^" << cap << " (" << (dev.is_gpu ? "GPU" : "host")
       << " default; free memory unknown)";
    *why = os.str();
    return cap;
  }
  // GPU: 80% of the free device memory; host: 1/8 of the available RAM.
  const std::uint64_t budget =
      dev.is_gpu ? dev.memory_available / 10 * 8 : dev.memory_available / 8;
  const int fit = floor_log2(budget / (3 * elem_size));
  const int k = std::max(0, std::min(cap, fit));
  os << "2^" << k << ": " << (k == cap ? "the default cap" : "memory-bound")
     << " (3 arrays of " << elem_size << "-byte elements in "
     << (dev.is_gpu ? "80% of the free device memory, "
                    : "1/8 of the available RAM, ")
     << budget / (1u << 20) << " MiB; cap 2^" << cap << ")";
  *why = os.str();
  return k;
}

std::string find_program(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (!path) return "";
  std::istringstream is(path);
  std::string dir;
  while (std::getline(is, dir, ':')) {
    if (dir.empty()) dir = ".";
    const std::string p = dir + "/" + program;
    if (::access(p.c_str(), X_OK) == 0) return p;
  }
  return "";
}

namespace cuda_ref {

bool available() { return kDefaultIsCuda; }

TransferResult memcpy_timed(const std::string& what,
                            const std::string& direction,
                            const std::string& memory, void* dst,
                            const void* src, std::int64_t n,
                            std::size_t elem_size, int warmup, int repeat) {
  TransferResult r;
  r.what = what;
  r.direction = direction;
  r.memory = memory;
  r.n = n;
  r.bytes = direction == "D2D" ? copy_bytes(n, elem_size)
                               : transfer_bytes(n, elem_size);
#if defined(KOKKOS_ENABLE_CUDA)
  const cudaMemcpyKind kind = direction == "H2D"   ? cudaMemcpyHostToDevice
                              : direction == "D2H" ? cudaMemcpyDeviceToHost
                                                   : cudaMemcpyDeviceToDevice;
  const std::size_t bytes = std::size_t(n) * elem_size;
  for (int i = 0; i < warmup; ++i) {
    ADDSCOPE_BENCH_CUDA_CHECK(cudaMemcpy(dst, src, bytes, kind));
    ADDSCOPE_BENCH_CUDA_CHECK(cudaDeviceSynchronize());
  }
  std::vector<double> s;
  for (int i = 0; i < repeat; ++i) {
    ADDSCOPE_BENCH_CUDA_CHECK(cudaDeviceSynchronize());
    const double t0 = host_seconds();
    ADDSCOPE_BENCH_CUDA_CHECK(cudaMemcpy(dst, src, bytes, kind));
    ADDSCOPE_BENCH_CUDA_CHECK(cudaDeviceSynchronize());
    s.push_back(host_seconds() - t0);
  }
  r.time = Stats::of(s);
  if (r.time.median_s > 0) r.gbps_median = gbps(r.bytes, r.time.median_s);
  return r;
#else
  (void)dst;
  (void)src;
  (void)warmup;
  (void)repeat;
  ADDSCOPE_RUNTIME_ERROR("cudaMemcpy reference requested for '"
                         << what
                         << "' but addscope-bench was built without "
                            "CUDA");
#endif
}

}  // namespace cuda_ref

}  // namespace bench
}  // namespace addscope
