// addscope — the waits report: the text the tool prints at finalize (hidden
// waits first) and the JSON it writes (ADDSCOPE_WAITS_JSON), both from a
// WaitsSnapshot.
//
// JSON (schema "addscope-waits/2"): times in seconds on the tool's clock —
// the steady clock, from when the tool was loaded; device timestamps are
// mapped onto it. Fields: mode, device_source, kokkos_reports_fences, rank,
// totals, waits[] (top waits, longest first: what, kind, class, thread,
// begin_s, duration_s, wait_s, own_s, wait_is_bound, regions, context, via,
// waited_for[] {kernel, kernel_raw, wait_s, stream}, line), kernels[] (per
// name: name, raw_name, launches, device_s, device_max_s, waited_hidden_s,
// waited_explicit_s, overlap_s, stream, shape), sites[], streams[], threads[].
#ifndef ADDSCOPE_WAITS_OUTPUT_WAITSREPORT_HPP
#define ADDSCOPE_WAITS_OUTPUT_WAITSREPORT_HPP

#include <cstddef>
#include <iosfwd>
#include <string>

#include "addscope/waits/addscope_WaitsSnapshot.hpp"

namespace addscope {

struct WaitsReportOptions {
  std::size_t top_waits = 10;  ///< per class
  std::size_t top_kernels = 10;
};

void write_waits_report(std::ostream& os, const WaitsSnapshot& w,
                        const WaitsReportOptions& opt = WaitsReportOptions());
std::string waits_json(const WaitsSnapshot& w);

}  // namespace addscope

#endif
