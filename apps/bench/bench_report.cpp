#include "bench_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <utility>

#include "addscope/addscope_Version.hpp"
#include "addscope/core/addscope_Error.hpp"
#include "common/addscope_apps_Files.hpp"
#include "addscope/core/addscope_Format.hpp"
#include "common/addscope_apps_Json.hpp"
#include "common/addscope_apps_Plot.hpp"
#include "common/addscope_apps_Table.hpp"

namespace addscope {
namespace bench {

using apps::Table;

namespace {

std::string pct1(double p) { return fmt::format("{:.1f}", p); }

const char* cache_name(const DeviceInfo& d) {
  return d.is_gpu ? "L2" : "last-level cache";
}

/// Rows of one (type, n) group.
std::vector<const AddRow*> group_rows(const Report& r, ValueType type,
                                      std::int64_t n) {
  std::vector<const AddRow*> g;
  for (const auto& row : r.rows)
    if (row.type == type && row.n == n) g.push_back(&row);
  return g;
}

std::string ran_text(const CandidateResult& r) {
  const std::string ran = r.resolved.to_string();
  return ran == r.candidate.to_string() ? std::string() : ran;
}

bool noisy(const Stats& s) {
  return s.count > 1 && s.max_s > 2 * s.min_s && s.max_s > 50e-6;
}

}  // namespace

void compute_advice(Report& report) {
  const DeviceInfo& dev = report.device;
  report.advice.clear();
  report.recommendation.clear();
  report.no_recommendation.clear();
  // Runs of one point that differ by more than 2x: the machine was busy.
  std::size_t n_noisy = 0, timed = 0, reduced = 0, skipped = 0;
  for (const auto& row : report.rows) {
    if (!row.result.measured) {
      ++skipped;
      continue;
    }
    ++timed;
    n_noisy += noisy(row.result.phases.completion) ? 1 : 0;
    reduced += row.result.reduced_repeat ? 1 : 0;
  }
  for (const auto& g : report.refs)
    for (const auto& r : g.refs) {
      ++timed;
      n_noisy += noisy(r.result.time) ? 1 : 0;
    }
  if (reduced)
    report.notes.push_back(fmt::format(
        "{} slow point(s) would have taken over {:.0f} s each and ran with "
        "fewer repeats (at least 3): see repeat_reduced and "
        "phases.completion.count in the JSON",
        reduced, report.plan.advisor.point_budget_s));
  if (skipped)
    report.notes.push_back(fmt::format(
        "{} (configuration, size) point(s) could not run and are left out of "
        "the tables (too many teams for the size, or Views a configuration "
        "cannot take): see rows[].skipped in the JSON",
        skipped));
  if (timed > 0 && n_noisy * 10 > timed)
    report.warnings.push_back(fmt::format(
        "{} of {} timed points varied more than 2x between runs (max > 2 "
        "min): the machine looks busy; medians and advice are doubtful. "
        "Rerun on an idle machine, or raise --repeat.",
        n_noisy, timed));

  struct Point {
    ValueType type;
    std::int64_t n;
    double best;
    bool fits_cache;
  };
  std::vector<Point> points;
  for (const auto& g : report.refs) {
    const AddRow* best = nullptr;
    const AddRow* range = nullptr;
    for (const AddRow* row : group_rows(report, g.type, g.n)) {
      if (!row->result.correct()) continue;
      if (!best ||
          row->result.phases.gbps_median > best->result.phases.gbps_median)
        best = row;
      if (row->result.candidate == LaunchConfig::range()) range = row;
    }
    if (!best) continue;
    Advice a;
    a.type = g.type;
    a.n = g.n;
    a.config = best->result.candidate;
    a.ran = best->result.resolved;
    a.gbps = best->result.phases.gbps_median;
    a.pct_of_ref = best->pct_of_ref;
    a.pct_of_peak = best->pct_of_peak;
    a.ref_name = g.best_name;
    a.fits_cache = best->fits_cache;
    std::string line =
        fmt::format("n={} {}: best {}{} {} GB/s", size_name(g.n),
                    apps::to_string(g.type), a.config.to_string(),
                    a.ran == a.config ? "" : " (= " + a.ran.to_string() + ")",
                    format_gbps(a.gbps));
    if (dev.dram_peak_gbps > 0)
      line += fmt::format(" = {:.0f}% of the DRAM peak", a.pct_of_peak);
    if (g.best_gbps > 0)
      line += fmt::format(", {:.0f}% of the fastest copy reference ({})",
                          a.pct_of_ref, a.ref_name);
    if (range) a.range_gbps = range->result.phases.gbps_median;
    if (range && range != best)
      line += fmt::format("; range {} GB/s", format_gbps(a.range_gbps));
    if (a.fits_cache) line += std::string(" [fits in ") + cache_name(dev) + "]";
    a.line = line;
    report.advice.push_back(a);
    points.push_back({g.type, g.n, a.gbps, a.fits_cache});
  }

  // Standing of each configuration: gbps / best over the points beyond the
  // cache. Cache-resident points alone advise nothing about memory.
  std::map<std::string, std::vector<double>> frac;
  std::vector<std::string> order;
  std::size_t npoints = 0;
  for (const auto& p : points) {
    if (p.fits_cache) continue;
    ++npoints;
    for (const AddRow* row : group_rows(report, p.type, p.n)) {
      if (!row->result.correct() || p.best <= 0) continue;
      const std::string c = row->result.candidate.to_string();
      if (!frac.count(c)) order.push_back(c);
      frac[c].push_back(row->result.phases.gbps_median / p.best);
    }
  }
  if (npoints == 0) {
    if (!points.empty()) {
      std::size_t elem = 0;
      for (auto t : report.plan.types) elem = std::max(elem, apps::size_of(t));
      int k = 0;
      while (3 * (std::uint64_t(1) << k) * elem <= dev.llc_bytes) ++k;
      report.no_recommendation = fmt::format(
          "every size measured fits in the {} ({}): cache-resident adds say "
          "nothing about memory-bound ones, so no configuration is "
          "recommended; measure beyond it (--max-log2 {} or more{})",
          cache_name(dev), format_bytes(dev.llc_bytes), k,
          report.plan.quick ? ", without --quick" : "");
    }
    return;
  }
  for (const auto& c : order) {
    const auto& f = frac[c];
    if (f.size() != npoints) continue;  // not measured everywhere
    Recommendation rec;
    rec.config = c;
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
}

std::string render_text(const Report& r) {
  const DeviceInfo& d = r.device;
  const bool peak = d.dram_peak_gbps > 0;
  std::string out;
  out += fmt::format(
      "addscope-bench {}: out = x + y; Kokkos {}, execution space {}, on {} "
      "({} {}); L2 {}, last-level cache {}; memory {} ({} available){}\n",
      ADDSCOPE_VERSION_STRING, addscope::version_text(KOKKOS_VERSION), d.exec_space,
      d.name, d.units, d.units_name,
      d.l2_bytes ? format_bytes(d.l2_bytes) : "unknown",
      d.llc_bytes ? format_bytes(d.llc_bytes) : "unknown",
      format_bytes(d.memory.total), format_bytes(d.memory.available),
      d.compute_capability.empty() ? "" : ", sm_" + d.compute_capability);
  if (peak)
    out += fmt::format("limit: DRAM peak {} GB/s ({})\n",
                       format_gbps(d.dram_peak_gbps), d.dram_peak_source);
  else
    out += "limit: DRAM peak " + d.dram_peak_source + "\n";
  std::string types;
  for (const auto t : r.plan.types)
    types += (types.empty() ? "" : ",") + std::string(apps::to_string(t));
  out += fmt::format(
      "sizes {}..{} ({}), types {}, {} configurations; repeat {}, warmup {}; "
      "time = launch until the fence returns, host clock\n",
      size_name(r.plan.sizes.front()), size_name(r.plan.sizes.back()),
      r.plan.sizes.size(), types, r.plan.candidates.size(),
      r.plan.advisor.measure.repeat, r.plan.advisor.measure.warmup);
  for (const auto& n : r.notes) out += "note: " + n + "\n";
  if (!d.is_gpu)
    out +=
        "note: bytes are counted as STREAM counts them (add 3 N sizeof(T), "
        "copy 2 N sizeof(T)); on a CPU without streaming stores each written "
        "line is read first (write-allocate), so the memory moves 4/3 of the "
        "add's bytes and 3/2 of a copy's — one reason an add can beat a copy "
        "here\n";

  out += fmt::format(
      "\n== add: GB/s = 3 N sizeof(T) / median time{}; vs ref = % of the "
      "fastest copy reference for the same size and type (a reference, not "
      "a limit); device = CUDA events where the backend has them; check = "
      "every element compared with x + y on the device (exact) ==\n",
      peak ? "; % peak = % of the DRAM peak (the limit)" : "");
  {
    Table t({"n", "type", "config", "ran as", "median", "min", "max", "GB/s",
             "% peak", "vs ref", "launch", "device", "check"});
    for (const auto& row : r.rows) {
      const auto& c = row.result;
      if (!c.measured) continue;
      const auto& p = c.phases;
      t.add({size_name(row.n), apps::to_string(row.type),
             c.candidate.to_string(), ran_text(c),
             format_seconds(p.completion.median_s),
             format_seconds(p.completion.min_s),
             format_seconds(p.completion.max_s), format_gbps(p.gbps_median),
             addscope::format_pct(row.pct_of_peak, peak),
             addscope::format_pct(row.pct_of_ref, row.ref_gbps > 0),
             format_seconds(p.launch.median_s),
             p.device.count ? format_seconds(p.device.median_s) : "n/a",
             c.check.checked == 0 ? "not checked"
             : c.check.ok()       ? "ok"
                                  : "WRONG"});
    }
    out += t.text();
  }

  out += fmt::format(
      "\n== references: copies of the same arrays (2 N sizeof(T) bytes), "
      "measured in the same run — references, not limits ==\n");
  {
    Table t(
        {"n", "type", "reference", "median", "min", "max", "GB/s", "% peak"});
    for (const auto& g : r.refs)
      for (const auto& ref : g.refs)
        t.add({size_name(g.n), apps::to_string(g.type), ref.result.what,
               format_seconds(ref.result.time.median_s),
               format_seconds(ref.result.time.min_s),
               format_seconds(ref.result.time.max_s),
               format_gbps(ref.result.gbps_median),
               addscope::format_pct(100 * ref.result.gbps_median /
                                    std::max(d.dram_peak_gbps, 1e-30),
                                peak)});
    out += t.text();
  }

  out +=
      "\n== advice: the best verified configuration per size (each "
      "parses back: give it to --configs) ==\n";
  for (const auto& a : r.advice) out += a.line + "\n";
  if (!r.recommendation.empty()) {
    out += fmt::format(
        "\n== overall: each configuration's GB/s as a fraction of the "
        "per-size best, over the sizes beyond the {} ==\n",
        cache_name(d));
    Table t({"config", "points", "geomean of best", "worst"});
    for (const auto& rec : r.recommendation)
      t.add({rec.config, std::to_string(rec.points),
             pct1(100 * rec.mean_of_best) + "%",
             pct1(100 * rec.worst_of_best) + "%"});
    out += t.text();
    out += fmt::format("recommendation: {} ({:.1f}% of the best on average)\n",
                       r.recommendation.front().config,
                       100 * r.recommendation.front().mean_of_best);
  } else if (!r.no_recommendation.empty()) {
    out += "no recommendation: " + r.no_recommendation + "\n";
  }

  if (!r.transfers.empty()) {
    out +=
        "\n== transfers: whole float arrays, earlier work fenced, median ==\n";
    if (!d.is_gpu)
      out +=
          "(host backend: the 'device' View is host memory; these are host "
          "memory copies)\n";
    if (!d.has_pinned)
      out += "pinned host memory: not available on " + d.exec_space +
             "; pageable only\n";
    Table t(
        {"api", "dir", "memory", "n", "bytes", "median", "min", "max", "GB/s"});
    for (const auto& tr : r.transfers)
      t.add({tr.api, to_string(tr.r.direction), to_string(tr.r.memory),
             size_name(tr.r.n), std::to_string(tr.r.bytes),
             format_seconds(tr.r.time.median_s),
             format_seconds(tr.r.time.min_s), format_seconds(tr.r.time.max_s),
             format_gbps(tr.r.gbps_median)});
    out += t.text();
  }
  if (!r.element_reads.empty()) {
    out += "\n== single-element read (device to host, one float) ==\n";
    Table t({"api", "what", "memory", "median", "min", "max", "std", "count"});
    for (const auto& tr : r.element_reads)
      t.add({tr.api, tr.r.what, to_string(tr.r.memory),
             format_seconds(tr.r.time.median_s),
             format_seconds(tr.r.time.min_s), format_seconds(tr.r.time.max_s),
             format_seconds(tr.r.time.stddev_s),
             std::to_string(tr.r.time.count)});
    out += t.text();
  }
  if (!r.latency.empty()) {
    out += "\n== launch latency of an empty kernel ==\n";
    out +=
        "unfenced: K launches, one fence, / K (throughput); fenced: launch "
        "+ fence each (latency)\n";
    Table t({"kernel", "K", "launch call", "unfenced", "fenced median",
             "fenced min", "fenced max"});
    for (const auto& l : r.latency)
      t.add({to_string(l.kernel), std::to_string(l.launches),
             format_seconds(l.call_s), format_seconds(l.unfenced_s),
             format_seconds(l.fenced.median_s), format_seconds(l.fenced.min_s),
             format_seconds(l.fenced.max_s)});
    out += t.text();
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
  // The schema (docs/json.md), as the waits tool's "addscope-waits/3":
  // bumped when a field is renamed, removed or changes meaning. 3: the
  // schema became a string (it was the integer 2).
  doc["tool"] = "addscope-bench";
  doc["schema"] = "addscope-bench/3";
  doc["version"] = ADDSCOPE_VERSION_STRING;
  doc["kokkos_version"] = addscope::version_text(KOKKOS_VERSION);
  doc["kokkos_version_number"] = KOKKOS_VERSION;
  doc["device"] = apps::to_json(d);
  json types = json::array(), configs = json::array();
  for (const auto t : r.plan.types) types.push_back(apps::to_string(t));
  for (const auto& c : r.plan.candidates) configs.push_back(c.to_string());
  doc["options"] = {{"sizes", r.plan.sizes},
                    {"types", types},
                    {"configs", configs},
                    {"repeat", r.plan.advisor.measure.repeat},
                    {"warmup", r.plan.advisor.measure.warmup},
                    {"quick", r.plan.quick},
                    {"seed", r.plan.seed}};
  doc["notes"] = r.notes;
  doc["warnings"] = r.warnings;
  json rows = json::array();
  for (const auto& row : r.rows) {
    const auto& c = row.result;
    const int k = addscope::exact_log2(row.n);
    json j = {{"type", apps::to_string(row.type)},
              {"n", row.n},
              {"log2_n", k >= 0 ? json(k) : json(nullptr)},
              {"config", c.candidate.to_string()},
              {"measured", c.measured},
              {"skipped", c.skipped.empty() ? json(nullptr) : json(c.skipped)}};
    if (c.measured) {
      j["ran_as"] = c.resolved.to_string();
      j["label"] = c.label;
      j["bytes"] = c.phases.bytes;
      j["median_s"] = c.phases.completion.median_s;
      j["gbps"] = c.phases.gbps_median;
      j["gbps_best"] = c.phases.gbps_best;
      j["pct_of_dram_peak"] =
          d.dram_peak_gbps > 0 ? json(row.pct_of_peak) : json(nullptr);
      j["reference_gbps"] = row.ref_gbps;
      j["pct_of_reference"] = row.pct_of_ref;
      if (!d.is_gpu)
        j["bytes_with_write_allocate"] =
            write_allocate_bytes(row.n, apps::size_of(row.type), 2, 1);
      j["fits_cache"] = row.fits_cache;
      j["verified"] = c.check.checked > 0 && c.check.ok();
      j["check"] = apps::to_json(c.check);
      j["repeat_reduced"] = c.reduced_repeat;
      j["phases"] = apps::to_json(c.phases);
    }
    rows.push_back(j);
  }
  doc["rows"] = rows;
  json refs = json::array();
  for (const auto& g : r.refs) {
    json list = json::array();
    for (const auto& ref : g.refs) list.push_back(apps::to_json(ref));
    refs.push_back({{"type", apps::to_string(g.type)},
                    {"n", g.n},
                    {"fastest", g.best_name},
                    {"fastest_gbps", g.best_gbps},
                    {"references", list}});
  }
  doc["references"] = refs;
  json adv = json::array();
  for (const auto& a : r.advice)
    adv.push_back({{"type", apps::to_string(a.type)},
                   {"n", a.n},
                   {"config", a.config.to_string()},
                   {"ran_as", a.ran.to_string()},
                   {"gbps", a.gbps},
                   {"pct_of_dram_peak",
                    d.dram_peak_gbps > 0 ? json(a.pct_of_peak) : json(nullptr)},
                   {"pct_of_reference", a.pct_of_ref},
                   {"reference", a.ref_name},
                   {"range_gbps", a.range_gbps},
                   {"fits_cache", a.fits_cache},
                   {"line", a.line}});
  doc["advice"] = adv;
  json rec = json::array();
  for (const auto& x : r.recommendation)
    rec.push_back({{"config", x.config},
                   {"points", x.points},
                   {"geomean_fraction_of_best", x.mean_of_best},
                   {"worst_fraction_of_best", x.worst_of_best}});
  doc["recommendation"] = rec;
  doc["no_recommendation"] =
      r.no_recommendation.empty() ? json(nullptr) : json(r.no_recommendation);
  auto transfer_rows = [](const std::vector<TransferRow>& v) {
    json a = json::array();
    for (const auto& t : v) {
      json j = apps::to_json(t.r);
      j["api"] = t.api;
      a.push_back(j);
    }
    return a;
  };
  doc["transfers"] = {{"pinned_available", d.has_pinned},
                      {"rows", transfer_rows(r.transfers)}};
  doc["element_reads"] = transfer_rows(r.element_reads);
  json lat = json::array();
  for (const auto& l : r.latency) lat.push_back(apps::to_json(l));
  doc["launch_latency"] = lat;
  std::size_t measured = 0;
  for (const auto& row : r.rows) measured += row.result.measured ? 1 : 0;
  doc["verification"] = {
      {"rows", measured},
      {"failures", r.verify_failures},
      {"how",
       "every element of out compared with x + y on the device, "
       "exact equality (NaN matches NaN)"}};
  doc["elapsed_s"] = r.elapsed_s;
  return doc;
}

std::string add_rows_csv(const Report& r) {
  Table t({"type",
           "n",
           "log2_n",
           "config",
           "ran_as",
           "bytes",
           "median_s",
           "min_s",
           "max_s",
           "q1_s",
           "q3_s",
           "stddev_s",
           "device_median_s",
           "gbps",
           "gbps_best",
           "launch_median_s",
           "pct_of_dram_peak",
           "reference_gbps",
           "pct_of_reference",
           "fits_cache",
           "checked_elements",
           "verified"});
  for (const auto& row : r.rows) {
    const auto& c = row.result;
    if (!c.measured) continue;
    const auto& p = c.phases;
    const int k = addscope::exact_log2(row.n);
    auto g = [](double v) { return fmt::format("{:.9g}", v); };
    t.add({apps::to_string(row.type),
           std::to_string(row.n),
           k >= 0 ? std::to_string(k) : "",
           c.candidate.to_string(),
           c.resolved.to_string(),
           std::to_string(p.bytes),
           g(p.completion.median_s),
           g(p.completion.min_s),
           g(p.completion.max_s),
           g(p.completion.q1_s),
           g(p.completion.q3_s),
           g(p.completion.stddev_s),
           p.device.count ? g(p.device.median_s) : "",
           fmt::format("{:.6g}", p.gbps_median),
           fmt::format("{:.6g}", p.gbps_best),
           g(p.launch.median_s),
           r.device.dram_peak_gbps > 0 ? fmt::format("{:.4g}", row.pct_of_peak)
                                       : "",
           fmt::format("{:.6g}", row.ref_gbps),
           fmt::format("{:.4g}", row.pct_of_ref),
           row.fits_cache ? "1" : "0",
           std::to_string(c.check.checked),
           c.check.checked > 0 && c.check.ok() ? "1" : "0"});
  }
  return t.csv();
}

std::vector<std::string> write_plots(const Report& r, const std::string& dir,
                                     const std::string& gnuplot) {
  using apps::Series;
  apps::PlotScript plots(dir, "addscope-bench");
  const std::string dev = r.device.exec_space + " (" + r.device.name +
                          "), Kokkos " + addscope::version_text(KOKKOS_VERSION);

  for (const auto type : r.plan.types) {
    const std::string tname = apps::to_string(type);
    // GB/s vs size: each non-grid configuration, the team grid's best, the
    // fastest copy reference and the DRAM peak.
    std::vector<Series> s;
    std::map<std::string, std::size_t> at;
    Series grid{"team grid (best point)", {}, false};
    std::map<std::int64_t, double> grid_best;
    for (const auto& row : r.rows) {
      if (row.type != type || !row.result.correct()) continue;
      const double g = row.result.phases.gbps_median;
      if (row.grid) {
        double& b = grid_best[row.n];
        b = std::max(b, g);
        continue;
      }
      const std::string c = row.result.candidate.to_string();
      if (!at.count(c)) {
        at[c] = s.size();
        s.push_back({c, {}, false});
      }
      s[at[c]].xy.push_back({double(row.n), g});
    }
    for (const auto& kv : grid_best)
      grid.xy.push_back({double(kv.first), kv.second});
    if (!grid.xy.empty()) s.push_back(grid);
    if (s.empty()) continue;
    Series ref{"fastest copy reference", {}, true};
    Series peak{"DRAM peak (limit)", {}, true};
    for (const auto& g : r.refs)
      if (g.type == type) {
        ref.xy.push_back({double(g.n), g.best_gbps});
        if (r.device.dram_peak_gbps > 0)
          peak.xy.push_back({double(g.n), r.device.dram_peak_gbps});
      }
    s.push_back(ref);
    if (!peak.xy.empty()) s.push_back(peak);
    plots.add("add_gbps_vs_size_" + tname,
              "add " + tname + ": GB/s vs size, " + dev, "n (elements)",
              "GB/s (3 N sizeof(T) / median time)", s);

    // GB/s vs team size at the largest size with team rows, one line per
    // league choice. With a single team size (a host whose team_size_max is
    // tiny) GB/s vs league size instead.
    std::int64_t nfix = 0;
    auto team_row = [&](const AddRow& row) {
      return row.type == type && row.result.correct() && row.grid;
    };
    for (const auto& row : r.rows)
      if (team_row(row)) nfix = std::max(nfix, row.n);
    if (nfix == 0) continue;
    std::set<int> teams;
    for (const auto& row : r.rows)
      if (team_row(row) && row.n == nfix)
        teams.insert(row.result.resolved.team);
    const bool by_league = teams.size() == 1;
    std::vector<Series> t;
    std::map<std::string, std::size_t> tat;
    for (const auto& row : r.rows) {
      if (!team_row(row) || row.n != nfix) continue;
      const auto& ran = row.result.resolved;
      const std::string key =
          by_league ? fmt::format("T = {}", ran.team)
          : row.result.candidate.kind == LaunchKind::TeamPerElement
              ? std::string("L = ceil(N/T)")
          : row.league_mult ? fmt::format("L = {} x {} = {}", row.league_mult,
                                          r.device.units_name, ran.league)
                            : fmt::format("L = {}", ran.league);
      if (!tat.count(key)) {
        tat[key] = t.size();
        t.push_back({key, {}, false});
      }
      t[tat[key]].xy.push_back({double(by_league ? ran.league : ran.team),
                                row.result.phases.gbps_median});
    }
    for (auto& series : t) std::sort(series.xy.begin(), series.xy.end());
    plots.add("add_gbps_vs_team_" + tname,
              "add " + tname + " at n = " + size_name(nfix) +
                  (by_league ? ": GB/s vs league size (one team size only: "
                               "team_size_max = " +
                                   std::to_string(*teams.begin()) + "), "
                             : ": GB/s vs team size, ") +
                  dev,
              by_league ? "league size L" : "team size T", "GB/s", t, false);
  }

  if (!r.transfers.empty()) {
    std::vector<Series> s;
    std::map<std::string, std::size_t> at;
    for (const auto& tr : r.transfers) {
      const std::string key = tr.api + " " + to_string(tr.r.direction) + " " +
                              to_string(tr.r.memory);
      if (!at.count(key)) {
        at[key] = s.size();
        s.push_back({key, {}, tr.api != "Kokkos::deep_copy"});
      }
      s[at[key]].xy.push_back({double(tr.r.bytes), tr.r.gbps_median});
    }
    plots.add("transfers_gbps_vs_size", "transfers: GB/s vs bytes, " + dev,
              "bytes", "GB/s (bytes / median time)", s);
  }
  return plots.render(gnuplot);
}

}  // namespace bench
}  // namespace addscope
