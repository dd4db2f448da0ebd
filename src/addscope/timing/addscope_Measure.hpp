// addscope — timing of operations in phases (launch, completion, transfer,
// wait). Holds no kernels: the operation to time is passed in.
#ifndef ADDSCOPE_TIMING_MEASURE_HPP
#define ADDSCOPE_TIMING_MEASURE_HPP

#include <Kokkos_Core.hpp>
#include <string>
#include <vector>

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

/// Runs f() as a named step the tracker can attribute waits to, stores its
/// host time in `seconds` and returns what f() made.
template <class F>
auto tracked_make(const std::string& what, double& seconds, F&& f) {
  SyncTracker& tr = SyncTracker::global();
  const auto id = tr.call_begin(what, "step");
  const double t0 = host_seconds();
  auto made = f();
  seconds = host_seconds() - t0;
  tr.call_end(id);
  return made;
}

/// Runs f() as a named step the tracker can attribute waits to.
template <class F>
double tracked_step(const std::string& what, F&& f) {
  SyncTracker& tr = SyncTracker::global();
  const auto id = tr.call_begin(what, "step");
  const double t = time_host(f);
  tr.call_end(id);
  return t;
}
}  // namespace Impl

/// Times `launch()` (which starts work on `exec` and returns) in two phases:
/// launch (until it returns) and completion (until exec.fence() returns).
/// `bytes` is what one run moves, for GB/s.
template <class ExecSpace, class Launch>
PhaseResult measure_phases(const ExecSpace& exec, const std::string& label,
                           std::int64_t n, std::uint64_t bytes, Launch&& launch,
                           const MeasureOptions& opt = MeasureOptions()) {
  opt.validate();
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
  r.launch = Stats::of(l);
  r.completion = Stats::of(c);
  if (r.completion.median_s > 0)
    r.gbps_median = gbps(bytes, r.completion.median_s);
  if (r.completion.min_s > 0) r.gbps_best = gbps(bytes, r.completion.min_s);
  return r;
}

/// Times deep_copy(dst, src) alone: earlier work on `exec` is fenced first
/// and both Views exist beforehand (allocation is not transfer).
template <class ExecSpace, class Dst, class Src>
TransferResult measure_copy(const ExecSpace& exec, const std::string& what,
                            const std::string& direction,
                            const std::string& memory, const Dst& dst,
                            const Src& src,
                            const MeasureOptions& opt = MeasureOptions()) {
  opt.validate();
  using T = typename Dst::non_const_value_type;
  for (int i = 0; i < opt.warmup; ++i) fenced_copy(exec, dst, src);
  std::vector<double> s;
  for (int i = 0; i < opt.repeat; ++i) {
    exec.fence();
    Kokkos::fence();
    const double t0 = host_seconds();
    Kokkos::deep_copy(dst, src);
    s.push_back(host_seconds() - t0);
  }
  TransferResult r;
  r.what = what;
  r.direction = direction;
  r.memory = memory;
  r.n = std::int64_t(dst.extent(0));
  r.bytes = direction == "D2D" ? copy_bytes(r.n, sizeof(T))
                               : transfer_bytes(r.n, sizeof(T));
  r.time = Stats::of(s);
  if (r.time.median_s > 0) r.gbps_median = gbps(r.bytes, r.time.median_s);
  return r;
}

/// The seed's experiment on `out` (which `launch()` writes): first naive —
/// launch, then create a host mirror of out[index] and deep_copy into it,
/// no fence — then the same with a fence after the launch. The difference
/// between the two reads is the wait; the sync tracker says which call
/// absorbed it. `expected` is out[index]'s correct value. The fenced read
/// is the median of `reads` reads.
template <class ExecSpace, class OutView, class Launch>
SeedResult measure_seed_sequence(
    const ExecSpace& exec, const std::string& label, const OutView& out,
    std::int64_t index, typename OutView::non_const_value_type expected,
    Launch&& launch, int reads = 5) {
  ADDSCOPE_THROW_IF(reads < 1,
                    "reads = " << reads << " is invalid; allowed: >= 1");
  SeedResult r;
  r.label = label;
  r.n = std::int64_t(out.extent(0));
  r.index = index;
  r.async_backend = launches_are_async<ExecSpace>();
  const auto elem = element(out, index);
  const std::string name =
      std::string(out.label()) + "[" + std::to_string(index) + "]";
  SyncTracker& tr = SyncTracker::global();
  exec.fence();
  tr.clear();

  // Naive: what the seed's user did. (No View here is default-constructed:
  // GCC 12 miscompiles that on Kokkos' mdspan-based View, kokkos#7464.)
  r.naive_launch_s = Impl::tracked_step("launch " + label, [&] {
    Impl::tracked_launch<ExecSpace>(label, launch);
  });
  auto m1 =
      Impl::tracked_make("create_mirror_view(" + name + ")", r.naive_mirror_s,
                         [&] { return Kokkos::create_mirror_view(elem); });
  r.naive_copy_s = Impl::tracked_step("deep_copy(" + name + ")",
                                      [&] { Kokkos::deep_copy(m1, elem); });
  tr.poll();
  for (const auto& c : tr.blocking_calls())
    if (!c.waited_for.empty()) r.attribution.push_back(c);
  if (!r.attribution.empty())
    r.attribution_line = format_attribution(r.attribution.front());

  // Fenced: the kernel's real time, then the read's real time.
  exec.fence();
  const double t0 = host_seconds();
  launch();
  r.fenced_launch_s = host_seconds() - t0;
  exec.fence();
  r.completion_s = host_seconds() - t0;
  // The read alone, the median of `reads` fresh reads (nothing pending).
  std::vector<double> mirror_s, copy_s;
  bool all_ok = true;
  for (int i = 0; i < reads; ++i) {
    const double m0 = host_seconds();
    auto m2 = Kokkos::create_mirror_view(elem);
    mirror_s.push_back(host_seconds() - m0);
    copy_s.push_back(time_host([&] { Kokkos::deep_copy(m2, elem); }));
    all_ok = all_ok && m2(0) == expected;
  }
  r.fenced_mirror_s = Stats::of(mirror_s).median_s;
  r.fenced_copy_s = Stats::of(copy_s).median_s;
  r.verified = m1(0) == expected && all_ok;
  return r;
}

}  // namespace addscope

#endif
