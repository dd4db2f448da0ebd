// addscope-demo — what the command line asked for.
#ifndef ADDSCOPE_APPS_DEMO_DEMO_OPTIONS_HPP
#define ADDSCOPE_APPS_DEMO_DEMO_OPTIONS_HPP

#include <cstdint>
#include <string>

#include "addscope/launch/addscope_LaunchConfig.hpp"
#include "common/addscope_apps_Cli.hpp"

namespace addscope {
namespace demo {

struct DemoOptions {
  apps::CommonOptions common;
  std::string size_flag = "--n";           // as the user spelled it
  std::string configs_flag = "--configs";  // as the user spelled it
  bool configs_given = false;              // --configs on the command line
  addscope::LaunchConfig naive;
  std::int64_t n = 10000000;
  std::int64_t index = 2;
  int reads = 5;
  /// Under mpirun: the rank that launches the naive configuration (-1: the
  /// last rank).
  int slow_rank = -1;
};

}  // namespace demo
}  // namespace addscope

#endif
