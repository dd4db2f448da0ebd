// addscope-bench — what the measurements mean and how they are shown: the
// advice (the library's advise_across_sizes, with the bench's notes), the
// text report (bench_report.cpp), JSON and CSV (bench_json.cpp), gnuplot
// plots (bench_plots.cpp).
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

/// Writes data files, a gnuplot script (plots.gp) and PNGs into `dir`:
/// add_gbps_vs_size_<type>.png, add_gbps_vs_team_<type>.png,
/// transfers_gbps_vs_size.png. Returns the PNGs written. Throws RuntimeError
/// if gnuplot fails.
std::vector<std::string> write_plots(const Report& report,
                                     const std::string& dir,
                                     const std::string& gnuplot);

/// Calls f(point, its advice, a result) for every add measured or skipped,
/// in sweep order (report.advice must hold one entry per point).
template <class F>
void for_each_row(const Report& r, F&& f) {
  for (std::size_t i = 0; i < r.points.size(); ++i)
    for (const auto& c : r.points[i].results)
      f(r.points[i], r.advice.points.at(i), c);
}

/// The row's % of the DRAM peak (-1 where the peak is unknown).
double pct_of_peak(const DeviceInfo& d, const CandidateResult& c);
/// The row's % of its point's reference (-1 where it is not reliable).
double pct_of_reference(const PointAdvice& a, const CandidateResult& c);

}  // namespace bench
}  // namespace addscope

#endif  // ADDSCOPE_APPS_BENCH_BENCH_REPORT_HPP_
