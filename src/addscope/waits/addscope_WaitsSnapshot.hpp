// addscope — the waits tracker's results at one moment: how it measured,
// the totals, the longest waits and the aggregates. Plain data, what the
// report, the JSON and the library's front door read.
#ifndef ADDSCOPE_WAITS_WAITSSNAPSHOT_HPP
#define ADDSCOPE_WAITS_WAITSSNAPSHOT_HPP

#include <string>
#include <vector>

#include "addscope/waits/attribution/addscope_Ledger.hpp"
#include "addscope/waits/attribution/addscope_Occupancy.hpp"

namespace addscope {

/// How device work was observed.
enum class WaitsMode {
  Host,        ///< no asynchronous device seen: kernels run inside their launch
  Device,      ///< device timestamps (CUPTI): waits are measured
  KokkosOnly,  ///< asynchronous device, no device timestamps: waits are bounds
};
const char* waits_mode_name(WaitsMode m);

struct WaitsSnapshot {
  WaitsMode mode = WaitsMode::Host;
  std::string device_source;  ///< how device work was observed, in words
  int kokkos_fences = -1;  ///< Kokkos reports fences: 1 yes, 0 no, -1 unknown
  int rank = -1;           ///< MPI rank (-1: not under MPI)
  /// The clock's epoch (time 0 of every *_s time) on the system clock,
  /// seconds since 1970 (0: unknown).
  double epoch_unix_s = 0;
  std::vector<DeviceCapacity> devices;  ///< what each device can hold
  WaitTotals totals;
  std::uint64_t threads_seen = 0;
  std::vector<CallRecord> waits;  ///< longest wait first (top K)
  std::vector<KernelStats> kernels;
  std::vector<SiteStats> sites;
  std::vector<StreamStats> streams;
  std::vector<ThreadStats> threads;
  std::uint64_t kernels_without_device_record = 0;
  std::string trace_path;  ///< "" when no trace was written
  std::uint64_t trace_events_dropped = 0;
};

}  // namespace addscope

#endif
