// addscope — how a waits tracker is set up: its clock, its device source,
// its caps. Plain data, shared by the facade (addscope_SyncTracker.hpp) and
// the analyzer's parts (analyze/).
#ifndef ADDSCOPE_WAITS_TRACKEROPTIONS_HPP
#define ADDSCOPE_WAITS_TRACKEROPTIONS_HPP

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "addscope/waits/addscope_WaitsClock.hpp"
#include "addscope/waits/attribution/addscope_Ledger.hpp"
#include "addscope/waits/attribution/addscope_Occupancy.hpp"

namespace addscope {

namespace Impl {
class DeviceSource;
}

/// What the tracker holds at most, whatever the length of the run. Past a
/// cap the oldest (or the new) item goes and is counted in
/// WaitsSnapshot::dropped; docs/waits-limits.md lists them.
struct TrackerLimits {
  /// Records held until they can be attributed (finished calls, blocking
  /// calls, kernel records, launches awaiting their record). Past it they
  /// are attributed with what has arrived (WaitsDropped::settled_early) and
  /// the oldest launches still awaiting a record are given up.
  std::size_t pending_records = std::size_t(1) << 16;
  /// Distinct names (kernels, calls, regions, contexts) and their bytes.
  std::size_t names = std::size_t(1) << 16;
  std::size_t name_bytes = std::size_t(16) << 20;
  /// Calls and regions open at once on one thread (the oldest goes).
  std::size_t open_per_thread = 256;
  /// Nested regions named in a region path (deeper pushes are counted).
  std::size_t region_depth = 64;
  /// Launches not yet known finished, without device records.
  std::size_t pending_launches = 4096;
  /// Device streams (and Kokkos instances) told apart.
  std::size_t streams = 1024;
  /// The program threads' event logs, all threads together, in 64 KiB
  /// chunks (past it a thread waits at most 200 us, then drops the event:
  /// WaitsDropped::events).
  std::size_t log_chunks = 512;
};

/// What the tracker holds now (tests, the soak and cost programs): each
/// stays under its TrackerLimits cap whatever the length of the run.
struct TrackerFootprint {
  std::size_t names = 0, name_bytes = 0;  ///< interned names
  std::size_t threads = 0;                ///< host threads with state held
  std::size_t open = 0;             ///< calls and regions open, all threads
  std::size_t pending_records = 0;  ///< as pending_records()
  std::size_t pending_launches = 0;
  std::size_t blocked_history = 0;  ///< blocking calls kept for overlap
  std::size_t log_chunks = 0;       ///< event-log chunks allocated
};

/// How kernel records are tied to the launches that made them.
enum class LaunchTie {
  /// The runtime's launch callbacks (every launch entry point): any CUDA
  /// program, and Kokkos programs when asked (ADDSCOPE_WAITS_LAUNCHES).
  Callbacks,
  /// The Kokkos call's id pushed as CUPTI's external correlation id around
  /// each Kokkos call: no launch callback (cheaper).
  External,
};

struct TrackerOptions {
  /// Null: the steady clock.
  std::shared_ptr<WaitsClock> clock;
  /// Makes the device source when the first asynchronous kernel or device
  /// event arrives. Null: none (waits on asynchronous devices are bounds).
  std::function<std::unique_ptr<Impl::DeviceSource>()> make_device_source;
  /// The same for any CUDA program (trace_any_cuda_program: the driver's
  /// calls too). Null: CUPTI's, when make_device_source is set.
  std::function<std::unique_ptr<Impl::DeviceSource>()> make_any_program_source;
  /// Tests: device records come through the DeviceSink interface by hand.
  bool device_records_by_hand = false;
  /// What each device can hold (launch shapes are judged against it), asked
  /// once when device records start (by hand: at construction). Null: not
  /// known (no occupancy, no starved launches).
  std::function<std::vector<DeviceCapacity>()> query_devices;
  /// Tests, with device records by hand: how their kernels are tied to
  /// launches (External: on_external_correlation() by hand).
  LaunchTie tie_by_hand = LaunchTie::Callbacks;
  /// Tests: launches and blocking calls come by hand, no kernel records
  /// (the CUPTI source's callbacks-only mode).
  bool callbacks_by_hand = false;
  Ledger::Limits limits;
  TrackerLimits tracker_limits;
  /// Settle (attribute and forget) once this many records are pending.
  std::size_t settle_every = 256;
  /// The analyzer on a thread of its own, draining the logs every
  /// `analyze_every_s` (and when a log runs short of chunks). Off: only
  /// flush(), finish() and the results drain them (deterministic: tests).
  bool background = false;
  double analyze_every_s = 0.005;
  /// How often the analyzer asks the device source for its records while
  /// anything waits for them.
  double device_flush_every_s = 0.02;
  /// Where in the program's own code (a stack captured on the program's
  /// thread, symbolized when a report is made): at the end of a call that
  /// lasted at least `site_min_s` (a wait that long can be reported), at
  /// each kernel name's first launch on a thread, and at a launch outside
  /// Kokkos' calls after at least `host_code_site_min_s` of the program's
  /// own code on its thread (the line host code that idled the device ran
  /// up to; longer than a framework's own time between launches, so that a
  /// loop of launches takes none). Off: no stack is taken.
  bool sites = true;
  double site_min_s = 10e-6;
  double host_code_site_min_s = 100e-6;
  /// With sites: each device launch at its own place (a stack at a new
  /// place, a few loads at one seen before: record/addscope_LaunchPlaces.hpp;
  /// x86-64 with libunwind; in a Python process also the program's Python
  /// line). Off: a launch without a stack of its own is at its kernel's (or
  /// shape's) first launch.
  bool launch_places = true;
};

}  // namespace addscope

#endif
