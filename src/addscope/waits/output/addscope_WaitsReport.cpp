#include "addscope/waits/output/addscope_WaitsReport.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <unordered_map>

#include "addscope/core/addscope_Format.hpp"
#include "addscope/waits/output/addscope_Headline.hpp"
#include "addscope/waits/output/addscope_IdleReport.hpp"
#include "addscope/waits/output/addscope_WaitsJson.hpp"

namespace addscope {

namespace {

std::string fraction_words(double f) {
  if (f > 0) {
    const double inv = 1 / f;
    if (std::fabs(inv - std::round(inv)) < 1e-9 && inv <= 1000)
      return "1/" + std::to_string((long long)std::round(inv));
  }
  return format_share(f);
}

// Each kernel with its shapes judged, and a way to find it from a wait.
struct KernelView {
  const KernelStats* k = nullptr;
  std::vector<ShapeVerdict> shapes;  // most device time first
  bool starved = false;
  // Of all kernels' time: on the device, of the device kernels' (a kernel
  // run on a host space beside them has none, -1: one whole per column).
  double share = 0;
};
struct Analysis {
  double busy_s = 0;
  std::vector<KernelView> kernels;  // in w.kernels' order
  std::unordered_map<std::string, std::size_t> by_raw;
  const KernelView* find(const std::string& raw) const {
    auto it = by_raw.find(raw);
    return it == by_raw.end() ? nullptr : &kernels[it->second];
  }
};

Analysis analyze(const WaitsSnapshot& w, const WaitsReportOptions& opt) {
  Analysis a;
  if (w.mode == WaitsMode::Device) {
    a.busy_s = w.totals.device_busy_s;
  } else {
    for (const auto& k : w.kernels) a.busy_s += k.device_s;
  }
  a.kernels.reserve(w.kernels.size());
  for (const auto& k : w.kernels) {
    KernelView v;
    v.k = &k;
    v.shapes = judge_shapes(k, w.devices, a.busy_s, opt.starved);
    for (const auto& s : v.shapes) v.starved = v.starved || s.starved;
    const bool host_row = w.mode == WaitsMode::Device &&
                          !is_async(k.device_kind) &&
                          k.device_kind != DeviceKind::Unknown;
    v.share = host_row ? -1 : a.busy_s > 0 ? k.device_s / a.busy_s : 0;
    a.by_raw.emplace(k.raw_name, a.kernels.size());
    a.kernels.push_back(std::move(v));
  }
  return a;
}

// The launch a call waited for, as the report names it: the verdict on its
// shape (the waited launch's own; else, unknown, the kernel's first shape)
// and its line: that launch's own where its place is known or a stack was
// taken at it, else its shape's line, else the kernel's first launch's
// (`how`: how many launches that line stands for).
struct WaitedLaunch {
  const ShapeVerdict* shape = nullptr;  // null: no shape known
  bool exact = false;                   // `shape` is the waited launch's
  const CodeSite* at = nullptr;
  LaunchedHow how = LaunchedHow::Only;
};
WaitedLaunch waited_launch(const KernelView& v, const WaitShare& s) {
  WaitedLaunch l;
  if (s.shape.known())
    for (const auto& d : v.shapes)
      if (same_shape(d.stats.shape, s.shape)) {
        l.shape = &d;
        l.exact = true;
        break;
      }
  if (!l.shape && !v.shapes.empty()) l.shape = &v.shapes.front();
  if (s.launched_at.known()) {
    l.at = &s.launched_at;
  } else if (l.shape) {
    l.at = &launched_in(*v.k, l.shape->stats, &l.how);
  } else {
    l.at = &v.k->launched_at;
    l.how = std::max(v.k->calls, v.k->launches) > 1 ? LaunchedHow::First
                                                    : LaunchedHow::Only;
  }
  return l;
}

// "launched at main.cpp:20 (main) as 1 x 1 (starved)" for the kernel a call
// waited for, at the launch it waited for (WaitedLaunch); one placed by a
// first launch of several: "launched as 1 x 1 (starved), first at
// main.cpp:12 (main)".
std::string launch_note(const Analysis& a, const WaitShare& s) {
  const KernelView* v = a.find(s.kernel_raw);
  if (!v) return "";
  const WaitedLaunch l = waited_launch(*v, s);
  const std::string at = site_text(*l.at);
  const bool only = l.how == LaunchedHow::Only;
  if (!l.shape) return at.empty() ? "" : launched_words(l.how) + at;
  std::string n = "launched " + (at.empty() || !only ? "" : "at " + at + " ") +
                  "as " + shape_short(l.shape->stats.shape);
  if (!l.exact && (v->shapes.size() > 1 || v->k->other_shapes.launches > 0))
    n += " and other shapes";
  if (l.shape->starved) n += " (starved)";
  if (!at.empty() && !only)
    n += (l.how == LaunchedHow::Most ? ", mostly at " : ", first at ") + at;
  return n;
}

// "main.cpp:24 (main): deep_copy x waited 562.4 ms for K, launched at
// main.cpp:20 (main) as 1 x 1 (starved)" (without the line when the row
// above it said it).
std::string wait_line(const Analysis& a, const CallRecord& c,
                      bool with_site = true) {
  std::string line = (with_site ? site_prefix(c.code) : std::string()) +
                     c.what + " waited " +
                     (c.wait_is_bound ? "up to " : "") +
                     format_seconds(c.wait_s) + " for ";
  if (c.waited_for.size() == 1) {
    line += c.waited_for[0].kernel;
    const std::string n = launch_note(a, c.waited_for[0]);
    if (!n.empty()) line += ", " + n;
    return line;
  }
  // The kernels that cost the most (longest first); the others counted.
  constexpr std::size_t kNamed = 3;
  const std::size_t n = c.waited_for.size();
  const std::size_t named = n > kNamed + 1 ? kNamed : n;
  for (std::size_t i = 0; i < named; ++i) {
    const auto& s = c.waited_for[i];
    if (i) line += i + 1 == n ? " and " : ", ";
    line += s.kernel + " (" + format_seconds(s.wait_s);
    const std::string note = launch_note(a, s);
    if (!note.empty()) line += ", " + note;
    line += ")";
  }
  if (named < n) {
    double rest = 0;
    for (std::size_t i = named; i < n; ++i) rest += c.waited_for[i].wait_s;
    line += " and " + std::to_string(n - named) + " other kernels (" +
            format_seconds(rest) + ")";
  }
  return line;
}

std::string where_line(const CallRecord& c) {
  std::string where = format_seconds(c.duration_s()) + " in all, " +
                      format_seconds(c.own_s()) + " its own; " +
                      call_kind_name(c.kind);
  auto add = [&](const std::string& s) {
    if (!s.empty()) where += ", " + s;
  };
  add(c.context);
  if (!c.via.empty() && c.via != c.what) add("blocked in " + c.via);
  if (!c.regions.empty()) add("in region " + c.regions);
  add("host thread " + std::to_string(c.thread));
  return where;
}

// A CUDA program without Kokkos (the tool came in through CUDA injection
// and no Kokkos Tools event ever came): its report speaks no Kokkos.
bool without_kokkos(const WaitsSnapshot& w) {
  return w.front_door == "cuda-injection";
}

// A row at a line may hold one call on several streams, named without them
// (resolve_sites); its calls keep theirs.
bool same_site(const SiteStats& s, const CallRecord& c) {
  return s.kind == c.kind && s.regions == c.regions && s.code == c.code &&
         (s.site == c.site ||
          (s.code.known() && s.site == without_stream_suffix(c.site)));
}

void write_sites(std::ostream& os, const WaitsSnapshot& w, const Analysis& a,
                 const WaitsReportOptions& opt, WaitClass cls) {
  const bool hidden = cls == WaitClass::Hidden;
  const double total = hidden ? w.totals.hidden_s : w.totals.explicit_s;
  std::vector<const SiteStats*> sites;
  for (const auto& s : w.sites)
    if ((hidden ? s.wait_hidden_s : s.wait_explicit_s) > 0) sites.push_back(&s);
  auto wait_of = [&](const SiteStats* s) {
    return hidden ? s->wait_hidden_s : s->wait_explicit_s;
  };
  std::stable_sort(sites.begin(), sites.end(),
                   [&](const SiteStats* x, const SiteStats* y) {
                     return wait_of(x) > wait_of(y);
                   });
  char b[160];
  std::snprintf(b, sizeof b, "    %8s %11s %11s %7s  %s\n", "calls", "total",
                "mean", "share", "call site");
  os << b;
  std::size_t shown = 0, below = 0, beyond = 0;
  for (const SiteStats* s : sites) {
    const double t = wait_of(s);
    if (t < opt.threshold_s) {
      ++below;
      continue;
    }
    if (shown >= opt.top) {
      ++beyond;
      continue;
    }
    ++shown;
    const std::uint64_t n = hidden ? s->hidden_calls : s->explicit_calls;
    // A program without Kokkos names its calls by its code, the line first
    // ("train.py:21 (main) `total += loss.item()` → cudaStreamSynchronize");
    // a Kokkos program by its labels, the line after.
    const bool code_first = without_kokkos(w) && s->code.known();
    std::string site = code_first ? code_then_call(s->code, s->site) : s->site;
    if (s->code.known() && !code_first) site += "  at " + site_text(s->code);
    if (!s->regions.empty()) site += "  [in region " + s->regions + "]";
    std::snprintf(b, sizeof b, "    %8s %11s %11s %7s  ",
                  thousands((long long)n).c_str(), format_seconds(t).c_str(),
                  format_seconds(n ? t / double(n) : 0).c_str(),
                  format_share(total > 0 ? t / total : 0).c_str());
    os << b << site << "\n";
    // The longest of its calls kept with details (the JSON has up to 1000).
    for (const auto& c : w.waits)
      if (c.wait_class == cls && same_site(*s, c)) {
        // Its line is the row's: said once.
        os << "             " << (n > 1 ? "longest: " : "")
           << wait_line(a, c, !code_first) << "\n";
        os << "               " << where_line(c) << "\n";
        break;
      }
  }
  if (below + beyond > 0) {
    os << "    ... ";
    if (beyond) os << beyond << " more call sites";
    if (beyond && below) os << ", ";
    if (below)
      os << below << (below == 1 ? " call site" : " call sites") << " under "
         << format_seconds(opt.threshold_s);
    os << " " << more_rows_hint(opt, true) << "\n";
  }
}

void write_devices(std::ostream& os, const WaitsSnapshot& w) {
  for (const auto& d : w.devices) {
    if (!d.known()) continue;
    os << "  device " << d.device << ": " << (d.name.empty() ? "?" : d.name)
       << " (sm_" << d.cc_major << d.cc_minor << "), " << d.sms << " SMs x "
       << thousands(d.max_threads_per_sm)
       << " threads = " << thousands(d.resident_threads())
       << " resident threads\n";
  }
}

// A CUDA program (loaded through CUDA injection) whose device source did not
// start (no libcupti): the tool saw none of its device work, which is not a
// host backend's.
bool device_unseen(const WaitsSnapshot& w) {
  return w.mode == WaitsMode::Host && without_kokkos(w);
}

void write_shapes(std::ostream& os, const WaitsSnapshot& w, const Analysis& a,
                  const WaitsReportOptions& opt) {
  if (device_unseen(w)) {
    os << "  launch shapes: need CUPTI, which this run did not have\n";
    return;
  }
  if (w.mode == WaitsMode::Host) {
    os << "  launch shapes: a GPU matter (a host backend runs each kernel "
          "inside its launch call); Kokkos' callbacks give each kernel's "
          "name, calls and host time, below\n";
    return;
  }
  if (w.mode == WaitsMode::KokkosOnly) {
    os << "  launch shapes: need device records (CUPTI), which this run did "
          "not have; Kokkos' callbacks give each kernel's name and calls, "
          "below\n";
    return;
  }
  bool any_shape = false, any_device = false;
  for (const auto& v : a.kernels)
    for (const auto& s : v.shapes) {
      any_shape = true;
      any_device = any_device || s.device;
    }
  if (!any_shape) return;
  if (!any_device) {
    os << "  starved launches: not judged (what the device can hold is "
          "unknown: the CUDA driver did not say)\n";
    return;
  }
  std::vector<std::pair<double, std::string>> lines;
  for (const auto& v : a.kernels)
    for (const auto& s : v.shapes)
      if (s.starved) {
        // Where it was launched so, after the numbers.
        LaunchedHow how = LaunchedHow::Only;
        const std::string at = site_text(launched_in(*v.k, s.stats, &how));
        lines.push_back(
            {s.stats.device_s,
             starved_line(v.k->name, s) +
                 (at.empty() ? "" : "; " + (launched_words(how) + at))});
      }
  std::stable_sort(lines.begin(), lines.end(),
                   [](const std::pair<double, std::string>& x,
                      const std::pair<double, std::string>& y) {
                     return x.first > y.first;
                   });
  os << "  starved launches (" << starvation_rule_words(opt.starved) << "): ";
  if (lines.empty()) {
    os << "none\n";
    return;
  }
  os << lines.size() << "\n";
  std::size_t shown = 0;
  for (const auto& l : lines) {
    if (shown++ >= opt.top) {
      os << "    ... " << lines.size() - opt.top << " more "
         << more_rows_hint(opt, false) << "\n";
      break;
    }
    os << "    " << l.second << "\n";
  }
}

void write_kernels(std::ostream& os, const WaitsSnapshot& w, const Analysis& a,
                   const WaitsReportOptions& opt) {
  if (w.kernels.empty()) return;
  const bool device = w.mode == WaitsMode::Device;
  const bool host = w.mode == WaitsMode::Host;
  os << "  kernels by "
     << (device ? "device time"
         : host ? "host time"
                : "calls (no device times)");
  if (w.kernels.size() > opt.top)
    os << " (top " << opt.top << " of " << w.kernels.size() << ")";
  os << ":\n";
  char b[256];
  if (device)
    std::snprintf(b, sizeof b,
                  "    %8s %11s %11s %11s %7s  %-16s %-18s %5s  %s\n",
                  "launches", "total", "mean", "median", "share",
                  "grid x block", "threads in flight", "occ.", "kernel");
  else if (host)
    std::snprintf(b, sizeof b, "    %8s %11s %11s %11s %7s  %-8s  %s\n",
                  "calls", "total", "mean", "median", "share", "space",
                  "kernel");
  else
    std::snprintf(b, sizeof b, "    %8s  %s\n", "calls", "kernel");
  os << b;
  // Kokkos-only: no times, most calls first.
  std::vector<const KernelView*> order;
  for (const auto& v : a.kernels) order.push_back(&v);
  if (!device && !host)
    std::stable_sort(order.begin(), order.end(),
                     [](const KernelView* x, const KernelView* y) {
                       return x->k->calls > y->k->calls;
                     });
  std::size_t shown = 0;
  for (const KernelView* v : order) {
    if (shown++ >= opt.top) break;
    const KernelStats& k = *v->k;
    const std::uint64_t n = k.launches ? k.launches : k.calls;
    std::string extra;
    auto add = [&](const std::string& s) {
      if (s.empty()) return;
      extra += extra.empty() ? "" : "; ";
      extra += s;
    };
    if (device) {
      std::string shape = "-", flight = "-", occ = "-";
      if (v->shapes.empty() && k.launches > 0 && !is_async(k.device_kind) &&
          k.device_kind != DeviceKind::Unknown)
        shape = std::string("host: ") + device_kind_name(k.device_kind);
      if (!v->shapes.empty()) {
        const ShapeVerdict& d = v->shapes.front();
        shape = shape_short(d.stats.shape);
        if (d.device) {
          flight = thousands(d.occupancy.threads_in_flight) + " (" +
                   format_share(d.occupancy.in_flight_fraction()) + ")";
          char o[16];
          std::snprintf(o, sizeof o, "%.0f%%", 100 * d.occupancy.theoretical);
          occ = o;
        }
      }
      std::snprintf(
          b, sizeof b, "    %8s %11s %11s %11s %7s  %-16s %-18s %5s  ",
          thousands((long long)n).c_str(),
          k.launches ? format_seconds(k.device_s).c_str() : "-",
          k.launches ? format_seconds(k.device_s / k.launches).c_str() : "-",
          k.launches ? format_seconds(k.times.median()).c_str() : "-",
          k.launches && v->share >= 0 ? format_share(v->share).c_str() : "-",
          shape.c_str(), flight.c_str(), occ.c_str());
      if (v->starved) add("STARVED");
      const std::size_t more = v->shapes.size() - (v->shapes.empty() ? 0 : 1) +
                               (k.other_shapes.launches > 0 ? 1 : 0);
      if (more > 0)
        add("+" + std::to_string(more) +
            (more == 1 ? " other shape" : " other shapes"));
      if (k.launches == 0 && k.calls > 0)
        add("no device kernel recorded (a memset, a copy or nothing)");
    } else if (host) {
      std::snprintf(b, sizeof b, "    %8s %11s %11s %11s %7s  %-8s  ",
                    thousands((long long)n).c_str(),
                    format_seconds(k.device_s).c_str(),
                    format_seconds(n ? k.device_s / n : 0).c_str(),
                    format_seconds(k.times.median()).c_str(),
                    format_share(v->share).c_str(),
                    k.device_kind == DeviceKind::Unknown
                        ? "host"
                        : device_kind_name(k.device_kind));
    } else {
      std::snprintf(b, sizeof b, "    %8s  ", thousands((long long)n).c_str());
    }
    os << b << k.name;
    if (k.defined_at.known()) add("def at " + site_text(k.defined_at));
    // Its line: the shape's the row shows (where its launches took the
    // most time, else its first launch's), else the kernel's first launch's.
    LaunchedHow how = std::max(k.calls, k.launches) > 1 ? LaunchedHow::First
                                                        : LaunchedHow::Only;
    const CodeSite& at = v->shapes.empty()
                             ? k.launched_at
                             : launched_in(k, v->shapes.front().stats, &how);
    if (at.known()) add(launched_words(how) + site_text(at));
    const double waited = k.waited_hidden_s + k.waited_explicit_s;
    if (waited > 0)
      add("waited for " + format_seconds(waited) +
          (k.waited_hidden_s > 0
               ? " (" + format_seconds(k.waited_hidden_s) + " hidden)"
               : std::string()));
    if (k.overlap_s > 0) add("overlapped " + format_seconds(k.overlap_s));
    if (!extra.empty()) os << "  [" << extra << "]";
    os << "\n";
  }
  if (w.kernels.size() > opt.top)
    os << "    ... " << w.kernels.size() - opt.top << " more kernels "
       << more_rows_hint(opt, false) << "\n";
}

void write_regions(std::ostream& os, const WaitsSnapshot& w) {
  struct R {
    double hidden = 0, expl = 0;
    std::uint64_t calls = 0;
  };
  std::map<std::string, R> regions;
  for (const auto& s : w.sites) {
    if (s.regions.empty() || s.wait_hidden_s + s.wait_explicit_s <= 0) continue;
    R& r = regions[s.regions];
    r.hidden += s.wait_hidden_s;
    r.expl += s.wait_explicit_s;
    r.calls += s.hidden_calls + s.explicit_calls;
  }
  if (regions.empty()) return;
  std::vector<std::pair<std::string, R>> v(regions.begin(), regions.end());
  std::stable_sort(v.begin(), v.end(), [](const auto& x, const auto& y) {
    return x.second.hidden + x.second.expl > y.second.hidden + y.second.expl;
  });
  os << "  waits by region (profiling regions, addscope::WaitScope):\n";
  char b[160];
  std::snprintf(b, sizeof b, "    %8s %11s %11s  %s\n", "calls", "hidden",
                "explicit", "region");
  os << b;
  for (const auto& r : v) {
    std::snprintf(b, sizeof b, "    %8s %11s %11s  ",
                  thousands((long long)r.second.calls).c_str(),
                  format_seconds(r.second.hidden).c_str(),
                  format_seconds(r.second.expl).c_str());
    os << b << r.first << "\n";
  }
}

}  // namespace

std::string starvation_rule_words(const StarvationRule& r) {
  return "fewer than " + fraction_words(r.max_in_flight) +
         " of the resident threads in flight, at least " +
         format_share(r.min_share) + " of all kernel time and " +
         format_seconds(r.min_s);
}

std::string starved_line(const std::string& kernel, const ShapeVerdict& v) {
  std::string line = kernel + " ran as " + shape_words(v.stats.shape);
  if (v.device) {
    line +=
        " (" + thousands(v.occupancy.threads_in_flight) + " of " +
        thousands(v.occupancy.resident_threads) + " resident threads on this " +
        (v.device->name.empty() ? std::string("device") : v.device->name) + ")";
  }
  line += ": " + format_seconds(v.stats.device_s);
  if (v.stats.launches > 1)
    line += " in " + thousands((long long)v.stats.launches) + " launches, " +
            format_seconds(v.stats.device_s / double(v.stats.launches)) +
            " each on average";
  return line;
}

void write_waits_report(std::ostream& os, const WaitsSnapshot& w,
                        const WaitsReportOptions& opt) {
  const WaitTotals& t = w.totals;
  const Analysis a = analyze(w, opt);
  os << "addscope waits";
  if (w.rank >= 0) os << " (rank " << w.rank << ")";
  switch (w.mode) {
    case WaitsMode::Host:
      if (device_unseen(w))
        os << ": the device unseen ("
           << (w.device_source.empty() ? std::string("no device source")
                                       : w.device_source)
           << ")";
      else
        os << ": host backend, kernels run inside their launch calls";
      break;
    case WaitsMode::Device:
      os << ": device timestamps from " << w.device_source;
      break;
    case WaitsMode::KokkosOnly:
      os << ": no device timestamps (" << w.device_source
         << "); a wait is bounded by the fence or deep_copy that ended it";
      break;
    case WaitsMode::Callbacks:
      os << ": " << w.device_source
         << "; a wait is bounded by the blocking call that ended it";
      break;
  }
  if (w.front_door == "cuda-injection")
    os << "; any CUDA program (CUDA_INJECTION64_PATH): its CUDA runtime "
          "and driver calls";
  else if (w.kokkos_fences == 0 && w.mode != WaitsMode::Host)
    os << "; this Kokkos reports no fences";
  os << "\n";
  const std::vector<std::string> head = headline_lines(w, opt.starved);
  if (!head.empty()) {
    os << "  in short:\n";
    for (const auto& l : head) os << "    " << l << "\n";
  }
  const std::uint64_t streams = w.streams.size();
  // A program without Kokkos launched no Kokkos kernel: its kernels are
  // the device's.
  const bool kokkos = !without_kokkos(w);
  if (!kokkos && w.mode == WaitsMode::Device) {
    os << "  " << format_count(t.device_kernels, "kernel", "kernels") << " on "
       << format_count(streams, "stream", "streams") << " ("
       << format_seconds(t.device_busy_s) << " of kernel time)";
  } else {
    os << "  "
       << format_count(t.launches + t.host_kernels, "kernel", "kernels");
    if (w.mode == WaitsMode::Device)
      os << " ("
         << format_count(t.device_kernels, "device kernel", "device kernels")
         << " on " << format_count(streams, "stream", "streams") << ", "
         << format_seconds(t.device_busy_s) << " of kernel time)";
  }
  os << ", " << format_count(t.calls, "host call", "host calls") << " on "
     << format_count(w.threads_seen, "thread", "threads") << "\n";
  if (w.mode == WaitsMode::Device) write_devices(os, w);

  if (device_unseen(w)) {
    os << "  waits: not known without CUPTI\n";
  } else if (w.mode == WaitsMode::Host) {
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
      os << format_seconds(s) << " in " << format_count(n, "call", "calls");
      if (kokkos)
        os << (hidden ? " (waits the program did not ask for: deep_copy, "
                        "mirrors, allocations, Kokkos' own fences, ...)"
                      : " (in fences the program wrote)");
      else
        os << (hidden ? " (waits inside calls that do not say they wait: "
                        "copies, reads of device memory, frees, launches "
                        "held back, ...)"
                      : " (in synchronize calls)");
      os << "\n";
      write_sites(os, w, a, opt, cls);
    }
    if (w.mode == WaitsMode::Device)
      os << "  overlap: host work ran during " << format_seconds(t.overlap_s)
         << " of kernel time (time saved by not waiting)\n";
  }
  if (w.mode == WaitsMode::Device)
    write_idle_report(os, w.idle, opt, without_kokkos(w));
  write_shapes(os, w, a, opt);
  write_kernels(os, w, a, opt);
  write_regions(os, w);
  if (w.kernels_without_device_record > 0)
    os << "  note: " << w.kernels_without_device_record
       << " launches never got a device record\n";
  if (w.dropped.any()) {
    const WaitsDropped& d = w.dropped;
    std::string l;
    auto add = [&](std::uint64_t n, const char* what) {
      if (n == 0) return;
      l += l.empty() ? "" : ", ";
      l += std::to_string(n) + " " + what;
    };
    add(d.unended_calls, "calls begun and never ended");
    add(d.unpopped_regions, "regions never popped");
    add(d.unmatched_ends, "end callbacks without a begin");
    add(d.regions_too_deep, "region pushes past the depth cap");
    add(d.names, "names past the name table's cap");
    add(d.settled_early, "records attributed early (cap on records held)");
    add(d.pending_launches, "launches forgotten (cap)");
    add(d.device_records, "kernel records lost by the device source");
    add(d.events, "events not recorded (the threads' logs were full)");
    add(d.stacks, "stacks not taken (the threads' logs were short of room)");
    add(d.kernels, "events of kernel names past the cap");
    add(d.sites, "calls of call sites past the cap");
    add(d.streams, "kernels of streams past the cap");
    add(d.threads, "calls of threads past the cap");
    os << "  limits: " << l << " (the JSON's \"dropped\")\n";
  }
  if (w.sites_cost.taken > 0) {
    const WaitsSitesCost& c = w.sites_cost;
    os << "  the program's lines: " << thousands((long long)c.taken)
       << " stacks taken, " << format_seconds(c.seconds)
       << " of the program's threads' time ("
       << format_seconds(c.seconds / double(c.taken)) << " each";
    // Apart when some were read again: the first at a place costs the
    // unwinder's first reading of its functions, the next ones a copy.
    // And a Python program's launches at places of their own: their
    // Python line alone.
    if ((c.read_again > 0 || c.python_alone > 0) &&
        c.read_again + c.python_alone <= c.taken) {
      const std::uint64_t unwound = c.taken - c.read_again - c.python_alone;
      const double unwound_s =
          c.seconds - c.read_again_seconds - c.python_alone_seconds;
      os << ": " << thousands((long long)unwound) << " unwound, "
         << format_seconds(unwound ? unwound_s / double(unwound) : 0.0)
         << " each";
      if (c.read_again > 0)
        os << ", " << thousands((long long)c.read_again)
           << " read again at a place taken before, "
           << format_seconds(c.read_again_seconds / double(c.read_again))
           << " each";
      if (c.python_alone > 0)
        os << ", " << thousands((long long)c.python_alone)
           << " a Python line alone, "
           << format_seconds(c.python_alone_seconds / double(c.python_alone))
           << " each";
    }
    if (c.python_seconds > 0)
      os << "; " << format_seconds(c.python_seconds)
         << " of it reading Python lines";
    os << "; ADDSCOPE_WAITS_SITES=off leaves them out)\n";
  }
  if (!w.trace_path.empty()) {
    os << "  trace: " << w.trace_path;
    if (w.trace_events_dropped > 0)
      os << " (" << w.trace_events_dropped << " events past the cap dropped)";
    if (w.trace_write_failed) os << " (writing failed: the file is incomplete)";
    os << "\n";
  }
}

namespace {
nlohmann::json str_or_null(const std::string& s) {
  return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s);
}
nlohmann::json shape_json(const LaunchShape& s) {
  return {{"grid", {s.grid[0], s.grid[1], s.grid[2]}},
          {"block", {s.block[0], s.block[1], s.block[2]}},
          {"blocks", s.blocks()},
          {"threads_per_block", s.threads_per_block()},
          {"registers", s.registers},
          {"shared_static", s.shared_static},
          {"shared_dynamic", s.shared_dynamic}};
}
}  // namespace

std::string waits_json(const WaitsSnapshot& w, const WaitsReportOptions& opt) {
  using nlohmann::json;
  const Analysis a = analyze(w, opt);
  json j;
  j["schema"] = "addscope-waits/" + std::to_string(kWaitsJsonVersion);
  j["version"] = kWaitsJsonVersion;
  j["clock"] =
      "seconds on the steady clock (CLOCK_MONOTONIC) since libaddscope_waits "
      "was loaded; epoch_unix_s is that moment on the system clock; device "
      "timestamps are mapped onto it";
  j["epoch_unix_s"] = w.epoch_unix_s > 0 ? json(w.epoch_unix_s) : json(nullptr);
  j["mode"] = waits_mode_name(w.mode);
  j["device_source"] = str_or_null(w.device_source);
  j["kokkos_reports_fences"] =
      w.kokkos_fences < 0 ? json(nullptr) : json(w.kokkos_fences == 1);
  j["rank"] = w.rank < 0 ? json(nullptr) : json(w.rank);
  j["options"] = {{"top", opt.top},
                  {"threshold_s", opt.threshold_s},
                  {"starved",
                   {{"max_in_flight", opt.starved.max_in_flight},
                    {"min_share", opt.starved.min_share},
                    {"min_s", opt.starved.min_s}}}};
  json devices = json::array();
  for (const auto& d : w.devices)
    devices.push_back(
        {{"device", d.device},
         {"name", str_or_null(d.name)},
         {"compute_capability",
          std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
         {"sms", d.sms},
         {"warp_size", d.warp_size},
         {"max_threads_per_sm", d.max_threads_per_sm},
         {"max_threads_per_block", d.max_threads_per_block},
         {"max_blocks_per_sm", d.max_blocks_per_sm},
         {"registers_per_sm", d.registers_per_sm},
         {"registers_per_block", d.registers_per_block},
         {"shared_per_sm", d.shared_per_sm},
         {"shared_per_block_optin", d.shared_per_block_optin},
         {"reserved_shared_per_block", d.reserved_shared_per_block},
         {"resident_threads", d.resident_threads()}});
  j["devices"] = devices;
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

  // Waits in time order; the longest first in `longest`.
  std::vector<const CallRecord*> by_time;
  for (const auto& c : w.waits) by_time.push_back(&c);
  std::stable_sort(by_time.begin(), by_time.end(),
                   [](const CallRecord* x, const CallRecord* y) {
                     return x->begin_s != y->begin_s ? x->begin_s < y->begin_s
                                                     : x->id < y->id;
                   });
  json waits = json::array();
  for (const CallRecord* cp : by_time)
    waits.push_back(
        call_record_json(*cp, wait_line(a, *cp), [&](const WaitShare& s) {
          WaitedKernelShape k;
          const KernelView* v = a.find(s.kernel_raw);
          if (!v) return k;
          const WaitedLaunch l = waited_launch(*v, s);
          if (l.shape) {
            k.launched_as = shape_short(l.shape->stats.shape);
            k.starved = l.shape->starved;
          }
          k.launched_at = *l.at;
          return k;
        }));
  j["waits"] = waits;
  json longest = json::array();
  for (std::size_t i = 0; i < w.waits.size() && i < opt.top; ++i)
    longest.push_back(w.waits[i].id);
  j["longest_waits"] = longest;

  json sites = json::array();
  for (const auto& s : w.sites) {
    const std::uint64_t n = s.hidden_calls + s.explicit_calls;
    const double wait = s.wait_hidden_s + s.wait_explicit_s;
    sites.push_back(
        {{"kind", call_kind_name(s.kind)},
         {"site", s.site},
         {"code", code_site_json(s.code)},
         {"regions", str_or_null(s.regions)},
         {"calls", s.calls},
         {"duration_s", s.duration_s},
         {"hidden_calls", s.hidden_calls},
         {"wait_hidden_s", s.wait_hidden_s},
         {"hidden_share", t.hidden_s > 0 ? s.wait_hidden_s / t.hidden_s : 0.0},
         {"explicit_calls", s.explicit_calls},
         {"wait_explicit_s", s.wait_explicit_s},
         {"explicit_share",
          t.explicit_s > 0 ? s.wait_explicit_s / t.explicit_s : 0.0},
         {"mean_wait_s", n ? wait / double(n) : 0.0},
         {"max_wait_s", s.max_wait_s}});
  }
  j["sites"] = sites;

  json kernels = json::array();
  json starved = json::array();
  for (const auto& v : a.kernels) {
    const KernelStats& k = *v.k;
    json shapes = json::array();
    for (const auto& s : v.shapes) {
      json e = shape_json(s.stats.shape);
      e["device"] = s.stats.device;
      e["launches"] = s.stats.launches;
      e["device_s"] = s.stats.device_s;
      e["share"] = s.share;
      LaunchedHow how = LaunchedHow::Only;
      e["launched_at"] = code_site_json(launched_in(k, s.stats, &how));
      if (s.device) {
        e["blocks_per_sm"] = s.occupancy.blocks_per_sm;
        e["limited_by"] = s.occupancy.limited_by;
        e["occupancy"] = s.occupancy.theoretical;
        e["threads_in_flight"] = s.occupancy.threads_in_flight;
        e["resident_threads"] = s.occupancy.resident_threads;
        e["in_flight_fraction"] = s.occupancy.in_flight_fraction();
      } else {
        for (const char* f :
             {"blocks_per_sm", "limited_by", "occupancy", "threads_in_flight",
              "resident_threads", "in_flight_fraction"})
          e[f] = nullptr;
      }
      e["starved"] = s.starved;
      shapes.push_back(e);
      if (s.starved)
        starved.push_back({{"kernel", k.name},
                           {"shape", shape_short(s.stats.shape)},
                           {"device_s", s.stats.device_s},
                           {"launches", s.stats.launches},
                           {"threads_in_flight", s.occupancy.threads_in_flight},
                           {"resident_threads", s.occupancy.resident_threads},
                           {"line", starved_line(k.name, s)}});
    }
    json e = {
        {"name", k.name},
        {"raw_name", str_or_null(k.raw_name)},
        {"launched_at", code_site_json(k.launched_at)},
        {"defined_at", code_site_json(k.defined_at)},
        {"device", k.device_kind == DeviceKind::Unknown
                       ? json(nullptr)
                       : json(device_kind_name(k.device_kind))},
        {"calls", k.calls},
        {"launches", k.launches},
        {"device_s", k.device_s},
        {"mean_s", k.launches ? k.device_s / double(k.launches) : 0.0},
        {"median_s", k.times.count() ? json(k.times.median()) : json(nullptr)},
        {"median_exact", k.times.exact()},
        {"device_max_s", k.device_max_s},
        {"share", v.share >= 0 ? json(v.share) : json(nullptr)},
        {"waited_hidden_s", k.waited_hidden_s},
        {"waited_explicit_s", k.waited_explicit_s},
        {"overlap_s", k.overlap_s},
        {"stream", k.launches && w.mode == WaitsMode::Device ? json(k.stream)
                                                             : json(nullptr)},
        {"starved", v.starved},
        {"shapes", shapes},
        {"other_shapes", k.other_shapes.launches
                             ? json{{"launches", k.other_shapes.launches},
                                    {"device_s", k.other_shapes.device_s}}
                             : json(nullptr)}};
    kernels.push_back(e);
  }
  j["kernels"] = kernels;
  j["starved"] = starved;
  json streams = json::array();
  for (const auto& s : w.streams)
    streams.push_back(
        {{"device", s.device},
         {"stream", s.stream},
         {"kokkos_instance",
          s.exec.instance ? json(s.exec.instance) : json(nullptr)},
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
  j["idle"] = idle_json(w.idle);
  j["front_door"] = w.front_door;
  j["trace"] = str_or_null(w.trace_path);
  j["trace_events_dropped"] = w.trace_events_dropped;
  const WaitsDropped& d = w.dropped;
  j["dropped"] = {{"names", d.names},
                  {"unended_calls", d.unended_calls},
                  {"unpopped_regions", d.unpopped_regions},
                  {"unmatched_ends", d.unmatched_ends},
                  {"regions_too_deep", d.regions_too_deep},
                  {"settled_early", d.settled_early},
                  {"pending_launches", d.pending_launches},
                  {"device_records", d.device_records},
                  {"events", d.events},
                  {"stacks", d.stacks},
                  {"kernels", d.kernels},
                  {"sites", d.sites},
                  {"streams", d.streams},
                  {"threads", d.threads},
                  {"trace_events", w.trace_events_dropped}};
  j["launch_places"] = w.launch_places;
  j["sites_cost"] = {
      {"taken", w.sites_cost.taken},
      {"seconds", w.sites_cost.seconds},
      {"read_again", w.sites_cost.read_again},
      {"read_again_seconds", w.sites_cost.read_again_seconds},
      {"python_seconds", w.sites_cost.python_seconds},
      {"python_alone", w.sites_cost.python_alone},
      {"python_alone_seconds", w.sites_cost.python_alone_seconds}};
  // Names are the program's bytes: invalid UTF-8 is replaced, never thrown.
  return j.dump(2, ' ', false, json::error_handler_t::replace);
}

}  // namespace addscope
