// addscope — the report's "idle device" section and its JSON object, from an
// IdleSummary (addscope_IdleSummary.hpp).
//
// Text, in this order: the idle share of the run (per device when there are
// several; start-up and tail apart), the streams, the causes (gaps, total,
// share of the run), the call sites (cause, site, region; for round trips
// and MPI, how the launching thread spent those gaps), the regions, and a
// what-if line per cause. Every number is in the JSON; a sentence is
// written only when its numbers are there (no idle time: no causes; no
// region: no region table).
//
// JSON: one object (docs/waits-report.md, "idle"): times in seconds on the
// tool's clock, shares as fractions of span_s (the devices' runs summed).
#ifndef ADDSCOPE_WAITS_OUTPUT_IDLEREPORT_HPP
#define ADDSCOPE_WAITS_OUTPUT_IDLEREPORT_HPP

#include <iosfwd>
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "addscope/waits/model/addscope_IdleSummary.hpp"
#include "addscope/waits/output/addscope_WaitsOptions.hpp"

namespace addscope {

/// The section, two-space indented like the rest of the waits report.
/// `code_first`: the program's words are its code (no Kokkos label names its
/// calls): a call's row leads with its line ("train.py:21 (main) `x.item()`
/// → cudaStreamSynchronize"), else the call leads, its line after.
void write_idle_report(std::ostream& os, const IdleSummary& s,
                       const WaitsReportOptions& opt = WaitsReportOptions(),
                       bool code_first = false);
/// The section's JSON object (the waits JSON's "idle").
nlohmann::json idle_json(const IdleSummary& s);

/// "200 deep_copy r_h<-r (Host<-Cuda) round trips left the device idle
/// 3.1 ms = 44.0% of the time in region loop; if they took no time, the run
/// could be up to 3.1 ms shorter" — or "" when the numbers do not support a
/// sentence (no idle time). The share is of the region's time only when
/// that means something (IdleWhatIf::region_share), else of the run.
std::string idle_what_if_line(const IdleWhatIf& w, const IdleSummary& s);
/// How a host-code row reads: "between A and B", "after A", "before B",
/// "in A's own work", "between Kokkos calls" (neither known).
std::string idle_site_words(const IdleSiteStats& r);

}  // namespace addscope

#endif
