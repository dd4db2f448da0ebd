// addscope — a sweep of out = x + y (a SweepPlan, bench/SweepPlan): for
// every size the copy references and the advisor's sweep of the
// configurations (each verified on the device, the references measured
// again where the adds beside them show they were slowed); then
// host<->device transfers, single-element reads and launch latency. An
// observer hears of every step done (a progress line).
#ifndef ADDSCOPE_BENCH_SWEEP_HPP
#define ADDSCOPE_BENCH_SWEEP_HPP

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "addscope/compute/addscope_Inputs.hpp"
#include "addscope/core/addscope_Error.hpp"
#include "addscope/bench/addscope_Advisor.hpp"
#include "addscope/bench/addscope_HostTransfers.hpp"
#include "addscope/bench/addscope_LaunchLatency.hpp"
#include "addscope/bench/addscope_References.hpp"
#include "addscope/bench/addscope_SweepPlan.hpp"
#include "addscope/transfer/addscope_Transfer.hpp"

namespace addscope {

/// What a sweep measured.
struct SweepResults {
  /// Per (type, size), in sweep order: the advisor's results (every
  /// candidate, measured or skipped) and the copy references beside them.
  std::vector<SweepPoint> points;
  std::vector<HostTransfer> transfers;
  std::vector<HostTransfer> element_reads;
  std::vector<LatencyResult> latency;
  int verify_failures = 0;  ///< adds whose result was wrong
};

/// One step of a sweep done.
struct SweepStep {
  enum class Kind { References, Candidate, Transfers };
  Kind kind = Kind::References;
  std::int64_t n = 0;
  std::string type;           ///< the value type's name ("" for Transfers)
  std::size_t elem_size = 0;  ///< sizeof(T) (sizeof(float) for Transfers)
  /// Candidate: its result; null otherwise.
  const CandidateResult* result = nullptr;
  std::size_t left = 0;  ///< Candidate: candidates still to run at this size
};
using SweepObserver = std::function<void(const SweepStep&)>;

namespace Impl {
template <class T, class ExecSpace>
using SweepArray =
    Kokkos::View<T*, Kokkos::LayoutRight, typename ExecSpace::memory_space>;

/// The first n elements of v (the same memory).
template <class View>
auto prefix(const View& v, std::int64_t n) {
  return Kokkos::subview(v, std::make_pair(std::int64_t(0), n));
}
}  // namespace Impl

/// add_team_size_max for T on `exec` (the View types the sweep uses).
template <class T, class ExecSpace>
int sweep_team_max(const ExecSpace& exec) {
  Impl::SweepArray<T, ExecSpace> a("addscope::sweep::a", 1);
  const auto p = Impl::prefix(a, 1);
  return add_team_size_max(exec, p, p, p);
}

/// Throws InvalidArgument, prefixed with `param`, if a configuration cannot
/// run for T on `exec` at any size (a team size above team_size_max),
/// before anything is measured.
template <class T, class ExecSpace>
void check_sweep_configs(const ExecSpace& exec, const std::string& param,
                         const std::vector<LaunchConfig>& configs) {
  Impl::SweepArray<T, ExecSpace> a("addscope::sweep::a", 1);
  const auto p = Impl::prefix(a, 1);
  for (const auto& c : configs) try {
      resolve_launch_config(exec, p, p, p, c);
    } catch (const InvalidArgument& e) {
      throw InvalidArgument(param + ": " + e.what(), e.where());
    }
}

/// For each size of the plan: the copy references, then the advisor's sweep
/// of the candidates on inputs from plan.seed. Appends a SweepPoint per size
/// to out.points (named `type`) and counts wrong results.
template <class T, class ExecSpace>
void sweep_add(const ExecSpace& exec, const SweepPlan& plan,
               const std::string& type, SweepResults& out,
               const SweepObserver& observe = SweepObserver()) {
  using Impl::prefix;
  const std::int64_t nmax =
      *std::max_element(plan.sizes.begin(), plan.sizes.end());
  using Array = Impl::SweepArray<T, ExecSpace>;
  auto array = [&](const std::string& label) {
    return Array(Kokkos::view_alloc(Kokkos::WithoutInitializing, label),
                 std::size_t(nmax));
  };
  const Array x = array("addscope-bench::x"), y = array("addscope-bench::y"),
              o = array("addscope-bench::out");
  fill_inputs(exec, x, y, plan.seed + sizeof(T));
  auto tell = [&](const SweepStep& s) {
    if (observe) observe(s);
  };

  for (const std::int64_t n : plan.sizes) {
    const auto xs = prefix(x, n), ys = prefix(y, n), os = prefix(o, n);
    SweepPoint point;
    point.type = type;
    point.elem_size = sizeof(T);
    point.n = n;
    point.references = measure_copy_references(
        exec, os, xs, plan.advisor.measure, plan.references);
    SweepStep step;
    step.n = n;
    step.type = type;
    step.elem_size = sizeof(T);
    tell(step);

    AdvisorOptions ao = plan.advisor;
    std::size_t left = plan.candidates.size();
    double best = -1;
    ao.on_result = [&](const CandidateResult& r) {
      if (r.measured && !r.check.ok()) ++out.verify_failures;
      if (r.measured && r.check.ok())
        best = std::max(best, r.phases.gbps_median);
      step.kind = SweepStep::Kind::Candidate;
      step.result = &r;
      step.left = --left;
      tell(step);
    };
    point.results =
        choose_launch_config(exec, xs, ys, os, plan.candidates, ao).results;
    // References the adds beside them show were slowed (or noisy) are
    // measured once more, now; advise_across_sizes judges what is kept.
    if (!reference_standing(point.references, std::max(best, 0.0)).reliable &&
        !point.references.empty()) {
      auto again = measure_copy_references(exec, os, xs, plan.advisor.measure,
                                           plan.references);
      for (std::size_t i = 0; i < again.size() && i < point.references.size();
           ++i)
        again[i].attempts += point.references[i].attempts;
      point.references = std::move(again);
    }
    out.points.push_back(std::move(point));
  }
}

/// H2D and D2H of float arrays of every size, pageable and (where there is
/// pinned memory) pinned, through Kokkos::deep_copy and, with CUDA, raw
/// cudaMemcpy; then single-element reads (the seed's out[2]).
template <class ExecSpace>
void sweep_transfers(const ExecSpace& exec, const SweepPlan& plan,
                     const DeviceInfo& dev, SweepResults& out,
                     const SweepObserver& observe = SweepObserver()) {
  using Impl::prefix;
  const std::int64_t nmax =
      *std::max_element(plan.sizes.begin(), plan.sizes.end());
  Impl::SweepArray<float, ExecSpace> d(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "addscope-bench::dev"),
      std::size_t(nmax));
  auto pageable = make_host_array<float, PageableHostSpace>(
      "addscope-bench::pageable", nmax);
  // Without pinned memory PinnedHostSpace is HostSpace: measure it once.
  auto pinned = make_host_array<float, PinnedHostSpace>(
      "addscope-bench::pinned", dev.has_pinned ? nmax : 0);
  Kokkos::deep_copy(d, 2.5f);
  std::fill(pageable.data(), pageable.data() + nmax, 1.5f);
  std::fill(pinned.data(), pinned.data() + pinned.extent(0), 1.5f);
  Kokkos::fence();

  MeasureOptions opt = plan.advisor.measure;
  opt.warmup = std::max(1, opt.warmup);  // first touch is not a transfer
  opt.device_time = false;
  auto keep = [](std::vector<HostTransfer>& to, std::vector<HostTransfer> r) {
    to.insert(to.end(), r.begin(), r.end());
  };
  for (const std::int64_t n : plan.sizes) {
    keep(out.transfers,
         measure_host_transfers(exec, prefix(d, n), prefix(pageable, n),
                                MemoryKind::Pageable, "whole", true, opt));
    if (dev.has_pinned)
      keep(out.transfers,
           measure_host_transfers(exec, prefix(d, n), prefix(pinned, n),
                                  MemoryKind::Pinned, "whole", true, opt));
    SweepStep step;
    step.kind = SweepStep::Kind::Transfers;
    step.n = n;
    step.elem_size = sizeof(float);
    if (observe) observe(step);
  }
  // The seed's read: one element back, dev[2].
  const std::int64_t i = std::min<std::int64_t>(2, nmax - 1);
  const std::string what = "dev[" + std::to_string(i) + "]";
  auto h1 = make_host_array<float, PageableHostSpace>("addscope-bench::h1", 1);
  auto p1 = make_host_array<float, PinnedHostSpace>("addscope-bench::p1", 1);
  keep(out.element_reads,
       measure_host_transfers(exec, element(d, i), h1, MemoryKind::Pageable,
                              what, false, plan.latency_opt));
  if (dev.has_pinned)
    keep(out.element_reads,
         measure_host_transfers(exec, element(d, i), p1, MemoryKind::Pinned,
                                what, false, plan.latency_opt));
}

/// Launch cost of empty RangePolicy and TeamPolicy kernels.
template <class ExecSpace>
void sweep_latency(const ExecSpace& exec, const SweepPlan& plan,
                   SweepResults& out) {
  for (EmptyKernel k : {EmptyKernel::Range, EmptyKernel::Team})
    out.latency.push_back(
        measure_launch_latency(exec, k, plan.launches, plan.fenced_launches));
}

}  // namespace addscope

#endif  // ADDSCOPE_BENCH_SWEEP_HPP
