// addscope — what the waits tool's report shows and where it goes, from the
// environment (each variable in the README's table):
//   ADDSCOPE_WAITS_TOP=10              rows per table (call sites, kernels)
//   ADDSCOPE_WAITS_THRESHOLD=10us      call sites waiting less, in all, are
//                                      counted but not listed
//   ADDSCOPE_WAITS_OUTPUT=path         the text report (default: stderr)
//   ADDSCOPE_WAITS_STARVED_THREADS=0.125  starved: fewer threads in flight
//                                      than this share of the resident ones
//   ADDSCOPE_WAITS_STARVED_SHARE=0.01  ... and at least this share of all
//                                      kernels' device time
//   ADDSCOPE_WAITS_STARVED_MIN=1ms     ... and at least this long in all
// A value that does not parse is named on stderr and the default kept.
#ifndef ADDSCOPE_WAITS_OUTPUT_WAITSOPTIONS_HPP
#define ADDSCOPE_WAITS_OUTPUT_WAITSOPTIONS_HPP

#include <cstddef>
#include <string>
#include <vector>

#include "addscope/waits/attribution/addscope_Starvation.hpp"

namespace addscope {

struct WaitsReportOptions {
  std::size_t top = 10;
  double threshold_s = 10e-6;
  StarvationRule starved;
  std::string output;  ///< "" : stderr (the path as given, %p/%r unexpanded)
  bool json = false;   ///< a JSON report is written (ADDSCOPE_WAITS_JSON)
  /// Started by addscope-waits (ADDSCOPE_WAITS_LAUNCHER=1): hints name its
  /// flags, not the variables.
  bool launcher = false;
};

/// The hint after a table cut short: how to see more, in the words the user
/// typed — "--top, --threshold; all with --json FILE" under the launcher,
/// "ADDSCOPE_WAITS_TOP, ADDSCOPE_WAITS_THRESHOLD; all in the JSON" with a
/// JSON written. `threshold`: the table also drops rows under it.
std::string more_rows_hint(const WaitsReportOptions& opt, bool threshold);

/// The options from the environment (`getenv`, or the given lookup for
/// tests); each variable that does not parse adds a message naming it, its
/// value and what is allowed to `warnings`, and keeps the default.
WaitsReportOptions waits_options_from_environment(
    std::vector<std::string>* warnings,
    const char* (*lookup)(const char*) = nullptr);

/// "10us", "1.5 ms", "2s", "0.001" (seconds) -> seconds; false if `text` is
/// none of those or negative.
bool parse_duration(const std::string& text, double* seconds);

}  // namespace addscope

#endif
