// addscope-bench — the report as one JSON document (docs/json.md) and the
// add rows as CSV. The library's types are written in their one form
// (addscope/addscope_Json.hpp); the bench adds where each row stands.
#include <fmt/format.h>

#include "addscope/addscope_Json.hpp"
#include "addscope/addscope_Version.hpp"
#include "addscope/core/addscope_Format.hpp"
#include "bench_report.hpp"
#include "common/addscope_apps_Cli.hpp"
#include "common/addscope_apps_Table.hpp"

namespace addscope {
namespace bench {

using nlohmann::json;

namespace {

/// -1 (unknown) as null.
json pct_or_null(double p) { return p >= 0 ? json(p) : json(nullptr); }

json row_json(const Report& r, const SweepPoint& p, const PointAdvice& a,
              const CandidateResult& c) {
  json j = to_json(c);
  const int k = exact_log2(p.n);
  j["type"] = p.type;
  j["n"] = p.n;
  j["log2_n"] = k >= 0 ? json(k) : json(nullptr);
  if (!c.measured) return j;
  j["pct_of_dram_peak"] = pct_or_null(pct_of_peak(r.device, c));
  j["reference_gbps"] = a.reference.gbps;
  j["reference_reliable"] = a.reference.reliable;
  j["pct_of_reference"] = pct_or_null(pct_of_reference(a, c));
  if (!r.device.is_gpu)
    j["bytes_with_write_allocate"] =
        write_allocate_bytes(p.n, p.elem_size, 2, 1);
  j["fits_cache"] = a.fits_cache;
  return j;
}

json references_json(const Report& r) {
  json refs = json::array();
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    const SweepPoint& p = r.points[i];
    const ReferenceStanding& s = r.advice.points.at(i).reference;
    json list = json::array();
    for (const auto& ref : p.references) list.push_back(to_json(ref));
    refs.push_back({{"type", p.type},
                    {"n", p.n},
                    {"fastest", s.name},
                    {"fastest_gbps", s.gbps},
                    {"reliable", s.reliable},
                    {"doubt", s.doubt.empty() ? json(nullptr) : json(s.doubt)},
                    {"references", list}});
  }
  return refs;
}

json transfer_rows(const std::vector<HostTransfer>& v) {
  json a = json::array();
  for (const auto& t : v) a.push_back(to_json(t));
  return a;
}

}  // namespace

json report_json(const Report& r) {
  json doc;
  // The schema (docs/json.md): bumped when a field is renamed, removed or
  // changes meaning. 4: pct_of_reference is null where the reference was
  // not measured cleanly (3: the schema became a string).
  doc["tool"] = "addscope-bench";
  doc["schema"] = "addscope-bench/4";
  doc["version"] = ADDSCOPE_VERSION_STRING;
  doc["kokkos_version"] = r.kokkos_version;
  doc["kokkos_version_number"] = KOKKOS_VERSION;
  doc["device"] = to_json(r.device);
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
  std::size_t measured = 0;
  for_each_sweep_row(
      r.points, r.advice,
      [&](const SweepPoint& p, const PointAdvice& a, const CandidateResult& c) {
        rows.push_back(row_json(r, p, a, c));
        measured += c.measured ? 1 : 0;
      });
  doc["rows"] = rows;
  doc["references"] = references_json(r);
  json adv = json::array(), rec = json::array();
  for (const auto& a : r.advice.points)
    if (a.has_advice()) adv.push_back(to_json(a));
  for (const auto& s : r.advice.ranking) rec.push_back(to_json(s));
  doc["advice"] = adv;
  doc["recommendation"] = rec;
  doc["no_recommendation"] =
      r.no_recommendation.empty() ? json(nullptr) : json(r.no_recommendation);
  doc["transfers"] = {{"pinned_available", r.device.has_pinned},
                      {"rows", transfer_rows(r.transfers)}};
  doc["element_reads"] = transfer_rows(r.element_reads);
  json lat = json::array();
  for (const auto& l : r.latency) lat.push_back(to_json(l));
  doc["launch_latency"] = lat;
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
  // One row per measured add; the columns mean what the JSON fields of the
  // same names mean (docs/json.md).
  apps::Table t(apps::split_list(
      "type n log2_n config ran_as bytes median_s min_s max_s q1_s q3_s "
      "stddev_s device_median_s gbps gbps_best launch_median_s "
      "pct_of_dram_peak reference_gbps pct_of_reference fits_cache "
      "checked_elements verified"));
  auto g = [](double v) { return fmt::format("{:.9g}", v); };
  for_each_sweep_row(r.points, r.advice,
                     [&](const SweepPoint& pt, const PointAdvice& a,
                         const CandidateResult& c) {
                       if (!c.measured) return;
                       const auto& p = c.phases;
                       const auto& s = p.completion;
                       const int k = exact_log2(pt.n);
                       const double peak = pct_of_peak(r.device, c),
                                    ref = pct_of_reference(a, c);
                       t.add({pt.type,
                              std::to_string(pt.n),
                              k >= 0 ? std::to_string(k) : "",
                              c.candidate.to_string(),
                              c.resolved.to_string(),
                              std::to_string(p.bytes),
                              g(s.median_s),
                              g(s.min_s),
                              g(s.max_s),
                              g(s.q1_s),
                              g(s.q3_s),
                              g(s.stddev_s),
                              p.device.count ? g(p.device.median_s) : "",
                              fmt::format("{:.6g}", p.gbps_median),
                              fmt::format("{:.6g}", p.gbps_best),
                              g(p.launch.median_s),
                              peak >= 0 ? fmt::format("{:.4g}", peak) : "",
                              fmt::format("{:.6g}", a.reference.gbps),
                              ref >= 0 ? fmt::format("{:.4g}", ref) : "",
                              a.fits_cache ? "1" : "0",
                              std::to_string(c.check.checked),
                              c.check.checked > 0 && c.check.ok() ? "1" : "0"});
                     });
  return t.csv();
}

}  // namespace bench
}  // namespace addscope
