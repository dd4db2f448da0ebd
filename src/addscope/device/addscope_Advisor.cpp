#include "addscope/device/addscope_Advisor.hpp"

#include <algorithm>

namespace addscope {

const LaunchConfig& LaunchAdvice::config() const {
  return best_result().candidate;
}

const CandidateResult& LaunchAdvice::best_result() const {
  if (best < 0 || std::size_t(best) >= results.size())
    ADDSCOPE_RUNTIME_ERROR(
        "no candidate ran correctly, so there is no "
        "advice (see each result's 'skipped' and 'check')");
  return results[std::size_t(best)];
}

std::vector<LaunchConfig> launch_candidates(const DeviceInfo& dev, int team_max,
                                            CandidateSet set) {
  std::vector<LaunchConfig> out;
  auto push = [&](const LaunchConfig& c) {
    if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  };
  team_max = std::max(1, team_max);
  const int units = std::max(1, dev.units);
  if (set == CandidateSet::Quick) {
    const int t = std::min(256, team_max);
    push(LaunchConfig::range());
    push(LaunchConfig::range(0, 4));
    push(LaunchConfig::range_pack());
    push(LaunchConfig::team_policy(std::int64_t(4) * units, t));
    push(LaunchConfig::team_auto());
    push(LaunchConfig::blas());
    return out;
  }
  // range: addscope's automatic ilp; range:ilp=1: the plain RangePolicy.
  push(LaunchConfig::range());
  push(LaunchConfig::range(dev.is_gpu ? 1024 : 4096));
  for (int ilp : {1, 2, 4, 8, 16}) push(LaunchConfig::range(0, ilp));
  push(LaunchConfig::range_pack());
  for (int want : {32, 64, 128, 256, 512, 1024}) {
    const int t = std::min(want, team_max);
    for (int mult : {1, 2, 4, 8, 16, 32})
      push(LaunchConfig::team_policy(std::int64_t(mult) * units, t));
    push(LaunchConfig::team_per_element(t));
  }
  push(LaunchConfig::team_auto());
  push(LaunchConfig::blas());
  return out;
}

}  // namespace addscope
