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
#include "addscope/waits/output/addscope_Format.hpp"

namespace addscope {

struct ReadOptions {
  int reads = 5;       ///< fenced reads, timed one by one
  bool warmup = true;  ///< one untimed launch + fence + read first
  void validate() const {
    ADDSCOPE_THROW_IF(reads < 1,
                      "reads = " << reads << " is invalid; allowed: >= 1");
  }
};

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
  r.async_backend = launches_are_async<ExecSpace>();
  const auto elem = element(out, index);
  const std::string name =
      std::string(out.label()) + "[" + std::to_string(index) + "]";
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
