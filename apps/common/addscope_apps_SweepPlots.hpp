// addscope apps — gnuplot plots of a sweep (bench/Sweep): GB/s vs size per
// type (each configuration outside the team grid, the grid's best point, the
// fastest copy reference, the DRAM peak), GB/s vs team size at the largest
// size with team rows, and the transfers' GB/s vs bytes.
#ifndef ADDSCOPE_APPS_COMMON_SWEEPPLOTS_HPP
#define ADDSCOPE_APPS_COMMON_SWEEPPLOTS_HPP

#include <string>
#include <vector>

#include "addscope/bench/addscope_Sweep.hpp"

namespace addscope {
namespace apps {

/// Writes data files, a gnuplot script (plots.gp) and PNGs into `dir`:
/// add_gbps_vs_size_<type>.png, add_gbps_vs_team_<type>.png,
/// transfers_gbps_vs_size.png; `advice` holds one entry per point, `types`
/// names the types in order, `grid`: the team rows are the default team
/// grid (plotted as one series). Returns the PNGs written. Throws
/// RuntimeError if gnuplot fails.
std::vector<std::string> write_sweep_plots(
    const SweepResults& results, const SweepAdvice& advice,
    const DeviceInfo& device, const std::vector<std::string>& types, bool grid,
    const std::string& kokkos_version, const std::string& dir,
    const std::string& gnuplot);

}  // namespace apps
}  // namespace addscope

#endif
