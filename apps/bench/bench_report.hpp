// addscope-bench — what the measurements mean and how they are shown: the
// advice (the library's advise_across_sizes, with the bench's notes), the
// text report (bench_report.cpp), JSON and CSV (bench_json.cpp); the plots
// are apps/common's (addscope_apps_SweepPlots).
#ifndef ADDSCOPE_APPS_BENCH_BENCH_REPORT_HPP_
#define ADDSCOPE_APPS_BENCH_BENCH_REPORT_HPP_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench_types.hpp"

namespace addscope {
namespace bench {

/// Fills report.advice (advise_across_sizes over report.points) and adds
/// what it found to the notes and warnings (points run with fewer repeats
/// or skipped, a busy machine, references not measured cleanly), and
/// report.no_recommendation with the flags that would give one.
void compute_advice(Report& report);

/// The human report: one table per section, then the advice.
std::string render_text(const Report& report);

/// One JSON document with everything measured (docs/json.md).
nlohmann::json report_json(const Report& report);

/// The add rows as CSV.
std::string add_rows_csv(const Report& report);

}  // namespace bench
}  // namespace addscope

#endif  // ADDSCOPE_APPS_BENCH_BENCH_REPORT_HPP_
