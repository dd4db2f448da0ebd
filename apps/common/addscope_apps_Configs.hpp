// addscope apps — launch configurations checked before anything is
// measured, their errors naming the flag that gave them.
#ifndef ADDSCOPE_APPS_COMMON_CONFIGS_HPP
#define ADDSCOPE_APPS_COMMON_CONFIGS_HPP

#include <string>
#include <vector>

#include "addscope/core/addscope_Error.hpp"
#include "addscope/launch/addscope_LaunchConfig.hpp"

namespace addscope {
namespace apps {

/// The "ran as" column of the demo's and the bench's tables: what a
/// configuration resolved to ("range:pack,ilp=1"), or "" where that is
/// what was asked.
inline std::string ran_as_text(const std::string& asked,
                               const std::string& ran) {
  return ran == asked ? std::string() : ran;
}

/// resolve_launch_config, its errors prefixed with the flag that gave the
/// configuration ("--naive-config: team size = ... exceeds team_size_max").
template <class Exec, class X, class Y, class Out>
LaunchConfig resolve_as(const std::string& flag, const Exec& exec, const X& x,
                        const Y& y, const Out& out, const LaunchConfig& c) {
  try {
    return resolve_launch_config(exec, x, y, out, c);
  } catch (const InvalidArgument& e) {
    throw InvalidArgument(flag + ": " + e.what(), e.where());
  }
}

/// Throws InvalidArgument naming `flag` if a configuration cannot run on
/// these Views at all (a team size above team_size_max).
template <class Exec, class X, class Y, class Out>
void check_configs(const std::string& flag, const Exec& exec, const X& x,
                   const Y& y, const Out& out,
                   const std::vector<LaunchConfig>& configs) {
  for (const auto& c : configs) resolve_as(flag, exec, x, y, out, c);
}

}  // namespace apps
}  // namespace addscope

#endif
