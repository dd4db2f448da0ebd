#include "bench_report.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "addscope/addscope_Version.hpp"
#include "addscope/core/addscope_Format.hpp"
#include "common/addscope_apps_Configs.hpp"
#include "common/addscope_apps_Table.hpp"

namespace addscope {
namespace bench {

using apps::Table;

namespace {

std::string pct1(double p) { return fmt::format("{:.1f}", p); }

const char* cache_name(const DeviceInfo& d) {
  return d.is_gpu ? "L2" : "last-level cache";
}

std::string ran_text(const CandidateResult& r) {
  return apps::ran_as_text(r.candidate.to_string(), r.resolved.to_string());
}

/// median, min, max of a set of runs.
std::vector<std::string> times(const Stats& s) {
  return {format_seconds(s.median_s), format_seconds(s.min_s),
          format_seconds(s.max_s)};
}

/// `cells` followed by `more`.
std::vector<std::string> operator+(std::vector<std::string> cells,
                                   const std::vector<std::string>& more) {
  cells.insert(cells.end(), more.begin(), more.end());
  return cells;
}

std::string header(const Report& r) {
  const DeviceInfo& d = r.device;
  std::string out = fmt::format(
      "addscope-bench {}: out = x + y; Kokkos {}, execution space {}, on {} "
      "({} {}); L2 {}, last-level cache {}; memory {} ({} available){}\n",
      ADDSCOPE_VERSION_STRING, r.kokkos_version, d.exec_space, d.name, d.units,
      d.units_name, d.l2_bytes ? format_bytes(d.l2_bytes) : "unknown",
      d.llc_bytes ? format_bytes(d.llc_bytes) : "unknown",
      format_bytes(d.memory.total), format_bytes(d.memory.available),
      d.compute_capability.empty() ? "" : ", sm_" + d.compute_capability);
  if (d.dram_peak_gbps > 0)
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
  return out;
}

std::string add_table(const Report& r) {
  const bool peak = r.device.dram_peak_gbps > 0;
  std::string out = fmt::format(
      "\n== add: GB/s = 3 N sizeof(T) / median time{}; vs ref = % of the "
      "fastest copy reference for the same size and type (a reference, not "
      "a limit); device = CUDA events where the backend has them; check = "
      "every element compared with x + y on the device (exact) ==\n",
      peak ? "; % peak = % of the DRAM peak (the limit)" : "");
  Table t({"n", "type", "config", "ran as", "median", "min", "max", "GB/s",
           "% peak", "vs ref", "launch", "device", "check"});
  bool unreliable = false;
  for_each_sweep_row(
      r.points, r.advice,
      [&](const SweepPoint& pt, const PointAdvice& a,
          const CandidateResult& c) {
        if (!c.measured) return;
        const auto& p = c.phases;
        const double ref = pct_of_reference(a, c);
        unreliable = unreliable || (ref < 0 && !a.reference.name.empty());
        t.add(std::vector<std::string>{size_name(pt.n), pt.type,
                                       c.candidate.to_string(), ran_text(c)} +
              times(p.completion) +
              std::vector<std::string>{
                  format_gbps(p.gbps_median),
                  format_pct(pct_of_peak(r.device, c), peak),
                  ref >= 0                   ? format_pct(ref)
                  : a.reference.name.empty() ? "n/a"
                                             : "unreliable",
                  format_seconds(p.launch.median_s),
                  p.device.count ? format_seconds(p.device.median_s) : "n/a",
                  c.check.checked == 0 ? "not checked"
                  : c.check.ok()       ? "ok"
                                       : "WRONG"});
      });
  out += t.text();
  if (unreliable)
    out +=
        "vs ref 'unreliable': that size's fastest copy reference was not "
        "measured cleanly (see the advice); nothing is divided by it\n";
  return out;
}

std::string reference_table(const Report& r) {
  const DeviceInfo& d = r.device;
  std::string out =
      "\n== references: copies of the same arrays (2 N sizeof(T) bytes), "
      "measured in the same run — references, not limits ==\n";
  Table t({"n", "type", "reference", "median", "min", "max", "GB/s", "% peak"});
  const NoiseBound noise;
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    const SweepPoint& p = r.points[i];
    const ReferenceStanding& st = r.advice.points.at(i).reference;
    for (const auto& ref : p.references) {
      std::string what = ref.result.what;
      if (!ref.clean || noise.exceeded_by(ref.result.time))
        what += fmt::format(
            " [noisy: max {:.1f}x min{}]", spread_ratio(ref.result.time),
            ref.attempts > 1 ? fmt::format(" after {} attempts", ref.attempts)
                             : std::string());
      if (!st.reliable && ref.name == st.name) what += " [unreliable]";
      t.add(std::vector<std::string>{size_name(p.n), p.type, what} +
            times(ref.result.time) +
            std::vector<std::string>{
                format_gbps(ref.result.gbps_median),
                format_pct(100 * ref.result.gbps_median /
                               std::max(d.dram_peak_gbps, 1e-30),
                           d.dram_peak_gbps > 0)});
    }
  }
  return out + t.text();
}

std::string advice_text(const Report& r) {
  std::string out =
      "\n== advice: the best verified configuration per size (each "
      "parses back: give it to --configs) ==\n";
  for (const auto& a : r.advice.points)
    if (a.has_advice()) out += a.line + "\n";
  if (!r.advice.ranking.empty()) {
    out += fmt::format(
        "\n== overall: each configuration's GB/s as a fraction of the "
        "per-size best, over the sizes beyond the {} ==\n",
        cache_name(r.device));
    Table t({"config", "points", "geomean of best", "worst"});
    for (const auto& s : r.advice.ranking)
      t.add({s.config, std::to_string(s.points),
             pct1(100 * s.mean_of_best) + "%",
             pct1(100 * s.worst_of_best) + "%"});
    out += t.text();
    out += fmt::format("recommendation: {} ({:.1f}% of the best on average)\n",
                       r.advice.ranking.front().config,
                       100 * r.advice.ranking.front().mean_of_best);
  } else if (!r.no_recommendation.empty()) {
    out += "no recommendation: " + r.no_recommendation + "\n";
  }
  return out;
}

std::string transfer_tables(const Report& r) {
  const DeviceInfo& d = r.device;
  std::string out;
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
      t.add(std::vector<std::string>{tr.api, to_string(tr.result.direction),
                                     to_string(tr.result.memory),
                                     size_name(tr.result.n),
                                     std::to_string(tr.result.bytes)} +
            times(tr.result.time) +
            std::vector<std::string>{format_gbps(tr.result.gbps_median)});
    out += t.text();
  }
  if (!r.element_reads.empty()) {
    out += "\n== single-element read (device to host, one float) ==\n";
    Table t({"api", "what", "memory", "median", "min", "max", "std", "count"});
    for (const auto& tr : r.element_reads)
      t.add(std::vector<std::string>{tr.api, tr.result.what,
                                     to_string(tr.result.memory)} +
            times(tr.result.time) +
            std::vector<std::string>{format_seconds(tr.result.time.stddev_s),
                                     std::to_string(tr.result.time.count)});
    out += t.text();
  }
  return out;
}

std::string latency_table(const Report& r) {
  if (r.latency.empty()) return "";
  std::string out = "\n== launch latency of an empty kernel ==\n";
  out +=
      "unfenced: K launches, one fence, / K (throughput); fenced: launch "
      "+ fence each (latency)\n";
  Table t({"kernel", "K", "launch call", "unfenced", "fenced median",
           "fenced min", "fenced max"});
  for (const auto& l : r.latency)
    t.add(std::vector<std::string>{
              to_string(l.kernel), std::to_string(l.launches),
              format_seconds(l.call_s), format_seconds(l.unfenced_s)} +
          times(l.fenced));
  return out + t.text();
}

}  // namespace

void compute_advice(Report& r) {
  r.advice = advise_across_sizes(r.points, r.device);
  const SweepAdvice& a = r.advice;
  if (a.reduced)
    r.notes.push_back(fmt::format(
        "{} slow point(s) would have taken over {:.0f} s each and ran with "
        "fewer repeats (at least 3): see repeat_reduced and "
        "phases.completion.count in the JSON",
        a.reduced, r.plan.advisor.measure.budget_s));
  if (a.skipped)
    r.notes.push_back(fmt::format(
        "{} (configuration, size) point(s) could not run and are left out of "
        "the tables (too many teams for the size, or Views a configuration "
        "cannot take): see rows[].skipped in the JSON",
        a.skipped));
  if (a.looks_busy)
    r.warnings.push_back(fmt::format(
        "{} of {} timed points varied more than 2x between runs (max > 2 "
        "min): the machine looks busy; medians and advice are doubtful. "
        "Rerun on an idle machine, or raise --repeat.",
        a.noisy, a.timed));
  if (a.unreliable_references)
    r.warnings.push_back(fmt::format(
        "at {} of {} (type, size) points the fastest copy reference was not "
        "measured cleanly (each copy re-measured up to {} times while its "
        "runs varied more than 2x): no % of it is given there",
        a.unreliable_references, r.points.size(), r.plan.references.attempts));
  r.no_recommendation = a.no_recommendation;
  if (a.beyond_cache_log2 >= 0)
    r.no_recommendation += fmt::format(
        "; measure beyond it (--max-log2 {} or more{})", a.beyond_cache_log2,
        r.plan.quick ? ", without --quick" : "");
}

std::string render_text(const Report& r) {
  std::string out = header(r) + add_table(r) + reference_table(r) +
                    advice_text(r) + transfer_tables(r) + latency_table(r);
  if (!r.warnings.empty()) out += "\n";
  for (const auto& w : r.warnings) out += "warning: " + w + "\n";
  if (r.verify_failures)
    out += fmt::format("\nFAILED: {} add result(s) were wrong\n",
                       r.verify_failures);
  return out;
}

}  // namespace bench
}  // namespace addscope
