// addscope-bench — what will be measured: the sizes (the user's, or powers
// of two up to what memory allows), the types, the configurations and how
// often each runs.
#ifndef ADDSCOPE_APPS_BENCH_BENCH_PLAN_HPP_
#define ADDSCOPE_APPS_BENCH_BENCH_PLAN_HPP_

#include <cstdint>
#include <string>
#include <vector>

#include "bench_types.hpp"

namespace addscope {
namespace bench {

/// Sizes 2^min_log2 .. 2^max_log2.
std::vector<std::int64_t> log2_sizes(int min_log2, int max_log2);

/// The largest k <= cap with 3 arrays of 2^k elements of `elem_size` bytes
/// fitting in `available` bytes (addscope's one budget:
/// max_elements_that_fit); `why` says which bound applied.
int default_max_log2(std::uint64_t available, std::size_t elem_size, int cap,
                     std::string* why);

/// Sizes, candidates and measure options for this device; `team_max` is the
/// smallest add_team_size_max over the types. Throws InvalidArgument for
/// values that cannot run here (sizes that do not fit).
Plan make_plan(const Options& o, const DeviceInfo& dev, int team_max,
               std::uint64_t host_available);

}  // namespace bench
}  // namespace addscope

#endif  // ADDSCOPE_APPS_BENCH_BENCH_PLAN_HPP_
