// addscope — starved launches: a kernel launched with too few threads to
// keep the device busy, for long enough that it matters. A launch shape of a
// kernel is *starved* when
//   * it keeps fewer than `max_in_flight` (1/8) of the device's resident
//     threads in flight (SMs x max threads per SM; the threads in flight of
//     a shape are min(its blocks, SMs x blocks per SM) x threads per block,
//     see addscope_Occupancy.hpp), and
//   * its device time, over all its launches, is a noticeable share of the
//     run's: at least `min_share` (1%) of all kernels' device time and at
//     least `min_s` (1 ms) — so that tiny kernels (a 1-block reduction
//     tail, a scalar's initialization) are not flagged.
// Pure functions over the ledger's aggregates; Kokkos-free.
#ifndef ADDSCOPE_WAITS_ATTRIBUTION_STARVATION_HPP
#define ADDSCOPE_WAITS_ATTRIBUTION_STARVATION_HPP

#include <vector>

#include "addscope/waits/attribution/addscope_Ledger.hpp"
#include "addscope/waits/attribution/addscope_Occupancy.hpp"

namespace addscope {

struct StarvationRule {
  double max_in_flight = 1.0 / 8;  ///< of the device's resident threads
  double min_share = 0.01;         ///< of all kernels' device time
  double min_s = 1e-3;             ///< device time over all its launches
};

/// One launch shape of one kernel, judged.
struct ShapeVerdict {
  ShapeStats stats;
  const DeviceCapacity* device = nullptr;  ///< null: capacity unknown
  Occupancy occupancy;                     ///< zero when device is null
  double share = 0;  ///< of `busy_s`, all kernels' device time
  bool starved = false;
};

/// Is a shape with occupancy `o` that ran `device_s` in all starved, in a
/// run whose kernels ran `busy_s` in all? Never when o is unknown
/// (resident_threads == 0).
bool is_starved(const Occupancy& o, double device_s, double busy_s,
                const StarvationRule& rule);

/// The capacity of device `id` among `devices`, or null.
const DeviceCapacity* find_device(const std::vector<DeviceCapacity>& devices,
                                  std::uint32_t id);

/// Every known shape of `k`, judged; most device time first.
std::vector<ShapeVerdict> judge_shapes(
    const KernelStats& k, const std::vector<DeviceCapacity>& devices,
    double busy_s, const StarvationRule& rule);

}  // namespace addscope

#endif
