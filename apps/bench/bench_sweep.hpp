// addscope-bench — the orchestration: for every type and size the copy
// references and the advisor's sweep of the configurations (each verified on
// the device); then host<->device transfers, single-element reads and
// launch latency. Every measurement is a library call.
#ifndef ADDSCOPE_APPS_BENCH_BENCH_SWEEP_HPP_
#define ADDSCOPE_APPS_BENCH_BENCH_SWEEP_HPP_

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "addscope/addscope.hpp"
#include "addscope/core/addscope_Format.hpp"
#include "bench_progress.hpp"
#include "bench_types.hpp"
#include "common/addscope_apps_Configs.hpp"
#include "common/addscope_apps_Inputs.hpp"

namespace addscope {
namespace bench {

namespace detail {
template <class T, class ExecSpace>
using DeviceArray =
    Kokkos::View<T*, Kokkos::LayoutRight, typename ExecSpace::memory_space>;

/// The first n elements of v (the same memory).
template <class View>
auto prefix(const View& v, std::int64_t n) {
  return Kokkos::subview(v, std::make_pair(std::int64_t(0), n));
}
}  // namespace detail

/// add_team_size_max for T on `exec` (the View types the sweep uses).
template <class T, class ExecSpace>
int team_max_for(const ExecSpace& exec) {
  detail::DeviceArray<T, ExecSpace> a("addscope-bench::a", 1);
  const auto p = detail::prefix(a, 1);
  return add_team_size_max(exec, p, p, p);
}

/// Throws InvalidArgument naming `flag` if a configuration cannot run for T
/// on `exec` at any size (a team size above team_size_max), before anything
/// is measured.
template <class T, class ExecSpace>
void validate_configs(const ExecSpace& exec, const std::string& flag,
                      const std::vector<LaunchConfig>& configs) {
  detail::DeviceArray<T, ExecSpace> a("addscope-bench::a", 1);
  const auto p = detail::prefix(a, 1);
  apps::check_configs(flag, exec, p, p, p, configs);
}

/// Cost estimates for the progress line: an add (or a size's references)
/// at n, and a size's transfers. Only their ratios matter.
inline double point_weight(const Plan& plan, std::int64_t n, std::size_t elem,
                           bool refs) {
  const int runs = plan.advisor.measure.warmup + plan.advisor.measure.repeat;
  const double per = Progress::weight(add_bytes(n, elem), runs + 2);
  return refs ? 4 * Progress::weight(copy_bytes(n, elem), runs) : per;
}
inline double transfer_weight(const Plan& plan, const DeviceInfo& dev,
                              std::int64_t n) {
  // Across PCIe a byte costs ~20x what it costs in device memory.
  const MeasureOptions& m = plan.advisor.measure;
  return (dev.is_gpu ? 20 : 1) *
         Progress::weight(transfer_bytes(n, sizeof(float)),
                          (std::max(1, m.warmup) + m.repeat) *
                              (dev.has_pinned ? 4 : 2) *
                              (dev.has_cuda_runtime ? 2 : 1));
}
/// All of the sweep's steps, weighed as the sweep will report them.
inline double total_weight(const Plan& plan, const DeviceInfo& dev) {
  double w = 0;
  for (const auto t : plan.types)
    for (auto n : plan.sizes)
      w += point_weight(plan, n, apps::size_of(t), true) +
           double(plan.candidates.size()) *
               point_weight(plan, n, apps::size_of(t), false);
  if (plan.transfers)
    for (auto n : plan.sizes) w += transfer_weight(plan, dev, n);
  return w;
}

/// For each size: the copy references, then the advisor's sweep of the
/// candidates. Appends a SweepPoint per size to report.points.
template <class T, class ExecSpace>
void sweep_add(const ExecSpace& exec, const Plan& plan, ValueType type,
               Progress& progress, Report& report) {
  using detail::prefix;
  const std::string tname = apps::to_string(type);
  const std::int64_t nmax =
      *std::max_element(plan.sizes.begin(), plan.sizes.end());
  using Array = detail::DeviceArray<T, ExecSpace>;
  auto array = [&](const std::string& label) {
    return Array(Kokkos::view_alloc(Kokkos::WithoutInitializing, label),
                 std::size_t(nmax));
  };
  const Array x = array("addscope-bench::x"), y = array("addscope-bench::y"),
              out = array("addscope-bench::out");
  apps::fill_inputs(exec, x, y, plan.seed + sizeof(T));

  for (const std::int64_t n : plan.sizes) {
    const auto xs = prefix(x, n), ys = prefix(y, n), os = prefix(out, n);
    const std::string where = "n=" + size_name(n) + " " + tname;
    SweepPoint point;
    point.type = tname;
    point.elem_size = sizeof(T);
    point.n = n;
    point.references = measure_copy_references(
        exec, os, xs, plan.advisor.measure, plan.references);
    progress.step(point_weight(plan, n, sizeof(T), true),
                  where + " copy references", false);

    AdvisorOptions ao = plan.advisor;
    std::size_t left = plan.candidates.size();
    double best = -1;
    std::string best_cfg;
    ao.on_result = [&](const CandidateResult& r) {
      --left;
      std::string what = where + " " + r.candidate.to_string();
      if (r.measured) {
        what += " " + format_gbps(r.phases.gbps_median) + " GB/s";
        if (!r.check.ok()) {
          ++report.verify_failures;
          progress.message("addscope-bench: WRONG RESULT for " + what + ": " +
                           r.check.detail);
        } else if (r.phases.gbps_median > best) {
          best = r.phases.gbps_median;
          best_cfg = r.candidate.to_string();
        }
      }
      if (left == 0 && best >= 0)
        what = where + " done: best " + best_cfg + " " + format_gbps(best) +
               " GB/s";
      progress.step(r.measured ? point_weight(plan, n, sizeof(T), false) : 0,
                    what, left == 0);
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
    report.points.push_back(std::move(point));
  }
}

/// H2D and D2H of float arrays of every size, pageable and (where there is
/// pinned memory) pinned, through Kokkos::deep_copy and, with CUDA, raw
/// cudaMemcpy; then single-element reads (the seed's out[2]).
template <class ExecSpace>
void sweep_transfers(const ExecSpace& exec, const Plan& plan,
                     Progress& progress, Report& report) {
  using detail::prefix;
  const DeviceInfo& dev = report.device;
  const std::int64_t nmax =
      *std::max_element(plan.sizes.begin(), plan.sizes.end());
  detail::DeviceArray<float, ExecSpace> d(
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
    keep(report.transfers,
         measure_host_transfers(exec, prefix(d, n), prefix(pageable, n),
                                MemoryKind::Pageable, "whole", true, opt));
    if (dev.has_pinned)
      keep(report.transfers,
           measure_host_transfers(exec, prefix(d, n), prefix(pinned, n),
                                  MemoryKind::Pinned, "whole", true, opt));
    progress.step(transfer_weight(plan, dev, n),
                  "transfers n=" + size_name(n) + " float", true);
  }
  // The seed's read: one element back, dev[2].
  const std::int64_t i = std::min<std::int64_t>(2, nmax - 1);
  const std::string what = "dev[" + std::to_string(i) + "]";
  auto h1 = make_host_array<float, PageableHostSpace>("addscope-bench::h1", 1);
  auto p1 = make_host_array<float, PinnedHostSpace>("addscope-bench::p1", 1);
  keep(report.element_reads,
       measure_host_transfers(exec, element(d, i), h1, MemoryKind::Pageable,
                              what, false, plan.latency_opt));
  if (dev.has_pinned)
    keep(report.element_reads,
         measure_host_transfers(exec, element(d, i), p1, MemoryKind::Pinned,
                                what, false, plan.latency_opt));
}

/// Launch cost of empty RangePolicy and TeamPolicy kernels.
template <class ExecSpace>
void sweep_latency(const ExecSpace& exec, const Plan& plan, Report& report) {
  for (EmptyKernel k : {EmptyKernel::Range, EmptyKernel::Team})
    report.latency.push_back(
        measure_launch_latency(exec, k, plan.launches, plan.fenced_launches));
}

}  // namespace bench
}  // namespace addscope

#endif  // ADDSCOPE_APPS_BENCH_BENCH_SWEEP_HPP_
