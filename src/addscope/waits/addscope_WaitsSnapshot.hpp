// addscope — the waits tracker's results at one moment: how it measured,
// the totals, the longest waits and the aggregates. Plain data, what the
// report, the JSON and the library's front door read.
#ifndef ADDSCOPE_WAITS_WAITSSNAPSHOT_HPP
#define ADDSCOPE_WAITS_WAITSSNAPSHOT_HPP

#include <string>
#include <vector>

#include "addscope/waits/model/addscope_IdleSummary.hpp"
#include "addscope/waits/attribution/addscope_Ledger.hpp"
#include "addscope/waits/attribution/addscope_Occupancy.hpp"

namespace addscope {

/// How device work was observed.
enum class WaitsMode {
  Host,        ///< no asynchronous device seen: kernels run inside their launch
  Device,      ///< device timestamps (CUPTI): waits are measured
  KokkosOnly,  ///< asynchronous device, no device timestamps: waits are bounds
  Callbacks,   ///< the device runtime's launches and blocking calls (CUPTI
               ///< callbacks), no kernel records: waits are bounds
};
const char* waits_mode_name(WaitsMode m);

/// What the tracker let go to keep its memory bounded (the caps of
/// TrackerLimits and LedgerLimits), and the events of the program it could
/// not pair up. All zero in a well-formed run that stays within the caps.
struct WaitsDropped {
  /// Distinct names past the name table's cap, reported as "(name table
  /// full)".
  std::uint64_t names = 0;
  /// Kernels, fences and deep_copies begun and never ended (still open at
  /// the report, open when their thread exited, or pushed out by the cap on
  /// open calls per thread): not attributed.
  std::uint64_t unended_calls = 0;
  /// Profiling regions pushed and never popped (same cases).
  std::uint64_t unpopped_regions = 0;
  /// End or pop callbacks with no matching begin or push: ignored.
  std::uint64_t unmatched_ends = 0;
  /// Region pushes past the depth cap: not in the region paths.
  std::uint64_t regions_too_deep = 0;
  /// Records attributed before everything they depend on had arrived,
  /// because the records held reached their cap: their waits may be short.
  std::uint64_t settled_early = 0;
  /// Launches not yet known finished forgotten past their cap (no device
  /// records: waits are bounds).
  std::uint64_t pending_launches = 0;
  /// Kernel records the device source lost (CUPTI's buffers full).
  std::uint64_t device_records = 0;
  /// Events the program's threads could not record: their logs were full
  /// (the analyzer was behind by more than the log cap).
  std::uint64_t events = 0;
  /// Stacks (where in the program's code) the threads left out: their logs
  /// were short of room; those calls have no line.
  std::uint64_t stacks = 0;
  /// Kernel names, call sites, streams, host threads past the ledger's
  /// caps: merged into one "(other ...)" entry each.
  std::uint64_t kernels = 0, sites = 0, streams = 0, threads = 0;
  bool any() const {
    return names || unended_calls || unpopped_regions || unmatched_ends ||
           regions_too_deep || settled_early || pending_launches ||
           device_records || events || stacks || kernels || sites || streams ||
           threads;
  }
};

/// The tool's own cost of naming the program's lines: the sites (a stack,
/// and in a Python program its line) the program's threads took, and the
/// time taking them cost those threads.
struct WaitsSitesCost {
  std::uint64_t taken = 0;
  double seconds = 0;
  /// Of those, the ones whose stack was read again where one at the same
  /// place had been taken before (no unwinding), and their time; the rest
  /// were unwound (the first at each place pays the unwinder's first
  /// reading of each new function's unwind tables).
  std::uint64_t read_again = 0;
  double read_again_seconds = 0;
  /// Of `seconds`, the time reading the program's Python lines (the rest:
  /// native stacks).
  double python_seconds = 0;
  /// Of those, the sites that are a Python line alone (a Python program's
  /// launch at a place of its own: no native stack read), and their time.
  std::uint64_t python_alone = 0;
  double python_alone_seconds = 0;
};

struct WaitsSnapshot {
  WaitsMode mode = WaitsMode::Host;
  std::string device_source;  ///< how device work was observed, in words
  /// How the tool came in: "kokkos" (Kokkos Tools), "cuda-injection" (any
  /// CUDA program, through CUDA_INJECTION64_PATH), "library" (addscope's
  /// own front door).
  std::string front_door = "library";
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
  bool trace_write_failed = false;  ///< the trace file is incomplete
  WaitsDropped dropped;
  WaitsSitesCost sites_cost;
  /// Whether each device launch was placed at its own line (sites on,
  /// x86-64 with libunwind, no Python: record/addscope_LaunchPlaces.hpp);
  /// else a launch without a stack of its own is at its kernel's (or
  /// shape's) first launch.
  bool launch_places = false;
  /// Why the device sat idle (device mode only; empty otherwise).
  IdleSummary idle;
};

}  // namespace addscope

#endif
