// addscope — timing of operations in phases (launch, completion, device
// time) and of copies. Holds no kernels: the operation to time is passed in.
#ifndef ADDSCOPE_TIMING_MEASURE_HPP
#define ADDSCOPE_TIMING_MEASURE_HPP

#include <Kokkos_Core.hpp>
#include <string>
#include <vector>

#include "addscope/core/addscope_Error.hpp"
#include "addscope/timing/addscope_DeviceTimer.hpp"
#include "addscope/timing/addscope_Results.hpp"
#include "addscope/timing/addscope_Timer.hpp"
#include "addscope/transfer/addscope_Transfer.hpp"
#include "addscope/waits/addscope_SyncTracker.hpp"

namespace addscope {

namespace Impl {
/// Tells the tracker about a kernel addscope launches itself, unless Kokkos
/// Tools already does (the tool library is loaded).
template <class ExecSpace, class Launch>
void tracked_launch(const std::string& label, Launch&& launch) {
  SyncTracker& tr = SyncTracker::global();
  if (tr.fed_by_kokkos_tools()) {
    launch();
    return;
  }
  const auto id = tr.kernel_begin(label, device_kind_of<ExecSpace>());
  launch();
  tr.kernel_end(id);
}

/// Runs f() as a call of `kind` named `what` that the tracker can charge
/// waits to; returns its host time.
template <class F>
double tracked_step(CallKind kind, const std::string& what, F&& f) {
  SyncTracker& tr = SyncTracker::global();
  const auto id = tr.call_begin(kind, what);
  const double t = time_host(f);
  tr.call_end(id);
  return t;
}

/// Like tracked_step, for a step that makes something: stores its host time
/// in `seconds` and returns what f() made.
template <class F>
auto tracked_make(CallKind kind, const std::string& what, double& seconds,
                  F&& f) {
  SyncTracker& tr = SyncTracker::global();
  const auto id = tr.call_begin(kind, what);
  const double t0 = host_seconds();
  auto made = f();
  seconds = host_seconds() - t0;
  tr.call_end(id);
  return made;
}

/// The options a measurement runs with, validated: `opt` itself without a
/// budget; with one, after one probe run of `run()` (earlier work on `exec`
/// fenced first), those MeasureOptions::within_budget gives.
template <class ExecSpace, class Run>
MeasureOptions probed(const MeasureOptions& opt, const ExecSpace& exec,
                      Run&& run, bool* reduced) {
  opt.validate();
  *reduced = false;
  if (opt.budget_s <= 0) return opt;
  exec.fence();
  return opt.within_budget(time_host(run), reduced);
}

/// While alive, the tracker measures the device (CUPTI on CUDA) if
/// `wanted`: the library traces the device only around its own sequences
/// (the tool, when loaded, traces the whole run anyway).
class DeviceTracingScope {
 public:
  explicit DeviceTracingScope(bool wanted) : on_(wanted) {
    if (on_) SyncTracker::global().start_device_tracing();
  }
  ~DeviceTracingScope() { stop(); }
  /// Stops tracing now (before the scope ends).
  void stop() {
    if (on_) SyncTracker::global().stop_device_tracing();
    on_ = false;
  }
  DeviceTracingScope(const DeviceTracingScope&) = delete;
  DeviceTracingScope& operator=(const DeviceTracingScope&) = delete;

 private:
  bool on_;
};
}  // namespace Impl

/// Times `launch()` (which starts work on `exec` and returns) in two phases:
/// launch (until it returns) and completion (until exec.fence() returns);
/// where the backend can (CUDA), also on the device, in `opt.repeat`
/// further runs. `bytes` is what one run moves, for GB/s. With a time
/// budget (options.budget_s) a slow launch runs fewer times
/// (MeasureOptions::within_budget; the result's reduced_repeat says so).
template <class ExecSpace, class Launch>
PhaseResult measure_phases(const ExecSpace& exec, const std::string& label,
                           std::int64_t n, std::uint64_t bytes, Launch&& launch,
                           const MeasureOptions& options = MeasureOptions()) {
  bool reduced = false;
  const MeasureOptions opt = Impl::probed(
      options, exec,
      [&] {
        launch();
        exec.fence();
      },
      &reduced);
  for (int i = 0; i < opt.warmup; ++i) {
    launch();
    exec.fence();
  }
  std::vector<double> l, c;
  for (int i = 0; i < opt.repeat; ++i) {
    exec.fence();
    const double t0 = host_seconds();
    launch();
    const double t1 = host_seconds();
    exec.fence();
    const double t2 = host_seconds();
    l.push_back(t1 - t0);
    c.push_back(t2 - t0);
  }
  PhaseResult r;
  r.label = label;
  r.n = n;
  r.bytes = bytes;
  r.reduced_repeat = reduced;
  r.launch = Stats::of(l);
  r.completion = Stats::of(c);
  if (r.completion.median_s > 0)
    r.gbps_median = gbps(bytes, r.completion.median_s);
  if (r.completion.min_s > 0) r.gbps_best = gbps(bytes, r.completion.min_s);
  if (DeviceTimer<ExecSpace>::available && opt.device_time) {
    // Two launches back to back: the first one is still running while the
    // second is queued, so the events around the second see the kernel,
    // not the time the launch call takes to reach an idle device.
    DeviceTimer<ExecSpace> dt(exec);
    std::vector<double> d;
    for (int i = 0; i < opt.repeat; ++i) {
      exec.fence();
      launch();
      dt.mark(1);
      launch();
      dt.mark(2);
      d.push_back(dt.seconds(1, 2));
    }
    exec.fence();
    r.device = Stats::of(d);
    if (r.device.median_s > 0)
      r.device_gbps_median = gbps(bytes, r.device.median_s);
  }
  return r;
}

/// Bytes a copy of n elements moves: D2D reads and writes (2 N s), a
/// host<->device transfer crosses the link once (N s).
inline std::uint64_t copied_bytes(CopyDirection d, std::int64_t n,
                                  std::size_t elem_size) {
  return d == CopyDirection::DeviceToDevice ? copy_bytes(n, elem_size)
                                            : transfer_bytes(n, elem_size);
}

/// Times `copy()` (which copies n elements of elem_size bytes as `what`
/// says and returns when done): earlier work on `exec` is fenced first. A
/// time budget (options.budget_s) applies as in measure_phases.
template <class ExecSpace, class Copy>
TransferResult measure_copy_with(
    const ExecSpace& exec, const std::string& what, CopyDirection direction,
    MemoryKind memory, std::int64_t n, std::size_t elem_size, Copy&& copy,
    const MeasureOptions& options = MeasureOptions()) {
  bool reduced = false;
  const MeasureOptions opt = Impl::probed(options, exec, copy, &reduced);
  for (int i = 0; i < opt.warmup; ++i) {
    exec.fence();
    copy();
  }
  std::vector<double> s;
  for (int i = 0; i < opt.repeat; ++i) {
    exec.fence();
    Kokkos::fence();
    const double t0 = host_seconds();
    copy();
    s.push_back(host_seconds() - t0);
  }
  TransferResult r;
  r.what = what;
  r.direction = direction;
  r.memory = memory;
  r.n = n;
  r.bytes = copied_bytes(direction, n, elem_size);
  r.reduced_repeat = reduced;
  r.time = Stats::of(s);
  if (r.time.median_s > 0) r.gbps_median = gbps(r.bytes, r.time.median_s);
  return r;
}

/// Times deep_copy(dst, src) alone: earlier work on `exec` is fenced first
/// and both Views exist beforehand (allocation is not transfer).
template <class ExecSpace, class Dst, class Src>
TransferResult measure_copy(const ExecSpace& exec, const std::string& what,
                            CopyDirection direction, MemoryKind memory,
                            const Dst& dst, const Src& src,
                            const MeasureOptions& opt = MeasureOptions()) {
  using T = typename Dst::non_const_value_type;
  ADDSCOPE_THROW_IF(dst.extent(0) != src.extent(0),
                    "extents differ: dst.extent(0) = "
                        << dst.extent(0) << ", src.extent(0) = "
                        << src.extent(0) << "; allowed: equal");
  return measure_copy_with(
      exec, what, direction, memory, std::int64_t(dst.extent(0)), sizeof(T),
      [&] { Kokkos::deep_copy(dst, src); }, opt);
}

}  // namespace addscope

#endif
