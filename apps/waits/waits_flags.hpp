// addscope-waits — the flags that become the tool's environment variables,
// from the tool's own settings table (addscope_WaitsSettings.hpp), validated
// by the tool's own parser (output/addscope_WaitsOptions.cpp, compiled in),
// so that the launcher accepts exactly what the tool does; and --load,
// which says which of the variables that load the tool to set.
#ifndef ADDSCOPE_APPS_WAITS_FLAGS_HPP
#define ADDSCOPE_APPS_WAITS_FLAGS_HPP

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "waits_kokkos_variable.hpp"

namespace addscope {
namespace apps {

/// A flag and the variable it sets.
struct WaitsFlag {
  const char* flag;        ///< "--top"
  const char* variable;    ///< "ADDSCOPE_WAITS_TOP"
  const char* value_name;  ///< "N", "FILE", ... (for --help)
  std::string help;        ///< the setting's help and its default
};
/// Every flag that takes a value and sets a variable of the tool, in
/// --help's order (the settings table's).
const std::vector<WaitsFlag>& waits_flags();

/// A bad value: the message names the flag, the value and what is allowed.
struct FlagError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

/// Checks `value` of `flag` (one of waits_flags()); throws FlagError.
void check_flag_value(const WaitsFlag& flag, const std::string& value);

/// Which front doors to open: --load (kokkos, cuda; a list).
struct LoadWays {
  bool kokkos = true;  ///< the variable the program's Kokkos reads
  bool cuda = true;    ///< CUDA_INJECTION64_PATH
};
LoadWays parse_load(const std::string& value);  ///< throws FlagError

/// The variables that load `tool` the given ways, and those to take out of
/// the program's environment.
struct LoadingVariables {
  std::vector<std::pair<std::string, std::string>> set;
  std::vector<std::string> unset;
};
/// Kokkos Tools: only the variable the program's Kokkos reads (`kokkos`:
/// KOKKOS_TOOLS_LIBS for 3.7 and later, which warn of the other, and abort
/// when both are set and differ; KOKKOS_PROFILE_LIBRARY before 3.7), the
/// other unset; both where not known.
LoadingVariables loading_variables(const std::string& tool, const LoadWays& ways,
                                   KokkosToolsVariable kokkos);

}  // namespace apps
}  // namespace addscope

#endif
