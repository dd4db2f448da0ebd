// addscope — the waits report: the text the tool prints at finalize and the
// JSON it writes (ADDSCOPE_WAITS_JSON), both from a WaitsSnapshot.
//
// Text, in this order: how it measured; the devices; hidden waits (the
// headline) and explicit waits grouped by call site (calls, total, mean,
// share; the longest call of each site in full, with the launch shape of the
// kernel it waited for); overlap; starved launches; kernels by device time
// (launches, total, mean, median, share, grid x block, threads in flight,
// theoretical occupancy); waits by region. Tables show the top
// `opt.top` rows; call sites waiting less than `opt.threshold_s` in all are
// counted, not listed.
//
// JSON: schema "addscope-waits/4" (version 4), every field documented in the
// README ("The JSON report"). Times are seconds on the tool's clock (the
// steady clock, from when libaddscope_waits was loaded; `epoch_unix_s` is
// that moment on the system clock); device timestamps are mapped onto it.
// Strings with nothing to say are null.
#ifndef ADDSCOPE_WAITS_OUTPUT_WAITSREPORT_HPP
#define ADDSCOPE_WAITS_OUTPUT_WAITSREPORT_HPP

#include <iosfwd>
#include <string>

#include "addscope/waits/addscope_WaitsSnapshot.hpp"
#include "addscope/waits/output/addscope_WaitsOptions.hpp"

namespace addscope {

constexpr int kWaitsJsonVersion = 4;

void write_waits_report(std::ostream& os, const WaitsSnapshot& w,
                        const WaitsReportOptions& opt = WaitsReportOptions());
std::string waits_json(const WaitsSnapshot& w,
                       const WaitsReportOptions& opt = WaitsReportOptions());

/// "starved launches: fewer than 1/8 of the resident threads in flight, at
/// least 1% of all kernel time and 1.0 ms" — the rule, in words.
std::string starvation_rule_words(const StarvationRule& r);
/// "user::slow_add ran as 1 block x 1 thread (1 of 270,336 resident threads
/// on this NVIDIA H200): 599.0 ms" (+ " in 12 launches, 49.9 ms each" when
/// launched more than once).
std::string starved_line(const std::string& kernel, const ShapeVerdict& v);

}  // namespace addscope

#endif
