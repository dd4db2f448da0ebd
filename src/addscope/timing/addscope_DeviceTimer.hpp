// addscope — device-side timing where the backend gives it: CUDA events on
// the execution space instance's stream. Elsewhere `available` is false.
#ifndef ADDSCOPE_TIMING_DEVICETIMER_HPP
#define ADDSCOPE_TIMING_DEVICETIMER_HPP

#include <Kokkos_Core.hpp>
#include <memory>

namespace addscope {
namespace Impl {

/// Three CUDA events on one stream (cudaStream_t passed as void*). Without
/// CUDA every call throws RuntimeError.
class CudaEvents {
 public:
  explicit CudaEvents(void* stream);
  ~CudaEvents();
  CudaEvents(const CudaEvents&) = delete;
  CudaEvents& operator=(const CudaEvents&) = delete;
  void record(int i);
  /// Seconds between events i and j, both recorded and reached.
  double seconds(int i, int j);

 private:
  void* stream_;
  void* ev_[3] = {nullptr, nullptr, nullptr};
};

}  // namespace Impl

/// Device timer for ExecSpace; the generic one has none.
template <class ExecSpace>
class DeviceTimer {
 public:
  static constexpr bool available = false;
  explicit DeviceTimer(const ExecSpace&) {}
  void mark(int) {}
  double seconds(int, int) { return -1; }
};

#if defined(KOKKOS_ENABLE_CUDA)
template <>
class DeviceTimer<Kokkos::Cuda> {
 public:
  static constexpr bool available = true;
  explicit DeviceTimer(const Kokkos::Cuda& exec)
      : ev_(static_cast<void*>(exec.cuda_stream())) {}
  /// Records event i (0..2) on the instance's stream.
  void mark(int i) { ev_.record(i); }
  double seconds(int i, int j) { return ev_.seconds(i, j); }

 private:
  Impl::CudaEvents ev_;
};
#endif

}  // namespace addscope

#endif
