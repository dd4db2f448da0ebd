// addscope — a host wall clock and the tracker's device kind of an
// execution space.
#ifndef ADDSCOPE_TIMING_TIMER_HPP
#define ADDSCOPE_TIMING_TIMER_HPP

#include <Kokkos_Core.hpp>
#include <chrono>

#include "addscope/core/addscope_SpaceKind.hpp"
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

/// The tracker's device kind of an execution space type (the same numbers
/// as Kokkos Tools' device type).
template <class ExecSpace>
DeviceKind device_kind_of() {
  const std::uint32_t id = kokkos_device_type<ExecSpace>();
  return id < std::uint32_t(DeviceKind::Unknown) ? DeviceKind(id)
                                                 : DeviceKind::Unknown;
}

}  // namespace addscope

#endif
