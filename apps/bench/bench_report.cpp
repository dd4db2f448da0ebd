#include "bench_report.hpp"

#include <fmt/format.h>
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <utility>

#include "addscope/core/addscope_Error.hpp"
#include "common/addscope_apps_Report.hpp"
#include "bench_plan.hpp"

namespace addscope {
namespace bench {

namespace {

std::string pct(double p) { return fmt::format("{:.1f}", p); }

std::string mib(std::uint64_t b) {
  if (b >= (std::uint64_t(1) << 30))
    return fmt::format("{:.1f} GiB", double(b) / double(1 << 30));
  if (b >= (std::uint64_t(1) << 20))
    return fmt::format("{:.1f} MiB", double(b) / double(1 << 20));
  return fmt::format("{} KiB", b >> 10);
}

std::string short_source(const std::string& s) {
  return s == "cudaMemcpy D2D" ? "cudaMemcpy D2D copy" : "D2D copy";
}

/// Rows of one (type, n) group.
std::vector<const AddRow*> group_rows(const Report& r, const std::string& type,
                                      std::int64_t n) {
  std::vector<const AddRow*> g;
  for (const auto& row : r.rows)
    if (row.type == type && row.n == n) g.push_back(&row);
  return g;
}

std::string ran_text(const AddRow& row) {
  const std::string ran = row.ran.to_string();
  return ran == row.spec ? std::string() : ran;
}

}  // namespace

void compute_advice(Report& report) {
  report.advice.clear();
  report.recommendation.clear();
  // Runs of one point that differ by more than 2x: the machine was busy.
  std::size_t noisy = 0, timed = 0;
  for (const auto& row : report.rows) {
    ++timed;
    const Stats& c = row.result.completion;
    if (c.count > 1 && c.max_s > 2 * c.min_s && c.max_s > 50e-6) ++noisy;
  }
  for (const auto& c : report.ceilings) {
    ++timed;
    const Stats& t = c.kokkos.time;
    if (t.count > 1 && t.max_s > 2 * t.min_s && t.max_s > 50e-6) ++noisy;
  }
  std::size_t reduced = 0;
  for (const auto& row : report.rows) reduced += row.reduced_repeat ? 1 : 0;
  if (reduced)
    report.notes.push_back(fmt::format(
        "{} slow point(s) would have taken over {:.0f} s each and ran with "
        "fewer repeats (at least 3): see repeat_reduced and "
        "phases.completion.count in the JSON",
        reduced, kPointBudgetSeconds));
  if (timed > 0 && noisy * 10 > timed)
    report.warnings.push_back(fmt::format(
        "{} of {} timed points varied more than 2x between runs (max > 2 "
        "min): the machine looks busy; medians, ceilings and advice are "
        "doubtful. Rerun on an idle machine, or raise --repeat.",
        noisy, timed));
  // best gbps per (type, n), and whether the group is beyond L2.
  struct Point {
    std::string type;
    std::int64_t n;
    double best;
    bool fits_l2;
  };
  std::vector<Point> points;
  for (const auto& c : report.ceilings) {
    const auto g = group_rows(report, c.type, c.n);
    const AddRow* best = nullptr;
    const AddRow* range = nullptr;
    for (const AddRow* row : g) {
      if (!row->verified) continue;
      if (!best || row->result.gbps_median > best->result.gbps_median)
        best = row;
      if (row->spec == "range") range = row;
    }
    if (!best) continue;
    Advice a;
    a.type = c.type;
    a.n = c.n;
    a.spec = best->spec;
    a.ran = best->ran.to_string();
    a.gbps = best->result.gbps_median;
    a.pct_of_ceiling = best->pct_of_ceiling;
    a.ceiling_source = best->ceiling_source;
    a.fits_l2 = best->fits_l2;
    std::string line = fmt::format(
        "n={} {}: best {}{} {} GB/s = {:.0f}% of {}", size_name(c.n), c.type,
        a.spec, a.ran == a.spec ? "" : " (= " + a.ran + ")", fmt_gbps(a.gbps),
        a.pct_of_ceiling, short_source(a.ceiling_source));
    if (range) {
      a.range_gbps = range->result.gbps_median;
      a.range_pct = range->pct_of_ceiling;
    }
    if (range && range != best) {
      line += fmt::format("; range {} GB/s = {:.0f}%", fmt_gbps(a.range_gbps),
                          a.range_pct);
    }
    if (a.fits_l2) line += " [fits in L2]";
    a.line = line;
    report.advice.push_back(a);
    points.push_back({c.type, c.n, a.gbps, a.fits_l2});
  }

  // Standing of each configuration: gbps / best over the points beyond L2.
  bool any_big = false;
  for (const auto& p : points) any_big = any_big || !p.fits_l2;
  std::map<std::string, std::vector<double>> frac;
  std::vector<std::string> order;
  for (const auto& p : points) {
    if (any_big && p.fits_l2) continue;
    for (const AddRow* row : group_rows(report, p.type, p.n)) {
      if (!row->verified || p.best <= 0) continue;
      if (!frac.count(row->spec)) order.push_back(row->spec);
      frac[row->spec].push_back(row->result.gbps_median / p.best);
    }
  }
  std::size_t npoints = 0;
  for (const auto& p : points) npoints += (any_big && p.fits_l2) ? 0 : 1;
  for (const auto& spec : order) {
    const auto& f = frac[spec];
    if (f.size() != npoints) continue;  // not measured everywhere
    Recommendation rec;
    rec.spec = spec;
    rec.points = int(f.size());
    double log_sum = 0;
    rec.worst_of_best = 1;
    for (double v : f) {
      log_sum += std::log(std::max(v, 1e-12));
      rec.worst_of_best = std::min(rec.worst_of_best, v);
    }
    rec.mean_of_best = std::exp(log_sum / double(f.size()));
    report.recommendation.push_back(rec);
  }
  std::stable_sort(report.recommendation.begin(), report.recommendation.end(),
                   [](const Recommendation& a, const Recommendation& b) {
                     return a.mean_of_best > b.mean_of_best;
                   });
  if (!any_big && !points.empty())
    report.notes.push_back(
        "every size fits in L2: the overall standing is over cache-resident "
        "sizes");
}

std::string render_text(const Report& r) {
  const DeviceInfo& d = r.device;
  std::string out;
  out += fmt::format(
      "addscope-bench: out = x + y on Kokkos {} ({}), {}: {} {}, L2 {}, "
      "memory {} ({} available){}\n",
      d.kokkos_version, d.exec_space, d.name, d.units, d.units_name,
      d.l2_bytes ? mib(d.l2_bytes) : "unknown", mib(d.memory_total),
      mib(d.memory_available),
      d.compute_capability.empty() ? "" : ", sm_" + d.compute_capability);
  std::string types;
  for (const auto& t : r.options.types) types += (types.empty() ? "" : ",") + t;
  out += fmt::format(
      "sizes {}..{} ({}), types {}, {} configurations; repeat {}, warmup {}; "
      "time = launch until fence returns (median)\n",
      size_name(r.sizes.front()), size_name(r.sizes.back()), r.sizes.size(),
      types, r.specs.size(), r.repeat, r.warmup);
  for (const auto& n : r.notes) out += "note: " + n + "\n";

  out +=
      "\n== add: GB/s = 3 N sizeof(T) / median time; % of the copy ceiling "
      "measured for the same size and type ==\n";
  {
    Row h{"n",    "type",      "config",    "ran as", "median",
          "GB/s", "best GB/s", "% ceiling", "launch", "check"};
    std::vector<Row> rows;
    for (const auto& row : r.rows)
      rows.push_back(
          {size_name(row.n), row.type, row.spec, ran_text(row),
           fmt_time(row.result.completion.median_s),
           fmt_gbps(row.result.gbps_median), fmt_gbps(row.result.gbps_best),
           pct(row.pct_of_ceiling), fmt_time(row.result.launch.median_s),
           row.verified ? "ok " + std::to_string(row.checked) : "WRONG"});
    out += render_table(h, rows);
  }

  out +=
      "\n== copy ceiling: device-to-device copy of 2 N sizeof(T) bytes, "
      "median ==\n";
  {
    Row h{"n",          "type", "deep_copy", "GB/s",
          "cudaMemcpy", "GB/s", "ceiling",   "from"};
    std::vector<Row> rows;
    for (const auto& c : r.ceilings)
      rows.push_back({size_name(c.n), c.type, fmt_time(c.kokkos.time.median_s),
                      fmt_gbps(c.kokkos.gbps_median),
                      c.has_raw ? fmt_time(c.raw.time.median_s) : "n/a",
                      c.has_raw ? fmt_gbps(c.raw.gbps_median) : "n/a",
                      fmt_gbps(c.gbps), c.source});
    out += render_table(h, rows);
  }

  out += "\n== advice: the best verified configuration per size ==\n";
  for (const auto& a : r.advice) out += a.line + "\n";
  if (!r.recommendation.empty()) {
    const bool big = std::any_of(r.advice.begin(), r.advice.end(),
                                 [](const Advice& a) { return !a.fits_l2; });
    out += fmt::format(
        "\n== overall: each configuration's GB/s as a fraction of the "
        "per-size best ({}) ==\n",
        big ? "sizes beyond L2" : "all sizes");
    Row h{"config", "points", "geomean of best", "worst"};
    std::vector<Row> rows;
    for (const auto& rec : r.recommendation)
      rows.push_back({rec.spec, std::to_string(rec.points),
                      pct(100 * rec.mean_of_best) + "%",
                      pct(100 * rec.worst_of_best) + "%"});
    out += render_table(h, rows);
    out += fmt::format("recommendation: {} ({:.1f}% of the best on average)\n",
                       r.recommendation.front().spec,
                       100 * r.recommendation.front().mean_of_best);
  }

  if (!r.transfers.empty()) {
    out +=
        "\n== transfers: whole float arrays, earlier work fenced, median ==\n";
    if (!d.is_gpu)
      out +=
          "(host backend: the 'device' View is host memory; these are "
          "host memory copies)\n";
    if (!d.has_pinned)
      out +=
          "pinned host memory: not available (addscope::"
          "has_pinned_host_space is false on " +
          d.exec_space + "); pageable only\n";
    Row h{"api", "dir", "memory", "n", "bytes", "median", "GB/s"};
    std::vector<Row> rows;
    for (const auto& t : r.transfers)
      rows.push_back({t.api, t.r.direction, t.r.memory, size_name(t.r.n),
                      std::to_string(t.r.bytes), fmt_time(t.r.time.median_s),
                      fmt_gbps(t.r.gbps_median)});
    out += render_table(h, rows);
  }
  if (!r.element_reads.empty()) {
    out += "\n== single-element read (device to host, one float) ==\n";
    Row h{"api", "what", "memory", "median", "min", "max", "count"};
    std::vector<Row> rows;
    for (const auto& t : r.element_reads)
      rows.push_back({t.api, t.r.what, t.r.memory, fmt_time(t.r.time.median_s),
                      fmt_time(t.r.time.min_s), fmt_time(t.r.time.max_s),
                      std::to_string(t.r.time.count)});
    out += render_table(h, rows);
  }
  if (!r.latency.empty()) {
    out += "\n== launch latency of an empty kernel ==\n";
    out +=
        "unfenced: K launches, one fence, / K (throughput); fenced: launch "
        "+ fence each (latency)\n";
    Row h{"kernel",        "K",         "launch call", "unfenced",
          "fenced median", "fenced min"};
    std::vector<Row> rows;
    for (const auto& l : r.latency)
      rows.push_back({l.kernel, std::to_string(l.launches), fmt_time(l.call_s),
                      fmt_time(l.unfenced_s), fmt_time(l.fenced.median_s),
                      fmt_time(l.fenced.min_s)});
    out += render_table(h, rows);
  }
  if (!r.warnings.empty()) out += "\n";
  for (const auto& w : r.warnings) out += "warning: " + w + "\n";
  if (r.verify_failures)
    out += fmt::format("\nFAILED: {} add result(s) were wrong\n",
                       r.verify_failures);
  return out;
}

nlohmann::json report_json(const Report& r) {
  using nlohmann::json;
  const DeviceInfo& d = r.device;
  json doc;
  doc["tool"] = "addscope-bench";
  doc["schema"] = 1;
  doc["kokkos_version"] = d.kokkos_version;
  doc["kokkos_version_number"] = d.kokkos_version_number;
  doc["device"] = {{"exec_space", d.exec_space},
                   {"is_gpu", d.is_gpu},
                   {"name", d.name},
                   {"units", d.units},
                   {"units_name", d.units_name},
                   {"concurrency", d.concurrency},
                   {"memory_total_bytes", d.memory_total},
                   {"memory_available_bytes", d.memory_available},
                   {"l2_bytes", d.l2_bytes},
                   {"llc_bytes", d.llc_bytes},
                   {"compute_capability", d.compute_capability},
                   {"cuda_runtime_reference", d.has_cuda_runtime},
                   {"pinned_host_memory", d.has_pinned}};
  doc["options"] = {{"sizes", r.sizes},      {"types", r.options.types},
                    {"configs", r.specs},    {"repeat", r.repeat},
                    {"warmup", r.warmup},    {"quick", r.options.quick},
                    {"seed", r.options.seed}};
  doc["notes"] = r.notes;
  doc["warnings"] = r.warnings;
  json rows = json::array();
  for (const auto& row : r.rows) {
    const int k = exact_log2(row.n);
    rows.push_back({{"type", row.type},
                    {"n", row.n},
                    {"log2_n", k >= 0 ? json(k) : json(nullptr)},
                    {"config", row.spec},
                    {"ran_as", row.ran.to_string()},
                    {"bytes", row.result.bytes},
                    {"median_s", row.result.completion.median_s},
                    {"gbps", row.result.gbps_median},
                    {"gbps_best", row.result.gbps_best},
                    {"ceiling_gbps", row.ceiling_gbps},
                    {"ceiling_source", row.ceiling_source},
                    {"pct_of_ceiling", row.pct_of_ceiling},
                    {"fits_l2", row.fits_l2},
                    {"verified", row.verified},
                    {"repeat_reduced", row.reduced_repeat},
                    {"checked_elements", row.checked},
                    {"check_error", row.check_error},
                    {"phases", to_json(row.result)}});
  }
  doc["rows"] = rows;
  json ceil = json::array();
  for (const auto& c : r.ceilings)
    ceil.push_back(
        {{"type", c.type},
         {"n", c.n},
         {"gbps", c.gbps},
         {"source", c.source},
         {"kokkos_deep_copy", to_json(c.kokkos)},
         {"cuda_memcpy", c.has_raw ? to_json(c.raw) : json(nullptr)}});
  doc["ceilings"] = ceil;
  json adv = json::array();
  for (const auto& a : r.advice)
    adv.push_back({{"type", a.type},
                   {"n", a.n},
                   {"config", a.spec},
                   {"ran_as", a.ran},
                   {"gbps", a.gbps},
                   {"pct_of_ceiling", a.pct_of_ceiling},
                   {"ceiling_source", a.ceiling_source},
                   {"range_gbps", a.range_gbps},
                   {"range_pct_of_ceiling", a.range_pct},
                   {"fits_l2", a.fits_l2},
                   {"line", a.line}});
  doc["advice"] = adv;
  json rec = json::array();
  for (const auto& x : r.recommendation)
    rec.push_back({{"config", x.spec},
                   {"points", x.points},
                   {"geomean_fraction_of_best", x.mean_of_best},
                   {"worst_fraction_of_best", x.worst_of_best}});
  doc["recommendation"] = rec;
  auto transfer_rows = [](const std::vector<TransferRow>& v) {
    json a = json::array();
    for (const auto& t : v) {
      json j = to_json(t.r);
      j["api"] = t.api;
      a.push_back(j);
    }
    return a;
  };
  doc["transfers"] = {{"pinned_available", d.has_pinned},
                      {"rows", transfer_rows(r.transfers)}};
  doc["element_reads"] = transfer_rows(r.element_reads);
  json lat = json::array();
  for (const auto& l : r.latency)
    lat.push_back({{"kernel", l.kernel},
                   {"launches", l.launches},
                   {"launch_call_s", l.call_s},
                   {"unfenced_per_launch_s", l.unfenced_s},
                   {"fenced", to_json(l.fenced)}});
  doc["launch_latency"] = lat;
  doc["verification"] = {{"rows", r.rows.size()},
                         {"failures", r.verify_failures}};
  doc["elapsed_s"] = r.elapsed_s;
  return doc;
}

std::string add_rows_csv(const Report& r) {
  Row h{"type",
        "n",
        "log2_n",
        "config",
        "ran_as",
        "bytes",
        "median_s",
        "min_s",
        "gbps",
        "gbps_best",
        "launch_median_s",
        "ceiling_gbps",
        "ceiling_source",
        "pct_of_ceiling",
        "fits_l2",
        "verified"};
  std::vector<Row> rows;
  for (const auto& row : r.rows) {
    const int k = exact_log2(row.n);
    rows.push_back({row.type, std::to_string(row.n),
                    k >= 0 ? std::to_string(k) : "", row.spec,
                    row.ran.to_string(), std::to_string(row.result.bytes),
                    fmt::format("{:.9g}", row.result.completion.median_s),
                    fmt::format("{:.9g}", row.result.completion.min_s),
                    fmt::format("{:.6g}", row.result.gbps_median),
                    fmt::format("{:.6g}", row.result.gbps_best),
                    fmt::format("{:.9g}", row.result.launch.median_s),
                    fmt::format("{:.6g}", row.ceiling_gbps), row.ceiling_source,
                    fmt::format("{:.4g}", row.pct_of_ceiling),
                    row.fits_l2 ? "1" : "0", row.verified ? "1" : "0"});
  }
  return render_csv(h, rows);
}

namespace {

/// A gnuplot single-quoted string.
std::string gp_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("''") : std::string(1, c);
  return q + "'";
}

/// A shell single-quoted word.
std::string sh_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// Series of (x, y) points, written as gnuplot index blocks.
struct Series {
  std::string title;
  std::vector<std::pair<double, double>> xy;
  bool dashed = false;
};

std::string data_blocks(const std::vector<Series>& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i) out += "\n\n";
    out += "# " + s[i].title + "\n";
    for (const auto& p : s[i].xy)
      out += fmt::format("{:.9g} {:.9g}\n", p.first, p.second);
  }
  return out;
}

std::string plot_command(const std::string& data,
                         const std::vector<Series>& s) {
  std::string cmd = "plot ";
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i) cmd += ", \\\n     ";
    cmd += fmt::format(
        "{} index {} using 1:2 with linespoints {}title {} noenhanced",
        gp_quote(data), i, s[i].dashed ? "dashtype 2 lw 2 " : "",
        gp_quote(s[i].title));
  }
  return cmd + "\n";
}

}  // namespace

std::vector<std::string> write_plots(const Report& r, const std::string& dir,
                                     const std::string& gnuplot) {
  std::vector<std::string> pngs;
  std::string script =
      "# addscope-bench plots; rerun with: gnuplot plots.gp (in this folder)\n"
      "set terminal pngcairo size 1100,650 enhanced font 'sans,10'\n"
      "set grid\nset key outside right top\nset logscale x 2\n"
      "set format x '2^{%L}'\nset yrange [0:*]\n";
  const std::string dev = r.device.exec_space + " (" + r.device.name +
                          "), Kokkos " + r.device.kokkos_version;

  for (const auto& type : r.options.types) {
    // GB/s vs size: each non-grid configuration, the team grid's best, and
    // the copy ceiling.
    std::vector<Series> s;
    std::map<std::string, std::size_t> at;
    Series grid{"team grid (best point)", {}, false};
    std::map<std::int64_t, double> grid_best;
    for (const auto& row : r.rows) {
      if (row.type != type || !row.verified) continue;
      if (row.grid) {
        double& b = grid_best[row.n];
        b = std::max(b, row.result.gbps_median);
        continue;
      }
      if (!at.count(row.spec)) {
        at[row.spec] = s.size();
        s.push_back({row.spec, {}, false});
      }
      s[at[row.spec]].xy.push_back({double(row.n), row.result.gbps_median});
    }
    for (const auto& kv : grid_best)
      grid.xy.push_back({double(kv.first), kv.second});
    if (!grid.xy.empty()) s.push_back(grid);
    Series ceil{"copy ceiling (D2D)", {}, true};
    for (const auto& c : r.ceilings)
      if (c.type == type) ceil.xy.push_back({double(c.n), c.gbps});
    if (s.empty()) continue;
    s.push_back(ceil);
    const std::string data = "add_gbps_vs_size_" + type + ".dat";
    write_file_atomic(dir + "/" + data, data_blocks(s));
    const std::string png = "add_gbps_vs_size_" + type + ".png";
    script += "\nset output " + gp_quote(png) + "\n";
    script += "set title " +
              gp_quote("add " + type + ": GB/s vs size, " + dev) +
              " noenhanced\n";
    script +=
        "set xlabel 'n (elements)'\nset ylabel 'GB/s (3 N sizeof(T) / median "
        "time)'\n";
    script += plot_command(data, s);
    pngs.push_back(dir + "/" + png);

    // GB/s vs team size at the largest size with team rows, one line per
    // league choice. With a single team size (a host whose team_size_max is
    // tiny) GB/s vs league size instead.
    std::int64_t nfix = 0;
    auto team_row = [&](const AddRow& row) {
      return row.type == type && row.verified &&
             row.ran.kind == LaunchKind::Team && row.spec != "team:auto";
    };
    for (const auto& row : r.rows)
      if (team_row(row)) nfix = std::max(nfix, row.n);
    if (nfix == 0) continue;
    std::set<int> teams;
    for (const auto& row : r.rows)
      if (team_row(row) && row.n == nfix) teams.insert(row.ran.team);
    const bool by_league = teams.size() == 1;
    std::vector<Series> t;
    std::map<std::string, std::size_t> tat;
    for (const auto& row : r.rows) {
      if (!team_row(row) || row.n != nfix) continue;
      std::string key = by_league          ? fmt::format("T = {}", row.ran.team)
                        : row.league_per_n ? std::string("L = ceil(N/T)")
                        : row.grid
                            ? fmt::format("L = {} x {} = {}", row.league_mult,
                                          r.device.units_name, row.ran.league)
                            : fmt::format("L = {}", row.ran.league);
      if (!tat.count(key)) {
        tat[key] = t.size();
        t.push_back({key, {}, false});
      }
      t[tat[key]].xy.push_back(
          {double(by_league ? row.ran.league : row.ran.team),
           row.result.gbps_median});
    }
    for (auto& series : t) std::sort(series.xy.begin(), series.xy.end());
    const std::string tdata = "add_gbps_vs_team_" + type + ".dat";
    write_file_atomic(dir + "/" + tdata, data_blocks(t));
    const std::string tpng = "add_gbps_vs_team_" + type + ".png";
    script += "\nset output " + gp_quote(tpng) + "\n";
    script += "set title " +
              gp_quote("add " + type + " at n = " + size_name(nfix) +
                       (by_league ? ": GB/s vs league size (one team size "
                                    "only: team_size_max = " +
                                        std::to_string(*teams.begin()) + "), "
                                  : ": GB/s vs team size, ") +
                       dev) +
              " noenhanced\n";
    script += std::string("set xlabel '") +
              (by_league ? "league size L" : "team size T") +
              "'\nset ylabel 'GB/s'\nset format x '%g'\n";
    script += plot_command(tdata, t);
    script += "set format x '2^{%L}'\n";
    pngs.push_back(dir + "/" + tpng);
  }

  if (!r.transfers.empty()) {
    std::vector<Series> s;
    std::map<std::string, std::size_t> at;
    for (const auto& tr : r.transfers) {
      const std::string key = tr.api + " " + tr.r.direction + " " + tr.r.memory;
      if (!at.count(key)) {
        at[key] = s.size();
        s.push_back({key, {}, tr.api != "Kokkos::deep_copy"});
      }
      s[at[key]].xy.push_back({double(tr.r.bytes), tr.r.gbps_median});
    }
    const std::string data = "transfers_gbps_vs_size.dat";
    write_file_atomic(dir + "/" + data, data_blocks(s));
    const std::string png = "transfers_gbps_vs_size.png";
    script += "\nset output " + gp_quote(png) + "\n";
    script += "set title " + gp_quote("transfers: GB/s vs bytes, " + dev) +
              " noenhanced\n";
    script += "set xlabel 'bytes'\nset ylabel 'GB/s (bytes / median time)'\n";
    script += plot_command(data, s);
    pngs.push_back(dir + "/" + png);
  }
  script += "unset output\n";
  write_file_atomic(dir + "/plots.gp", script);

  const std::string cmd =
      "cd " + sh_quote(dir) + " && " + sh_quote(gnuplot) + " plots.gp 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) ADDSCOPE_RUNTIME_ERROR("cannot run gnuplot (" << cmd << ")");
  std::string log;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p)) log += buf;
  const int status = ::pclose(p);
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    ADDSCOPE_RUNTIME_ERROR("gnuplot failed on " << dir << "/plots.gp: " << log);
  return pngs;
}

}  // namespace bench
}  // namespace addscope
