// addscope-bench — the measurements: the add sweep with its copy ceilings
// and verification, host<->device transfers, single-element reads and the
// launch latency of an empty kernel. Templates on the execution space and
// the value type; everything is timed through addscope's measure_* functions
// (or the raw CUDA runtime, for the references).
#ifndef ADDSCOPE_APPS_BENCH_BENCH_SWEEP_HPP_
#define ADDSCOPE_APPS_BENCH_BENCH_SWEEP_HPP_

#include <Kokkos_Core.hpp>
#include <Kokkos_Random.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "addscope/addscope.hpp"
#include "bench_plan.hpp"
#include "common/addscope_apps_Report.hpp"
#include "bench_progress.hpp"
#include "bench_system.hpp"
#include "bench_types.hpp"

namespace addscope {
namespace bench {

namespace detail {

template <class T>
const char* type_name();
template <>
inline const char* type_name<float>() {
  return "float";
}
template <>
inline const char* type_name<double>() {
  return "double";
}
template <>
inline const char* type_name<std::int32_t>() {
  return "int32";
}
template <>
inline const char* type_name<std::int64_t>() {
  return "int64";
}

/// Calls f(T()) for the type named `type`.
template <class F>
void with_type(const std::string& type, F&& f) {
  if (type == "float") {
    f(float());
  } else if (type == "double") {
    f(double());
  } else if (type == "int32") {
    f(std::int32_t());
  } else if (type == "int64") {
    f(std::int64_t());
  } else {
    ADDSCOPE_THROW_IF(true, "type = '" << type
                                       << "' is invalid; allowed: float, "
                                          "double, int32, int64");
  }
}

template <class T, class ExecSpace>
using DeviceArray =
    Kokkos::View<T*, Kokkos::LayoutRight, typename ExecSpace::memory_space>;

/// The first n elements of v (the same memory).
template <class View>
auto prefix(const View& v, std::int64_t n) {
  return Kokkos::subview(v, std::make_pair(std::int64_t(0), n));
}

/// A value no correct add writes (inputs are >= 1): NaN, or -1.
template <class T>
T sentinel() {
  return std::is_floating_point<T>::value ? std::numeric_limits<T>::quiet_NaN()
                                          : T(-1);
}

/// out == x + y, as the host computes it (floating point: within one
/// rounding of the host's sum; NaN never passes).
template <class T>
bool add_is_right(T x, T y, T out) {
  const T want = T(x + y);
  if (std::is_floating_point<T>::value)
    return std::isfinite(double(out)) &&
           std::fabs(double(out) - double(want)) <=
               double(std::numeric_limits<T>::epsilon()) *
                   std::fabs(double(want));
  return out == want;
}

/// Gathers x, y, out at the sample indices into small Views.
template <class IdxView, class XView, class GView>
struct GatherFunctor {
  IdxView idx;
  XView x, y, out;
  GView gx, gy, gout;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    const std::int64_t j = idx(i);
    gx(i) = x(j);
    gy(i) = y(j);
    gout(i) = out(j);
  }
};

struct EmptyRangeFunctor {
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t) const {}
};

template <class Member>
struct EmptyTeamFunctor {
  KOKKOS_INLINE_FUNCTION void operator()(const Member&) const {}
};

/// Indices checked after each add: all of them up to 2^20 elements, else
/// the first and last 1024 and 63488 random ones.
template <class ExecSpace>
Kokkos::View<std::int64_t*, typename ExecSpace::memory_space> sample_indices(
    std::int64_t n, std::uint64_t seed) {
  constexpr std::int64_t kAll = std::int64_t(1) << 20;
  constexpr std::int64_t kSample = std::int64_t(1) << 16;
  constexpr std::int64_t kEdge = 1024;
  const std::int64_t m = n <= kAll ? n : kSample;
  Kokkos::View<std::int64_t*, Kokkos::HostSpace> h(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "addscope-bench::idx_h"),
      std::size_t(m));
  if (n <= kAll) {
    for (std::int64_t i = 0; i < n; ++i) h(i) = i;
  } else {
    std::mt19937_64 rng(seed ^ std::uint64_t(n));
    std::uniform_int_distribution<std::int64_t> pick(0, n - 1);
    for (std::int64_t i = 0; i < kEdge; ++i) h(i) = i;
    for (std::int64_t i = 0; i < kEdge; ++i) h(kEdge + i) = n - kEdge + i;
    for (std::int64_t i = 2 * kEdge; i < m; ++i) h(i) = pick(rng);
  }
  Kokkos::View<std::int64_t*, typename ExecSpace::memory_space> d(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "addscope-bench::idx"),
      std::size_t(m));
  Kokkos::deep_copy(d, h);
  return d;
}

/// Compares out with x + y at the sample indices. Returns the number of
/// elements compared; `err` gets the first mismatch ("" if none).
template <class ExecSpace, class View, class IdxView>
std::int64_t verify_add(const ExecSpace& exec, const View& x, const View& y,
                        const View& out, const IdxView& idx, std::string* err) {
  using T = typename View::non_const_value_type;
  using G =
      Kokkos::View<T*, Kokkos::LayoutRight, typename ExecSpace::memory_space>;
  const std::int64_t m = std::int64_t(idx.extent(0));
  G gx("addscope-bench::gx", m), gy("addscope-bench::gy", m),
      gout("addscope-bench::gout", m);
  exec.fence();
  Kokkos::parallel_for(
      "addscope-bench::gather",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0,
                                                                      m),
      GatherFunctor<IdxView, View, G>{idx, x, y, out, gx, gy, gout});
  exec.fence();
  const auto hi = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), idx);
  const auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), gx);
  const auto hy = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), gy);
  const auto ho =
      Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), gout);
  err->clear();
  for (std::int64_t i = 0; i < m; ++i) {
    if (!add_is_right<T>(hx(i), hy(i), ho(i))) {
      std::ostringstream os;
      os.precision(std::numeric_limits<T>::max_digits10);
      os << "out[" << hi(i) << "] = " << ho(i) << ", expected " << hx(i)
         << " + " << hy(i) << " = " << T(hx(i) + hy(i));
      *err = os.str();
      break;
    }
  }
  return m;
}

}  // namespace detail

/// add_team_size_max for T on `exec` (the Views' types the sweep uses).
template <class T, class ExecSpace>
int team_max_for(const ExecSpace& exec) {
  detail::DeviceArray<T, ExecSpace> a("addscope-bench::a", 1),
      b("addscope-bench::b", 1), c("addscope-bench::c", 1);
  return add_team_size_max(exec, detail::prefix(a, 1), detail::prefix(b, 1),
                           detail::prefix(c, 1));
}

/// Throws InvalidArgument if a configuration cannot run for T on `exec`
/// (team size above team_size_max), before anything is measured.
template <class T, class ExecSpace>
void validate_configs(const ExecSpace& exec,
                      const std::vector<SweepConfig>& configs, std::int64_t n) {
  detail::DeviceArray<T, ExecSpace> a("addscope-bench::a", 1),
      b("addscope-bench::b", 1), c("addscope-bench::c", 1);
  for (const auto& sc : configs)
    if (sc.valid_at(n))
      resolve_launch_config(exec, detail::prefix(a, 1), detail::prefix(b, 1),
                            detail::prefix(c, 1), sc.at(n));
}

/// Cost estimate of sweep_add for the progress line.
inline double add_sweep_weight(const Plan& plan,
                               const std::vector<SweepConfig>& configs,
                               std::size_t elem, bool raw, std::size_t* steps) {
  const int runs = plan.opt.warmup + plan.opt.repeat;
  double w = 0;
  for (auto n : plan.sizes) {
    w += Progress::weight(copy_bytes(n, elem), runs * (raw ? 2 : 1));
    ++*steps;
    for (const auto& c : configs) {
      if (!c.valid_at(n)) continue;
      w += Progress::weight(add_bytes(n, elem), runs + 2);
      ++*steps;
    }
  }
  return w;
}

/// For each size: the D2D copy ceiling (Kokkos deep_copy between device
/// Views; with CUDA also raw cudaMemcpy), then every configuration's add,
/// verified. Appends to report.rows / report.ceilings.
template <class T, class ExecSpace>
void sweep_add(const ExecSpace& exec, const Plan& plan, const DeviceInfo& dev,
               const std::vector<SweepConfig>& configs, Progress& progress,
               Report& report) {
  using detail::prefix;
  const std::string tname = detail::type_name<T>();
  const std::int64_t nmax =
      *std::max_element(plan.sizes.begin(), plan.sizes.end());
  const int runs = plan.opt.warmup + plan.opt.repeat;
  const bool raw = dev.has_cuda_runtime;

  using Array = detail::DeviceArray<T, ExecSpace>;
  Array x(Kokkos::view_alloc(Kokkos::WithoutInitializing, "addscope-bench::x"),
          std::size_t(nmax));
  Array y(Kokkos::view_alloc(Kokkos::WithoutInitializing, "addscope-bench::y"),
          std::size_t(nmax));
  Array out(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "addscope-bench::out"),
      std::size_t(nmax));
  {
    // Random inputs in [1, 1000): never zero, sums exact for the integers.
    Kokkos::Random_XorShift64_Pool<ExecSpace> pool(plan.seed + sizeof(T));
    Kokkos::fill_random(x, pool, T(1), T(1000));
    Kokkos::fill_random(y, pool, T(1), T(1000));
    Kokkos::deep_copy(out, detail::sentinel<T>());
    Kokkos::fence();
  }

  for (const std::int64_t n : plan.sizes) {
    const auto xs = prefix(x, n);
    const auto ys = prefix(y, n);
    const auto os = prefix(out, n);
    const auto idx = detail::sample_indices<ExecSpace>(n, plan.seed);
    const std::string where = "n=" + size_name(n) + " " + tname;

    Ceiling ceil;
    ceil.type = tname;
    ceil.n = n;
    ceil.kokkos = measure_copy(exec, "D2D", "D2D", "device", os, xs, plan.opt);
    ceil.gbps = ceil.kokkos.gbps_median;
    ceil.source = "Kokkos D2D copy";
    if (raw) {
      exec.fence();
      ceil.has_raw = true;
      ceil.raw = cuda_ref::memcpy_timed("cudaMemcpy D2D", "D2D", "device",
                                        os.data(), xs.data(), n, sizeof(T),
                                        plan.opt.warmup, plan.opt.repeat);
      if (ceil.raw.gbps_median > ceil.gbps) {
        ceil.gbps = ceil.raw.gbps_median;
        ceil.source = "cudaMemcpy D2D";
      }
    }
    report.ceilings.push_back(ceil);
    progress.step(
        Progress::weight(copy_bytes(n, sizeof(T)), runs * (raw ? 2 : 1)),
        where + " D2D copy", false);

    std::size_t left = 0;
    for (const auto& sc : configs) left += sc.valid_at(n) ? 1 : 0;
    AddRow best;  // a copy: report.rows grows
    best.result.gbps_median = -1;
    for (const auto& sc : configs) {
      if (!sc.valid_at(n)) continue;
      const LaunchConfig cfg = sc.at(n);
      const LaunchConfig ran = resolve_launch_config(exec, xs, ys, os, cfg);
      // One probe run: a configuration too slow for the budget gets fewer
      // runs (the probe was its warmup).
      MeasureOptions opt = plan.opt;
      exec.fence();
      const double probe_s = time_host([&] {
        add(exec, xs, ys, os, cfg);
        exec.fence();
      });
      const bool reduce =
          probe_s * (opt.warmup + opt.repeat) > kPointBudgetSeconds;
      if (reduce) {
        opt.warmup = 0;
        opt.repeat =
            std::max(std::min(opt.repeat, 3),
                     std::min(opt.repeat, int(kPointBudgetSeconds / probe_s)));
      }
      Kokkos::deep_copy(os, detail::sentinel<T>());
      exec.fence();
      Kokkos::fence();
      AddRow row;
      row.type = tname;
      row.n = n;
      row.spec = sc.spec;
      row.ran = ran;
      row.grid = sc.grid;
      row.league_mult = sc.league_mult;
      row.league_per_n = sc.league_per_n;
      row.result = measure_phases(
          exec, cfg.kernel_label(ran), n, add_bytes(n, sizeof(T)),
          [&] { add(exec, xs, ys, os, cfg); }, opt);
      row.reduced_repeat = reduce;
      row.checked = detail::verify_add(exec, xs, ys, os, idx, &row.check_error);
      row.verified = row.check_error.empty();
      if (!row.verified) {
        ++report.verify_failures;
        progress.message("addscope-bench: WRONG RESULT for " + where + " " +
                         sc.spec + ": " + row.check_error);
      }
      row.ceiling_gbps = ceil.gbps;
      row.ceiling_source = ceil.source;
      if (ceil.gbps > 0)
        row.pct_of_ceiling = 100.0 * row.result.gbps_median / ceil.gbps;
      row.fits_l2 = dev.l2_bytes > 0 && add_bytes(n, sizeof(T)) <= dev.l2_bytes;
      report.rows.push_back(row);
      if (row.verified && row.result.gbps_median > best.result.gbps_median)
        best = row;
      --left;
      std::string what = where + " " + sc.spec + " " +
                         fmt_gbps(row.result.gbps_median) + " GB/s";
      if (left == 0 && best.result.gbps_median >= 0)
        what = where + " done: best " + best.spec + " " +
               fmt_gbps(best.result.gbps_median) + " GB/s";
      progress.step(Progress::weight(add_bytes(n, sizeof(T)), runs + 2), what,
                    left == 0);
    }
  }
}

/// Cost estimate of the transfers at size n, for the progress line.
inline double transfer_step_weight(const Plan& plan, const DeviceInfo& dev,
                                   std::int64_t n) {
  const int runs = std::max(1, plan.opt.warmup) + plan.opt.repeat;
  const int kinds = (dev.has_pinned ? 4 : 2) * (dev.has_cuda_runtime ? 2 : 1);
  // Across PCIe a byte costs ~20x what it costs in device memory.
  const double slow = dev.is_gpu ? 20 : 1;
  return slow *
         Progress::weight(transfer_bytes(n, sizeof(float)), runs * kinds);
}

/// Cost estimate of sweep_transfers for the progress line.
inline double transfer_weight(const Plan& plan, const DeviceInfo& dev,
                              std::size_t* steps) {
  double w = 0;
  for (auto n : plan.sizes) {
    w += transfer_step_weight(plan, dev, n);
    ++*steps;
  }
  return w;
}

/// H2D and D2H of float arrays of every size, pageable and (where there is
/// pinned memory) pinned, through Kokkos::deep_copy and, with CUDA, raw
/// cudaMemcpy.
template <class ExecSpace>
void sweep_transfers(const ExecSpace& exec, const Plan& plan,
                     const DeviceInfo& dev, Progress& progress,
                     Report& report) {
  using detail::prefix;
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

  MeasureOptions opt = plan.opt;
  opt.warmup = std::max(1, opt.warmup);  // first touch is not a transfer
  auto add_row = [&](const std::string& api, const TransferResult& r) {
    report.transfers.push_back(TransferRow{api, r});
  };
  // Both directions between device memory and one kind of host memory.
  auto kokkos_rows = [&](const char* memory, const auto& ds, const auto& hs) {
    add_row("Kokkos::deep_copy",
            measure_copy(exec, "H2D whole", "H2D", memory, ds, hs, opt));
    add_row("Kokkos::deep_copy",
            measure_copy(exec, "D2H whole", "D2H", memory, hs, ds, opt));
  };
  auto raw_rows = [&](const char* memory, const auto& ds, const auto& hs,
                      std::int64_t n) {
    add_row("cudaMemcpy", cuda_ref::memcpy_timed(
                              "H2D whole", "H2D", memory, ds.data(), hs.data(),
                              n, sizeof(float), opt.warmup, opt.repeat));
    add_row("cudaMemcpy", cuda_ref::memcpy_timed(
                              "D2H whole", "D2H", memory, hs.data(), ds.data(),
                              n, sizeof(float), opt.warmup, opt.repeat));
  };
  for (const std::int64_t n : plan.sizes) {
    const auto ds = prefix(d, n);
    const auto hs = prefix(pageable, n);
    const auto ps = prefix(pinned, dev.has_pinned ? n : 0);
    kokkos_rows("pageable", ds, hs);
    if (dev.has_pinned) kokkos_rows("pinned", ds, ps);
    if (dev.has_cuda_runtime) {
      exec.fence();
      raw_rows("pageable", ds, hs, n);
      if (dev.has_pinned) raw_rows("pinned", ds, ps, n);
    }
    progress.step(transfer_step_weight(plan, dev, n),
                  "transfers n=" + size_name(n) + " float", true);
  }

  // One element read back (the seed's out[2]), pageable and pinned.
  const std::int64_t i = std::min<std::int64_t>(2, nmax - 1);
  const auto e = element(d, i);
  const std::string what = "D2H dev[" + std::to_string(i) + "]";
  auto h1 = make_host_array<float, PageableHostSpace>("addscope-bench::h1", 1);
  report.element_reads.push_back(TransferRow{
      "Kokkos::deep_copy",
      measure_copy(exec, what, "D2H", "pageable", h1, e, plan.latency_opt)});
  auto p1 = make_host_array<float, PinnedHostSpace>("addscope-bench::p1", 1);
  if (dev.has_pinned)
    report.element_reads.push_back(TransferRow{
        "Kokkos::deep_copy",
        measure_copy(exec, what, "D2H", "pinned", p1, e, plan.latency_opt)});
  if (dev.has_cuda_runtime) {
    exec.fence();
    report.element_reads.push_back(TransferRow{
        "cudaMemcpy",
        cuda_ref::memcpy_timed(what, "D2H", "pageable", h1.data(), e.data(), 1,
                               sizeof(float), plan.latency_opt.warmup,
                               plan.latency_opt.repeat)});
    if (dev.has_pinned)
      report.element_reads.push_back(TransferRow{
          "cudaMemcpy",
          cuda_ref::memcpy_timed(what, "D2H", "pinned", p1.data(), e.data(), 1,
                                 sizeof(float), plan.latency_opt.warmup,
                                 plan.latency_opt.repeat)});
  }
}

namespace detail {
/// K launches then one fence (throughput), then launch + fence each
/// (latency) — as Kokkos' launch_latency benchmark does.
template <class ExecSpace, class Launch>
LatencyRow launch_latency(const ExecSpace& exec, const std::string& kernel,
                          int launches, int fenced, Launch&& launch) {
  LatencyRow r;
  r.kernel = kernel;
  r.launches = launches;
  for (int i = 0; i < 10; ++i) launch();  // warm up
  exec.fence();
  const double t0 = host_seconds();
  for (int i = 0; i < launches; ++i) launch();
  const double t1 = host_seconds();
  exec.fence();
  const double t2 = host_seconds();
  r.call_s = (t1 - t0) / launches;
  r.unfenced_s = (t2 - t0) / launches;
  std::vector<double> s;
  s.reserve(std::size_t(fenced));
  for (int i = 0; i < fenced; ++i) {
    const double a = host_seconds();
    launch();
    exec.fence();
    s.push_back(host_seconds() - a);
  }
  r.fenced = Stats::of(s);
  return r;
}
}  // namespace detail

/// Launch cost of empty RangePolicy and TeamPolicy kernels.
template <class ExecSpace>
void measure_launch_latency(const ExecSpace& exec, const Plan& plan,
                            Report& report) {
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using Team = Kokkos::TeamPolicy<ExecSpace>;
  report.latency.push_back(detail::launch_latency(
      exec, "parallel_for RangePolicy(0,1) empty", plan.launches,
      plan.fenced_launches, [&] {
        Kokkos::parallel_for("addscope-bench::empty_range", Range(exec, 0, 1),
                             detail::EmptyRangeFunctor());
      }));
  report.latency.push_back(detail::launch_latency(
      exec, "parallel_for TeamPolicy(1,1) empty", plan.launches,
      plan.fenced_launches, [&] {
        Kokkos::parallel_for(
            "addscope-bench::empty_team", Team(exec, 1, 1),
            detail::EmptyTeamFunctor<typename Team::member_type>());
      }));
}

}  // namespace bench
}  // namespace addscope

#endif  // ADDSCOPE_APPS_BENCH_BENCH_SWEEP_HPP_
