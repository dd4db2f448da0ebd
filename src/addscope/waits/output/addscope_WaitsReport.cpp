#include "addscope/waits/output/addscope_WaitsReport.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <ostream>

#include "addscope/waits/output/addscope_Format.hpp"

namespace addscope {

namespace {

std::string plural(std::uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string shape_text(const LaunchShape& s) {
  if (!s.known()) return "";
  char b[96];
  std::snprintf(b, sizeof b, "%lld x %lld", s.blocks(), s.threads_per_block());
  return b;
}

void write_wait(std::ostream& os, const CallRecord& c) {
  os << "    " << format_attribution(c) << "\n";
  std::string where;
  auto add = [&](const std::string& s) {
    if (s.empty()) return;
    where += where.empty() ? "" : "; ";
    where += s;
  };
  add(c.context);
  if (!c.via.empty() && c.via != c.what) add("blocked in " + c.via);
  if (!c.regions.empty()) add("in region " + c.regions);
  add("host thread " + std::to_string(c.thread));
  os << "      " << call_kind_name(c.kind) << ", " << where << "\n";
}

}  // namespace

void write_waits_report(std::ostream& os, const WaitsSnapshot& w,
                        const WaitsReportOptions& opt) {
  const WaitTotals& t = w.totals;
  os << "addscope waits";
  if (w.rank >= 0) os << " (rank " << w.rank << ")";
  switch (w.mode) {
    case WaitsMode::Host:
      os << ": host backend, kernels run inside their launch calls";
      break;
    case WaitsMode::Device:
      os << ": device timestamps from " << w.device_source;
      break;
    case WaitsMode::KokkosOnly:
      os << ": no device timestamps (" << w.device_source
         << "); a wait is bounded by the fence or deep_copy that ended it";
      break;
  }
  if (w.kokkos_fences == 0 && w.mode != WaitsMode::Host)
    os << "; this Kokkos reports no fences";
  os << "\n";
  const std::uint64_t streams = w.streams.size();
  os << "  " << plural(t.launches + t.host_kernels, "kernel", "kernels");
  if (w.mode == WaitsMode::Device)
    os << " (" << t.device_kernels << " device kernels on "
       << plural(streams, "stream", "streams") << ", busy "
       << format_seconds(t.device_busy_s) << ")";
  os << ", " << plural(t.calls, "host call", "host calls") << " on "
     << plural(w.threads_seen, "thread", "threads") << "\n";

  if (w.mode == WaitsMode::Host) {
    os << "  no call waited for device work\n";
  } else {
    for (WaitClass cls : {WaitClass::Hidden, WaitClass::Explicit}) {
      const bool hidden = cls == WaitClass::Hidden;
      const std::uint64_t n = hidden ? t.hidden_calls : t.explicit_calls;
      const double s = hidden ? t.hidden_s : t.explicit_s;
      os << "  " << (hidden ? "hidden" : "explicit") << " waits: ";
      if (n == 0) {
        os << "none"
           << (hidden ? " (no call waited for device work without being "
                        "asked to)"
                      : "")
           << "\n";
        continue;
      }
      os << format_seconds(s) << " in " << plural(n, "call", "calls")
         << (hidden ? " (waits the program did not ask for: deep_copy, "
                      "mirrors, allocations, Kokkos' own fences, ...)"
                    : " (in fences the program wrote)")
         << "\n";
      std::size_t shown = 0;
      for (const auto& c : w.waits) {
        if (c.wait_class != cls) continue;
        if (shown++ >= opt.top_waits) {
          os << "    ...\n";
          break;
        }
        write_wait(os, c);
      }
    }
    if (w.mode == WaitsMode::Device)
      os << "  overlap: host work ran during " << format_seconds(t.overlap_s)
         << " of kernel time (time saved by not waiting)\n";
  }
  if (!w.kernels.empty()) {
    os << "  kernels by "
       << (w.mode == WaitsMode::Device ? "device time"
           : w.mode == WaitsMode::Host ? "host time"
                                       : "launches (no device times)")
       << ":\n";
    std::size_t shown = 0;
    for (const auto& k : w.kernels) {
      if (shown++ >= opt.top_kernels) {
        os << "    ... (" << w.kernels.size() - opt.top_kernels
           << " more in the JSON)\n";
        break;
      }
      char head[64];
      const std::uint64_t count = k.launches ? k.launches : k.calls;
      std::snprintf(head, sizeof head, "%8llu x %10s",
                    (unsigned long long)count,
                    k.launches ? format_seconds(k.device_s).c_str()
                    : w.mode == WaitsMode::Device ? "-"
                                                  : "?");
      os << "    " << head << "  " << k.name;
      std::string extra;
      if (k.shape.known()) extra += "launched " + shape_text(k.shape);
      if (w.mode == WaitsMode::Device && k.launches == 0 && k.calls > 0)
        extra += "no device kernel recorded (a memset, a copy or nothing)";
      const double waited = k.waited_hidden_s + k.waited_explicit_s;
      if (waited > 0) {
        if (!extra.empty()) extra += ", ";
        extra += "waited for " + format_seconds(waited);
        if (k.waited_hidden_s > 0)
          extra += " (" + format_seconds(k.waited_hidden_s) + " hidden)";
      }
      if (k.overlap_s > 0) {
        if (!extra.empty()) extra += ", ";
        extra += "overlapped " + format_seconds(k.overlap_s);
      }
      if (!extra.empty()) os << "  [" << extra << "]";
      os << "\n";
    }
  }
  if (w.kernels_without_device_record > 0)
    os << "  note: " << w.kernels_without_device_record
       << " launches never got a device record\n";
  if (!w.trace_path.empty()) {
    os << "  trace: " << w.trace_path;
    if (w.trace_events_dropped > 0)
      os << " (" << w.trace_events_dropped << " events past the cap dropped)";
    os << "\n";
  }
}

std::string waits_json(const WaitsSnapshot& w) {
  using nlohmann::json;
  json j;
  j["schema"] = "addscope-waits/2";
  j["clock"] =
      "seconds on the steady clock since the tool was loaded; device "
      "timestamps mapped onto it";
  j["mode"] = waits_mode_name(w.mode);
  j["device_source"] = w.device_source;
  j["kokkos_reports_fences"] =
      w.kokkos_fences < 0 ? json(nullptr) : json(w.kokkos_fences == 1);
  j["rank"] = w.rank < 0 ? json(nullptr) : json(w.rank);
  const WaitTotals& t = w.totals;
  j["totals"] = {
      {"launches", t.launches},
      {"device_kernels", t.device_kernels},
      {"host_kernels", t.host_kernels},
      {"calls", t.calls},
      {"hidden_calls", t.hidden_calls},
      {"hidden_s", t.hidden_s},
      {"explicit_calls", t.explicit_calls},
      {"explicit_s", t.explicit_s},
      {"overlap_s", t.overlap_s},
      {"device_busy_s", t.device_busy_s},
      {"threads", w.threads_seen},
      {"kernels_without_device_record", w.kernels_without_device_record}};
  json waits = json::array();
  for (const auto& c : w.waits) {
    json wf = json::array();
    for (const auto& s : c.waited_for)
      wf.push_back({{"kernel", s.kernel},
                    {"kernel_raw", s.kernel_raw},
                    {"wait_s", s.wait_s},
                    {"stream", s.stream}});
    waits.push_back(
        {{"id", c.id},
         {"what", c.what},
         {"kind", call_kind_name(c.kind)},
         {"class", wait_class_name(c.wait_class)},
         {"thread", c.thread},
         {"begin_s", c.begin_s},
         {"duration_s", c.duration_s()},
         {"wait_s", c.wait_s},
         {"own_s", c.own_s()},
         {"wait_is_bound", c.wait_is_bound},
         {"regions", c.regions.empty() ? json(nullptr) : json(c.regions)},
         {"context", c.context.empty() ? json(nullptr) : json(c.context)},
         {"via", c.via.empty() ? json(nullptr) : json(c.via)},
         {"waited_for", wf},
         {"line", format_attribution(c)}});
  }
  j["waits"] = waits;
  json kernels = json::array();
  for (const auto& k : w.kernels) {
    json e = {{"name", k.name},
              {"raw_name", k.raw_name},
              {"calls", k.calls},
              {"launches", k.launches},
              {"device_s", k.device_s},
              {"device_max_s", k.device_max_s},
              {"waited_hidden_s", k.waited_hidden_s},
              {"waited_explicit_s", k.waited_explicit_s},
              {"overlap_s", k.overlap_s},
              {"stream", k.stream},
              {"shape", nullptr}};
    if (k.shape.known())
      e["shape"] = {
          {"grid", {k.shape.grid[0], k.shape.grid[1], k.shape.grid[2]}},
          {"block", {k.shape.block[0], k.shape.block[1], k.shape.block[2]}},
          {"registers", k.shape.registers},
          {"shared_static", k.shape.shared_static},
          {"shared_dynamic", k.shape.shared_dynamic},
          {"changed", k.shapes_changed}};
    kernels.push_back(e);
  }
  j["kernels"] = kernels;
  json sites = json::array();
  for (const auto& s : w.sites)
    sites.push_back(
        {{"kind", call_kind_name(s.kind)},
         {"site", s.site},
         {"regions", s.regions.empty() ? json(nullptr) : json(s.regions)},
         {"calls", s.calls},
         {"duration_s", s.duration_s},
         {"wait_hidden_s", s.wait_hidden_s},
         {"wait_explicit_s", s.wait_explicit_s},
         {"max_wait_s", s.max_wait_s}});
  j["sites"] = sites;
  json streams = json::array();
  for (const auto& s : w.streams)
    streams.push_back({{"device", s.device},
                       {"stream", s.stream},
                       {"kokkos_instance", s.exec.instance},
                       {"kernels", s.kernels},
                       {"busy_s", s.busy_s}});
  j["streams"] = streams;
  json threads = json::array();
  for (const auto& s : w.threads)
    threads.push_back({{"thread", s.thread},
                       {"calls", s.calls},
                       {"wait_hidden_s", s.wait_hidden_s},
                       {"wait_explicit_s", s.wait_explicit_s}});
  j["threads"] = threads;
  j["trace"] = w.trace_path.empty() ? json(nullptr) : json(w.trace_path);
  return j.dump(2);
}

}  // namespace addscope
