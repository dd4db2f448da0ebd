#include "addscope/waits/output/addscope_IdleReport.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <ostream>

#include "addscope/waits/attribution/addscope_Occupancy.hpp"
#include "addscope/waits/output/addscope_AttributionText.hpp"
#include "addscope/waits/output/addscope_WaitsJson.hpp"

namespace addscope {

namespace {

// The table's short words for a cause.
const char* cause_short(IdleCause c) {
  switch (c) {
    case IdleCause::SyncRoundTrip:
      return "round trip";
    case IdleCause::LaunchLatency:
      return "launch";
    case IdleCause::HostCode:
      return "host code";
    case IdleCause::Communication:
      return "MPI";
    case IdleCause::Submitted:
      return "submitted";
    case IdleCause::Unknown:
      return "unknown";
    case IdleCause::StartUp:
      return "start-up";
  }
  return "unknown";
}

// What each cause means, for the cause table.
const char* cause_meaning(IdleCause c) {
  switch (c) {
    case IdleCause::SyncRoundTrip:
      return "a host call was blocked on the device when it went idle "
             "(the whole gap, until the next launch)";
    case IdleCause::LaunchLatency:
      return "the next launch call was in progress";
    case IdleCause::HostCode:
      return "the launching thread ran the program's code";
    case IdleCause::Communication:
      return "the launching thread was in an MPI call";
    case IdleCause::Submitted:
      return "the next work was already submitted; the runtime or device "
             "started it late";
    case IdleCause::Unknown:
      return "the launching thread, or what it did, is unknown";
    case IdleCause::StartUp:
      return "before the device's first kernel or a kernel's first run: "
             "loading libraries and modules, compiling, first-time set-up "
             "(paid once; not the run's own idle)";
  }
  return "";
}

const char* state_words(std::size_t i) {
  switch (i) {
    case 0:
      return "in the program's code";
    case 1:
      return "launching";
    case 2:
      return "blocked";
    case 3:
      return "in Kokkos' own work";
    case 4:
      return "in MPI";
    default:
      return "not followed";
  }
}

bool whole_gap_cause(IdleCause c) {
  return c == IdleCause::SyncRoundTrip || c == IdleCause::Communication;
}

// "the thread meanwhile: 0.4 ms blocked, 1.7 ms launching" (only parts
// that are there; "" when the gaps were one state throughout).
std::string anatomy(const std::array<double, kHostStates + 1>& st) {
  std::string l;
  int parts = 0;
  for (std::size_t i = 0; i <= kHostStates; ++i) {
    if (st[i] <= 0) continue;
    l += (parts++ ? ", " : "") + format_seconds(st[i]) + " " + state_words(i);
  }
  return parts > 1 ? "the launching thread meanwhile: " + l : "";
}

// " at main.cpp:40 (step)" for a call's row, " launched at ..." for a
// kernel's (`sep` before it); "" without a line.
std::string line_words(const IdleSiteStats& r, const char* sep) {
  if (!r.code.known()) return std::string();
  return sep +
         std::string(idle_row_is_a_kernel(r.cause) ? "launched at " : "at ") +
         site_text(r.code);
}

std::string site_column(const IdleSiteStats& r, bool code_first) {
  std::string s;
  if (r.cause == IdleCause::HostCode ||
      (r.cause == IdleCause::StartUp && !r.other)) {
    s = idle_site_words(r);  // with its line
  } else if (code_first && !idle_row_is_a_kernel(r.cause) && !r.other &&
             !r.site.empty() && r.code.known()) {
    s = code_then_call(r.code, r.site);  // a call, its line first
  } else {
    s = (r.site.empty() ? std::string("(unnamed)") : r.site) +
        line_words(r, "  ");
  }
  if (!r.region.empty()) s += "  [in region " + r.region + "]";
  return s;
}

// "of the device's run", "of the time in region loop", ...
std::string share_words(double share, double region_share,
                        const std::string& region, std::size_t devices) {
  if (region_share >= 0)
    return format_share(region_share) + " of the time in region " + region;
  return format_share(share) +
         (devices == 1 ? " of the device's run" : " of the devices' runs");
}

void write_devices(std::ostream& os, const IdleSummary& s) {
  const std::size_t n = s.devices.size();
  auto apart = [](double startup, double tail) {
    if (startup < 0 || tail < 0) return std::string();
    return "; " + format_seconds(startup) +
           " start-up before the first work and " + format_seconds(tail) +
           " tail after the last, not counted";
  };
  if (n == 1) {
    const IdleDeviceStats& d = s.devices[0];
    os << "  device idle: " << format_seconds(d.idle_s) << " of device "
       << d.device << "'s " << format_seconds(d.span_s) << " run ("
       << format_share(d.span_s > 0 ? d.idle_s / d.span_s : 0) << ") in "
       << format_count(d.gaps, "gap", "gaps") << ", busy "
       << format_seconds(d.busy_s) << " ("
       << format_count(d.activities, "kernel, copy or memset",
                       "kernels, copies and memsets")
       << ")" << apart(d.startup_s, d.tail_s) << "\n";
  } else {
    os << "  device idle: " << format_seconds(s.idle_s) << " of "
       << format_seconds(s.span_s) << " on " << n << " devices ("
       << format_share(s.idle_share()) << ") in "
       << format_count(s.gaps, "gap", "gaps") << apart(s.startup_s, s.tail_s)
       << "\n";
    for (const IdleDeviceStats& d : s.devices)
      os << "    device " << d.device << ": idle " << format_seconds(d.idle_s)
         << " of its " << format_seconds(d.span_s) << " run ("
         << format_share(d.span_s > 0 ? d.idle_s / d.span_s : 0) << ") in "
         << format_count(d.gaps, "gap", "gaps") << ", busy "
         << format_seconds(d.busy_s) << apart(d.startup_s, d.tail_s) << "\n";
  }
  // Streams, when a device has more than one.
  for (const IdleDeviceStats& d : s.devices) {
    std::size_t streams = 0;
    for (const IdleStreamStats& st : s.streams)
      streams += st.device == d.device;
    if (streams < 2) continue;
    os << "    device " << d.device << " streams:";
    const char* sep = " ";
    for (const IdleStreamStats& st : s.streams) {
      if (st.device != d.device) continue;
      os << sep
         << (st.other ? std::string("(other streams)")
                      : std::to_string(st.stream))
         << " busy " << format_seconds(st.busy_s) << " ("
         << format_share(d.span_s > 0 ? st.busy_s / d.span_s : 0) << ")";
      sep = ", ";
    }
    os << "\n";
  }
}

}  // namespace

std::string idle_site_words(const IdleSiteStats& r) {
  const std::string at = line_words(r, " ");
  if (r.cause == IdleCause::StartUp && !r.other)
    return r.site.empty() ? std::string("a kernel's first run")
                          : "the first run of " + r.site + at;
  if (r.cause != IdleCause::HostCode) return r.site + at;
  if (!r.site.empty()) return "in " + r.site + "'s own work" + at;
  // The program's code, up to the line whose launch ended it when known.
  const std::string line = site_with_text(r.code);
  const std::string upto = r.code.known() ? ", up to " + line : std::string();
  if (!r.before.empty() && !r.after.empty())
    return "between " + r.before + " and " + r.after + upto;
  if (!r.before.empty()) return "after " + r.before + upto;
  if (!r.after.empty()) return "before " + r.after + upto;
  return r.code.known() ? "up to " + line : std::string("between Kokkos calls");
}

std::string idle_what_if_line(const IdleWhatIf& w, const IdleSummary& s) {
  const IdleSiteStats& t = w.top;
  if (t.idle_s <= 0 || s.span_s <= 0) return "";
  std::string subject;
  const std::string site = t.site.empty() ? "(unnamed)" : t.site;
  // A kernel's row with its launch line.
  const std::string named = t.site.empty() ? site : idle_site_words(t);
  switch (w.cause) {
    case IdleCause::SyncRoundTrip:
      subject = t.other ? format_count(t.calls, "round trip", "round trips") +
                              " at other call sites"
                        : thousands((long long)t.calls) + " " + site +
                              (t.calls == 1 ? " round trip" : " round trips");
      if (!t.other) subject += line_words(t, " ");
      break;
    case IdleCause::Communication:
      subject = t.other ? format_count(t.calls, "MPI call", "MPI calls") +
                              " at other call sites"
                        : thousands((long long)t.calls) + " " + site +
                              (t.calls == 1 ? " call" : " calls");
      break;
    case IdleCause::LaunchLatency:
      subject = format_count(t.gaps, "launch", "launches") +
                (t.other ? std::string(" of other kernels") : " of " + named) +
                " still in progress";
      break;
    case IdleCause::HostCode:
      subject = format_count(t.gaps, "stretch of host code",
                             "stretches of host code") +
                (t.other ? std::string(" at other places")
                         : " " + idle_site_words(t));
      break;
    case IdleCause::Submitted:
      subject = format_count(t.gaps, "start", "starts") +
                (t.other ? std::string(" of other work") : " of " + named) +
                " after it was submitted";
      break;
    case IdleCause::Unknown:
      subject =
          format_count(t.gaps, "gap", "gaps") +
          (t.other ? std::string(" before other work") : " before " + named) +
          " with the launching thread's state unknown";
      break;
    case IdleCause::StartUp:  // no what-if is made for it (paid once)
      subject =
          format_count(t.gaps, "gap", "gaps") + " before " + idle_site_words(t);
      break;
  }
  // The region is named once: in the share when it is one of the region's
  // time, else here.
  if (!t.other && !t.region.empty() && w.region_share < 0)
    subject += " in region " + t.region;
  std::string line =
      subject + " left the device" + (s.devices.size() == 1 ? "" : "s") +
      " idle " + format_seconds(t.idle_s) + " = " +
      share_words(w.top_share, w.region_share, t.region, s.devices.size());
  if (w.other_sites > 0)
    line += " (" + std::string(idle_cause_words(w.cause)) + " in all, " +
            format_count(w.other_sites + 1, "site", "sites") + ": " +
            format_seconds(w.idle_s) + " = " + format_share(w.share) + ")";
  line += "; if they took no time, the run could be up to " +
          format_seconds(t.idle_s) + " shorter";
  return line;
}

void write_idle_report(std::ostream& os, const IdleSummary& s,
                       const WaitsReportOptions& opt, bool code_first) {
  if (!s.any_activity) {
    os << "  device idle: no device activity recorded (needs CUPTI's kernel "
          "and copy records)\n";
    return;
  }
  write_devices(os, s);
  if (s.idle_s <= 0) {
    os << "  the device" << (s.devices.size() == 1 ? " was" : "s were")
       << " never idle between the first and the last work\n";
  } else {
    char b[256];
    os << "  idle by cause (share: of the run):\n";
    std::snprintf(b, sizeof b, "    %-28s %8s %11s %7s\n", "cause", "gaps",
                  "total", "share");
    os << b;
    // The run's causes, most first; start-up last, apart.
    for (int startup = 0; startup < 2; ++startup)
      for (const IdleCauseStats& c : s.causes) {
        if (c.idle_s <= 0 || (c.cause == IdleCause::StartUp) != bool(startup))
          continue;
        std::snprintf(b, sizeof b, "    %-28s %8s %11s %7s  ",
                      idle_cause_words(c.cause),
                      thousands((long long)c.gaps).c_str(),
                      format_seconds(c.idle_s).c_str(),
                      format_share(c.idle_s / s.span_s).c_str());
        os << b << cause_meaning(c.cause) << "\n";
      }
    // Call sites.
    os << "  idle by call site:\n";
    std::snprintf(b, sizeof b, "    %8s %8s %11s %7s  %-10s  %s\n", "gaps",
                  "calls", "total", "share", "cause", "site");
    os << b;
    std::size_t shown = 0, below = 0, beyond = 0;
    for (const IdleSiteStats& r : s.sites) {
      if (r.idle_s < opt.threshold_s) {
        ++below;
        continue;
      }
      if (shown >= opt.top) {
        ++beyond;
        continue;
      }
      ++shown;
      std::snprintf(
          b, sizeof b, "    %8s %8s %11s %7s  %-10s  ",
          thousands((long long)r.gaps).c_str(),
          whole_gap_cause(r.cause) ? thousands((long long)r.calls).c_str()
                                   : "-",
          format_seconds(r.idle_s).c_str(),
          format_share(r.idle_s / s.span_s).c_str(), cause_short(r.cause));
      os << b << site_column(r, code_first) << "\n";
      if (whole_gap_cause(r.cause)) {
        const std::string a = anatomy(r.state_s);
        if (!a.empty()) os << "               " << a << "\n";
      }
    }
    if (below + beyond > 0) {
      os << "    ... ";
      if (beyond) os << beyond << " more rows";
      if (beyond && below) os << ", ";
      if (below)
        os << below << (below == 1 ? " row" : " rows") << " under "
           << format_seconds(opt.threshold_s);
      os << " " << more_rows_hint(opt, true) << "\n";
    }
    // Regions, when any gap began inside one.
    bool any_region = false;
    for (const IdleRegionStats& r : s.regions)
      any_region = any_region || (!r.region.empty() && r.idle_s > 0);
    if (any_region) {
      os << "  idle by region (where the launching thread was):\n";
      std::snprintf(b, sizeof b, "    %8s %11s %7s  %s\n", "gaps", "total",
                    "share", "region");
      os << b;
      std::size_t n = 0;
      for (const IdleRegionStats& r : s.regions) {
        if (r.idle_s <= 0) continue;
        if (n++ >= opt.top) {
          os << "    ... more " << more_rows_hint(opt, false) << "\n";
          break;
        }
        std::snprintf(b, sizeof b, "    %8s %11s %7s  ",
                      thousands((long long)r.gaps).c_str(),
                      format_seconds(r.idle_s).c_str(),
                      format_share(r.idle_s / s.span_s).c_str());
        os << b << (r.region.empty() ? "(outside every region)" : r.region);
        std::string parts;
        for (std::size_t c = 0; c < kIdleCauses; ++c) {
          if (r.cause_s[c] <= 0) continue;
          parts += (parts.empty() ? "" : ", ") +
                   std::string(cause_short(static_cast<IdleCause>(c))) + " " +
                   format_seconds(r.cause_s[c]);
        }
        os << "  (" << parts;
        if (!r.region.empty() && r.one_thread && r.host_s > 0 &&
            s.devices.size() == 1 && r.idle_s <= r.host_s)
          os << "; " << format_share(r.idle_s / r.host_s)
             << " of the time in it";
        os << ")\n";
      }
    }
    os << "  what if:\n";
    for (const IdleWhatIf& w : s.what_if) {
      const std::string l = idle_what_if_line(w, s);
      if (!l.empty()) os << "    " << l << "\n";
    }
  }
  if (s.dropped.any()) {
    const IdleDropped& d = s.dropped;
    std::string l;
    auto add = [&](std::uint64_t n, const char* what) {
      if (n == 0) return;
      l += l.empty() ? "" : ", ";
      l += std::to_string(n) + " " + what;
    };
    add(d.late_activities, "device records after their time");
    add(d.late_intervals, "host intervals after their time");
    add(d.bad_times, "records with bad times");
    add(d.overlapping_intervals, "overlapping host intervals clipped");
    add(d.devices, "records of devices past the cap");
    add(d.threads, "host intervals of threads past the cap");
    add(d.streams, "records of streams past the cap");
    add(d.sites, "gaps of call sites past the cap");
    add(d.regions, "events of regions past the cap");
    add(d.kernels, "kernel runs past the first-run cap");
    os << "  idle limits: " << l << " (the JSON's \"idle\".\"dropped\")\n";
  }
}

namespace {
nlohmann::json str_or_null(const std::string& s) {
  return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s);
}
nlohmann::json states_json(const std::array<double, kHostStates + 1>& st) {
  nlohmann::json j = nlohmann::json::object();
  for (std::size_t i = 0; i < kHostStates; ++i)
    j[host_state_name(static_cast<HostState>(i))] = st[i];
  j["unknown"] = st[kHostStateUnknown];
  return j;
}
nlohmann::json causes_json(const std::array<double, kIdleCauses>& s,
                           const std::array<std::uint64_t, kIdleCauses>* g) {
  nlohmann::json j = nlohmann::json::object();
  for (std::size_t c = 0; c < kIdleCauses; ++c) {
    const char* k = idle_cause_name(static_cast<IdleCause>(c));
    if (g)
      j[k] = {{"idle_s", s[c]}, {"gaps", (*g)[c]}};
    else
      j[k] = s[c];
  }
  return j;
}
}  // namespace

nlohmann::json idle_json(const IdleSummary& s) {
  using nlohmann::json;
  json j;
  j["units"] =
      "seconds on the tool's clock; shares are fractions of span_s (the "
      "devices' runs, first work to last, summed)";
  j["any_activity"] = s.any_activity;
  j["run_begin_s"] = s.run_begin_s < 0 ? json(nullptr) : json(s.run_begin_s);
  j["run_end_s"] = s.run_end_s < 0 ? json(nullptr) : json(s.run_end_s);
  j["span_s"] = s.span_s;
  j["busy_s"] = s.busy_s;
  j["idle_s"] = s.idle_s;
  j["idle_share"] = s.idle_share();
  j["startup_s"] = s.startup_s < 0 ? json(nullptr) : json(s.startup_s);
  j["tail_s"] = s.tail_s < 0 ? json(nullptr) : json(s.tail_s);
  j["gaps"] = s.gaps;
  json devices = json::array();
  for (const IdleDeviceStats& d : s.devices)
    devices.push_back(
        {{"device", d.device},
         {"activities", d.activities},
         {"gaps", d.gaps},
         {"first_s", d.first_s},
         {"last_s", d.last_s},
         {"span_s", d.span_s},
         {"busy_s", d.busy_s},
         {"idle_s", d.idle_s},
         {"idle_share", d.span_s > 0 ? d.idle_s / d.span_s : 0.0},
         {"startup_s", d.startup_s < 0 ? json(nullptr) : json(d.startup_s)},
         {"tail_s", d.tail_s < 0 ? json(nullptr) : json(d.tail_s)},
         {"causes", causes_json(d.cause_s, &d.cause_gaps)}});
  j["devices"] = devices;
  json streams = json::array();
  for (const IdleStreamStats& st : s.streams)
    streams.push_back({{"device", st.device},
                       {"stream", st.other ? json(nullptr) : json(st.stream)},
                       {"other", st.other},
                       {"activities", st.activities},
                       {"busy_s", st.busy_s},
                       {"idle_s", st.idle_s}});
  j["streams"] = streams;
  json causes = json::object();
  for (const IdleCauseStats& c : s.causes)
    causes[idle_cause_name(c.cause)] = {
        {"idle_s", c.idle_s},
        {"share", s.span_s > 0 ? c.idle_s / s.span_s : 0.0},
        {"gaps", c.gaps},
        {"calls", c.calls},
        {"thread_state_s",
         whole_gap_cause(c.cause) ? states_json(c.state_s) : json(nullptr)}};
  j["causes"] = causes;
  json sites = json::array();
  for (const IdleSiteStats& r : s.sites)
    sites.push_back(
        {{"cause", idle_cause_name(r.cause)},
         {"site", str_or_null(r.site)},
         {"region", str_or_null(r.region)},
         {"before", str_or_null(r.before)},
         {"after", str_or_null(r.after)},
         {"other", r.other},
         {"gaps", r.gaps},
         {"calls", r.calls},
         {"idle_s", r.idle_s},
         {"share", s.span_s > 0 ? r.idle_s / s.span_s : 0.0},
         {"max_s", r.max_s},
         {"thread_state_s",
          whole_gap_cause(r.cause) ? states_json(r.state_s) : json(nullptr)},
         {"words", str_or_null(idle_site_words(r))},
         {"code", code_site_json(r.code)}});
  j["sites"] = sites;
  json regions = json::array();
  for (const IdleRegionStats& r : s.regions)
    regions.push_back({{"region", str_or_null(r.region)},
                       {"other", r.other},
                       {"gaps", r.gaps},
                       {"idle_s", r.idle_s},
                       {"share", s.span_s > 0 ? r.idle_s / s.span_s : 0.0},
                       {"host_s", r.host_s},
                       {"one_thread", r.one_thread},
                       {"causes", causes_json(r.cause_s, nullptr)}});
  j["regions"] = regions;
  json what_if = json::array();
  for (const IdleWhatIf& w : s.what_if) {
    const std::string line = idle_what_if_line(w, s);
    what_if.push_back(
        {{"cause", idle_cause_name(w.cause)},
         {"idle_s", w.idle_s},
         {"share", w.share},
         {"gaps", w.gaps},
         {"calls", w.calls},
         {"top_site", str_or_null(w.top.cause == IdleCause::HostCode
                                      ? idle_site_words(w.top)
                                      : w.top.site)},
         {"top_region", str_or_null(w.top.region)},
         {"top_code", code_site_json(w.top.code)},
         {"top_idle_s", w.top.idle_s},
         {"top_share", w.top_share},
         {"region_share",
          w.region_share < 0 ? json(nullptr) : json(w.region_share)},
         {"other_sites", w.other_sites},
         {"saves_up_to_s", w.top.idle_s},
         {"line", str_or_null(line)}});
  }
  j["what_if"] = what_if;
  json longest = json::array();
  for (const IdleInterval& g : s.longest) {
    json pieces = json::array();
    for (const IdlePiece& p : g.pieces)
      pieces.push_back({{"cause", idle_cause_name(p.cause)},
                        {"begin_s", p.begin_s},
                        {"end_s", p.end_s}});
    longest.push_back(
        {{"device", g.device},
         {"stream", g.stream},
         {"thread", g.thread_known ? json(g.thread) : json(nullptr)},
         {"begin_s", g.begin_s},
         {"end_s", g.end_s},
         {"duration_s", g.duration_s()},
         {"cause", idle_cause_name(g.cause)},
         {"pieces", pieces},
         {"next", str_or_null(g.next)},
         {"next_kind", device_work_name(g.next_kind)},
         {"state",
          g.state_known ? json(host_state_name(g.state)) : json(nullptr)},
         {"site", str_or_null(g.site)},
         {"region", str_or_null(g.region)},
         {"before", str_or_null(g.before)},
         {"after", str_or_null(g.after)},
         {"host_begin_s", g.state_known ? json(g.host_begin_s) : json(nullptr)},
         {"host_end_s", g.state_known ? json(g.host_end_s) : json(nullptr)}});
  }
  j["longest"] = longest;
  const IdleDropped& d = s.dropped;
  j["dropped"] = {{"late_activities", d.late_activities},
                  {"late_intervals", d.late_intervals},
                  {"bad_times", d.bad_times},
                  {"overlapping_intervals", d.overlapping_intervals},
                  {"devices", d.devices},
                  {"threads", d.threads},
                  {"streams", d.streams},
                  {"sites", d.sites},
                  {"regions", d.regions},
                  {"kernels", d.kernels}};
  return j;
}

}  // namespace addscope
