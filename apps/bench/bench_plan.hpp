// addscope-bench — what will be measured: the sizes, the types and the list
// of launch configurations (the default grid or the user's list).
#ifndef ADDSCOPE_APPS_BENCH_BENCH_PLAN_HPP_
#define ADDSCOPE_APPS_BENCH_BENCH_PLAN_HPP_

#include <cstdint>
#include <string>
#include <vector>

#include "addscope/launch/addscope_LaunchConfig.hpp"
#include "addscope/timing/addscope_Results.hpp"
#include "bench_types.hpp"

namespace addscope {
namespace bench {

/// A point whose runs would take longer than this gets fewer of them (at
/// least 3, no warmup beyond one probe run).
constexpr double kPointBudgetSeconds = 2.0;

struct Plan {
  std::vector<std::int64_t> sizes;
  std::vector<std::string> types;
  MeasureOptions opt;                 ///< for adds and D2D copies
  MeasureOptions latency_opt;         ///< single-element reads
  int launches = 10000;               ///< empty kernels, unfenced
  int fenced_launches = 1000;         ///< empty kernels, fenced
  bool user_configs = false;          ///< --configs given
  std::vector<LaunchConfig> configs;  ///< the --configs list
  bool quick = false;
  std::uint64_t seed = 0;
  bool transfers = true, latency = true;
  std::vector<std::string> notes;  ///< how defaults were chosen
};

/// Sizes of the sweep from the options (explicit, or 2^min..2^max).
std::vector<std::int64_t> log2_sizes(int min_log2, int max_log2);

/// Parses one --sizes entry: "1048576" or "2^20" (>= 1). Throws
/// InvalidArgument.
std::int64_t parse_size(const std::string& text);

/// The configurations to sweep for one type. `team_max`: add_team_size_max
/// for that type on the default execution space.
std::vector<SweepConfig> make_configs(const Plan& plan, const DeviceInfo& dev,
                                      int team_max);

/// Size of one element of a type name ("float" -> 4).
std::size_t type_size(const std::string& type);

}  // namespace bench
}  // namespace addscope

#endif  // ADDSCOPE_APPS_BENCH_BENCH_PLAN_HPP_
