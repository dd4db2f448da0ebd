// addscope-bench — the sweep's progress line: what each step of the
// library's sweep (bench/Sweep) weighs and says, and the wrong results it
// reports as they happen.
#ifndef ADDSCOPE_APPS_BENCH_BENCH_SWEEP_HPP_
#define ADDSCOPE_APPS_BENCH_BENCH_SWEEP_HPP_

#include <algorithm>
#include <cstdint>
#include <string>

#include "addscope/core/addscope_Format.hpp"
#include "bench_types.hpp"
#include "common/addscope_apps_Progress.hpp"

namespace addscope {
namespace bench {

using apps::Progress;

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

/// Reports each step of the sweep on `progress`: the references, every
/// configuration's GB/s (a wrong result on its own line), a size's best.
class SweepProgress {
 public:
  SweepProgress(const Plan& plan, const DeviceInfo& dev, Progress& progress)
      : plan_(plan), dev_(dev), progress_(progress) {}
  void operator()(const SweepStep& s) {
    using Kind = SweepStep::Kind;
    const std::string where = "n=" + size_name(s.n) + " " + s.type;
    if (s.kind == Kind::Transfers) {
      progress_.step(transfer_weight(plan_, dev_, s.n),
                     "transfers n=" + size_name(s.n) + " float", true);
      return;
    }
    if (s.kind == Kind::References) {
      best_ = -1;
      progress_.step(point_weight(plan_, s.n, s.elem_size, true),
                     where + " copy references", false);
      return;
    }
    const CandidateResult& r = *s.result;
    std::string what = where + " " + r.candidate.to_string();
    if (r.measured) {
      what += " " + format_gbps(r.phases.gbps_median) + " GB/s";
      if (!r.check.ok()) {
        progress_.message("addscope-bench: WRONG RESULT for " + what + ": " +
                          r.check.detail);
      } else if (r.phases.gbps_median > best_) {
        best_ = r.phases.gbps_median;
        best_cfg_ = r.candidate.to_string();
      }
    }
    if (s.left == 0 && best_ >= 0)
      what = where + " done: best " + best_cfg_ + " " + format_gbps(best_) +
             " GB/s";
    progress_.step(
        r.measured ? point_weight(plan_, s.n, s.elem_size, false) : 0, what,
        s.left == 0);
  }

 private:
  const Plan& plan_;
  const DeviceInfo& dev_;
  Progress& progress_;
  double best_ = -1;
  std::string best_cfg_;
};

}  // namespace bench
}  // namespace addscope

#endif  // ADDSCOPE_APPS_BENCH_BENCH_SWEEP_HPP_
