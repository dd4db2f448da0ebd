// addscope — the waits tracker: one per process (global()), fed by the
// front doors — Kokkos Tools callbacks (libaddscope_waits.so), the
// library's own steps, the PMPI wrappers — and by a device source (CUPTI).
// Record now, explain later:
//
//   program threads ─► each its own event log (record/): a fixed-size
//     record appended, no lock, no allocation in steady state, no text
//   device source ─► the device's buffers handed over as they complete
//          │
//          ▼
//   analyzer (analyze/): merges the logs in time order, replays each
//     thread's call stack, ties kernel records to launches, applies the
//     attribution rules (attribution/), keeps bounded results (the ledger)
//     and writes the trace — on a thread of its own (start_background()),
//     and on the caller's thread for flush(), finish() and the results
//
// Thread-safe. Kokkos-free. docs/waits-tool.md says how it measures.
#ifndef ADDSCOPE_WAITS_SYNCTRACKER_HPP
#define ADDSCOPE_WAITS_SYNCTRACKER_HPP

#include <atomic>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "addscope/waits/addscope_TrackerOptions.hpp"
#include "addscope/waits/addscope_WaitsClock.hpp"
#include "addscope/waits/addscope_WaitsSnapshot.hpp"
#include "addscope/waits/model/addscope_CallKind.hpp"
#include "addscope/waits/model/addscope_ExecId.hpp"
#include "addscope/waits/model/addscope_WaitRecords.hpp"
#include "addscope/waits/device/addscope_DeviceSource.hpp"

namespace addscope {
namespace Impl {
struct TrackerParts;
}

class SyncTracker final : public Impl::DeviceSink {
 public:
  /// The process-wide tracker, shared by every front door; its device
  /// source is CUPTI where this build and the machine have it, as
  /// ADDSCOPE_WAITS_DEVICE says: cupti (default: kernel records and
  /// callbacks), callbacks (launches and blocking calls only), none; its
  /// kernels are tied to launches as ADDSCOPE_WAITS_LAUNCHES says: external
  /// (default: the Kokkos call's id pushed as CUPTI's external correlation),
  /// callbacks (the runtime's launch callbacks). Its analyzer runs on a
  /// thread of its own.
  static SyncTracker& global();

  SyncTracker();  ///< steady clock, no device source, no background thread
  explicit SyncTracker(TrackerOptions options);
  ~SyncTracker() override;
  SyncTracker(const SyncTracker&) = delete;
  SyncTracker& operator=(const SyncTracker&) = delete;

  /// Seconds on the tracker's clock.
  double now() const;

  // ---- host events (any thread; recorded in the thread's own log) ----------
  /// A kernel launch: on an asynchronous device the launch call (its device
  /// run comes from the device source); on a host backend the work itself.
  /// Begin/end are paired by id on the calling thread; an end with no open
  /// begin is counted and ignored, a begin never ended is counted when its
  /// thread exits or the report is made (WaitsSnapshot::dropped).
  std::uint64_t kernel_begin(std::string_view name, ExecId exec);
  std::uint64_t kernel_begin(std::string_view name, DeviceKind kind) {
    ExecId e;
    e.kind = kind;
    return kernel_begin(name, e);
  }
  void kernel_end(std::uint64_t id);
  /// A call that may block (fence, deep_copy, step, MPI call). `site`
  /// groups calls in the report (default: `what`).
  std::uint64_t call_begin(CallKind kind, std::string_view what,
                           ExecId exec = ExecId(),
                           std::string_view site = std::string_view());
  void call_end(std::uint64_t id);
  /// A Kokkos deep_copy: named "deep_copy dst<-src (Dst<-Src, N B)", its
  /// site without the size (the text is made by the analyzer).
  std::uint64_t deep_copy_begin(std::string_view dst, std::string_view src,
                                std::string_view dst_space,
                                std::string_view src_space,
                                std::uint64_t bytes);
  /// Ends the innermost open call of `kind` on this thread (Kokkos' end of
  /// a deep_copy carries no id).
  void call_end_innermost(CallKind kind);
  /// Profiling regions: context for the calls inside them.
  void region_push(std::string_view name);
  void region_pop();
  /// An allocation or deallocation (kind Alloc or Dealloc): names what a
  /// runtime call right after it belongs to — "allocate <label> (<space>,
  /// <bytes>)", or `label` alone when no space is given.
  void instant(CallKind kind, std::string_view label,
               std::string_view space = std::string_view(),
               std::uint64_t bytes = 0);
  /// A device of this kind is in use (an allocation or copy there): starts
  /// the device source before its work.
  void device_seen(DeviceKind kind);

  // ---- device source -------------------------------------------------------
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
  /// The CUDA injection front door (CUDA_INJECTION64_PATH: any CUDA
  /// program, Kokkos or not): the device is watched for the whole run from
  /// now on, launches tied to kernels by the runtime's and the driver's
  /// launch callbacks, the driver's blocking calls followed too.
  void trace_any_cuda_program();
  /// Runs the analyzer on a thread of its own from now on (the tool);
  /// `on_signal(sig)` runs there for a signal posted by post_signal().
  void start_background(void (*on_signal)(int) = nullptr);
  /// From a signal handler (async-signal-safe).
  void post_signal(int sig);

  // ---- results
  // ---------------------------------------------------------------
  /// Calls that begin after this have ids >= the returned mark.
  std::uint64_t mark() const;
  /// The calls that waited, among those begun since `mark` (and kept among
  /// the recent ones), longest wait first; what ended before the call is
  /// settled first (a device flush kClockTolerance_s after it).
  std::vector<CallRecord> waits_since(std::uint64_t mark);
  /// The results so far (what the threads recorded is analyzed first).
  WaitsSnapshot snapshot();
  /// Records held until they can be attributed: bounded by what is in
  /// flight, not by the length of the run.
  std::size_t pending_records();
  TrackerFootprint footprint();
  /// Writes a Chrome trace-event file while the run goes on; false (and
  /// why in `error`) if it cannot be opened (core/addscope_OutputFile.hpp:
  /// regular files only).
  bool open_trace(const std::string& path, std::string* error = nullptr);

  /// Set by the Kokkos Tools front door while Kokkos feeds the tracker, so
  /// that addscope's own notifications do not count kernels twice.
  void set_fed_by_kokkos_tools(bool on);
  bool fed_by_kokkos_tools() const;
  /// Kokkos Tools fed the tracker at some time: a Kokkos program.
  bool kokkos_seen() const;
  /// Kokkos Tools interface version (fences are reported from 20211015).
  void set_kokkos_interface_version(std::uint64_t v);
  /// Kokkos' "Default Device" metadata (the mangled type of its default
  /// execution space): names the host space Kokkos 3.x runs View
  /// initializations on when no other host kernel says.
  void set_default_device(const std::string& type_name);

  // ---- Impl::DeviceSink (the device source, on the program's threads) -------
  void on_launch(const Impl::LaunchBegin& l) override;
  void on_launch(std::uint32_t correlation) {
    Impl::LaunchBegin l;
    l.correlation = correlation;
    on_launch(l);
  }
  void on_launch_failed(std::uint32_t correlation) override;
  void on_slow_launch(double begin_s, double end_s,
                      std::uint32_t correlation) override;
  using Impl::DeviceSink::on_slow_launch;
  void on_blocking_begin(const Impl::BlockingBegin& b) override;
  void on_blocking_end() override;
  double seconds_from_steady_ns(std::int64_t ns) const override;
  void on_cuda_in_use() override;

  /// Device records given by hand (tests, TrackerOptions::
  /// device_records_by_hand): analyzed after what the threads recorded so
  /// far.
  void on_device_kernels(std::vector<Impl::DeviceKernelRecord>& k);
  void on_device_copies(std::vector<Impl::DeviceCopyRecord>& c);
  void on_external_correlation(std::uint32_t correlation,
                               std::uint64_t call_id);

  /// fork(): the handlers the tool registers (pthread_atfork). The child
  /// starts with a fresh, empty state, no device source and no analyzer
  /// thread (the tool starts one again).
  void prepare_fork();
  void after_fork_parent();
  void after_fork_child();

  // The record and analyze parts (addscope_TrackerParts.hpp).
  using Parts = Impl::TrackerParts;

 private:
  void ensure_device(DeviceKind kind);
  void record_mode();
  void tick();
  void take_deferred_devices();
  std::unique_ptr<Parts> p_;
  std::atomic<bool> device_settled_{false};
};

}  // namespace addscope

#endif
