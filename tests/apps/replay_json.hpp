// Reads the apps' recorded --json documents back into the library's result
// types (the inverse of their JSON form, docs/json.md), so that a recorded
// run can be replayed through the apps' report code.
#ifndef ADDSCOPE_TESTS_APPS_REPLAY_JSON_HPP
#define ADDSCOPE_TESTS_APPS_REPLAY_JSON_HPP

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>

#include "addscope/bench/addscope_Advisor.hpp"
#include "addscope/bench/addscope_DeviceInfo.hpp"
#include "addscope/bench/addscope_LaunchLatency.hpp"
#include "addscope/bench/addscope_References.hpp"
#include "addscope/timing/addscope_Results.hpp"

namespace replay {

using nlohmann::json;

inline std::string read_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot read " + path);
  std::ostringstream os;
  os << f.rdbuf();
  return os.str();
}

inline json read_json(const std::string& path) {
  return json::parse(read_text(path));
}

inline std::string str(const json& j) {
  return j.is_null() ? std::string() : j.get<std::string>();
}

inline addscope::Stats stats(const json& j) {
  addscope::Stats s;
  if (j.is_null()) return s;
  s.count = j.at("count").get<std::size_t>();
  s.min_s = j.at("min_s");
  s.q1_s = j.at("q1_s");
  s.median_s = j.at("median_s");
  s.q3_s = j.at("q3_s");
  s.max_s = j.at("max_s");
  s.mean_s = j.at("mean_s");
  s.stddev_s = j.at("stddev_s");
  return s;
}

inline addscope::DeviceInfo device(const json& j) {
  addscope::DeviceInfo d;
  d.exec_space = j.at("exec_space");
  d.is_gpu = j.at("is_gpu");
  d.name = j.at("name");
  d.units = j.at("units");
  d.units_name = j.at("units_name");
  d.concurrency = j.at("concurrency");
  d.memory.total = j.at("memory_total_bytes");
  d.memory.available = j.at("memory_available_bytes");
  d.memory.source = j.at("memory_source");
  d.l2_bytes = j.at("l2_bytes");
  d.llc_bytes = j.at("llc_bytes");
  d.compute_capability = str(j.at("compute_capability"));
  d.memory_clock_khz = j.at("memory_clock_khz").is_null()
                           ? 0
                           : j.at("memory_clock_khz").get<int>();
  d.memory_bus_bits = j.at("memory_bus_bits").is_null()
                          ? 0
                          : j.at("memory_bus_bits").get<int>();
  d.dram_peak_gbps = j.at("dram_peak_gbps").is_null()
                         ? 0
                         : j.at("dram_peak_gbps").get<double>();
  d.dram_peak_source = j.at("dram_peak_source");
  d.has_cuda_runtime = j.at("cuda_runtime");
  d.has_pinned = j.at("pinned_host_memory");
  return d;
}

inline addscope::PhaseResult phases(const json& j) {
  addscope::PhaseResult p;
  p.label = j.at("label");
  p.n = j.at("n");
  p.bytes = j.at("bytes");
  p.launch = stats(j.at("launch"));
  p.completion = stats(j.at("completion"));
  p.device = stats(j.at("device"));
  p.gbps_median = j.at("gbps_median");
  p.gbps_best = j.at("gbps_best");
  p.device_gbps_median = j.at("device_gbps_median").is_null()
                             ? 0
                             : j.at("device_gbps_median").get<double>();
  return p;
}

inline addscope::CopyDirection direction(const std::string& s) {
  using addscope::CopyDirection;
  for (auto d : {CopyDirection::HostToDevice, CopyDirection::DeviceToHost,
                 CopyDirection::DeviceToDevice})
    if (s == to_string(d)) return d;
  throw std::runtime_error("direction '" + s + "'");
}

inline addscope::MemoryKind memory(const std::string& s) {
  using addscope::MemoryKind;
  for (auto m : {MemoryKind::Pageable, MemoryKind::Pinned, MemoryKind::Device})
    if (s == to_string(m)) return m;
  throw std::runtime_error("memory '" + s + "'");
}

inline addscope::TransferResult transfer(const json& j) {
  addscope::TransferResult t;
  t.what = j.at("what");
  t.direction = direction(j.at("direction"));
  t.memory = memory(j.at("memory"));
  t.n = j.at("n");
  t.bytes = j.at("bytes");
  t.time = stats(j.at("time"));
  t.gbps_median = j.at("gbps_median");
  return t;
}

inline addscope::CopyReference reference(const json& j) {
  addscope::CopyReference r;
  r.name = j.at("reference");
  r.result = transfer(j);
  r.note = str(j.at("note"));
  return r;
}

inline addscope::Verification check(const json& j) {
  addscope::Verification v;
  v.checked = j.at("checked_elements");
  v.mismatches = j.at("mismatches");
  v.first_bad =
      j.at("first_bad").is_null() ? -1 : j.at("first_bad").get<std::int64_t>();
  v.detail = str(j.at("detail"));
  return v;
}

inline addscope::LatencyResult latency(const json& j) {
  addscope::LatencyResult l;
  for (auto k : {addscope::EmptyKernel::Range, addscope::EmptyKernel::Team})
    if (j.at("kernel") == to_string(k)) l.kernel = k;
  l.launches = j.at("launches");
  l.call_s = j.at("launch_call_s");
  l.unfenced_s = j.at("unfenced_per_launch_s");
  l.fenced = stats(j.at("fenced"));
  return l;
}

/// With ADDSCOPE_REPLAY_WRITE=1 in the environment, writes `got` as the new
/// expectation (to regenerate after a deliberate change; review the diff).
inline void maybe_write(const std::string& path, const std::string& got) {
  const char* w = std::getenv("ADDSCOPE_REPLAY_WRITE");
  if (w && std::string(w) == "1") std::ofstream(path, std::ios::binary) << got;
}

/// Lines of `text` that differ from `want`'s, for a readable failure.
inline std::string first_difference(const std::string& got,
                                    const std::string& want) {
  std::istringstream g(got), w(want);
  std::string a, b;
  for (int line = 1;; ++line) {
    const bool ga = bool(std::getline(g, a)), wb = bool(std::getline(w, b));
    if (!ga && !wb) return "";
    if (!ga || !wb || a != b)
      return "line " + std::to_string(line) +
             ":\n  got:  " + (ga ? a : "<end>") +
             "\n  want: " + (wb ? b : "<end>");
  }
}

}  // namespace replay

#endif
