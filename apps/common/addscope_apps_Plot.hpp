// addscope apps — plots: series of points written as gnuplot data files, a
// gnuplot script (plots.gp) that turns them into PNGs, and gnuplot run on it.
// The data and the script stay beside the PNGs (rerun: gnuplot plots.gp).
#ifndef ADDSCOPE_APPS_COMMON_PLOT_HPP
#define ADDSCOPE_APPS_COMMON_PLOT_HPP

#include <string>
#include <utility>
#include <vector>

namespace addscope {
namespace apps {

/// One line of a plot.
struct Series {
  std::string title;
  std::vector<std::pair<double, double>> xy;
  bool dashed = false;  ///< references and limits
};

class PlotScript {
 public:
  /// Plots into folder `dir` (which must exist); `what` names the program.
  PlotScript(std::string dir, const std::string& what);
  /// Writes `name`.dat and adds `name`.png (x on a log2 scale; `x_powers`:
  /// ticks as 2^k, else plain numbers).
  void add(const std::string& name, const std::string& title,
           const std::string& xlabel, const std::string& ylabel,
           const std::vector<Series>& series, bool x_powers = true);
  /// Writes plots.gp and runs `gnuplot` on it in the folder; returns the
  /// PNGs' paths. Throws RuntimeError if gnuplot fails.
  std::vector<std::string> render(const std::string& gnuplot);

 private:
  std::string dir_, script_;
  std::vector<std::string> pngs_;
};

}  // namespace apps
}  // namespace addscope

#endif
