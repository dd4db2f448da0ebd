#include "addscope/device/addscope_References.hpp"

#include "addscope/core/addscope_Error.hpp"
#include "addscope/timing/addscope_Timer.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>

#define ADDSCOPE_CUDA_CHECK(call)                                         \
  do {                                                                    \
    const cudaError_t addscope_err_ = (call);                             \
    if (addscope_err_ != cudaSuccess)                                     \
      ADDSCOPE_RUNTIME_ERROR(#call << " failed: "                         \
                                   << cudaGetErrorString(addscope_err_)); \
  } while (0)
#endif

namespace addscope {

bool cuda_memcpy_available() {
#if defined(KOKKOS_ENABLE_CUDA)
  return true;
#else
  return false;
#endif
}

TransferResult measure_cuda_memcpy(const std::string& what,
                                   CopyDirection direction, MemoryKind memory,
                                   void* dst, const void* src, std::int64_t n,
                                   std::size_t elem_size,
                                   const MeasureOptions& opt) {
  opt.validate();
  TransferResult r;
  r.what = what;
  r.direction = direction;
  r.memory = memory;
  r.n = n;
  r.bytes = copied_bytes(direction, n, elem_size);
#if defined(KOKKOS_ENABLE_CUDA)
  const cudaMemcpyKind kind =
      direction == CopyDirection::HostToDevice   ? cudaMemcpyHostToDevice
      : direction == CopyDirection::DeviceToHost ? cudaMemcpyDeviceToHost
                                                 : cudaMemcpyDeviceToDevice;
  const std::size_t bytes = std::size_t(n) * elem_size;
  for (int i = 0; i < opt.warmup; ++i) {
    ADDSCOPE_CUDA_CHECK(cudaMemcpy(dst, src, bytes, kind));
    ADDSCOPE_CUDA_CHECK(cudaDeviceSynchronize());
  }
  std::vector<double> s;
  for (int i = 0; i < opt.repeat; ++i) {
    ADDSCOPE_CUDA_CHECK(cudaDeviceSynchronize());
    const double t0 = host_seconds();
    ADDSCOPE_CUDA_CHECK(cudaMemcpy(dst, src, bytes, kind));
    ADDSCOPE_CUDA_CHECK(cudaDeviceSynchronize());
    s.push_back(host_seconds() - t0);
  }
  r.time = Stats::of(s);
  if (r.time.median_s > 0) r.gbps_median = gbps(r.bytes, r.time.median_s);
  return r;
#else
  (void)dst;
  (void)src;
  ADDSCOPE_RUNTIME_ERROR("cudaMemcpy reference requested for '"
                         << what << "', but addscope was built without CUDA");
#endif
}

const CopyReference* fastest(const std::vector<CopyReference>& refs) {
  const CopyReference* best = nullptr;
  for (const auto& r : refs)
    if (!best || r.result.gbps_median > best->result.gbps_median) best = &r;
  return best;
}

}  // namespace addscope
