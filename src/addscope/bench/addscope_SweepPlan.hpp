// addscope — what a sweep of out = x + y over sizes x launch configurations
// measures (addscope-bench's plan): the sizes (those asked for, or powers of
// two up to what memory allows), the configurations and how often each runs;
// then host<->device transfers and launch latency (bench/Sweep runs it).
#ifndef ADDSCOPE_BENCH_SWEEPPLAN_HPP
#define ADDSCOPE_BENCH_SWEEPPLAN_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "addscope/bench/addscope_Advisor.hpp"
#include "addscope/bench/addscope_DeviceInfo.hpp"
#include "addscope/bench/addscope_References.hpp"
#include "addscope/launch/addscope_LaunchConfig.hpp"
#include "addscope/timing/addscope_Results.hpp"

namespace addscope {

/// What a sweep was asked for, before defaults that need the device. The
/// *_param strings name the parameters in errors (an app passes its flags).
struct SweepRequest {
  std::vector<std::int64_t> sizes;  ///< explicit sizes; empty: powers of two
  int min_log2 = 10;                ///< smallest 2^k (without sizes)
  int max_log2 = -1;                ///< largest 2^k; used if max_log2_set
  bool min_log2_set = false;
  bool max_log2_set = false;
  std::size_t elem_size = sizeof(float);  ///< the largest element swept
  std::vector<LaunchConfig> configs;      ///< empty: launch_candidates
  int warmup = 2, repeat = 10;
  bool quick = false;  ///< a short sweep: fewer sizes, configurations, runs
  std::uint64_t seed = 0;
  bool transfers = true, latency = true;
  std::string sizes_param = "sizes", min_log2_param = "min_log2",
              max_log2_param = "max_log2";
};

/// What will be measured.
struct SweepPlan {
  std::vector<std::int64_t> sizes;       ///< ascending, distinct
  std::vector<LaunchConfig> candidates;  ///< the configurations, as listed
  bool user_configs = false;             ///< configs given
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

/// Sizes 2^min_log2 .. 2^max_log2.
std::vector<std::int64_t> log2_sizes(int min_log2, int max_log2);

/// The largest k <= cap with 3 arrays of 2^k elements of `elem_size` bytes
/// fitting in `available` bytes (addscope's one budget:
/// max_elements_that_fit); `why` says which bound applied.
int default_max_log2(std::uint64_t available, std::size_t elem_size, int cap,
                     std::string* why);

/// Sizes, candidates and measure options for this device; `team_max` is the
/// smallest add_team_size_max over the types, `host_available` the host
/// memory free for the transfers' host copies. Throws InvalidArgument for
/// values that cannot run here (sizes that do not fit).
SweepPlan plan_sweep(const SweepRequest& req, const DeviceInfo& dev,
                     int team_max, std::uint64_t host_available);

}  // namespace addscope

#endif  // ADDSCOPE_BENCH_SWEEPPLAN_HPP
