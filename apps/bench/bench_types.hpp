// addscope-bench — the plain data the bench passes around: options, the
// plan, and what was measured. The measuring is the library's.
#ifndef ADDSCOPE_APPS_BENCH_BENCH_TYPES_HPP_
#define ADDSCOPE_APPS_BENCH_BENCH_TYPES_HPP_

#include <cstdint>
#include <string>
#include <vector>

#include "addscope/device/addscope_Advisor.hpp"
#include "addscope/device/addscope_DeviceInfo.hpp"
#include "addscope/device/addscope_HostTransfers.hpp"
#include "addscope/device/addscope_LaunchLatency.hpp"
#include "addscope/device/addscope_References.hpp"
#include "addscope/launch/addscope_LaunchConfig.hpp"
#include "addscope/timing/addscope_Results.hpp"
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

/// What will be measured.
struct Plan {
  std::vector<std::int64_t> sizes;
  std::vector<ValueType> types;
  std::vector<LaunchConfig> candidates;  ///< the configurations, as listed
  bool user_configs = false;             ///< --configs given
  AdvisorOptions advisor;                ///< measure options, time budget
  ReferenceOptions references;           ///< re-measured while noisy
  MeasureOptions latency_opt;            ///< single-element reads
  int launches = 10000;                  ///< empty kernels, unfenced
  int fenced_launches = 1000;            ///< empty kernels, fenced
  bool quick = false;
  std::uint64_t seed = 0;
  bool transfers = true, latency = true;
  std::vector<std::string> notes;  ///< how defaults were chosen
};

struct Report {
  DeviceInfo device;
  std::string kokkos_version;  ///< "3.4.1"
  Options options;
  Plan plan;
  /// Per (type, size), in sweep order: the advisor's results (every
  /// candidate, measured or skipped) and the copy references beside them.
  std::vector<SweepPoint> points;
  SweepAdvice advice;  ///< advise_across_sizes over the points
  /// Why there is no recommendation, with what to measure instead ("" if
  /// there is one).
  std::string no_recommendation;
  std::vector<HostTransfer> transfers;
  std::vector<HostTransfer> element_reads;
  std::vector<LatencyResult> latency;
  std::vector<std::string> notes;     ///< how the sweep was chosen
  std::vector<std::string> warnings;  ///< what makes the numbers doubtful
  int verify_failures = 0;
  double elapsed_s = 0;  ///< measuring time (stdout and JSON)
};

}  // namespace bench
}  // namespace addscope

#endif  // ADDSCOPE_APPS_BENCH_BENCH_TYPES_HPP_
