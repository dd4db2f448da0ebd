#include "addscope/waits/output/addscope_Headline.hpp"

#include <algorithm>
#include <string>

#include "addscope/core/addscope_Format.hpp"
#include "addscope/waits/attribution/addscope_Occupancy.hpp"
#include "addscope/waits/output/addscope_IdleReport.hpp"
#include "addscope/waits/output/addscope_LaunchLine.hpp"

namespace addscope {

namespace {
constexpr std::size_t kMaxLines = 5;
constexpr std::size_t kMaxStarved = 2;
// A call that spent this share of its time waiting is not itself slow.
constexpr double kMostlyWaiting = 0.9;
// Idle time worth a line of its own: of the device's run.
constexpr double kIdleWorthALine = 0.1;

// What a call site's waits cost the device (issue 36, Deliver 5), from the
// idle rows of its round trips (the device went idle while it waited): "the
// device sat idle X in their round trips"; or, for a runtime call of the
// program's own at a known line whose round trips are all listed, "the
// device stayed busy through them" when none made it idle. "" when the
// idle rows cannot say (no device times, a Kokkos call's rows by name).
std::string device_cost(const std::string& site, CallKind kind,
                        const CodeSite& code, const IdleSummary& idle,
                        bool many) {
  if (!idle.any_activity) return "";
  double idle_s = 0;
  std::uint64_t calls = 0;
  // unsure: a round-trip row that may hold these calls without saying so
  // (rows past the cap; a blocked call cut at the analyzer's watermark
  // before it ended, unnamed; the same call with no line).
  bool matched = false, unsure = false;
  for (const IdleSiteStats& r : idle.sites) {
    if (r.cause != IdleCause::SyncRoundTrip) continue;
    if (r.other || r.site.empty()) {
      unsure = true;
      continue;
    }
    const bool same = code.known() || r.code.known()
                          ? line_key(code) == line_key(r.code)
                          : r.site == site;
    if (!same) {
      unsure = unsure || (!r.code.known() && r.site == site);
      continue;
    }
    idle_s += r.idle_s;
    calls += r.calls;
    matched = true;
  }
  // One call's cost only when the rows hold that call alone.
  if (matched && !many && calls != 1) return "";
  if (matched && idle_s > 0)
    return std::string("; the device sat idle ") + format_seconds(idle_s) +
           (many ? " in their round trips" : " in its round trip");
  if (!matched && !unsure && kind == CallKind::Runtime && code.known())
    return many ? "; the device stayed busy through them: they cost it no "
                  "idle time"
                : "; the device stayed busy through it: it cost it no idle "
                  "time";
  return "";
}

}  // namespace

LaunchShape filling_launch(const DeviceCapacity& d, const LaunchShape& ran) {
  LaunchShape s;
  if (!d.known()) return s;
  s.registers = ran.registers;
  s.shared_static = ran.shared_static;
  s.shared_dynamic = ran.shared_dynamic;
  long long block = ran.threads_per_block();
  if (block < d.warp_size) block = 256;
  block = std::min<long long>(block, d.max_threads_per_block);
  s.block[0] = int(block);
  s.block[1] = s.block[2] = 1;
  s.grid[0] = 1;
  s.grid[1] = s.grid[2] = 1;
  const Occupancy o = occupancy(d, s);
  if (o.blocks_per_sm <= 0) return LaunchShape();
  s.grid[0] = d.sms * o.blocks_per_sm;
  return s;
}

std::vector<std::string> headline_lines(const WaitsSnapshot& w,
                                        const StarvationRule& rule) {
  std::vector<std::string> lines;
  if (w.mode != WaitsMode::Device) return lines;
  const IdleSummary& idle = w.idle;
  if (idle.span_s > 0) {
    const bool one = idle.devices.size() <= 1;
    lines.push_back(std::string(one ? "the device ran" : "the devices ran") +
                    " kernels, copies or memsets " +
                    format_share(idle.busy_s / idle.span_s) + " of " +
                    (one ? "its" : "their") + " run (" +
                    format_seconds(idle.busy_s) + " of " +
                    format_seconds(idle.span_s) + "), idle " +
                    format_seconds(idle.idle_s));
  }
  // Starved launches, most device time first (judged as the report's
  // starved section judges them: against the device kernels' time).
  const double busy = w.totals.device_busy_s;
  std::vector<std::pair<const KernelStats*, ShapeVerdict>> starved;
  for (const auto& k : w.kernels)
    for (const auto& v : judge_shapes(k, w.devices, busy, rule))
      if (v.starved && v.device) starved.push_back({&k, v});
  std::stable_sort(starved.begin(), starved.end(),
                   [](const auto& a, const auto& b) {
                     return a.second.stats.device_s > b.second.stats.device_s;
                   });
  for (std::size_t i = 0; i < starved.size() && i < kMaxStarved; ++i) {
    const KernelStats& k = *starved[i].first;
    const ShapeVerdict& v = starved[i].second;
    // Its line: where this shape's launches took the most time (else its
    // first launch's, else the kernel's).
    LaunchedHow how = LaunchedHow::Only;
    const CodeSite& at = launched_in(k, v.stats, &how);
    std::string l = (how != LaunchedHow::Only && at.known()
                         ? std::string(launched_words(how))
                         : std::string()) +
                    site_prefix(at) + k.name + " ran as " +
                    shape_short(v.stats.shape) + " for " +
                    format_seconds(v.stats.device_s) + ", " +
                    thousands(v.occupancy.threads_in_flight) + " of the " +
                    thousands(v.occupancy.resident_threads) +
                    " threads the device holds at once";
    const LaunchShape fill = filling_launch(*v.device, v.stats.shape);
    if (fill.known()) {
      l += ": launched as " + shape_short(fill) + " it would keep all " +
           thousands(occupancy(*v.device, fill).threads_in_flight) + " busy";
      // In the program's words, where its line spells the launch out.
      const std::string as = launch_line_as(at, v.stats.shape, fill);
      if (!as.empty()) l += " (`" + as + "`)";
    }
    lines.push_back(l);
  }
  // The call site that waited most in all, when many of its calls waited
  // (a synchronization in a loop); else the longest wait, and whether the
  // call itself was slow.
  const SiteStats* loop = nullptr;
  for (const auto& s : w.sites) {
    const double s_wait = s.wait_hidden_s + s.wait_explicit_s;
    if (!loop || s_wait > loop->wait_hidden_s + loop->wait_explicit_s)
      loop = &s;
  }
  const std::uint64_t loop_calls =
      loop ? loop->hidden_calls + loop->explicit_calls : 0;
  const double loop_wait =
      loop ? loop->wait_hidden_s + loop->wait_explicit_s : 0;
  if (loop_calls > 1 && loop_wait > 0 &&
      (w.waits.empty() || loop_wait > w.waits[0].wait_s)) {
    lines.push_back(
        site_prefix(loop->code) + loop->site + ": " +
        thousands((long long)loop_calls) + " calls waited " +
        format_seconds(loop_wait) + " in all (" +
        (loop->wait_explicit_s > loop->wait_hidden_s ? "explicit" : "hidden") +
        "), " + format_seconds(loop_wait / double(loop_calls)) +
        " each on average" +
        device_cost(loop->site, loop->kind, loop->code, idle, true));
  } else if (!w.waits.empty() && w.waits[0].wait_s > 0) {
    const CallRecord& c = w.waits[0];
    const std::string kernel = c.waited_for.empty()
                                   ? std::string("earlier device work")
                                   : c.waited_for.front().kernel;
    std::string l = site_prefix(c.code) + (c.site.empty() ? c.what : c.site);
    const double d = c.duration_s();
    if (d > 0 && c.wait_s >= kMostlyWaiting * d)
      l += " took " + format_seconds(d) + ", " + format_seconds(c.wait_s) +
           " of it waiting for " + kernel + ": not a slow call, a wait (" +
           wait_class_name(c.wait_class) + ")";
    else
      l += " waited " + format_seconds(c.wait_s) + " for " + kernel + " (" +
           wait_class_name(c.wait_class) + ")";
    lines.push_back(l + device_cost(c.site, c.kind, c.code, idle, false));
  }
  // The largest idle cause, when idle time matters; start-up (paid once)
  // apart, when it is a tenth of the idle time or more.
  if (idle.span_s > 0 && idle.idle_share() >= kIdleWorthALine) {
    const IdleCauseStats* top = nullptr;
    double startup = 0;
    for (const IdleCauseStats& c : idle.causes) {
      if (c.cause == IdleCause::StartUp)
        startup = c.idle_s;
      else if (!top && c.idle_s > 0)
        top = &c;
    }
    // "(the most: <its largest row>)"
    auto most = [&](IdleCause cause) {
      for (const IdleSiteStats& r : idle.sites) {
        if (r.cause != cause) continue;
        const std::string where = idle_site_words(r);
        return where.empty() ? std::string() : " (the most: " + where + ")";
      }
      return std::string();
    };
    std::string run, once;
    if (top)
      run = format_seconds(top->idle_s) + " of it " +
            idle_cause_words(top->cause) + most(top->cause);
    if (startup > 0 && startup >= 0.1 * idle.idle_s)
      once = format_seconds(startup) + " start-up, paid once" +
             most(IdleCause::StartUp);
    if (!run.empty() || !once.empty()) {
      const bool once_first = !top || startup > top->idle_s;
      const std::string& a = once_first ? once : run;
      const std::string& b = once_first ? run : once;
      std::string l = "idle " + format_share(idle.idle_share()) +
                      " of the run, " + (a.empty() ? b : a);
      if (!a.empty() && !b.empty()) l += "; " + b;
      lines.push_back(l);
    }
  }
  if (lines.size() > kMaxLines) lines.resize(kMaxLines);
  return lines;
}

}  // namespace addscope
