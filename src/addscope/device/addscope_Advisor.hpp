// addscope — which launch configuration to use: times each candidate on the
// caller's Views, verifies every result on the device, and advises the
// fastest correct one. The advice is a LaunchConfig as the caller gave it,
// so it prints and parses back (parse_launch_config(advice.config()
// .to_string()) == advice.config()), and can be fed to --configs.
#ifndef ADDSCOPE_DEVICE_ADVISOR_HPP
#define ADDSCOPE_DEVICE_ADVISOR_HPP

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
#include "addscope/device/addscope_DeviceInfo.hpp"
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
  PhaseResult phases;   ///< measure_phases (completion = launch + fence)
  bool reduced_repeat = false;  ///< slower than the budget: fewer runs
  Verification check;           ///< checked = 0 if not verified
  bool correct() const {
    return measured && (check.checked == 0 || check.ok());
  }
};

struct AdvisorOptions {
  MeasureOptions measure;
  /// A candidate whose warmup + repeat runs would take longer than this
  /// (judged from one probe run) gets fewer: no warmup, at least 3 runs.
  double point_budget_s = 2.0;
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
      MeasureOptions mo = opt.measure;
      exec.fence();
      const double probe_s = time_host([&] {
        add(exec, x, y, out, cand);
        exec.fence();
      });
      if (probe_s * (mo.warmup + mo.repeat) > opt.point_budget_s) {
        r.reduced_repeat = true;
        mo.warmup = 0;
        mo.repeat =
            std::max(std::min(mo.repeat, 3),
                     std::min(mo.repeat, int(opt.point_budget_s / probe_s)));
      }
      Kokkos::deep_copy(exec, out, Impl::poison_value<T>());
      exec.fence();
      r.phases = measure_phases(
          exec, r.label, n, add_bytes(n, sizeof(T)),
          [&] { add(exec, x, y, out, cand); }, mo);
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
