// addscope — which launch configuration to use: times each candidate on the
// caller's Views, verifies every result on the device, and advises the
// fastest correct one. The advice is a LaunchConfig as the caller gave it,
// so it prints and parses back (parse_launch_config(advice.config()
// .to_string()) == advice.config()), and can be fed to --configs.
#ifndef ADDSCOPE_BENCH_ADVISOR_HPP
#define ADDSCOPE_BENCH_ADVISOR_HPP

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "addscope/compute/addscope_Add.hpp"
#include "addscope/core/addscope_Error.hpp"
#include "addscope/core/addscope_SpaceKind.hpp"
#include "addscope/bench/addscope_DeviceInfo.hpp"
#include "addscope/bench/addscope_References.hpp"
#include "addscope/launch/addscope_LaunchConfig.hpp"
#include "addscope/timing/addscope_Measure.hpp"
#include "addscope/timing/addscope_Stats.hpp"
#include "addscope/timing/addscope_Verify.hpp"

namespace addscope {

/// One candidate, as measured (or why it was not).
struct CandidateResult {
  LaunchConfig candidate;  ///< as given
  LaunchConfig resolved;   ///< what it ran as at this N
  std::string label;       ///< the kernel label it ran under
  bool measured = false;
  std::string skipped;  ///< why it was not measured ("" if it was)
  /// measure_phases (completion = launch + fence); phases.reduced_repeat:
  /// slower than the time budget, it ran fewer times.
  PhaseResult phases;
  Verification check;  ///< checked = 0 if not verified
  bool correct() const {
    return measured && (check.checked == 0 || check.ok());
  }
};

struct AdvisorOptions {
  /// How each candidate is timed; by default within a time budget of 2 s a
  /// candidate (MeasureOptions::budget_s): one whose warmup + repeat runs
  /// would take longer (judged from one probe run) gets fewer — no warmup,
  /// at least 3 runs.
  MeasureOptions measure = [] {
    MeasureOptions m;
    m.budget_s = 2.0;
    return m;
  }();
  /// Host backends: candidates needing more teams are skipped (Kokkos
  /// spends microseconds per team on a CPU).
  std::int64_t max_host_league = std::int64_t(1) << 16;
  /// Verify every element after each candidate (verify_add).
  bool verify = true;
  /// Called after each candidate (progress).
  std::function<void(const CandidateResult&)> on_result;
};

/// The advisor's answer.
struct LaunchAdvice {
  std::vector<CandidateResult> results;  ///< in the candidates' order
  int best = -1;  ///< index of the fastest correct one (-1: none)
  bool has_advice() const { return best >= 0; }
  /// The advised configuration as the caller gave it (parses back).
  /// Throws RuntimeError if no candidate ran correctly.
  const LaunchConfig& config() const;
  const CandidateResult& best_result() const;
};

// ---- across sizes --------------------------------------------------------

/// One (value type, size) point of a sweep: what choose_launch_config
/// measured there, and the copy references measured beside it.
struct SweepPoint {
  std::string type;           ///< the value type's name, e.g. "float"
  std::size_t elem_size = 0;  ///< sizeof(T)
  std::int64_t n = 0;
  std::vector<CandidateResult> results;   ///< in the candidates' order
  std::vector<CopyReference> references;  ///< measure_copy_references
};

/// How the sweep's advice judges noise.
struct SweepAdviceOptions {
  /// Runs beyond this bound (max > 2 min, above 50 us) are noisy.
  NoiseBound noise;
  /// More than this share of noisy timed points: the machine looks busy.
  double busy_share = 0.1;
  /// The best add faster than this many times the fastest copy reference
  /// (an add moves 3/2 of a copy's bytes, through the same memory): the
  /// copy was slowed by something else, and is no yardstick.
  double max_over_reference = 4.0;
};

/// The yardstick at one point: the fastest copy reference, if its numbers
/// can be trusted.
struct ReferenceStanding {
  std::string name;   ///< the fastest reference ("" if none was measured)
  double gbps = 0;    ///< its median rate
  double spread = 1;  ///< max / min of its runs
  int attempts = 1;   ///< how often it was measured
  /// Clean and plausible: the adds may be divided by it.
  bool reliable = false;
  std::string doubt;  ///< why not, in words ("" if reliable or none)
};

/// The standing of a point's references for its adds, the best of which
/// ran at `best_add_gbps` (0: none): the fastest by median is reliable
/// unless its runs are beyond opt.noise (or it is marked not clean), a
/// noisy reference's fastest run beats its median, or the best add ran
/// more than opt.max_over_reference times its rate.
ReferenceStanding reference_standing(
    const std::vector<CopyReference>& refs, double best_add_gbps,
    const SweepAdviceOptions& opt = SweepAdviceOptions());

/// The advice at one point.
struct PointAdvice {
  std::string type;
  std::int64_t n = 0;
  bool fits_cache = false;  ///< 3 N sizeof(T) <= the last-level cache
  ReferenceStanding reference;
  int best = -1;        ///< index of the fastest correct result (-1: none)
  LaunchConfig config;  ///< the best as listed (parses back)
  LaunchConfig ran;     ///< resolved at this n
  double gbps = 0;
  double pct_of_peak = -1;       ///< of the DRAM peak; -1 where unknown
  double pct_of_reference = -1;  ///< of the reference; -1 if not reliable
  double range_gbps = 0;         ///< plain `range`, if measured (else 0)
  bool noisy = false;            ///< the best's runs are beyond the bound
  double spread = 1;             ///< their max / min
  std::string line;              ///< the advice in one line of text
  bool has_advice() const { return best >= 0; }
};

/// A configuration's standing over the points beyond the cache.
struct ConfigStanding {
  std::string config;
  int points = 0;
  double mean_of_best = 0;   ///< geometric mean of gbps / best gbps
  double worst_of_best = 0;  ///< smallest gbps / best gbps
};

/// The advice across a sweep's sizes.
struct SweepAdvice {
  std::vector<PointAdvice> points;      ///< one per SweepPoint, in order
  std::vector<ConfigStanding> ranking;  ///< beyond the cache, best first
  /// Why there is no ranking ("" if there is one, or nothing ran).
  std::string no_recommendation;
  /// With every size in the cache: the smallest k whose 2^k elements of
  /// the widest type do not fit (-1 otherwise).
  int beyond_cache_log2 = -1;
  std::size_t timed = 0;    ///< measured candidates and references
  std::size_t noisy = 0;    ///< of which beyond the noise bound
  std::size_t reduced = 0;  ///< candidates the time budget cut
  std::size_t skipped = 0;  ///< candidates that could not run
  std::size_t unreliable_references = 0;  ///< points without a yardstick
  bool looks_busy = false;                ///< noisy > busy_share of timed
};

/// The fastest correct configuration at each point, judged against the
/// DRAM peak and a reference only where the reference is reliable (clean
/// runs, and not slower than the add by more than max_over_reference); and
/// each configuration's standing over the points beyond the last-level
/// cache (cache-resident points advise nothing about memory-bound ones).
SweepAdvice advise_across_sizes(
    const std::vector<SweepPoint>& points, const DeviceInfo& dev,
    const SweepAdviceOptions& opt = SweepAdviceOptions());

/// Calls f(point, its advice, a result) for every candidate of every point
/// (measured or skipped), in sweep order; `advice` holds one entry per point
/// (advise_across_sizes over `points`).
template <class F>
void for_each_sweep_row(const std::vector<SweepPoint>& points,
                        const SweepAdvice& advice, F&& f) {
  for (std::size_t i = 0; i < points.size(); ++i)
    for (const auto& c : points[i].results)
      f(points[i], advice.points.at(i), c);
}

/// A result's % of the DRAM peak (-1 where the peak is unknown).
double pct_of_peak(const DeviceInfo& dev, const CandidateResult& c);
/// A result's % of its point's reference (-1 where the reference is not
/// reliable or has no rate).
double pct_of_reference(const PointAdvice& a, const CandidateResult& c);

/// The default candidates for a device: `Full` sweeps a team grid (team
/// sizes 32..1024 up to team_max, leagues 1..32 x the SM count or host
/// threads, and team:ceil(N/T)xT) beside the range forms, team:auto and
/// blas; `Quick` a handful.
enum class CandidateSet { Quick, Full };
std::vector<LaunchConfig> launch_candidates(const DeviceInfo& dev, int team_max,
                                            CandidateSet set);

namespace Impl {
template <class T>
T poison_value() {
  return std::is_floating_point<T>::value ? std::numeric_limits<T>::quiet_NaN()
                                          : std::numeric_limits<T>::min();
}
}  // namespace Impl

/// Times every candidate for out = x + y on `exec` and returns the fastest
/// correct one. out is overwritten (poisoned before each candidate, so that
/// a candidate that skips elements is caught); x and y are only read; out
/// must be neither.
template <class ExecSpace, class XView, class YView, class OutView>
LaunchAdvice choose_launch_config(
    const ExecSpace& exec, const XView& x, const YView& y, const OutView& out,
    const std::vector<LaunchConfig>& candidates,
    const AdvisorOptions& opt = AdvisorOptions()) {
  using T = typename OutView::non_const_value_type;
  opt.measure.validate();
  ADDSCOPE_THROW_IF(candidates.empty(),
                    "candidates is empty; allowed: one or more launch "
                    "configurations");
  ADDSCOPE_THROW_IF(
      out.data() == x.data() || out.data() == y.data(),
      "out is x or y; allowed: out distinct from the inputs (each candidate "
      "is verified against x + y)");
  const std::int64_t n = std::int64_t(out.extent(0));
  LaunchAdvice advice;
  for (const auto& cand : candidates) {
    CandidateResult r;
    r.candidate = cand;
    try {
      r.resolved = resolve_launch_config(exec, x, y, out, cand);
    } catch (const InvalidArgument& e) {
      r.skipped = e.what();
    }
    if (r.skipped.empty() && !is_gpu_space<ExecSpace>() &&
        r.resolved.kind == LaunchKind::Team &&
        r.resolved.league > opt.max_host_league)
      r.skipped = "league " + std::to_string(r.resolved.league) + " > " +
                  std::to_string(opt.max_host_league) +
                  " teams on a host backend (each costs microseconds)";
    if (r.skipped.empty()) {
      r.label = cand.kernel_label(r.resolved);
      // Poisoned before the runs (the budget's probe run included): a
      // candidate that skips elements leaves NaN (or INT_MIN) there.
      Kokkos::deep_copy(exec, out, Impl::poison_value<T>());
      exec.fence();
      r.phases = measure_phases(
          exec, r.label, n, add_bytes(n, sizeof(T)),
          [&] { add(exec, x, y, out, cand); }, opt.measure);
      r.measured = true;
      if (opt.verify) r.check = verify_add(exec, x, y, out);
    }
    advice.results.push_back(r);
    const auto& back = advice.results.back();
    if (back.correct() &&
        (advice.best < 0 || back.phases.completion.median_s <
                                advice.results[std::size_t(advice.best)]
                                    .phases.completion.median_s))
      advice.best = int(advice.results.size()) - 1;
    if (opt.on_result) opt.on_result(back);
  }
  return advice;
}

/// The same over launch_candidates(device_info(exec), ..., Full).
template <class ExecSpace, class XView, class YView, class OutView>
LaunchAdvice choose_launch_config(
    const ExecSpace& exec, const XView& x, const YView& y, const OutView& out,
    const AdvisorOptions& opt = AdvisorOptions()) {
  return choose_launch_config(
      exec, x, y, out,
      launch_candidates(device_info(exec), add_team_size_max(exec, x, y, out),
                        CandidateSet::Full),
      opt);
}

}  // namespace addscope

#endif
