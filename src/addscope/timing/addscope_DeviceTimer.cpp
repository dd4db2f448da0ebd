#include "addscope/timing/addscope_DeviceTimer.hpp"

#include "addscope/core/addscope_Error.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include "addscope/core/impl/addscope_CudaCheck.hpp"
#endif

namespace addscope {
namespace Impl {

#if defined(KOKKOS_ENABLE_CUDA)
CudaEvents::CudaEvents(void* stream) : stream_(stream) {
  for (auto& e : ev_) {
    cudaEvent_t ev;
    ADDSCOPE_CUDA_CHECK(cudaEventCreate(&ev));
    e = static_cast<void*>(ev);
  }
}
CudaEvents::~CudaEvents() {
  for (auto& e : ev_)
    if (e) cudaEventDestroy(static_cast<cudaEvent_t>(e));
}
void CudaEvents::record(int i) {
  ADDSCOPE_CUDA_CHECK(cudaEventRecord(static_cast<cudaEvent_t>(ev_[i]),
                                      static_cast<cudaStream_t>(stream_)));
}
double CudaEvents::seconds(int i, int j) {
  ADDSCOPE_CUDA_CHECK(cudaEventSynchronize(static_cast<cudaEvent_t>(ev_[j])));
  float ms = 0;
  ADDSCOPE_CUDA_CHECK(cudaEventElapsedTime(
      &ms, static_cast<cudaEvent_t>(ev_[i]), static_cast<cudaEvent_t>(ev_[j])));
  return double(ms) * 1e-3;
}
#else
CudaEvents::CudaEvents(void* stream) : stream_(stream) {
  ADDSCOPE_RUNTIME_ERROR(
      "CUDA events requested, but addscope was built "
      "without CUDA");
}
CudaEvents::~CudaEvents() = default;
void CudaEvents::record(int) {}
double CudaEvents::seconds(int, int) { return -1; }
#endif

}  // namespace Impl
}  // namespace addscope
