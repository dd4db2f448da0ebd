// addscope — the library's results as JSON, one form per type: what the
// apps write with --json (docs/json.md) and what a user's program may write
// the same way. Opt-in: the umbrella header addscope.hpp does not include
// it; it needs nlohmann-json 3 (header-only) on the include path.
//
// Conventions (docs/json.md): seconds end in _s, GB/s in gbps, percents in
// pct_; a field with nothing to say is null, never "" or 0 (statistics of
// nothing measured are null as a whole).
#ifndef ADDSCOPE_JSON_HPP
#define ADDSCOPE_JSON_HPP

#include <nlohmann/json.hpp>
#include <string>

#include "addscope/bench/addscope_Advisor.hpp"
#include "addscope/bench/addscope_DeviceInfo.hpp"
#include "addscope/bench/addscope_HostTransfers.hpp"
#include "addscope/bench/addscope_LaunchLatency.hpp"
#include "addscope/bench/addscope_References.hpp"
#include "addscope/timing/addscope_Results.hpp"
#include "addscope/timing/addscope_Verify.hpp"
#include "addscope/waits/output/addscope_WaitsJson.hpp"

namespace addscope {

namespace Impl {
inline nlohmann::json str_or_null(const std::string& s) {
  return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s);
}
/// v where `known`, else null.
template <class T>
nlohmann::json known_or_null(bool known, const T& v) {
  return known ? nlohmann::json(v) : nlohmann::json(nullptr);
}
}  // namespace Impl

/// count, min/q1/median/q3/max, mean, stddev (seconds); null when nothing
/// was measured (count 0).
inline nlohmann::json to_json(const Stats& s) {
  if (s.count == 0) return nullptr;
  return {{"count", s.count},       {"min_s", s.min_s},      {"q1_s", s.q1_s},
          {"median_s", s.median_s}, {"q3_s", s.q3_s},        {"max_s", s.max_s},
          {"mean_s", s.mean_s},     {"stddev_s", s.stddev_s}};
}

inline nlohmann::json to_json(const PhaseResult& r) {
  return {{"label", r.label},
          {"n", r.n},
          {"bytes", r.bytes},
          {"launch", to_json(r.launch)},
          {"completion", to_json(r.completion)},
          {"device", to_json(r.device)},
          {"gbps_median", r.gbps_median},
          {"gbps_best", r.gbps_best},
          {"device_gbps_median",
           Impl::known_or_null(r.device.count > 0, r.device_gbps_median)},
          {"repeat_reduced", r.reduced_repeat}};
}

inline nlohmann::json to_json(const TransferResult& r) {
  return {{"what", r.what},
          {"direction", to_string(r.direction)},
          {"memory", to_string(r.memory)},
          {"n", r.n},
          {"bytes", r.bytes},
          {"time", to_json(r.time)},
          {"gbps_median", r.gbps_median},
          {"repeat_reduced", r.reduced_repeat}};
}

/// A transfer, plus reference, note, attempts and clean.
inline nlohmann::json to_json(const CopyReference& r) {
  nlohmann::json j = to_json(r.result);
  j["reference"] = r.name;
  j["note"] = Impl::str_or_null(r.note);
  j["attempts"] = r.attempts;
  j["clean"] = r.clean;
  return j;
}

/// A transfer, plus the api that made it.
inline nlohmann::json to_json(const HostTransfer& t) {
  nlohmann::json j = to_json(t.result);
  j["api"] = t.api;
  return j;
}

inline nlohmann::json to_json(const Verification& v) {
  return {{"checked_elements", v.checked},
          {"mismatches", v.mismatches},
          {"first_bad", Impl::known_or_null(v.first_bad >= 0, v.first_bad)},
          {"detail", Impl::str_or_null(v.detail)}};
}

/// The seed experiment; its attribution[] in the waits tool's form of a
/// call (call_record_json).
inline nlohmann::json to_json(const ReadAfterLaunch& r) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& c : r.attribution) a.push_back(call_record_json(c));
  return {{"label", r.label},
          {"n", r.n},
          {"index", r.index},
          {"async_backend", r.async_backend},
          {"naive",
           {{"launch_s", r.naive_launch_s},
            {"create_mirror_s", r.naive_mirror_s},
            {"deep_copy_s", r.naive_copy_s},
            {"read_s", r.naive_read_s()}}},
          {"fenced",
           {{"launch_s", r.fenced_launch_s},
            {"completion_s", r.completion_s},
            {"create_mirror", to_json(r.fenced_mirror)},
            {"deep_copy", to_json(r.fenced_copy)},
            {"read", to_json(r.fenced_read)},
            {"read_s", r.fenced_read_s()}}},
          {"wait_s", r.wait_s()},
          {"wait_threshold_s", r.wait_threshold_s()},
          {"waited", r.waited()},
          {"attribution", a},
          {"attribution_line", Impl::str_or_null(r.attribution_line)},
          {"verified", r.verified}};
}

inline nlohmann::json to_json(const DeviceInfo& d) {
  using Impl::known_or_null;
  return {
      {"exec_space", d.exec_space},
      {"is_gpu", d.is_gpu},
      {"name", d.name},
      {"units", d.units},
      {"units_name", d.units_name},
      {"concurrency", d.concurrency},
      {"memory_total_bytes", d.memory.total},
      {"memory_available_bytes", d.memory.available},
      {"memory_source", d.memory.source},
      {"l2_bytes", d.l2_bytes},
      {"llc_bytes", d.llc_bytes},
      {"compute_capability", Impl::str_or_null(d.compute_capability)},
      {"memory_clock_khz",
       known_or_null(d.memory_clock_khz != 0, d.memory_clock_khz)},
      {"memory_bus_bits",
       known_or_null(d.memory_bus_bits != 0, d.memory_bus_bits)},
      {"dram_peak_gbps", known_or_null(d.dram_peak_gbps > 0, d.dram_peak_gbps)},
      {"dram_peak_source", d.dram_peak_source},
      {"cuda_runtime", d.has_cuda_runtime},
      {"pinned_host_memory", d.has_pinned}};
}

inline nlohmann::json to_json(const LatencyResult& l) {
  return {{"kernel", to_string(l.kernel)},
          {"launches", l.launches},
          {"launch_call_s", l.call_s},
          {"unfenced_per_launch_s", l.unfenced_s},
          {"fenced", to_json(l.fenced)}};
}

/// One candidate of the advisor: config, measured, skipped; where it was
/// measured also ran_as, label, bytes, median_s, gbps, gbps_best, verified,
/// check, repeat_reduced and phases (absent where it was not).
inline nlohmann::json to_json(const CandidateResult& c) {
  nlohmann::json j = {{"config", c.candidate.to_string()},
                      {"measured", c.measured},
                      {"skipped", Impl::str_or_null(c.skipped)}};
  if (!c.measured) return j;
  j["ran_as"] = c.resolved.to_string();
  j["label"] = c.label;
  j["bytes"] = c.phases.bytes;
  j["median_s"] = c.phases.completion.median_s;
  j["gbps"] = c.phases.gbps_median;
  j["gbps_best"] = c.phases.gbps_best;
  j["verified"] = c.check.checked > 0 && c.check.ok();
  j["check"] = to_json(c.check);
  j["repeat_reduced"] = c.phases.reduced_repeat;
  j["phases"] = to_json(c.phases);
  return j;
}

/// The advice at one point (advise_across_sizes).
inline nlohmann::json to_json(const PointAdvice& a) {
  using Impl::known_or_null;
  const ReferenceStanding& r = a.reference;
  return {
      {"type", a.type},
      {"n", a.n},
      {"config", a.config.to_string()},
      {"ran_as", a.ran.to_string()},
      {"gbps", a.gbps},
      {"pct_of_dram_peak", known_or_null(a.pct_of_peak >= 0, a.pct_of_peak)},
      {"pct_of_reference",
       known_or_null(a.pct_of_reference >= 0, a.pct_of_reference)},
      {"reference", Impl::str_or_null(r.name)},
      {"reference_reliable", r.reliable},
      {"reference_doubt", Impl::str_or_null(r.doubt)},
      {"range_gbps", a.range_gbps},
      {"fits_cache", a.fits_cache},
      {"noisy", a.noisy},
      {"spread", a.spread},
      {"line", a.line}};
}

inline nlohmann::json to_json(const ConfigStanding& s) {
  return {{"config", s.config},
          {"points", s.points},
          {"geomean_fraction_of_best", s.mean_of_best},
          {"worst_fraction_of_best", s.worst_of_best}};
}

}  // namespace addscope

#endif
