// addscope — the seed experiment: launch a kernel, then read one element
// back, first without a fence (what the seed's user did: the read absorbs
// the kernel) and then with one (the read alone), and ask the waits tracker
// which call waited for which kernel.
#ifndef ADDSCOPE_TIMING_READAFTERLAUNCH_HPP
#define ADDSCOPE_TIMING_READAFTERLAUNCH_HPP

#include <Kokkos_Core.hpp>
#include <string>
#include <vector>

#include "addscope/core/addscope_Error.hpp"
#include "addscope/core/addscope_SpaceKind.hpp"
#include "addscope/timing/addscope_Measure.hpp"
#include "addscope/timing/addscope_Results.hpp"
#include "addscope/timing/addscope_Timer.hpp"
#include "addscope/transfer/addscope_Transfer.hpp"
#include "addscope/waits/addscope_SyncTracker.hpp"
#include "addscope/waits/output/addscope_AttributionText.hpp"

namespace addscope {

struct ReadOptions {
  int reads = 5;       ///< fenced reads, timed one by one
  bool warmup = true;  ///< one untimed launch + fence + read first
  void validate() const {
    ADDSCOPE_THROW_IF(reads < 1,
                      "reads = " << reads << " is invalid; allowed: >= 1");
  }
};

/// What the seed experiment's numbers say.
enum class ReadVerdict {
  Waited,       ///< the naive read waited for the kernel (beyond noise)
  NoWait,       ///< asynchronous, but the kernel was done before the read
  Synchronous,  ///< the launch returned only when the kernel was done
};
/// Which call of the naive read the sync tracker charged the wait to.
enum class WaitedStep { None, CreateMirror, DeepCopy, Other };

/// explain()'s answer: the verdict as data, and as the sentences the demo
/// prints (each follows from the numbers; none is said that they do not
/// support).
struct ReadAfterLaunchExplanation {
  ReadVerdict verdict = ReadVerdict::Synchronous;
  /// The naive read's time over the naive launch's (the launch floored at
  /// 1 ns): what the seed's user compared.
  double read_over_launch = 0;
  /// Waited, and the read took at least 10 times the launch: "the transfer
  /// is slow", taken at face value.
  bool looks_slow = false;
  std::string waited_in;  ///< the call charged the longest wait ("" none)
  WaitedStep waited_step = WaitedStep::None;
  /// That call's own time, fenced (median; 0 unless CreateMirror/DeepCopy).
  double waited_step_alone_s = 0;
  /// Items 1 (the naive sequence) and 2 (the fenced one), one line each:
  /// "1. The naive sequence: ...", "   Taken at face value, ...", "2. ...".
  std::vector<std::string> lines;
  /// The conclusion, without "Conclusion: " and the final period: "the
  /// 608.5 ms you would have blamed on reading out[2] was the team:1x1
  /// kernel (...); the read itself takes 22.7 us".
  std::string conclusion;
};

/// Says from r's numbers whether, where and for how long the naive read
/// waited: a wait counts from r.wait_threshold_s(), and only on an
/// asynchronous backend. `kernel` names the kernel in the conclusion ("the
/// team:1x1 kernel"; empty: r.label).
ReadAfterLaunchExplanation explain(const ReadAfterLaunch& r,
                                   const std::string& kernel = std::string());

/// The seed experiment on `out` (which `launch()` writes): first naive —
/// launch, then create a host mirror of out[index] and deep_copy into it,
/// no fence — then the same with a fence after the launch, followed by
/// `opt.reads` reads timed one by one. The difference between the naive
/// read and the median fenced read is the wait; the waits tracker says which
/// call waited, and for which kernel. `expected` is out[index]'s correct
/// value.
///
/// With opt.warmup (the default) the whole sequence runs once untimed
/// first, so that the naive launch is not the kernel's first (module load,
/// first touch) and the first read's one-time costs stay out of the
/// numbers. The tracker is not cleared: only calls made during the naive
/// pass are attributed.
template <class ExecSpace, class OutView, class Launch>
ReadAfterLaunch measure_read_after_launch(
    const ExecSpace& exec, const std::string& label, const OutView& out,
    std::int64_t index, typename OutView::non_const_value_type expected,
    Launch&& launch, const ReadOptions& opt = ReadOptions()) {
  opt.validate();
  ReadAfterLaunch r;
  r.label = label;
  r.n = std::int64_t(out.extent(0));
  r.index = index;
  r.exec_space = ExecSpace::name();
  r.async_backend = launches_are_async<ExecSpace>();
  const auto elem = element(out, index);
  const std::string name =
      std::string(out.label()) + "[" + std::to_string(index) + "]";
  r.element = name;
  bool all_ok = true;
  // The device is measured (CUPTI, where there is one) from before the
  // warm-up, so that starting it costs the naive pass nothing.
  Impl::DeviceTracingScope tracing(r.async_backend);

  if (opt.warmup) {
    launch();
    exec.fence();
    auto m = Kokkos::create_mirror_view(elem);
    Kokkos::deep_copy(m, elem);
    all_ok = all_ok && m(0) == expected;
  }

  // Naive: what the seed's user did. The tracker (shared with the tool, if
  // loaded) attributes the waits of the calls made from here on. (No View
  // here is default-constructed: GCC 12 miscompiles that on Kokkos'
  // mdspan-based View, kokkos#7464.)
  SyncTracker& tr = SyncTracker::global();
  exec.fence();
  const auto mark = tr.mark();
  r.naive_launch_s = Impl::tracked_step(CallKind::Step, "launch " + label, [&] {
    Impl::tracked_launch<ExecSpace>(label, launch);
  });
  auto m1 = Impl::tracked_make(
      CallKind::Step, "create_mirror_view(" + name + ")", r.naive_mirror_s,
      [&] { return Kokkos::create_mirror_view(elem); });
  r.naive_copy_s =
      Impl::tracked_step(CallKind::DeepCopy, "deep_copy(" + name + ")",
                         [&] { Kokkos::deep_copy(m1, elem); });
  tr.flush();
  r.attribution = tr.waits_since(mark);
  tracing.stop();
  if (!r.attribution.empty())
    r.attribution_line = format_attribution(r.attribution.front());
  all_ok = all_ok && m1(0) == expected;

  // Fenced: the kernel's real time, then the read's own time, read by read
  // (nothing pending).
  exec.fence();
  const double t0 = host_seconds();
  launch();
  r.fenced_launch_s = host_seconds() - t0;
  exec.fence();
  r.completion_s = host_seconds() - t0;
  std::vector<double> mirror_s, copy_s, read_s;
  for (int i = 0; i < opt.reads; ++i) {
    const double a = host_seconds();
    auto m2 = Kokkos::create_mirror_view(elem);
    const double b = host_seconds();
    Kokkos::deep_copy(m2, elem);
    const double c = host_seconds();
    mirror_s.push_back(b - a);
    copy_s.push_back(c - b);
    read_s.push_back(c - a);
    all_ok = all_ok && m2(0) == expected;
  }
  r.fenced_mirror = Stats::of(mirror_s);
  r.fenced_copy = Stats::of(copy_s);
  r.fenced_read = Stats::of(read_s);
  r.verified = all_ok;
  return r;
}

}  // namespace addscope

#endif
