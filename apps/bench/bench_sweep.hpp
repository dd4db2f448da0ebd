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
#include "bench_progress.hpp"
#include "bench_types.hpp"
#include "addscope/core/addscope_Format.hpp"
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

/// Throws InvalidArgument if a configuration cannot run for T on `exec` at
/// any size (a team size above team_size_max), before anything is measured.
template <class T, class ExecSpace>
void validate_configs(const ExecSpace& exec,
                      const std::vector<LaunchConfig>& configs) {
  detail::DeviceArray<T, ExecSpace> a("addscope-bench::a", 1);
  const auto p = detail::prefix(a, 1);
  for (const auto& c : configs) resolve_launch_config(exec, p, p, p, c);
}

/// Cost estimate of one size for the progress line (weight per add run:
/// bytes + a launch's worth).
inline double point_weight(const Plan& plan, std::int64_t n, std::size_t elem,
                           bool refs) {
  const int runs = plan.advisor.measure.warmup + plan.advisor.measure.repeat;
  const double per = Progress::weight(add_bytes(n, elem), runs + 2);
  return refs ? 4 * Progress::weight(copy_bytes(n, elem), runs) : per;
}

/// For each size: the copy references, then the advisor's sweep of the
/// candidates. Appends to report.refs / report.rows.
template <class T, class ExecSpace>
void sweep_add(const ExecSpace& exec, const Plan& plan, ValueType type,
               Progress& progress, Report& report) {
  using detail::prefix;
  const DeviceInfo& dev = report.device;
  const std::string tname = apps::to_string(type);
  const std::int64_t nmax =
      *std::max_element(plan.sizes.begin(), plan.sizes.end());
  using Array = detail::DeviceArray<T, ExecSpace>;
  Array x(Kokkos::view_alloc(Kokkos::WithoutInitializing, "addscope-bench::x"),
          std::size_t(nmax));
  Array y(Kokkos::view_alloc(Kokkos::WithoutInitializing, "addscope-bench::y"),
          std::size_t(nmax));
  Array out(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "addscope-bench::out"),
      std::size_t(nmax));
  apps::fill_inputs(exec, x, y, plan.seed + sizeof(T));

  for (const std::int64_t n : plan.sizes) {
    const auto xs = prefix(x, n);
    const auto ys = prefix(y, n);
    const auto os = prefix(out, n);
    const std::string where = "n=" + addscope::size_name(n) + " " + tname;

    RefGroup g;
    g.type = type;
    g.n = n;
    g.refs = measure_copy_references(exec, os, xs, plan.advisor.measure);
    if (const auto* f = fastest(g.refs)) {
      g.best_gbps = f->result.gbps_median;
      g.best_name = f->name;
    }
    report.refs.push_back(g);
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
        what += " " + addscope::format_gbps(r.phases.gbps_median) + " GB/s";
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
        what = where + " done: best " + best_cfg + " " +
               addscope::format_gbps(best) + " GB/s";
      progress.step(r.measured ? point_weight(plan, n, sizeof(T), false) : 0,
                    what, left == 0);
    };
    const auto advice =
        choose_launch_config(exec, xs, ys, os, plan.candidates, ao);
    for (const auto& r : advice.results) {
      AddRow row;
      row.type = type;
      row.n = n;
      row.result = r;
      const auto& c = r.candidate;
      row.grid = !plan.user_configs && (c.kind == LaunchKind::Team ||
                                        c.kind == LaunchKind::TeamPerElement);
      if (row.grid && c.kind == LaunchKind::Team && c.league % dev.units == 0)
        row.league_mult = int(c.league / dev.units);
      row.ref_gbps = g.best_gbps;
      if (g.best_gbps > 0)
        row.pct_of_ref = 100 * r.phases.gbps_median / g.best_gbps;
      if (dev.dram_peak_gbps > 0)
        row.pct_of_peak = 100 * r.phases.gbps_median / dev.dram_peak_gbps;
      row.fits_cache =
          dev.llc_bytes > 0 && add_bytes(n, sizeof(T)) <= dev.llc_bytes;
      report.rows.push_back(row);
    }
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
  const bool raw = dev.has_cuda_runtime;
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
  const auto h2d = CopyDirection::HostToDevice;
  const auto d2h = CopyDirection::DeviceToHost;
  auto add_row = [&](const std::string& api, const TransferResult& r) {
    report.transfers.push_back(TransferRow{api, r});
  };
  // Both directions between device memory and one kind of host memory.
  auto rows = [&](MemoryKind memory, const auto& ds, const auto& hs,
                  std::int64_t n) {
    add_row("Kokkos::deep_copy",
            measure_copy(exec, "H2D whole", h2d, memory, ds, hs, opt));
    add_row("Kokkos::deep_copy",
            measure_copy(exec, "D2H whole", d2h, memory, hs, ds, opt));
    if (!raw) return;
    exec.fence();
    add_row("cudaMemcpy",
            measure_cuda_memcpy("H2D whole", h2d, memory, ds.data(), hs.data(),
                                n, sizeof(float), opt));
    add_row("cudaMemcpy",
            measure_cuda_memcpy("D2H whole", d2h, memory, hs.data(), ds.data(),
                                n, sizeof(float), opt));
  };
  for (const std::int64_t n : plan.sizes) {
    rows(MemoryKind::Pageable, prefix(d, n), prefix(pageable, n), n);
    if (dev.has_pinned)
      rows(MemoryKind::Pinned, prefix(d, n), prefix(pinned, n), n);
    // Across PCIe a byte costs ~20x what it costs in device memory.
    progress.step(
        (dev.is_gpu ? 20 : 1) *
            Progress::weight(transfer_bytes(n, sizeof(float)),
                             (opt.warmup + opt.repeat) *
                                 (dev.has_pinned ? 4 : 2) * (raw ? 2 : 1)),
        "transfers n=" + addscope::size_name(n) + " float", true);
  }

  const std::int64_t i = std::min<std::int64_t>(2, nmax - 1);
  const auto e = element(d, i);
  const std::string what = "D2H dev[" + std::to_string(i) + "]";
  auto h1 = make_host_array<float, PageableHostSpace>("addscope-bench::h1", 1);
  auto p1 = make_host_array<float, PinnedHostSpace>("addscope-bench::p1", 1);
  auto reads = [&](MemoryKind memory, const auto& h) {
    report.element_reads.push_back(TransferRow{
        "Kokkos::deep_copy",
        measure_copy(exec, what, d2h, memory, h, e, plan.latency_opt)});
    if (!raw) return;
    exec.fence();
    report.element_reads.push_back(TransferRow{
        "cudaMemcpy", measure_cuda_memcpy(what, d2h, memory, h.data(), e.data(),
                                          1, sizeof(float), plan.latency_opt)});
  };
  reads(MemoryKind::Pageable, h1);
  if (dev.has_pinned) reads(MemoryKind::Pinned, p1);
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
