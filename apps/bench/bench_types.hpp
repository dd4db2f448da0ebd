// addscope-bench — the plain data the bench passes around: options, the
// plan, and what was measured. The planning and the measuring are the
// library's (bench/SweepPlan, bench/Sweep).
#ifndef ADDSCOPE_APPS_BENCH_BENCH_TYPES_HPP_
#define ADDSCOPE_APPS_BENCH_BENCH_TYPES_HPP_

#include <algorithm>
#include <string>
#include <vector>

#include "addscope/bench/addscope_Sweep.hpp"
#include "addscope/bench/addscope_SweepPlan.hpp"
#include "common/addscope_apps_Cli.hpp"
#include "common/addscope_apps_Types.hpp"

namespace addscope {
namespace bench {

using apps::ValueType;

/// What the command line asked for (before defaults that need the device).
struct Options {
  apps::CommonOptions common;  ///< --sizes, --types, --configs, --repeat...
  std::string size_flag = "--sizes";       ///< as the user spelled it
  std::string configs_flag = "--configs";  ///< as the user spelled it
  int min_log2 = 10;                       ///< --min-log2
  int max_log2 = -1;                       ///< --max-log2; -1: sized to memory
  bool min_log2_set = false;
  bool max_log2_set = false;
  std::string csv, plot;        ///< output paths ("" = none)
  bool quick = false;           ///< --quick
  bool skip_transfers = false;  ///< --no-transfers
  bool skip_latency = false;    ///< --no-latency
};

/// What will be measured: the library's plan, for these types.
struct Plan : SweepPlan {
  std::vector<ValueType> types;
};

/// The library's plan for the options (plan_sweep); throws InvalidArgument
/// naming the flags.
inline Plan make_plan(const Options& o, const DeviceInfo& dev, int team_max,
                      std::uint64_t host_available) {
  SweepRequest q;
  q.sizes = o.common.sizes;
  q.min_log2 = o.min_log2;
  q.max_log2 = o.max_log2;
  q.min_log2_set = o.min_log2_set;
  q.max_log2_set = o.max_log2_set;
  q.elem_size = 0;
  for (const auto t : o.common.types)
    q.elem_size = std::max(q.elem_size, apps::size_of(t));
  q.configs = o.common.configs;
  q.warmup = o.common.warmup;
  q.repeat = o.common.repeat;
  q.quick = o.quick;
  q.seed = o.common.seed;
  q.transfers = !o.skip_transfers;
  q.latency = !o.skip_latency;
  q.sizes_param = o.size_flag;
  q.min_log2_param = "--min-log2";
  q.max_log2_param = "--max-log2";
  Plan plan;
  static_cast<SweepPlan&>(plan) = plan_sweep(q, dev, team_max, host_available);
  plan.types = o.common.types;
  return plan;
}

/// What was measured (the library's results) and what it means.
struct Report : SweepResults {
  DeviceInfo device;
  std::string kokkos_version;  ///< "3.4.1"
  Plan plan;
  SweepAdvice advice;  ///< advise_across_sizes over the points
  /// Why there is no recommendation, with what to measure instead ("" if
  /// there is one).
  std::string no_recommendation;
  std::vector<std::string> notes;     ///< how the sweep was chosen
  std::vector<std::string> warnings;  ///< what makes the numbers doubtful
  double elapsed_s = 0;               ///< measuring time (stdout and JSON)
};

}  // namespace bench
}  // namespace addscope

#endif  // ADDSCOPE_APPS_BENCH_BENCH_TYPES_HPP_
