// addscope — a host wall clock and the device kind of an execution space.
#ifndef ADDSCOPE_TIMING_TIMER_HPP
#define ADDSCOPE_TIMING_TIMER_HPP

#include <Kokkos_Core.hpp>
#include <chrono>
#include <type_traits>

#include "addscope/waits/addscope_SyncTracker.hpp"

namespace addscope {

/// Host seconds on the steady clock.
inline double host_seconds() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// Seconds that `f()` takes on the host clock (no fence added).
template <class F>
double time_host(F&& f) {
  const double t0 = host_seconds();
  f();
  return host_seconds() - t0;
}

/// The tracker's device kind of an execution space type.
template <class ExecSpace>
DeviceKind device_kind_of() {
#if defined(KOKKOS_ENABLE_CUDA)
  if (std::is_same<ExecSpace, Kokkos::Cuda>::value) return DeviceKind::Cuda;
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
  if (std::is_same<ExecSpace, Kokkos::OpenMP>::value) return DeviceKind::OpenMP;
#endif
#if defined(KOKKOS_ENABLE_SERIAL)
  if (std::is_same<ExecSpace, Kokkos::Serial>::value) return DeviceKind::Serial;
#endif
#if defined(KOKKOS_ENABLE_THREADS)
  if (std::is_same<ExecSpace, Kokkos::Threads>::value)
    return DeviceKind::Threads;
#endif
  return DeviceKind::Unknown;
}

/// Launches on this space return before the work is done.
template <class ExecSpace>
bool launches_are_async() {
  return is_async(device_kind_of<ExecSpace>());
}

}  // namespace addscope

#endif
