// addscope-bench — what the measurements mean and how they are shown:
// advice per size, the overall recommendation, the text report, JSON, CSV and
// gnuplot plots.
#ifndef ADDSCOPE_APPS_BENCH_BENCH_REPORT_HPP_
#define ADDSCOPE_APPS_BENCH_BENCH_REPORT_HPP_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench_types.hpp"

namespace addscope {
namespace bench {

/// Fills report.advice (best verified configuration per size and type) and
/// report.recommendation (standing of each configuration over the sizes
/// beyond the last-level cache; none, with the reason in
/// report.no_recommendation, if every size fits in it).
void compute_advice(Report& report);

/// The human report: one table per section, then the advice.
std::string render_text(const Report& report);

/// One JSON document with everything measured.
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

}  // namespace bench
}  // namespace addscope

#endif  // ADDSCOPE_APPS_BENCH_BENCH_REPORT_HPP_
