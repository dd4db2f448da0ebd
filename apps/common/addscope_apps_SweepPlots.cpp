#include "common/addscope_apps_SweepPlots.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "addscope/core/addscope_Format.hpp"
#include "common/addscope_apps_Plot.hpp"

namespace addscope {
namespace apps {

namespace {

/// What the plots are drawn from.
struct Input {
  const SweepResults& r;
  const SweepAdvice& advice;
  const DeviceInfo& device;
  bool grid;  ///< team rows form the default grid
};

/// Part of the default team grid (not given by --configs)?
bool in_grid(const Input& r, const CandidateResult& c) {
  return r.grid && (c.candidate.kind == LaunchKind::Team ||
                    c.candidate.kind == LaunchKind::TeamPerElement);
}

/// Series `title` of `s`, made on first use.
Series& series(std::vector<Series>& s, std::map<std::string, std::size_t>& at,
               const std::string& title, bool dashed) {
  if (!at.count(title)) {
    at[title] = s.size();
    s.push_back({title, {}, dashed});
  }
  return s[at[title]];
}

/// GB/s vs size for one type.
std::vector<Series> by_size(const Input& r, const std::string& type) {
  std::vector<Series> s;
  std::map<std::string, std::size_t> at;
  std::map<std::int64_t, double> grid_best;
  for_each_sweep_row(
      r.r.points, r.advice,
      [&](const SweepPoint& p, const PointAdvice&, const CandidateResult& c) {
        if (p.type != type || !c.correct()) return;
        const double g = c.phases.gbps_median;
        if (in_grid(r, c)) {
          double& b = grid_best[p.n];
          b = std::max(b, g);
        } else {
          series(s, at, c.candidate.to_string(), false)
              .xy.push_back({double(p.n), g});
        }
      });
  Series grid{"team grid (best point)", {}, false};
  for (const auto& kv : grid_best)
    grid.xy.push_back({double(kv.first), kv.second});
  if (!grid.xy.empty()) s.push_back(grid);
  if (s.empty()) return s;
  Series ref{"fastest copy reference", {}, true};
  Series peak{"DRAM peak (limit)", {}, true};
  for (std::size_t i = 0; i < r.r.points.size(); ++i) {
    const SweepPoint& p = r.r.points[i];
    if (p.type != type) continue;
    const ReferenceStanding& st = r.advice.points.at(i).reference;
    if (st.reliable) ref.xy.push_back({double(p.n), st.gbps});
    if (r.device.dram_peak_gbps > 0)
      peak.xy.push_back({double(p.n), r.device.dram_peak_gbps});
  }
  s.push_back(ref);
  if (!peak.xy.empty()) s.push_back(peak);
  return s;
}

/// GB/s vs team size at the largest size with team rows, one line per
/// league choice; with a single team size (a host whose team_size_max is
/// tiny), GB/s vs league size instead. Returns false if there are none.
bool by_team(const Input& r, const std::string& type, std::string& title,
             std::string& xlabel, std::vector<Series>& t) {
  std::int64_t nfix = 0;
  std::set<int> teams;
  for_each_sweep_row(
      r.r.points, r.advice,
      [&](const SweepPoint& p, const PointAdvice&, const CandidateResult& c) {
        if (p.type == type && c.correct() && in_grid(r, c))
          nfix = std::max(nfix, p.n);
      });
  if (nfix == 0) return false;
  auto at_nfix = [&](const SweepPoint& p, const CandidateResult& c) {
    return p.type == type && c.correct() && in_grid(r, c) && p.n == nfix;
  };
  for_each_sweep_row(
      r.r.points, r.advice,
      [&](const SweepPoint& p, const PointAdvice&, const CandidateResult& c) {
        if (at_nfix(p, c)) teams.insert(c.resolved.team);
      });
  const bool by_league = teams.size() == 1;
  const int units = std::max(1, r.device.units);
  std::map<std::string, std::size_t> at;
  for_each_sweep_row(
      r.r.points, r.advice,
      [&](const SweepPoint& p, const PointAdvice&, const CandidateResult& c) {
        if (!at_nfix(p, c)) return;
        const auto& ran = c.resolved;
        const int mult = c.candidate.kind == LaunchKind::Team &&
                                 c.candidate.league % units == 0
                             ? int(c.candidate.league / units)
                             : 0;
        const std::string key =
            by_league ? fmt::format("T = {}", ran.team)
            : c.candidate.kind == LaunchKind::TeamPerElement
                ? std::string("L = ceil(N/T)")
            : mult ? fmt::format("L = {} x {} = {}", mult, r.device.units_name,
                                 ran.league)
                   : fmt::format("L = {}", ran.league);
        series(t, at, key, false)
            .xy.push_back({double(by_league ? ran.league : ran.team),
                           c.phases.gbps_median});
      });
  for (auto& s : t) std::sort(s.xy.begin(), s.xy.end());
  title = "add " + type + " at n = " + size_name(nfix) +
          (by_league ? ": GB/s vs league size (one team size only: "
                       "team_size_max = " +
                           std::to_string(*teams.begin()) + "), "
                     : ": GB/s vs team size, ");
  xlabel = by_league ? "league size L" : "team size T";
  return true;
}

std::vector<Series> transfers(const SweepResults& r) {
  std::vector<Series> s;
  std::map<std::string, std::size_t> at;
  for (const auto& tr : r.transfers)
    series(s, at,
           tr.api + " " + to_string(tr.result.direction) + " " +
               to_string(tr.result.memory),
           tr.api != "Kokkos::deep_copy")
        .xy.push_back({double(tr.result.bytes), tr.result.gbps_median});
  return s;
}

}  // namespace

std::vector<std::string> write_sweep_plots(
    const SweepResults& results, const SweepAdvice& advice,
    const DeviceInfo& device, const std::vector<std::string>& types, bool grid,
    const std::string& kokkos_version, const std::string& dir,
    const std::string& gnuplot) {
  const Input r{results, advice, device, grid};
  PlotScript plots(dir, "addscope-bench");
  const std::string dev =
      device.exec_space + " (" + device.name + "), Kokkos " + kokkos_version;
  for (const auto& tname : types) {
    const auto s = by_size(r, tname);
    if (s.empty()) continue;
    plots.add("add_gbps_vs_size_" + tname,
              "add " + tname + ": GB/s vs size, " + dev, "n (elements)",
              "GB/s (3 N sizeof(T) / median time)", s);
    std::string title, xlabel;
    std::vector<Series> t;
    if (by_team(r, tname, title, xlabel, t))
      plots.add("add_gbps_vs_team_" + tname, title + dev, xlabel, "GB/s", t,
                false);
  }
  if (!results.transfers.empty())
    plots.add("transfers_gbps_vs_size", "transfers: GB/s vs bytes, " + dev,
              "bytes", "GB/s (bytes / median time)", transfers(results));
  return plots.render(gnuplot);
}

}  // namespace apps
}  // namespace addscope
