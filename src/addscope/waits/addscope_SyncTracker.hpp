// addscope — the sync tracker: records kernels and the calls that may block
// (deep_copy, fence, allocation, host kernels, user-named steps), watches the
// device without blocking it, and attributes each long call's time to the
// kernels it waited for. Kokkos-free; fed either by addscope itself (the
// in-process front door) or by Kokkos Tools callbacks (libaddscope_waits.so).
#ifndef ADDSCOPE_WAITS_SYNCTRACKER_HPP
#define ADDSCOPE_WAITS_SYNCTRACKER_HPP

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "addscope/waits/addscope_DeviceProbe.hpp"

namespace addscope {

/// Kokkos' device type, the top bits of a Kokkos Tools device id.
enum class DeviceKind : std::uint32_t {
  Serial = 0,
  OpenMP = 1,
  Cuda = 2,
  HIP = 3,
  OpenMPTarget = 4,
  HPX = 5,
  Threads = 6,
  SYCL = 7,
  Unknown = 8
};
DeviceKind device_kind_from_tools_id(std::uint32_t dev_id);
const char* device_kind_name(DeviceKind k);
/// Are launches on this device asynchronous to the host?
bool is_async(DeviceKind k);

/// One kernel as the tracker saw it.
struct KernelRecord {
  std::uint64_t id = 0;
  std::string name;
  DeviceKind device = DeviceKind::Unknown;
  double launch_begin_s = 0;  ///< host clock (tracker epoch), launch call
  double launch_end_s = 0;    ///< when the launch call returned
  double device_s = -1;       ///< device run time (events), < 0 unknown
  double done_by_s = -1;      ///< first host time it was seen finished
  std::string absorbed_by;    ///< the call that waited for it ("" none)
};

/// What a kernel cost a call that waited for it.
struct WaitShare {
  std::string kernel;
  double wait_s = 0;
};

/// A call that took host time, and how much of it was waiting.
struct CallRecord {
  std::string what;  ///< "deep_copy out[2] (Host<-Cuda)", ...
  std::string
      kind;  ///< deep_copy | fence | kernel | alloc | region | step | gap
  double begin_s = 0, end_s = 0;
  double duration_s() const { return end_s - begin_s; }
  double wait_s = 0;  ///< time spent waiting for earlier device work
  double own_s() const { return duration_s() - wait_s; }
  std::vector<WaitShare> waited_for;
};

/// One-line attribution: "deep_copy out[2] 640.1 ms = 640.0 ms waiting for
/// addscope::add[team:1x1] + 6.2 us own".
std::string format_attribution(const CallRecord& c);
/// Human duration: "640.1 ms", "6.2 us", "1.25 s".
std::string format_seconds(double s);

class SyncTracker {
 public:
  /// The process-wide tracker (shared by both front doors).
  static SyncTracker& global();

  /// use_device_probe = false: never ask the device (pending asynchronous
  /// kernels finish at the next fence or deep_copy) — for tests.
  explicit SyncTracker(bool use_device_probe = true);
  /// With a given probe (tests drive the device's progress with a fake).
  explicit SyncTracker(std::unique_ptr<Impl::DeviceProbe> probe);
  ~SyncTracker();
  SyncTracker(const SyncTracker&) = delete;
  SyncTracker& operator=(const SyncTracker&) = delete;

  /// Seconds since the tracker was created (steady clock).
  double now() const;

  // ---- events --------------------------------------------------------
  std::uint64_t kernel_begin(const std::string& name, DeviceKind device);
  void kernel_end(std::uint64_t kernel_id);
  /// A bracketed call that may block (deep_copy, fence, region, step...).
  std::uint64_t call_begin(const std::string& what, const std::string& kind);
  void call_end(std::uint64_t call_id);
  /// Instant events (allocations): also a moment to look at the device.
  void instant(const std::string& what);

  /// Waits for nothing; only checks which kernels have finished. Called by
  /// every event; public for tests and explicit probes.
  void poll();

  // ---- results -------------------------------------------------------
  /// Kernels kept (the oldest are forgotten past 100000 records).
  std::vector<KernelRecord> kernels() const;
  /// Kernels and calls seen since construction or clear().
  std::uint64_t kernels_seen() const;
  std::uint64_t calls_seen() const;
  /// Calls (and gaps between events) whose duration was at least
  /// `min_s`, longest first.
  std::vector<CallRecord> blocking_calls(double min_s = 0) const;
  /// All completed calls in order.
  std::vector<CallRecord> calls() const;
  /// Forget everything recorded (keeps the probe).
  void clear();

  /// Set by the Kokkos Tools front door while Kokkos feeds the tracker, so
  /// that addscope's own notifications do not count kernels twice.
  void set_fed_by_kokkos_tools(bool on);
  bool fed_by_kokkos_tools() const;

  /// Plain-text report of the longest `top` blocking calls.
  void write_report(std::ostream& os, std::size_t top = 10,
                    double min_s = 10e-6) const;
  /// The same as JSON (kernels, calls), for ADDSCOPE_WAITS_JSON.
  std::string report_json(double min_s = 0) const;

 private:
  struct Pending;
  struct OpenCall;
  void poll_locked(double t);
  void note_event_locked(double t, const std::string& what);
  void attribute_locked(CallRecord& c, const std::vector<std::size_t>& was);
  void push_call_locked(CallRecord c);
  Impl::DeviceProbe& probe_locked();

  mutable std::mutex mu_;
  std::unique_ptr<Impl::DeviceProbe> probe_;
  bool probe_tried_ = false;
  bool use_probe_ = true;
  bool fed_by_tools_ = false;
  std::uint64_t next_id_ = 1;
  std::uint64_t kernels_seen_ = 0, calls_seen_ = 0;
  std::vector<KernelRecord> kernels_;
  std::vector<std::unique_ptr<Pending>> pending_;
  std::vector<std::unique_ptr<OpenCall>> open_;
  std::vector<CallRecord> calls_;
  double last_event_s_ = 0;
  std::string last_event_;
  double last_fin_s_ = 0;  // estimated end of the device queue so far
  std::size_t max_records_ = 100000;
};

}  // namespace addscope

#endif
