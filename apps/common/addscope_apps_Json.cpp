#include "common/addscope_apps_Json.hpp"

#include "addscope/waits/output/addscope_Format.hpp"

namespace addscope {
namespace apps {

json to_json(const Stats& s) {
  if (s.count == 0) return nullptr;
  return {{"count", s.count},       {"min_s", s.min_s},      {"q1_s", s.q1_s},
          {"median_s", s.median_s}, {"q3_s", s.q3_s},        {"max_s", s.max_s},
          {"mean_s", s.mean_s},     {"stddev_s", s.stddev_s}};
}

json to_json(const PhaseResult& r) {
  return {{"label", r.label},
          {"n", r.n},
          {"bytes", r.bytes},
          {"launch", to_json(r.launch)},
          {"completion", to_json(r.completion)},
          {"device", to_json(r.device)},
          {"gbps_median", r.gbps_median},
          {"gbps_best", r.gbps_best},
          {"device_gbps_median",
           r.device.count ? json(r.device_gbps_median) : json(nullptr)}};
}

json to_json(const TransferResult& r) {
  return {{"what", r.what},
          {"direction", to_string(r.direction)},
          {"memory", to_string(r.memory)},
          {"n", r.n},
          {"bytes", r.bytes},
          {"time", to_json(r.time)},
          {"gbps_median", r.gbps_median}};
}

json to_json(const CopyReference& r) {
  json j = to_json(r.result);
  j["reference"] = r.name;
  j["note"] = r.note.empty() ? json(nullptr) : json(r.note);
  return j;
}

json to_json(const CallRecord& c) {
  json w = json::array();
  for (const auto& s : c.waited_for)
    w.push_back({{"kernel", s.kernel}, {"wait_s", s.wait_s}});
  return {{"what", c.what},
          {"kind", call_kind_name(c.kind)},
          {"class", wait_class_name(c.wait_class)},
          {"duration_s", c.duration_s()},
          {"wait_s", c.wait_s},
          {"own_s", c.own_s()},
          {"waited_for", w},
          {"line", format_attribution(c)}};
}

json to_json(const ReadAfterLaunch& r) {
  json a = json::array();
  for (const auto& c : r.attribution) a.push_back(to_json(c));
  return {
      {"label", r.label},
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
      {"attribution_line",
       r.attribution_line.empty() ? json(nullptr) : json(r.attribution_line)},
      {"verified", r.verified}};
}

json to_json(const Verification& v) {
  return {{"checked_elements", v.checked},
          {"mismatches", v.mismatches},
          {"first_bad", v.first_bad >= 0 ? json(v.first_bad) : json(nullptr)},
          {"detail", v.detail.empty() ? json(nullptr) : json(v.detail)}};
}

json to_json(const DeviceInfo& d) {
  return {{"exec_space", d.exec_space},
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
          {"compute_capability", d.compute_capability.empty()
                                     ? json(nullptr)
                                     : json(d.compute_capability)},
          {"memory_clock_khz",
           d.memory_clock_khz ? json(d.memory_clock_khz) : json(nullptr)},
          {"memory_bus_bits",
           d.memory_bus_bits ? json(d.memory_bus_bits) : json(nullptr)},
          {"dram_peak_gbps",
           d.dram_peak_gbps > 0 ? json(d.dram_peak_gbps) : json(nullptr)},
          {"dram_peak_source", d.dram_peak_source},
          {"cuda_runtime", d.has_cuda_runtime},
          {"pinned_host_memory", d.has_pinned}};
}

json to_json(const LatencyResult& l) {
  return {{"kernel", to_string(l.kernel)},
          {"launches", l.launches},
          {"launch_call_s", l.call_s},
          {"unfenced_per_launch_s", l.unfenced_s},
          {"fenced", to_json(l.fenced)}};
}

}  // namespace apps
}  // namespace addscope
