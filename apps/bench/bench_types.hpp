// addscope-bench — the plain data the bench passes around: options, the
// plan, and every measured row. The measuring is the library's.
#ifndef ADDSCOPE_APPS_BENCH_BENCH_TYPES_HPP_
#define ADDSCOPE_APPS_BENCH_BENCH_TYPES_HPP_

#include <cstdint>
#include <string>
#include <vector>

#include "addscope/device/addscope_Advisor.hpp"
#include "addscope/device/addscope_DeviceInfo.hpp"
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
  AdvisorOptions advisor;                ///< measure options, budget
  MeasureOptions latency_opt;            ///< single-element reads
  int launches = 10000;                  ///< empty kernels, unfenced
  int fenced_launches = 1000;            ///< empty kernels, fenced
  bool quick = false;
  std::uint64_t seed = 0;
  bool transfers = true, latency = true;
  std::vector<std::string> notes;  ///< how defaults were chosen
};

/// One measured (or skipped) add.
struct AddRow {
  ValueType type = ValueType::Float;
  std::int64_t n = 0;
  CandidateResult result;   ///< the advisor's measurement
  bool grid = false;        ///< part of the default team grid
  int league_mult = 0;      ///< grid: league = mult x units (0: other)
  double ref_gbps = 0;      ///< fastest copy reference at (type, n)
  double pct_of_ref = 0;    ///< GB/s / ref_gbps
  double pct_of_peak = 0;   ///< GB/s / DRAM peak (0: unknown)
  bool fits_cache = false;  ///< 3 N sizeof(T) <= last-level cache
};

/// The copy references at one (size, type).
struct RefGroup {
  ValueType type = ValueType::Float;
  std::int64_t n = 0;
  std::vector<CopyReference> refs;
  double best_gbps = 0;
  std::string best_name;
};

/// The best configuration at one (size, type).
struct Advice {
  ValueType type = ValueType::Float;
  std::int64_t n = 0;
  LaunchConfig config;  ///< as listed (parses back: can go to --configs)
  LaunchConfig ran;     ///< resolved at this n
  double gbps = 0, pct_of_ref = 0, pct_of_peak = 0;
  std::string ref_name;
  double range_gbps = 0;  ///< plain `range`, if measured
  bool fits_cache = false;
  std::string line;
};

/// A configuration's standing over all points beyond the cache.
struct Recommendation {
  std::string config;
  int points = 0;
  double mean_of_best = 0;   ///< geometric mean of gbps / best gbps
  double worst_of_best = 0;  ///< smallest gbps / best gbps
};

/// A host<->device copy, through Kokkos or the raw runtime.
struct TransferRow {
  std::string api;  ///< "Kokkos::deep_copy" | "cudaMemcpy"
  TransferResult r;
};

struct Report {
  DeviceInfo device;
  Options options;
  Plan plan;
  std::vector<AddRow> rows;
  std::vector<RefGroup> refs;
  std::vector<Advice> advice;
  std::vector<Recommendation> recommendation;
  std::string no_recommendation;  ///< why there is none ("" if there is)
  std::vector<TransferRow> transfers;
  std::vector<TransferRow> element_reads;
  std::vector<LatencyResult> latency;
  std::vector<std::string> notes;     ///< how the sweep was chosen
  std::vector<std::string> warnings;  ///< what makes the numbers doubtful
  int verify_failures = 0;
  double elapsed_s = 0;  ///< measuring time (stdout and JSON)
};

}  // namespace bench
}  // namespace addscope

#endif  // ADDSCOPE_APPS_BENCH_BENCH_TYPES_HPP_
