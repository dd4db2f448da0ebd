// addscope — the waits tracker: one per process (global()), fed by two front
// doors — Kokkos Tools callbacks (libaddscope_waits.so) and the library's
// own steps — and by a device source (CUPTI). It keeps a call stack per host
// thread, a timeline per device stream, attributes each blocking call's
// time to the kernels it waited for (attribution/addscope_Attribution.hpp
// says how), and keeps the results bounded (attribution/addscope_Ledger.hpp).
// Thread-safe. Kokkos-free.
//
// Data flow:
//   host events (Kokkos Tools / steps) ─► per-thread call stacks ─┐
//   device source (CUPTI: launches, blocking calls, kernel records) ├► settle:
//   ─► per-stream kernels ──────────────────────────────────────────┘
//   attribution ─► ledger (aggregates, top waits) ─► report, JSON;  ─► Chrome
//   trace
#ifndef ADDSCOPE_WAITS_SYNCTRACKER_HPP
#define ADDSCOPE_WAITS_SYNCTRACKER_HPP

#include <atomic>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "addscope/waits/addscope_WaitsClock.hpp"
#include "addscope/waits/addscope_WaitsSnapshot.hpp"
#include "addscope/waits/attribution/addscope_CallKind.hpp"
#include "addscope/waits/attribution/addscope_ExecId.hpp"
#include "addscope/waits/attribution/addscope_Occupancy.hpp"
#include "addscope/waits/attribution/addscope_WaitRecords.hpp"
#include "addscope/waits/device/addscope_DeviceSource.hpp"
#include "addscope/waits/output/addscope_Format.hpp"

namespace addscope {

namespace Impl {
class ThreadExitWatch;
}

/// What the tracker holds at most, whatever the length of the run. Past a
/// cap the oldest (or the new) item goes and is counted in
/// WaitsSnapshot::dropped; the README's "Limits" lists them.
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
};

struct TrackerOptions {
  /// Null: the steady clock.
  std::shared_ptr<WaitsClock> clock;
  /// Makes the device source when the first asynchronous kernel or device
  /// event arrives. Null: none (waits on asynchronous devices are bounds).
  std::function<std::unique_ptr<Impl::DeviceSource>()> make_device_source;
  /// Tests: device records come through the DeviceSink interface by hand.
  bool device_records_by_hand = false;
  /// What each device can hold (launch shapes are judged against it), asked
  /// once when device records start (by hand: at construction). Null: not
  /// known (no occupancy, no starved launches).
  std::function<std::vector<DeviceCapacity>()> query_devices;
  /// Tests: launches and blocking calls come by hand, no kernel records
  /// (the CUPTI source's callbacks-only mode).
  bool callbacks_by_hand = false;
  Ledger::Limits limits;
  TrackerLimits tracker_limits;
  /// Settle (attribute and forget) once this many records are pending.
  std::size_t settle_every = 256;
};

class SyncTracker final : public Impl::DeviceSink {
 public:
  /// The process-wide tracker, shared by both front doors; its device
  /// source is CUPTI where this build and the machine have it, as
  /// ADDSCOPE_WAITS_DEVICE says: cupti (default: kernel records and
  /// callbacks), callbacks (launches and blocking calls only), none.
  static SyncTracker& global();

  SyncTracker();  ///< steady clock, no device source
  explicit SyncTracker(TrackerOptions options);
  ~SyncTracker() override;
  SyncTracker(const SyncTracker&) = delete;
  SyncTracker& operator=(const SyncTracker&) = delete;

  /// Seconds on the tracker's clock.
  double now() const;

  // ---- host events (any thread; one call stack per thread) -------------
  /// A kernel launch: on an asynchronous device the launch call, its device
  /// run comes from the device source; on a host backend the work itself.
  // Begin/end callbacks are paired by id on the calling thread; an end with
  // no open begin is counted and ignored, a begin never ended is counted
  // when its thread exits or the report is made (WaitsSnapshot::dropped).
  std::uint64_t kernel_begin(std::string_view name, ExecId exec);
  std::uint64_t kernel_begin(std::string_view name, DeviceKind kind) {
    ExecId e;
    e.kind = kind;
    return kernel_begin(name, e);
  }
  void kernel_end(std::uint64_t id);
  /// A call that may block (fence, deep_copy, step). `site` groups calls
  /// in the report (default: `what`).
  std::uint64_t call_begin(CallKind kind, std::string_view what,
                           ExecId exec = ExecId(),
                           std::string_view site = std::string_view());
  void call_end(std::uint64_t id);
  /// Ends the innermost open call of `kind` on this thread (Kokkos' end of
  /// a deep_copy carries no id); false if there is none.
  bool call_end_innermost(CallKind kind);
  /// Profiling regions: context for the calls inside them.
  void region_push(std::string_view name);
  void region_pop();
  /// An instant (allocation, deallocation): names what a runtime call right
  /// after it belongs to.
  void instant(CallKind kind, std::string_view what);
  /// A device of this kind is in use (an allocation or copy there): starts
  /// the device source before its work.
  void device_seen(DeviceKind kind);

  // ---- device source ----------------------------------------------------
  /// Starts the device source now if there is one (idempotent, counted):
  /// true if device timestamps will be measured.
  bool start_device_tracing();
  /// Undoes one start_device_tracing(); the source stops at zero (it stays
  /// on while the Kokkos Tools front door uses it).
  void stop_device_tracing();
  /// Delivers the device's pending records and attributes what can be.
  void flush();
  /// Stops the device source and attributes everything still pending
  /// (kernels without device records are dropped): the end of the program.
  void finish();

  // ---- results ------------------------------------------------------------
  /// Calls that begin after this have ids >= the returned mark.
  std::uint64_t mark() const;
  /// The calls that waited, among those begun since `mark` (and kept among
  /// the recent ones), longest wait first. Call flush() first.
  std::vector<CallRecord> waits_since(std::uint64_t mark) const;
  WaitsSnapshot snapshot() const;
  /// Records held until they can be attributed (launches without device
  /// records, calls and kernels not settled yet): bounded by what is in
  /// flight, not by the length of the run.
  std::size_t pending_records() const;
  TrackerFootprint footprint() const;
  /// The text report (output/addscope_WaitsReport.hpp) of snapshot().
  void write_report(std::ostream& os) const;
  /// The JSON report of snapshot().
  std::string report_json() const;
  /// Writes a Chrome trace-event file while the run goes on; false (and
  /// why in `error`) if it cannot be opened.
  bool open_trace(const std::string& path, std::string* error = nullptr);
  void close_trace();

  /// Set by the Kokkos Tools front door while Kokkos feeds the tracker, so
  /// that addscope's own notifications do not count kernels twice.
  void set_fed_by_kokkos_tools(bool on);
  bool fed_by_kokkos_tools() const;
  /// Kokkos Tools interface version (fences are reported from 20211015).
  void set_kokkos_interface_version(std::uint64_t v);
  /// Kokkos' "Default Device" metadata (the mangled type of its default
  /// execution space): names the host space Kokkos 3.x runs View
  /// initializations on when no other host kernel says.
  void set_default_device(const std::string& type_name);

  // ---- Impl::DeviceSink ---------------------------------------------------
  void on_launch(const Impl::LaunchBegin& l) override;
  void on_launch(std::uint32_t correlation) {
    Impl::LaunchBegin l;
    l.correlation = correlation;
    on_launch(l);
  }
  void on_launch_failed(std::uint32_t correlation) override;
  void on_slow_launch(double begin_s, double end_s) override;
  void on_blocking_begin(const Impl::BlockingBegin& b) override;
  void on_blocking_end() override;
  void on_device_kernels(std::vector<Impl::DeviceKernelRecord>& k) override;
  double seconds_from_steady_ns(std::int64_t ns) const override;

 private:
  friend class Impl::ThreadExitWatch;
  struct State;
  void ensure_device(DeviceKind kind);
  void on_blocking_end_at(double end_s);  // < 0: now
  void on_thread_exit(std::uint32_t thread);
  std::unique_ptr<State> s_;
  mutable std::mutex mu_;
  std::uint64_t serial_;  // tells trackers apart (thread-exit hooks)
  // Set once nothing is left for ensure_device() to do.
  std::atomic<bool> device_settled_{false};
};

}  // namespace addscope

#endif
