#include "bench_plan.hpp"

#include <algorithm>
#include <limits>
#include <set>

#include "addscope/core/addscope_Error.hpp"

namespace addscope {
namespace bench {

namespace {
constexpr std::int64_t kMaxLeague = std::numeric_limits<int>::max();

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}
}  // namespace

std::string size_name(std::int64_t n) {
  const int k = exact_log2(n);
  return k >= 0 ? "2^" + std::to_string(k) : std::to_string(n);
}

int exact_log2(std::int64_t n) {
  if (n < 1 || (n & (n - 1)) != 0) return -1;
  int k = 0;
  while ((std::int64_t(1) << k) < n) ++k;
  return k;
}

LaunchConfig SweepConfig::at(std::int64_t n) const {
  if (!league_per_n) return config;
  return LaunchConfig::team_policy(
      std::max<std::int64_t>(1, ceil_div(n, config.team)), config.team);
}

bool SweepConfig::valid_at(std::int64_t n) const {
  return !league_per_n ||
         ceil_div(n, config.team) <= (max_league > 0 ? max_league : kMaxLeague);
}

std::vector<std::int64_t> log2_sizes(int min_log2, int max_log2) {
  std::vector<std::int64_t> s;
  for (int k = min_log2; k <= max_log2; ++k) s.push_back(std::int64_t(1) << k);
  return s;
}

std::int64_t parse_size(const std::string& text) {
  auto digits = [](const std::string& s, std::int64_t max, std::int64_t& v) {
    if (s.empty() || s.size() > 18) return false;
    v = 0;
    for (char c : s) {
      if (c < '0' || c > '9') return false;
      v = v * 10 + (c - '0');
    }
    return v <= max;
  };
  std::int64_t v = 0;
  const auto caret = text.find('^');
  if (caret != std::string::npos) {
    ADDSCOPE_THROW_IF(
        text.substr(0, caret) != "2" || !digits(text.substr(caret + 1), 40, v),
        "--sizes entry '" << text
                          << "' is invalid; allowed: an integer "
                             ">= 1 or 2^k with k in 0..40");
    return std::int64_t(1) << v;
  }
  ADDSCOPE_THROW_IF(!digits(text, std::int64_t(1) << 40, v) || v < 1,
                    "--sizes entry '" << text
                                      << "' is invalid; allowed: an integer "
                                         "in 1..2^40 or 2^k with k in 0..40");
  return v;
}

std::size_t type_size(const std::string& type) {
  if (type == "double" || type == "int64") return 8;
  return 4;
}

std::vector<SweepConfig> make_configs(const Plan& plan, const DeviceInfo& dev,
                                      int team_max) {
  std::vector<SweepConfig> out;
  std::set<std::string> seen;
  auto push = [&](SweepConfig c) {
    if (seen.insert(c.spec).second) out.push_back(std::move(c));
  };
  auto fixed = [&](const LaunchConfig& c) {
    SweepConfig s;
    s.spec = c.to_string();
    s.config = c;
    push(s);
  };
  if (plan.user_configs) {
    for (const auto& c : plan.configs) fixed(c);
    return out;
  }
  team_max = std::max(1, team_max);
  const int units = std::max(1, dev.units);
  const std::int64_t chunk = dev.is_gpu ? 1024 : 4096;
  auto team_point = [&](int mult, int team) {
    SweepConfig s;
    s.config = LaunchConfig::team_policy(std::int64_t(mult) * units, team);
    s.spec = s.config.to_string();
    s.grid = true;
    s.league_mult = mult;
    push(s);
  };
  auto team_per_n = [&](int team) {
    SweepConfig s;
    s.config = LaunchConfig::team_policy(1, team);
    s.league_per_n = true;
    // Kokkos 3.4's OpenMP backend spends ~1-2 us per small team (measured
    // on 2 cores): 2^16 teams already cost ~0.1 s per add, so larger
    // leagues are left out on the host.
    if (!dev.is_gpu) s.max_league = std::int64_t(1) << 16;
    s.grid = true;
    s.spec =
        "team:ceil(N/" + std::to_string(team) + ")x" + std::to_string(team);
    push(s);
  };
  if (plan.quick) {
    const int t = std::min(256, team_max);
    fixed(LaunchConfig::range());
    fixed(LaunchConfig::range(0, 4));
    fixed(LaunchConfig::vector());
    team_point(4, t);
    fixed(LaunchConfig::team_auto());
    fixed(LaunchConfig::blas());
    return out;
  }
  // range: addscope's automatic ilp; range:ilp=1: the plain RangePolicy.
  fixed(LaunchConfig::range());
  fixed(LaunchConfig::range(chunk));
  for (int ilp : {1, 2, 4, 8, 16}) fixed(LaunchConfig::range(0, ilp));
  fixed(LaunchConfig::vector());
  std::vector<int> teams;
  for (int t : {32, 64, 128, 256, 512, 1024}) {
    const int c = std::min(t, team_max);
    if (std::find(teams.begin(), teams.end(), c) == teams.end())
      teams.push_back(c);
  }
  for (int t : teams) {
    for (int mult : {1, 2, 4, 8, 16, 32}) team_point(mult, t);
    team_per_n(t);
  }
  fixed(LaunchConfig::team_auto());
  fixed(LaunchConfig::blas());
  return out;
}

}  // namespace bench
}  // namespace addscope
