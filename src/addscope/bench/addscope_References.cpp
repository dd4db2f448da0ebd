#include "addscope/bench/addscope_References.hpp"

#include "addscope/core/addscope_Error.hpp"
#include "addscope/timing/addscope_Timer.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include "addscope/core/impl/addscope_CudaCheck.hpp"
#endif

namespace addscope {

#if defined(KOKKOS_ENABLE_CUDA)
namespace {
/// The whole device as an "execution space" to fence.
struct CudaDevice {
  void fence() const { ADDSCOPE_CUDA_CHECK(cudaDeviceSynchronize()); }
};
}  // namespace
#endif

TransferResult measure_cuda_memcpy(const std::string& what,
                                   CopyDirection direction, MemoryKind memory,
                                   void* dst, const void* src, std::int64_t n,
                                   std::size_t elem_size,
                                   const MeasureOptions& opt) {
#if defined(KOKKOS_ENABLE_CUDA)
  const cudaMemcpyKind kind =
      direction == CopyDirection::HostToDevice   ? cudaMemcpyHostToDevice
      : direction == CopyDirection::DeviceToHost ? cudaMemcpyDeviceToHost
                                                 : cudaMemcpyDeviceToDevice;
  const std::size_t bytes = std::size_t(n) * elem_size;
  return measure_copy_with(
      CudaDevice(), what, direction, memory, n, elem_size,
      [&] {
        ADDSCOPE_CUDA_CHECK(cudaMemcpy(dst, src, bytes, kind));
        ADDSCOPE_CUDA_CHECK(cudaDeviceSynchronize());
      },
      opt);
#else
  (void)direction;
  (void)memory;
  (void)dst;
  (void)src;
  (void)n;
  (void)elem_size;
  (void)opt;
  ADDSCOPE_RUNTIME_ERROR("cudaMemcpy reference requested for '"
                         << what << "', but addscope was built without CUDA");
#endif
}

void cuda_memcpy_d2d(void* dst, const void* src, std::size_t bytes) {
#if defined(KOKKOS_ENABLE_CUDA)
  ADDSCOPE_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice));
  ADDSCOPE_CUDA_CHECK(cudaDeviceSynchronize());
#else
  (void)dst;
  (void)src;
  (void)bytes;
  ADDSCOPE_RUNTIME_ERROR(
      "cudaMemcpy requested, but addscope was built "
      "without CUDA");
#endif
}

void ReferenceOptions::validate() const {
  ADDSCOPE_THROW_IF(attempts < 1,
                    "attempts = " << attempts << " is invalid; allowed: >= 1");
  ADDSCOPE_THROW_IF(!(noise.max_over_min >= 1),
                    "noise.max_over_min = " << noise.max_over_min
                                            << " is invalid; allowed: >= 1");
}

const CopyReference* fastest(const std::vector<CopyReference>& refs) {
  const CopyReference* best = nullptr;
  for (const auto& r : refs)
    if (!best || r.result.gbps_median > best->result.gbps_median) best = &r;
  return best;
}

}  // namespace addscope
