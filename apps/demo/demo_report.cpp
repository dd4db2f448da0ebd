#include "demo_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "addscope/addscope_Json.hpp"
#include "addscope/core/addscope_Format.hpp"
#include "common/addscope_apps_Configs.hpp"
#include "common/addscope_apps_Table.hpp"

namespace addscope {
namespace demo {

namespace {

using nlohmann::json;

std::string t(double s) { return format_seconds(s); }

/// A copy's name in words for this backend: on a host backend the
/// "device" View is host memory, so D2H and D2D copies are host to host.
std::string copy_name(const std::string& what, const DeviceInfo& dev) {
  if (dev.is_gpu) return what;
  std::string s = what;
  for (const char* d : {"D2H", "H2D", "D2D"})
    for (auto at = s.find(d); at != std::string::npos; at = s.find(d))
      s.replace(at, 3, "host to host");
  return s;
}

/// How a copy's bytes are counted: each element once (a transfer), or read
/// and written (a copy within one memory).
std::string bytes_counted(const TransferResult& t, std::int64_t n) {
  if (t.direction == CopyDirection::DeviceToDevice)
    return "2 N sizeof(T) bytes: read + write";
  return t.n == n   ? "N sizeof(T) bytes"
         : t.n == 1 ? "sizeof(T) bytes"
                    : std::to_string(t.n) + " sizeof(T) bytes";
}

constexpr const char* kAddBytes = "3 N sizeof(T) bytes";

/// "% of the DRAM peak" cell, or "n/a" where the peak is unknown.
std::string pct_peak(const DeviceInfo& dev, double gbps) {
  return format_pct(100 * gbps / std::max(dev.dram_peak_gbps, 1e-30),
                    dev.dram_peak_gbps > 0);
}

std::string header(const DemoRun& r) {
  const DeviceInfo& dev = r.dev;
  std::string s = fmt::format(
      "addscope-demo: N = {}, {}; Kokkos {}, execution space {} ({} "
      "launches) on {}\n",
      r.seq.n, r.type, r.kokkos_version, r.seq.exec_space,
      r.seq.async_backend ? "asynchronous" : "synchronous", dev.name);
  if (dev.dram_peak_gbps > 0)
    s += fmt::format("limit: DRAM peak {} GB/s ({})\n",
                     format_gbps(dev.dram_peak_gbps), dev.dram_peak_source);
  else
    s += "limit: DRAM peak " + dev.dram_peak_source + "\n";
  if (!dev.is_gpu)
    s += "copies: on a host backend the \"device\" arrays are host memory: "
         "every copy below (steps 4 and 5) is host to host\n";
  return s + "\n";
}

/// A row of the table: `cells` without the "ran as" column, which `ran`
/// fills (only configurations have one).
void add_row(apps::Table& table, std::vector<std::string> cells,
             const std::string& ran = "") {
  cells.insert(cells.begin() + std::min<std::size_t>(2, cells.size()), ran);
  table.add(cells);
}

/// Steps 1 and 2: the seed experiment.
void seed_rows(const DemoRun& r, apps::Table& table) {
  const ReadAfterLaunch& seq = r.seq;
  const std::string& elem = seq.element;
  const std::string& label = seq.label;
  const double naive_gbps =
      gbps(add_bytes(seq.n, r.elem_size), seq.completion_s);
  add_row(table, {"1 naive", "launch " + label, t(seq.naive_launch_s)});
  add_row(table, 
      {"1 naive", "create_mirror_view(" + elem + ")", t(seq.naive_mirror_s)});
  add_row(table, {"1 naive", "deep_copy(" + elem + ")", t(seq.naive_copy_s)});
  add_row(table, 
      {"1 naive", "read " + elem + " (the two above)", t(seq.naive_read_s())});
  add_row(table, {"2 fenced", "launch " + label, t(seq.fenced_launch_s)});
  add_row(table, {"2 fenced", "launch + fence (the kernel)", t(seq.completion_s),
             format_gbps(naive_gbps), pct_peak(r.dev, naive_gbps), kAddBytes});
  add_row(table, {"2 fenced",
             fmt::format("read {} (median of {})", elem, seq.fenced_read.count),
             t(seq.fenced_read_s()), "", "",
             fmt::format("min {} max {}", t(seq.fenced_read.min_s),
                         t(seq.fenced_read.max_s))});
}

/// What configuration i resolved to, where that differs from what was
/// asked ("" otherwise): both parse back with --config.
std::string ran_as(const DemoRun& r, std::size_t i) {
  return apps::ran_as_text(r.configs[i], r.ran_as[i]);
}

/// Configuration i as the user can type it, with what it ran as.
std::string config_name(const DemoRun& r, std::size_t i) {
  const std::string ran = ran_as(r, i);
  return ran.empty() ? r.configs[i] : r.configs[i] + " (ran as " + ran + ")";
}

/// Steps 3 to 5: the configurations, transfers and references.
void other_rows(const DemoRun& r, apps::Table& table) {
  const std::int64_t n = r.seq.n;
  for (std::size_t i = 0; i < r.phases.size(); ++i) {
    const PhaseResult& p = r.phases[i];
    std::string note =
        std::string(kAddBytes) + "; launch " + t(p.launch.median_s);
    if (p.device.count) note += ", device " + t(p.device.median_s);
    add_row(table,
            {"3 fenced", "add " + r.configs[i] + " (median)",
             t(p.completion.median_s), format_gbps(p.gbps_median),
             pct_peak(r.dev, p.gbps_median), note},
            ran_as(r, i));
  }
  for (const auto& tr : r.transfers)
    add_row(table, 
        {"4 transfer",
         copy_name(tr.what, r.dev) + " " + to_string(tr.memory) + " (median)",
         t(tr.time.median_s), format_gbps(tr.gbps_median), "",
         bytes_counted(tr, n)});
  const NoiseBound noise;
  for (const auto& ref : r.refs) {
    std::string note = bytes_counted(ref.result, n);
    if (!ref.clean || noise.exceeded_by(ref.result.time))
      note += fmt::format("; noisy: max {:.1f}x min",
                          spread_ratio(ref.result.time));
    add_row(table, {"5 reference", copy_name(ref.result.what, r.dev) + " (median)",
               t(ref.result.time.median_s), format_gbps(ref.result.gbps_median),
               pct_peak(r.dev, ref.result.gbps_median), note});
  }
}

/// Items 3 to 5, each from the numbers of its step.
std::string other_sentences(const DemoRun& r) {
  std::string s;
  for (std::size_t i = 0; i < r.phases.size(); ++i) {
    const PhaseResult& p = r.phases[i];
    s += fmt::format(
        "3. {} takes {} ({} GB/s{})\n", config_name(r, i),
        t(p.completion.median_s),
        format_gbps(p.gbps_median),
        r.dev.dram_peak_gbps > 0
            ? ", " + pct_peak(r.dev, p.gbps_median) + " of the DRAM peak"
            : std::string());
  }
  for (const auto& tr : r.transfers) {
    std::string what = copy_name(tr.what, r.dev);
    what[0] = char(std::toupper(static_cast<unsigned char>(what[0])));
    s += fmt::format("4. {} into {} memory: {} ({} GB/s, {})\n", what,
                     to_string(tr.memory), t(tr.time.median_s),
                     format_gbps(tr.gbps_median), bytes_counted(tr, r.seq.n));
  }
  if (const auto* f = fastest(r.refs))
    s += fmt::format(
        "5. Reference (not a limit): the fastest copy of the same arrays, {}, "
        "runs at {} GB/s ({}).\n",
        f->name, format_gbps(f->result.gbps_median),
        bytes_counted(f->result, r.seq.n));
  return s;
}

std::string conclusion(const DemoRun& r, const ReadAfterLaunchExplanation& e) {
  std::size_t best = r.phases.size();
  for (std::size_t i = 0; i < r.phases.size(); ++i)
    if (best == r.phases.size() ||
        r.phases[i].completion.median_s < r.phases[best].completion.median_s)
      best = i;
  std::string s = "\nConclusion: " + e.conclusion;
  if (best < r.phases.size())
    s += fmt::format("; the fastest configuration tried, {}, takes {}",
                     config_name(r, best), t(r.phases[best].completion.median_s));
  s += ".\n";
  s += r.verified ? "All results verified: every element of out equals x + y, "
                    "compared on the device after each configuration.\n"
                  : "WRONG RESULTS: out != x + y (see the messages above).\n";
  return s;
}

}  // namespace

std::string render_text(const DemoRun& r) {
  apps::Table table(
      {"step", "what", "ran as", "time", "GB/s", "% peak", "note"});
  seed_rows(r, table);
  other_rows(r, table);
  std::string s = header(r) + table.text() + "\n";
  const ReadAfterLaunchExplanation e = explain(r.seq, r.naive_config);
  for (const auto& line : e.lines) s += line + "\n";
  return s + other_sentences(r) + conclusion(r, e);
}

json run_json(const DemoRun& r) {
  json j;
  j["n"] = r.seq.n;
  j["type"] = r.type;
  j["execution_space"] = r.seq.exec_space;
  j["async_backend"] = r.seq.async_backend;
  j["kokkos_version"] = r.kokkos_version;
  j["device"] = to_json(r.dev);
  j["read_after_launch"] = to_json(r.seq);
  j["read_after_launch"]["check"] = to_json(r.naive_check);
  j["configs"] = json::array();
  for (std::size_t i = 0; i < r.phases.size(); ++i) {
    json p = to_json(r.phases[i]);
    p["config"] = r.configs[i];
    p["ran_as"] = r.ran_as[i];
    p["check"] = to_json(r.checks[i]);
    p["pct_of_dram_peak"] =
        r.dev.dram_peak_gbps > 0
            ? json(100 * r.phases[i].gbps_median / r.dev.dram_peak_gbps)
            : json(nullptr);
    j["configs"].push_back(p);
  }
  j["transfers"] = json::array();
  for (const auto& tr : r.transfers) j["transfers"].push_back(to_json(tr));
  j["references"] = json::array();
  for (const auto& ref : r.refs) j["references"].push_back(to_json(ref));
  j["verified"] = r.verified;
  return j;
}

}  // namespace demo
}  // namespace addscope
