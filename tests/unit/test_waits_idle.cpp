// Why the device sat idle (issue 23), on synthetic timelines: every cause,
// start-up and tail apart, the boundaries (adjacent work on two streams,
// overlapping copies, two threads doing different things, zero-length
// gaps, a gap ending exactly at the watermark, records out of order within
// the window, late records), randomized timelines against a brute-force
// reference, a million gaps in flat memory, and the report section, JSON
// and trace drawn from the summary.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "addscope/waits/attribution/addscope_IdleBlame.hpp"
#include "addscope/waits/output/addscope_IdleReport.hpp"
#include "addscope/waits/output/addscope_IdleTrace.hpp"

using addscope::DeviceActivity;
using addscope::DeviceWork;
using addscope::HostInterval;
using addscope::HostState;
using addscope::IdleBlame;
using addscope::IdleCause;
using addscope::IdleGapRecord;
using addscope::IdleLimits;
using addscope::IdleSummary;
using addscope::kUnknownThread;

namespace {

constexpr double kUs = 1e-6;
std::int64_t ns(double s) { return std::llround(s * 1e9); }

// A program's timeline, written in microseconds.
struct Timeline {
  std::vector<std::string> names{""};
  std::vector<DeviceActivity> acts;
  std::vector<HostInterval> ivs;
  std::uint32_t id(const std::string& n) {
    if (n.empty()) return 0;
    for (std::size_t i = 1; i < names.size(); ++i)
      if (names[i] == n) return std::uint32_t(i);
    names.push_back(n);
    return std::uint32_t(names.size() - 1);
  }
  void host(std::uint32_t thread, HostState st, double b, double e,
            const std::string& site = "", const std::string& region = "",
            const std::string& before = "", const std::string& after = "",
            std::uint64_t call = 0) {
    HostInterval h;
    h.thread = thread;
    h.state = st;
    h.begin_s = b * kUs;
    h.end_s = e * kUs;
    h.site = id(site);
    h.region = id(region);
    h.before = id(before);
    h.after = id(after);
    h.call = call;
    ivs.push_back(h);
  }
  void work(std::uint32_t stream, double start, double end,
            const std::string& name, std::uint32_t thread = 0,
            double launch = -1, DeviceWork kind = DeviceWork::Kernel,
            std::uint32_t device = 0) {
    DeviceActivity a;
    a.device = device;
    a.stream = stream;
    a.kind = kind;
    a.start_s = start * kUs;
    a.end_s = end * kUs;
    a.name = id(name);
    a.thread = thread;
    a.launch_s = launch < 0 ? -1 : launch * kUs;
    acts.push_back(a);
  }
  IdleBlame::NameOf name_of() const {
    return [this](std::uint32_t i) { return names.at(i); };
  }
};

struct Result {
  IdleSummary s;
  std::vector<IdleGapRecord> gaps;
};

Result run(const Timeline& t, IdleLimits limits = IdleLimits(),
           double run_begin = -1, double run_end = -1) {
  Result r;
  IdleBlame b(limits);
  b.set_gap_listener([&](const IdleGapRecord& g) { r.gaps.push_back(g); });
  if (run_begin >= 0) b.set_run_bounds(run_begin * kUs, run_end * kUs);
  for (const auto& h : t.ivs) b.add_host_interval(h);
  for (const auto& a : t.acts) b.add_activity(a);
  b.finish();
  r.s = b.summary(t.name_of());
  return r;
}

const addscope::IdleCauseStats& cause(const IdleSummary& s, IdleCause c) {
  for (const auto& x : s.causes)
    if (x.cause == c) return x;
  static addscope::IdleCauseStats none;
  return none;
}

double us(double s) { return s / kUs; }
bool has_text(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The exact identities: busy + idle = span per device; the causes sum to
// the idle time, in whole nanoseconds.
void expect_exact_sums(const IdleSummary& s) {
  std::int64_t idle = 0, causes = 0;
  for (const auto& d : s.devices) {
    EXPECT_EQ(ns(d.busy_s) + ns(d.idle_s), ns(d.span_s)) << d.device;
    std::int64_t dc = 0;
    for (double c : d.cause_s) dc += ns(c);
    EXPECT_EQ(dc, ns(d.idle_s)) << d.device;
    idle += ns(d.idle_s);
  }
  for (const auto& c : s.causes) causes += ns(c.idle_s);
  EXPECT_EQ(causes, idle);
  EXPECT_EQ(ns(s.idle_s), idle);
  EXPECT_EQ(ns(s.busy_s) + ns(s.idle_s), ns(s.span_s));
}

// The loop of the issue: add, a one-thread residual kernel, a deep_copy of
// the residual to the host — every 30 us, `n` times, in region "loop".
Timeline residual_loop(int n) {
  Timeline t;
  for (int i = 0; i < n; ++i) {
    const double o = 30.0 * i;
    const std::uint64_t call = 100 + i;
    const std::string dc = "deep_copy r_h<-r (Host<-Cuda)";
    t.host(0, HostState::Launch, o + 0, o + 4, "probe::add", "loop");
    t.work(7, o + 3, o + 5, "probe::add", 0, o + 0);
    t.host(0, HostState::Program, o + 4, o + 5, "", "loop", "probe::add",
           "probe::residual");
    t.host(0, HostState::Launch, o + 5, o + 9, "probe::residual", "loop");
    t.work(7, o + 8, o + 20, "probe::residual", 0, o + 5);
    t.host(0, HostState::Program, o + 9, o + 10, "", "loop", "probe::residual",
           dc);
    // The deep_copy: its fence waits for the residual, its own work, the
    // copy (blocked in cudaMemcpy).
    t.host(0, HostState::Blocked, o + 10, o + 22, dc, "loop", "", "", call);
    t.host(0, HostState::KokkosOwn, o + 22, o + 24, dc, "loop", "", "", call);
    t.host(0, HostState::Blocked, o + 24, o + 29, dc, "loop", "", "", call);
    t.work(7, o + 26, o + 27, "memcpy D2H", 0, o + 24, DeviceWork::Memcpy);
    t.host(0, HostState::Program, o + 29, o + 30, "", "loop", dc, "probe::add");
  }
  return t;
}

}  // namespace

// The loop: the deep_copy's round trips and the residual's launch
// leave the device idle half of the loop; each deep_copy is one round trip
// although it left two gaps (after the kernel, after the copy).
TEST(WaitsIdle, ResidualLoopIsRoundTripsAndLaunchLatency) {
  const auto r = run(residual_loop(200), IdleLimits(), 0, 7000);
  const IdleSummary& s = r.s;
  ASSERT_EQ(s.devices.size(), 1u);
  const auto& d = s.devices[0];
  EXPECT_EQ(d.activities, 600u);
  EXPECT_EQ(ns(d.first_s), ns(3 * kUs));
  EXPECT_EQ(ns(d.last_s), ns((30 * 199 + 27) * kUs));
  EXPECT_EQ(ns(d.busy_s), ns(3000 * kUs));  // 200 x (2 + 12 + 1)
  EXPECT_EQ(ns(d.idle_s), ns(2994 * kUs));  // 200 x (3 + 6) + 199 x 6
  EXPECT_EQ(d.gaps, 599u);
  EXPECT_EQ(ns(d.startup_s), ns(3 * kUs));
  EXPECT_EQ(ns(d.tail_s), ns(1003 * kUs));
  const auto& rt = cause(s, IdleCause::SyncRoundTrip);
  EXPECT_EQ(ns(rt.idle_s), ns(2394 * kUs));
  EXPECT_EQ(rt.gaps, 399u);
  EXPECT_EQ(rt.calls, 200u);
  // How the thread spent the round trips: blocked 2+2+2 per iteration
  // (fence tail, copy) ... , Kokkos' own work 2, program code 1, launching 3.
  using addscope::kHostStateUnknown;
  EXPECT_EQ(ns(rt.state_s[size_t(HostState::Blocked)]),
            ns((200 * 4 + 199 * 2) * kUs));
  EXPECT_EQ(ns(rt.state_s[size_t(HostState::KokkosOwn)]), ns(400 * kUs));
  EXPECT_EQ(ns(rt.state_s[size_t(HostState::Program)]), ns(199 * kUs));
  EXPECT_EQ(ns(rt.state_s[size_t(HostState::Launch)]), ns(199 * 3 * kUs));
  EXPECT_EQ(rt.state_s[kHostStateUnknown], 0.0);
  // The residual's launch latency, but for its first run: start-up.
  const auto& ll = cause(s, IdleCause::LaunchLatency);
  EXPECT_EQ(ns(ll.idle_s), ns(597 * kUs));
  EXPECT_EQ(ll.gaps, 199u);
  const auto& su = cause(s, IdleCause::StartUp);
  EXPECT_EQ(ns(su.idle_s), ns(3 * kUs));
  EXPECT_EQ(su.gaps, 1u);
  EXPECT_EQ(cause(s, IdleCause::HostCode).idle_s, 0.0);
  // The largest row: the deep_copy in region loop.
  ASSERT_FALSE(s.sites.empty());
  EXPECT_EQ(s.sites[0].cause, IdleCause::SyncRoundTrip);
  EXPECT_EQ(s.sites[0].site, "deep_copy r_h<-r (Host<-Cuda)");
  EXPECT_EQ(s.sites[0].region, "loop");
  EXPECT_EQ(s.sites[0].calls, 200u);
  EXPECT_EQ(s.sites[1].cause, IdleCause::LaunchLatency);
  EXPECT_EQ(s.sites[1].site, "probe::residual");
  // The what-if, one row for each cause that left the device idle (round
  // trips, launch latency; host code none; start-up, paid once, never),
  // the largest first: share of the time in region loop (one thread,
  // 6000 us).
  ASSERT_EQ(s.what_if.size(), 2u);
  EXPECT_EQ(s.what_if[0].cause, IdleCause::SyncRoundTrip);
  EXPECT_EQ(s.what_if[1].cause, IdleCause::LaunchLatency);
  EXPECT_NEAR(s.what_if[0].region_share, 2394.0 / 6000.0, 1e-12);
  expect_exact_sums(s);
  // Every gap went to the listener, longest kept.
  EXPECT_EQ(r.gaps.size(), 599u);
  ASSERT_FALSE(s.longest.empty());
  EXPECT_NEAR(us(s.longest[0].duration_s()), 6.0, 1e-9);
  // With room for five, the five kept are among the longest (6 us).
  IdleLimits five;
  five.longest = 5;
  const auto k = run(residual_loop(200), five);
  ASSERT_EQ(k.s.longest.size(), 5u);
  for (const auto& g : k.s.longest) {
    EXPECT_NEAR(us(g.duration_s()), 6.0, 1e-9);
    EXPECT_EQ(g.cause, IdleCause::SyncRoundTrip);
    EXPECT_EQ(g.site, "deep_copy r_h<-r (Host<-Cuda)");
    EXPECT_TRUE(g.state_known);
  }
}

// A share of a region's time is given only when it means one: one thread
// in the region (thread-seconds of several would shrink it).
TEST(WaitsIdle, RegionShareOnlyWithOneThreadInTheRegion) {
  for (bool second : {false, true}) {
    Timeline t;
    t.host(0, HostState::Launch, 0, 1, "a", "solve");
    t.work(7, 1, 10, "a", 0, 0);
    t.host(0, HostState::Blocked, 1, 30, "fence", "solve", "", "", 1);
    t.host(0, HostState::Launch, 30, 31, "b", "solve");
    t.work(7, 31, 40, "b", 0, 30);
    if (second) t.host(1, HostState::Program, 0, 40, "", "solve");
    const auto r = run(t);
    ASSERT_EQ(r.s.what_if.size(), 1u);
    if (second) {
      EXPECT_EQ(r.s.what_if[0].region_share, -1.0);
      EXPECT_TRUE(has_text(addscope::idle_what_if_line(r.s.what_if[0], r.s),
                           "in region solve left the device idle 21.0 us = "
                           "53.8% of the device's run"));
    } else {
      EXPECT_NEAR(r.s.what_if[0].region_share, 21.0 / 31.0, 1e-12);
    }
  }
}

// Launch-bound: tiny kernels, each launch slower than the kernel before it.
TEST(WaitsIdle, BurstOfTinyKernelsIsLaunchLatency) {
  Timeline t;
  for (int i = 0; i < 100; ++i) {
    t.host(0, HostState::Launch, 5.0 * i, 5.0 * i + 5, "tiny");
    t.work(7, 5.0 * i + 4, 5.0 * i + 5, "tiny", 0, 5.0 * i);
  }
  const auto r = run(t);
  EXPECT_EQ(r.s.gaps, 99u);
  EXPECT_EQ(ns(cause(r.s, IdleCause::LaunchLatency).idle_s), ns(99 * 4 * kUs));
  EXPECT_EQ(ns(r.s.idle_s), ns(99 * 4 * kUs));
  ASSERT_EQ(r.s.sites.size(), 1u);
  EXPECT_EQ(r.s.sites[0].site, "tiny");
  expect_exact_sums(r.s);
}

// Host-bound: the program works 46 us between launches: host code until
// the next launch call begins, launch latency after; named by the calls
// around it and the region.
TEST(WaitsIdle, HostCodeUntilTheLaunchThenLaunchLatency) {
  for (bool launch_known : {true, false}) {
    Timeline t;
    t.host(0, HostState::Launch, 0, 3, "k", "step");
    t.work(7, 2, 4, "k", 0, launch_known ? 0 : -1);
    t.host(0, HostState::Program, 3, 50, "", "step", "k", "k");
    t.host(0, HostState::Launch, 50, 53, "k", "step");
    // The work's launch time: inside the Kokkos launch call (the runtime's
    // cudaLaunchKernel after Kokkos' begin): the call's begin counts.
    t.work(7, 52, 54, "k", 0, launch_known ? 51 : -1);
    const auto r = run(t);
    ASSERT_EQ(r.gaps.size(), 1u) << launch_known;
    const auto& g = r.gaps[0];
    ASSERT_EQ(g.pieces, 2u);
    EXPECT_EQ(g.piece[0].cause, IdleCause::HostCode);
    EXPECT_EQ(ns(g.piece[0].begin_s), ns(4 * kUs));
    EXPECT_EQ(ns(g.piece[0].end_s), ns(50 * kUs));
    EXPECT_EQ(g.piece[1].cause, IdleCause::LaunchLatency);
    EXPECT_EQ(ns(g.piece[1].end_s), ns(52 * kUs));
    EXPECT_EQ(ns(cause(r.s, IdleCause::HostCode).idle_s), ns(46 * kUs));
    EXPECT_EQ(ns(cause(r.s, IdleCause::LaunchLatency).idle_s), ns(2 * kUs));
    const auto& row = r.s.sites[0];
    EXPECT_EQ(row.cause, IdleCause::HostCode);
    EXPECT_EQ(row.before, "k");
    EXPECT_EQ(row.after, "k");
    EXPECT_EQ(row.region, "step");
    EXPECT_EQ(addscope::idle_site_words(row), "between k and k");
    expect_exact_sums(r.s);
  }
  addscope::IdleSiteStats w;
  w.cause = IdleCause::HostCode;
  EXPECT_EQ(addscope::idle_site_words(w), "between Kokkos calls");
  w.before = "a";
  EXPECT_EQ(addscope::idle_site_words(w), "after a");
  w.before.clear();
  w.after = "b";
  EXPECT_EQ(addscope::idle_site_words(w), "before b");
}

// A Kokkos call's own work (not blocked) is host code too, named by it.
TEST(WaitsIdle, KokkosOwnWorkIsHostCodeNamedByTheCall) {
  Timeline t;
  t.work(7, 0, 10, "a", 0, 0);
  t.host(0, HostState::KokkosOwn, 5, 40, "create_mirror_view x");
  t.host(0, HostState::Launch, 40, 45, "a");
  t.work(7, 44, 50, "a", 0, 40);  // "a" again: not its first run
  const auto r = run(t);
  ASSERT_EQ(r.gaps.size(), 1u);
  EXPECT_EQ(r.gaps[0].piece[0].cause, IdleCause::HostCode);
  ASSERT_FALSE(r.s.sites.empty());
  EXPECT_EQ(r.s.sites[0].site, "create_mirror_view x");
  EXPECT_EQ(addscope::idle_site_words(r.s.sites[0]),
            "in create_mirror_view x's own work");
  EXPECT_EQ(ns(r.s.sites[0].idle_s), ns(30 * kUs));
}

// In an MPI call when the device went idle: communication, the whole gap.
TEST(WaitsIdle, MpiCallIsCommunication) {
  Timeline t;
  t.host(0, HostState::Launch, 0, 2, "k");
  t.work(7, 1, 10, "k", 0, 0);
  t.host(0, HostState::Mpi, 8, 30, "MPI_Allreduce", "", "", "", 7);
  t.host(0, HostState::Program, 30, 31);
  t.host(0, HostState::Launch, 31, 33, "k");
  t.work(7, 33, 40, "k", 0, 31);
  const auto r = run(t);
  ASSERT_EQ(r.gaps.size(), 1u);
  EXPECT_EQ(r.gaps[0].pieces, 1u);
  EXPECT_EQ(r.gaps[0].piece[0].cause, IdleCause::Communication);
  const auto& c = cause(r.s, IdleCause::Communication);
  EXPECT_EQ(ns(c.idle_s), ns(23 * kUs));
  EXPECT_EQ(c.calls, 1u);
  EXPECT_EQ(ns(c.state_s[size_t(HostState::Mpi)]), ns(20 * kUs));
  EXPECT_EQ(ns(c.state_s[size_t(HostState::Launch)]), ns(2 * kUs));
  EXPECT_EQ(r.s.sites[0].site, "MPI_Allreduce");
}

// A copy queued behind a kernel, launched before the kernel ended: the gap
// between them is the runtime's turnaround, not the fence its thread went
// on to block in (the rules said "round trip").
TEST(WaitsIdle, WorkAlreadySubmittedIsNotTheHostsFault) {
  Timeline t;
  t.host(0, HostState::Launch, 0, 1, "k");
  t.work(7, 1, 10, "k", 0, 0);
  t.host(0, HostState::Launch, 1, 2, "memcpy async");
  t.host(0, HostState::Program, 2, 5);
  t.host(0, HostState::Blocked, 5, 20, "Kokkos::fence: Unnamed Global Fence");
  t.work(7, 11, 12, "memcpy D2H", 0, 1, DeviceWork::Memcpy);
  const auto r = run(t);
  ASSERT_EQ(r.gaps.size(), 1u);
  EXPECT_EQ(r.gaps[0].piece[0].cause, IdleCause::Submitted);
  EXPECT_EQ(r.s.sites[0].site, "memcpy D2H");
  // Launched before the device went idle and still being launched: launch
  // latency.
  Timeline u;
  u.work(7, 0, 10, "a", 0, 0);
  u.host(0, HostState::Launch, 8, 15, "a");
  u.work(7, 14, 20, "a", 0, 8);
  const auto q = run(u);
  ASSERT_EQ(q.gaps.size(), 1u);
  EXPECT_EQ(q.gaps[0].piece[0].cause, IdleCause::LaunchLatency);
}

// The next work's thread unknown, or a thread whose state nobody gave:
// other/unknown, charged to the next work's name.
TEST(WaitsIdle, UnknownThreadOrStateIsUnknown) {
  Timeline t;
  // b, c and d ran before (touching: no gap), so no gap below is a first
  // run's (start-up).
  t.work(7, 0, 3, "b", 0, 0);
  t.work(7, 3, 6, "c", 0, 0);
  t.work(7, 6, 10, "d", 0, 0);
  t.work(7, 20, 30, "b", kUnknownThread);
  t.work(7, 40, 50, "c", 5);  // thread 5: no interval at all
  t.host(0, HostState::Program, 0, 100);
  t.host(1, HostState::Program, 55, 100);
  t.work(7, 60, 70, "d", 1);  // thread 1: nothing covers 50
  const auto r = run(t);
  ASSERT_EQ(r.gaps.size(), 3u);
  for (const auto& g : r.gaps) {
    EXPECT_EQ(g.piece[0].cause, IdleCause::Unknown);
    EXPECT_FALSE(g.state_known);
  }
  EXPECT_EQ(ns(cause(r.s, IdleCause::Unknown).idle_s), ns(30 * kUs));
  EXPECT_EQ(r.s.sites.size(), 3u);
}

// Before the first work and after the last: reported, never blamed.
TEST(WaitsIdle, StartUpAndTailAreNotBlamed) {
  Timeline t;
  t.host(0, HostState::Blocked, 0, 1000, "Kokkos::fence: Unnamed Global Fence");
  t.work(7, 500, 600, "only");
  auto r = run(t, IdleLimits(), 0, 1000);
  EXPECT_EQ(r.s.gaps, 0u);
  EXPECT_EQ(r.s.idle_s, 0.0);
  ASSERT_EQ(r.s.devices.size(), 1u);
  EXPECT_EQ(ns(r.s.devices[0].startup_s), ns(500 * kUs));
  EXPECT_EQ(ns(r.s.devices[0].tail_s), ns(400 * kUs));
  EXPECT_EQ(ns(r.s.devices[0].span_s), ns(100 * kUs));
  EXPECT_TRUE(r.s.what_if.empty());
  // Without run bounds: unknown, not zero.
  r = run(t);
  EXPECT_EQ(r.s.devices[0].startup_s, -1.0);
  EXPECT_EQ(r.s.startup_s, -1.0);
}

// Start-up inside the run (issue 36): the gap before the device's first
// kernel (the program loading libraries, copying its inputs) whatever the
// thread did; before each kernel's first run its host code, launch latency
// and unknown parts; a round trip before a first run stays a round trip;
// later runs are the run's own. Start-up has no what-if (paid once).
TEST(WaitsIdle, TheFirstKernelAndEachFirstRunAreStartUp) {
  Timeline t;
  // Inputs copied (the thread blocked in the copy), then the program's code
  // until the first kernel.
  t.host(0, HostState::Blocked, 0, 12, "cudaMemcpy H2D", "", "", "", 1);
  t.work(7, 2, 10, "memcpy H2D", 0, 0, DeviceWork::Memcpy);
  t.host(0, HostState::Program, 12, 1000);
  t.host(0, HostState::Launch, 1000, 1005, "a");
  t.work(7, 1010, 1020, "a", 0, 1000);
  // b's first run: host code, then its launch: one start-up piece.
  t.host(0, HostState::Program, 1005, 1200);
  t.host(0, HostState::Launch, 1200, 1205, "b");
  t.work(7, 1210, 1220, "b", 0, 1200);
  // a again: host code and launch latency, the run's own.
  t.host(0, HostState::Program, 1205, 1400);
  t.host(0, HostState::Launch, 1400, 1405, "a");
  t.work(7, 1410, 1420, "a", 0, 1400);
  // A fence waits for it; c's first run after it: still the round trip.
  t.host(0, HostState::Blocked, 1405, 1425, "fence", "", "", "", 2);
  t.host(0, HostState::Program, 1425, 1600);
  t.host(0, HostState::Launch, 1600, 1605, "c");
  t.work(7, 1610, 1620, "c", 0, 1600);
  // d's first run from a thread no interval names: start-up; its second:
  // unknown.
  t.work(7, 1700, 1710, "d", 9);
  t.work(7, 1800, 1810, "d", 9);
  const auto r = run(t);
  ASSERT_EQ(r.gaps.size(), 6u);
  const IdleCause want[6] = {IdleCause::StartUp,       IdleCause::StartUp,
                             IdleCause::HostCode,      IdleCause::SyncRoundTrip,
                             IdleCause::StartUp,       IdleCause::Unknown};
  const std::size_t pieces[6] = {1, 1, 2, 1, 1, 1};
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(r.gaps[i].piece[0].cause, want[i]) << i;
    EXPECT_EQ(r.gaps[i].pieces, pieces[i]) << i;
  }
  EXPECT_EQ(ns(cause(r.s, IdleCause::StartUp).idle_s), ns(1270 * kUs));
  EXPECT_EQ(cause(r.s, IdleCause::StartUp).gaps, 3u);
  EXPECT_EQ(ns(cause(r.s, IdleCause::HostCode).idle_s), ns(180 * kUs));
  EXPECT_EQ(ns(cause(r.s, IdleCause::LaunchLatency).idle_s), ns(10 * kUs));
  EXPECT_EQ(ns(cause(r.s, IdleCause::SyncRoundTrip).idle_s), ns(190 * kUs));
  EXPECT_EQ(ns(cause(r.s, IdleCause::Unknown).idle_s), ns(90 * kUs));
  // Charged to the kernel, in its words.
  ASSERT_FALSE(r.s.sites.empty());
  EXPECT_EQ(r.s.sites[0].cause, IdleCause::StartUp);
  EXPECT_EQ(r.s.sites[0].site, "a");
  EXPECT_EQ(addscope::idle_site_words(r.s.sites[0]), "the first run of a");
  for (const auto& w : r.s.what_if) EXPECT_NE(w.cause, IdleCause::StartUp);
  EXPECT_FALSE(r.s.what_if.empty());
  expect_exact_sums(r.s);
  // Copies and memsets are never a first run.
  Timeline c;
  c.work(7, 0, 10, "a", 0, 0);
  c.host(0, HostState::Program, 5, 50);
  c.work(7, 50, 60, "memcpy D2H", 0, -1, DeviceWork::Memcpy);
  EXPECT_EQ(run(c).gaps.at(0).piece[0].cause, IdleCause::HostCode);
  // Past the cap on names followed, no first run is seen, and that is said.
  IdleLimits one;
  one.kernels = 1;
  Timeline p;
  p.work(7, 0, 10, "a", 0, 0);
  p.host(0, HostState::Program, 5, 50);
  p.work(7, 50, 60, "b", 0, -1);
  const auto q = run(p, one);
  EXPECT_EQ(q.gaps.at(0).piece[0].cause, IdleCause::HostCode);
  EXPECT_EQ(q.s.dropped.kernels, 1u);
  EXPECT_EQ(run(p).gaps.at(0).piece[0].cause, IdleCause::StartUp);
}

// Adjacent work on two streams is one busy stretch; per stream each is idle
// while the other runs.
TEST(WaitsIdle, AdjacentKernelsOnTwoStreamsLeaveNoGap) {
  Timeline t;
  t.host(0, HostState::Program, 0, 100);
  t.work(1, 0, 10, "a");
  t.work(2, 10, 20, "b");
  t.work(1, 20, 30, "c");
  const auto r = run(t);
  EXPECT_EQ(r.s.gaps, 0u);
  EXPECT_EQ(ns(r.s.busy_s), ns(30 * kUs));
  ASSERT_EQ(r.s.streams.size(), 2u);
  EXPECT_EQ(r.s.streams[0].stream, 1u);
  EXPECT_EQ(ns(r.s.streams[0].busy_s), ns(20 * kUs));
  EXPECT_EQ(ns(r.s.streams[0].idle_s), ns(10 * kUs));
  EXPECT_EQ(ns(r.s.streams[1].busy_s), ns(10 * kUs));
  EXPECT_EQ(ns(r.s.streams[1].idle_s), ns(20 * kUs));
  expect_exact_sums(r.s);
}

// Copies and memsets keep the device busy; overlapping ones count once.
TEST(WaitsIdle, OverlappingCopiesAndKernelsAreOneBusyUnion) {
  Timeline t;
  t.host(0, HostState::Program, 0, 100);
  t.work(1, 0, 10, "k1");
  t.work(2, 5, 15, "copy", 0, -1, DeviceWork::Memcpy);
  t.work(3, 12, 14, "memset", 0, -1, DeviceWork::Memset);
  t.work(1, 20, 30, "k2");
  t.work(2, 22, 25, "copy2", 0, -1, DeviceWork::Memcpy);  // inside k2
  const auto r = run(t);
  EXPECT_EQ(ns(r.s.busy_s), ns(25 * kUs));
  EXPECT_EQ(ns(r.s.idle_s), ns(5 * kUs));
  ASSERT_EQ(r.gaps.size(), 1u);
  EXPECT_EQ(ns(r.gaps[0].begin_s), ns(15 * kUs));
  EXPECT_EQ(t.names.at(r.gaps[0].next), "k2");
  ASSERT_EQ(r.s.streams.size(), 3u);
  EXPECT_EQ(ns(r.s.streams[1].busy_s), ns(13 * kUs));
  expect_exact_sums(r.s);
}

// Two threads doing different things in one gap: the thread that launched
// the next work decides.
TEST(WaitsIdle, TheNextWorksThreadDecides) {
  for (std::uint32_t launcher : {0u, 1u}) {
    Timeline t;
    t.work(7, 0, 10, "a", 0, 0);
    t.host(0, HostState::Blocked, 5, 30, "deep_copy h<-d", "", "", "", 1);
    t.host(1, HostState::Program, 0, 15, "", "worker", "x", "b");
    t.host(1, HostState::Launch, 15, 18, "a", "worker");
    t.host(0, HostState::Launch, 30, 31, "a");
    const double launch = launcher == 1 ? 15 : 30;
    t.work(7, launcher == 1 ? 20 : 32, 40, "a", launcher, launch);
    const auto r = run(t);
    ASSERT_EQ(r.gaps.size(), 1u);
    if (launcher == 1) {
      ASSERT_EQ(r.gaps[0].pieces, 2u);
      EXPECT_EQ(r.gaps[0].piece[0].cause, IdleCause::HostCode);
      EXPECT_EQ(ns(r.gaps[0].piece[0].end_s), ns(15 * kUs));
      EXPECT_EQ(r.gaps[0].piece[1].cause, IdleCause::LaunchLatency);
      EXPECT_EQ(r.s.sites[0].region, "worker");
    } else {
      ASSERT_EQ(r.gaps[0].pieces, 1u);
      EXPECT_EQ(r.gaps[0].piece[0].cause, IdleCause::SyncRoundTrip);
      EXPECT_EQ(r.s.sites[0].site, "deep_copy h<-d");
    }
  }
}

// Work that touches (ends as the next starts) leaves no gap, on one stream
// or across the tie of equal starts.
TEST(WaitsIdle, ZeroLengthGapsAreNoGaps) {
  Timeline t;
  t.host(0, HostState::Program, 0, 100);
  t.work(7, 0, 10, "a");
  t.work(7, 10, 20, "b");
  t.work(8, 20, 20, "empty memset", 0, -1, DeviceWork::Memset);
  t.work(7, 20, 30, "c");
  const auto r = run(t);
  EXPECT_EQ(r.s.gaps, 0u);
  EXPECT_TRUE(r.s.sites.empty());
  EXPECT_EQ(ns(r.s.busy_s), ns(30 * kUs));
}

// A gap ending exactly at the watermark is not charged: work starting at
// the watermark may still arrive (and, launched first, decide the gap).
TEST(WaitsIdle, AGapEndingExactlyAtTheWatermarkWaits) {
  Timeline t;
  t.host(0, HostState::Launch, 0, 1, "a");
  t.host(0, HostState::Program, 1, 100, "", "", "a", "c");
  t.host(1, HostState::Blocked, 0, 11, "fence on 1", "", "", "", 9);
  t.host(1, HostState::Launch, 11, 13, "d");
  IdleBlame b;
  std::vector<IdleGapRecord> gaps;
  b.set_gap_listener([&](const IdleGapRecord& g) { gaps.push_back(g); });
  for (const auto& h : t.ivs) b.add_host_interval(h);
  t.work(7, 0, 10, "a", 0, 0);
  t.work(7, 20, 30, "c", 0);  // launch time unknown
  for (const auto& a : t.acts) b.add_activity(a);
  b.advance(20 * kUs);
  EXPECT_TRUE(gaps.empty());
  EXPECT_EQ(b.summary(t.name_of()).gaps, 0u);
  // Still in time: work at 20 on another stream, launched at 5 by thread 1.
  Timeline late;
  late.names = t.names;
  late.work(8, 20, 25, "d", 1, 11);
  b.add_activity(late.acts[0]);
  b.advance(20.001 * kUs);
  ASSERT_EQ(gaps.size(), 1u);
  EXPECT_EQ(gaps[0].thread, 1u);
  EXPECT_EQ(gaps[0].stream, 8u);
  EXPECT_EQ(gaps[0].piece[0].cause, IdleCause::SyncRoundTrip);
  EXPECT_EQ(b.summary(t.name_of()).dropped.late_activities, 0u);
}

// Records arriving in any order within the window give the same answer;
// records before the watermark are dropped and counted.
TEST(WaitsIdle, OutOfOrderArrivalWithinTheWindowAndLateRecords) {
  const Timeline t = residual_loop(20);
  const auto in_order = run(t);
  IdleBlame b;
  std::vector<IdleGapRecord> gaps;
  b.set_gap_listener([&](const IdleGapRecord& g) { gaps.push_back(g); });
  // Windows of 100 us, each fed backwards, activities before intervals.
  for (int w = 1; w <= 7; ++w) {
    const double lo = (w - 1) * 100 * kUs, hi = w * 100 * kUs;
    for (auto it = t.acts.rbegin(); it != t.acts.rend(); ++it)
      if (it->start_s >= lo && it->start_s < hi) b.add_activity(*it);
    for (auto it = t.ivs.rbegin(); it != t.ivs.rend(); ++it)
      if (it->begin_s >= lo && it->begin_s < hi) b.add_host_interval(*it);
    b.advance(hi);
    EXPECT_EQ(b.footprint().pending, 0u) << w;  // replayed and forgotten
  }
  b.finish();
  const auto s = b.summary(t.name_of());
  ASSERT_EQ(gaps.size(), in_order.gaps.size());
  for (std::size_t i = 0; i < gaps.size(); ++i) {
    EXPECT_EQ(ns(gaps[i].begin_s), ns(in_order.gaps[i].begin_s)) << i;
    EXPECT_EQ(gaps[i].pieces, in_order.gaps[i].pieces) << i;
    EXPECT_EQ(gaps[i].piece[0].cause, in_order.gaps[i].piece[0].cause) << i;
  }
  EXPECT_EQ(ns(s.idle_s), ns(in_order.s.idle_s));
  EXPECT_EQ(s.devices[0].activities, in_order.s.devices[0].activities);
  EXPECT_EQ(s.devices[0].activities, t.acts.size());
  EXPECT_FALSE(s.dropped.any());
  // Late: before the watermark (the end of the run).
  b.add_activity(t.acts[0]);
  b.add_host_interval(t.ivs[0]);
  DeviceActivity bad = t.acts[0];
  bad.end_s = bad.start_s - 1e-6;
  b.add_activity(bad);
  const auto s2 = b.summary(t.name_of());
  EXPECT_EQ(s2.dropped.late_activities, 1u);
  EXPECT_EQ(s2.dropped.late_intervals, 1u);
  EXPECT_EQ(s2.dropped.bad_times, 1u);
  EXPECT_EQ(ns(s2.idle_s), ns(s.idle_s));
}

// Overlapping intervals of one thread are clipped (counted), and the
// charge still sums exactly.
TEST(WaitsIdle, OverlappingHostIntervalsAreClipped) {
  Timeline t;
  t.work(7, 0, 10, "a", 0, 0);
  t.host(0, HostState::Blocked, 0, 20, "sync");
  t.host(0, HostState::Program, 15, 25);  // overlaps: 20..25 kept
  t.host(0, HostState::Launch, 25, 28, "b");
  t.work(7, 28, 30, "b", 0, 25);
  const auto r = run(t);
  EXPECT_EQ(r.s.dropped.overlapping_intervals, 1u);
  const auto& rt = cause(r.s, IdleCause::SyncRoundTrip);
  EXPECT_EQ(ns(rt.idle_s), ns(18 * kUs));
  EXPECT_EQ(ns(rt.state_s[size_t(HostState::Blocked)]), ns(10 * kUs));
  EXPECT_EQ(ns(rt.state_s[size_t(HostState::Program)]), ns(5 * kUs));
  EXPECT_EQ(ns(rt.state_s[size_t(HostState::Launch)]), ns(3 * kUs));
}

// An interval fed in pieces (the analyzer cutting a thread's open interval
// at the watermark) is charged as if whole.
TEST(WaitsIdle, IntervalsFedInPiecesChargeTheSame) {
  const Timeline whole = residual_loop(50);
  Timeline cut = whole;
  cut.ivs.clear();
  for (const auto& h : whole.ivs) {
    if (h.state == HostState::Launch) {
      cut.ivs.push_back(h);
      continue;
    }
    const double third = (h.end_s - h.begin_s) / 3;
    HostInterval a = h, b = h, c = h;
    a.end_s = b.begin_s = h.begin_s + third;
    b.end_s = c.begin_s = h.begin_s + 2 * third;
    cut.ivs.push_back(a);
    cut.ivs.push_back(b);
    cut.ivs.push_back(c);
  }
  const auto r1 = run(whole), r2 = run(cut);
  ASSERT_EQ(r1.gaps.size(), r2.gaps.size());
  for (std::size_t i = 0; i < r1.gaps.size(); ++i) {
    EXPECT_EQ(r1.gaps[i].pieces, r2.gaps[i].pieces) << i;
    EXPECT_EQ(r1.gaps[i].piece[0].cause, r2.gaps[i].piece[0].cause) << i;
    EXPECT_EQ(ns(r1.gaps[i].piece[0].end_s), ns(r2.gaps[i].piece[0].end_s));
  }
  ASSERT_EQ(r1.s.sites.size(), r2.s.sites.size());
  for (std::size_t i = 0; i < r1.s.sites.size(); ++i) {
    EXPECT_EQ(ns(r1.s.sites[i].idle_s), ns(r2.s.sites[i].idle_s)) << i;
    EXPECT_EQ(r1.s.sites[i].calls, r2.s.sites[i].calls) << i;
    for (std::size_t k = 0; k <= addscope::kHostStates; ++k)
      EXPECT_EQ(ns(r1.s.sites[i].state_s[k]), ns(r2.s.sites[i].state_s[k]));
  }
  EXPECT_EQ(ns(r1.s.regions[0].host_s), ns(r2.s.regions[0].host_s));
  EXPECT_FALSE(r2.s.dropped.any());
}

// Two devices keep their own timelines; a thread blocked on device 1 idles
// device 0.
TEST(WaitsIdle, DevicesAreSeparate) {
  Timeline t;
  t.host(0, HostState::Launch, 0, 1, "a");
  t.work(7, 1, 10, "a", 0, 0, DeviceWork::Kernel, 0);
  t.host(0, HostState::Launch, 1, 2, "long");
  t.work(9, 2, 50, "long", 0, 1, DeviceWork::Kernel, 1);
  t.host(0, HostState::Blocked, 2, 50, "fence on device 1");
  t.host(0, HostState::Launch, 50, 52, "a");
  t.work(7, 52, 60, "a", 0, 50, DeviceWork::Kernel, 0);
  t.work(9, 55, 60, "b", 0, -1, DeviceWork::Kernel, 1);
  const auto r = run(t);
  ASSERT_EQ(r.s.devices.size(), 2u);
  EXPECT_EQ(ns(r.s.devices[0].idle_s), ns(42 * kUs));
  EXPECT_EQ(ns(r.s.devices[1].idle_s), ns(5 * kUs));
  EXPECT_EQ(ns(r.s.devices[0].cause_s[size_t(IdleCause::SyncRoundTrip)]),
            ns(42 * kUs));
  expect_exact_sums(r.s);
}

// Past the caps, rows merge into "other" (counted) and the totals hold.
TEST(WaitsIdle, CapsMergeIntoOtherRows) {
  Timeline t;
  for (int i = 0; i < 50; ++i) {
    const double o = 100.0 * i;
    t.host(0, HostState::Launch, o, o + 1, "k" + std::to_string(i),
           "region " + std::to_string(i));
    t.work(std::uint32_t(i), o + 1, o + 10, "k" + std::to_string(i), 0, o);
    t.host(0, HostState::Blocked, o + 1, o + 100, "site " + std::to_string(i),
           "region " + std::to_string(i));
  }
  IdleLimits l;
  l.sites = 10;
  l.regions = 5;
  l.streams = 4;
  l.longest = 3;
  const auto r = run(t, l);
  EXPECT_LE(r.s.sites.size(), 11u);
  EXPECT_LE(r.s.regions.size(), 6u);
  EXPECT_LE(r.s.streams.size(), 5u);
  EXPECT_EQ(r.s.longest.size(), 3u);
  // 50 streams, one kernel each: 4 kept, 46 merged. The device idles
  // 91 us after each kernel but the last (o + 10 to the next launch's
  // kernel at o + 101): 49 sites with idle time, 10 kept, 39 merged into
  // one "other" row of 39 x 91 us. 45 regions past the cap of 5, each
  // merged at least once.
  EXPECT_EQ(r.s.dropped.streams, 46u);
  EXPECT_EQ(r.s.dropped.sites, 39u);
  EXPECT_GE(r.s.dropped.regions, 45u);
  EXPECT_EQ(r.s.sites.size(), 11u);
  EXPECT_EQ(r.s.streams.size(), 5u);
  EXPECT_EQ(r.s.regions.size(), 6u);
  for (const auto& x : r.s.sites)
    EXPECT_NEAR(x.idle_s, (x.other ? 39 : 1) * 91 * kUs, 1e-12) << x.other;
  double rows = 0;
  for (const auto& x : r.s.sites) rows += x.idle_s;
  EXPECT_NEAR(rows, r.s.idle_s, 1e-12);
  bool other = false;
  for (const auto& x : r.s.sites) other = other || x.other;
  EXPECT_TRUE(other);
  expect_exact_sums(r.s);
}

// ---- randomized timelines against a brute-force reference -----------------

namespace {

struct RefGap {
  std::uint32_t device;
  std::int64_t g0, g1, split;
  int pieces;
  IdleCause cause[2];
};

// The rules of addscope_IdleBlame.hpp, written the slow way: all records at
// once, per gap a search over the whole timeline.
std::vector<RefGap> reference(
    const std::vector<DeviceActivity>& acts,
    const std::vector<HostInterval>& ivs,
    std::map<std::uint64_t, std::int64_t>* stream_busy,
    std::map<std::uint32_t, std::int64_t>* dev_busy) {
  struct A {
    std::int64_t s, e, l;
    std::size_t seq;
    const DeviceActivity* a;
  };
  std::map<std::uint32_t, std::vector<A>> by_dev;
  for (std::size_t i = 0; i < acts.size(); ++i) {
    const auto& a = acts[i];
    by_dev[a.device].push_back({ns(a.start_s), ns(a.end_s),
                                a.launch_s < 0 ? -1 : ns(a.launch_s), i, &a});
  }
  std::vector<RefGap> out;
  for (auto& kv : by_dev) {
    auto& v = kv.second;
    std::sort(v.begin(), v.end(), [](const A& x, const A& y) {
      if (x.s != y.s) return x.s < y.s;
      const bool kx = x.l >= 0, ky = y.l >= 0;
      if (kx != ky) return kx;
      if (x.l != y.l) return x.l < y.l;
      if (x.a->stream != y.a->stream) return x.a->stream < y.a->stream;
      if (x.a->thread != y.a->thread) return x.a->thread < y.a->thread;
      if (x.e != y.e) return x.e < y.e;
      if (x.a->name != y.a->name) return x.a->name < y.a->name;
      return x.a->kind < y.a->kind;
    });
    // Per stream busy unions.
    std::map<std::uint32_t, std::vector<std::pair<std::int64_t, std::int64_t>>>
        st;
    for (const A& x : v) st[x.a->stream].push_back({x.s, x.e});
    for (auto& s : st) {
      std::int64_t busy = 0, cs = 0, ce = 0;
      bool any = false;
      for (auto& p : s.second) {
        if (!any) {
          cs = p.first, ce = p.second, any = true;
        } else if (p.first > ce) {
          busy += ce - cs, cs = p.first, ce = p.second;
        } else {
          ce = std::max(ce, p.second);
        }
      }
      (*stream_busy)[(std::uint64_t(kv.first) << 32) | s.first] =
          busy + (ce - cs);
    }
    std::int64_t us_ = v[0].s, ue = v[0].e, busy = 0;
    for (std::size_t i = 1; i < v.size(); ++i) {
      const A& n = v[i];
      if (n.s <= ue) {
        ue = std::max(ue, n.e);
        continue;
      }
      RefGap g{kv.first, ue, n.s,
               n.s,      1,  {IdleCause::Unknown, IdleCause::Unknown}};
      busy += ue - us_;
      us_ = n.s;
      ue = n.e;
      // The thread's intervals, in begin order (zero-length ones ignored).
      std::vector<const HostInterval*> mine;
      const std::uint32_t T = n.a->thread;
      if (T != kUnknownThread)
        for (const auto& h : ivs)
          if (h.thread == T && ns(h.end_s) > ns(h.begin_s)) mine.push_back(&h);
      std::stable_sort(mine.begin(), mine.end(),
                       [](const HostInterval* x, const HostInterval* y) {
                         return ns(x->begin_s) < ns(y->begin_s);
                       });
      const HostInterval* cover = nullptr;
      for (const HostInterval* h : mine)
        if (ns(h->begin_s) <= g.g0) cover = h;
      if (cover && ns(cover->end_s) < g.g0) cover = nullptr;
      if (T == kUnknownThread) {
        g.cause[0] = IdleCause::Unknown;
      } else if (n.l >= 0 && n.l < g.g0) {
        const bool in_it = cover && cover->state == HostState::Launch &&
                           ns(cover->begin_s) <= n.l && n.l <= ns(cover->end_s);
        g.cause[0] = in_it ? IdleCause::LaunchLatency : IdleCause::Submitted;
      } else if (!cover) {
        g.cause[0] = IdleCause::Unknown;
      } else if (cover->state == HostState::Blocked) {
        g.cause[0] = IdleCause::SyncRoundTrip;
      } else if (cover->state == HostState::Mpi) {
        g.cause[0] = IdleCause::Communication;
      } else if (cover->state == HostState::Launch) {
        g.cause[0] = IdleCause::LaunchLatency;
      } else {
        const HostInterval* first = nullptr;
        const HostInterval* last = nullptr;
        for (const HostInterval* h : mine) {
          const auto b = ns(h->begin_s);
          if (h->state != HostState::Launch || b <= g.g0 || b > g.g1) continue;
          if (!first) first = h;
          last = h;
        }
        std::int64_t l;
        if (n.l >= 0) {
          l = last && ns(last->begin_s) <= n.l && n.l <= ns(last->end_s)
                  ? ns(last->begin_s)
                  : n.l;
        } else {
          l = first ? ns(first->begin_s) : g.g1;
        }
        l = std::min(std::max(l, g.g0), g.g1);
        if (l == g.g0) {
          g.cause[0] = IdleCause::LaunchLatency;
        } else if (l == g.g1) {
          g.cause[0] = IdleCause::HostCode;
        } else {
          g.pieces = 2;
          g.cause[0] = IdleCause::HostCode;
          g.cause[1] = IdleCause::LaunchLatency;
          g.split = l;
        }
      }
      // Start-up: the device's first kernel, the whole gap; a kernel's
      // first run, the parts no blocked or busy call explains.
      if (n.a->kind == DeviceWork::Kernel) {
        bool kernel_before = false, ran_before = false;
        for (std::size_t j = 0; j < i; ++j) {
          if (v[j].a->kind != DeviceWork::Kernel) continue;
          kernel_before = true;
          ran_before = ran_before || v[j].a->name == n.a->name;
        }
        if (!kernel_before) {
          g.pieces = 1;
          g.cause[0] = IdleCause::StartUp;
          g.split = g.g1;
        } else if (!ran_before && n.a->name != 0) {
          for (int p = 0; p < g.pieces; ++p)
            if (g.cause[p] == IdleCause::HostCode ||
                g.cause[p] == IdleCause::LaunchLatency ||
                g.cause[p] == IdleCause::Unknown)
              g.cause[p] = IdleCause::StartUp;
          if (g.pieces == 2 && g.cause[0] == g.cause[1]) {
            g.pieces = 1;
            g.split = g.g1;
          }
        }
      }
      out.push_back(g);
    }
    (*dev_busy)[kv.first] = busy + (ue - us_);
  }
  std::sort(out.begin(), out.end(), [](const RefGap& a, const RefGap& b) {
    return a.device != b.device ? a.device < b.device : a.g0 < b.g0;
  });
  return out;
}

}  // namespace

TEST(WaitsIdle, RandomTimelinesMatchABruteForceReference) {
  std::mt19937_64 rng(20261212);
  std::uint64_t seen[addscope::kIdleCauses] = {}, split = 0;
  auto uni = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  for (int trial = 0; trial < 300; ++trial) {
    // Whole microseconds on a coarse grid: ties, touching work, launches
    // at the very start of a gap are common.
    const int threads = uni(1, 3), devices = uni(1, 2), streams = uni(1, 3);
    std::vector<HostInterval> ivs;
    std::vector<std::vector<const HostInterval*>> launches(threads);
    for (int th = 0; th < threads; ++th) {
      int t = uni(0, 5);
      while (t < 400) {
        if (uni(0, 9) == 0) t += uni(1, 8);  // a hole in what is known
        HostInterval h;
        h.thread = std::uint32_t(th);
        h.state = static_cast<HostState>(uni(0, 4));
        h.begin_s = t * kUs;
        t += uni(1, 12);
        h.end_s = t * kUs;
        h.site = std::uint32_t(uni(1, 4));
        h.region = std::uint32_t(uni(0, 3));
        h.before = std::uint32_t(uni(0, 4));
        h.after = std::uint32_t(uni(0, 4));
        h.call = std::uint64_t(uni(0, 3));
        ivs.push_back(h);
      }
    }
    for (const auto& h : ivs)
      if (h.state == HostState::Launch) launches[h.thread].push_back(&h);
    std::vector<DeviceActivity> acts;
    const int n = uni(2, 60);
    for (int i = 0; i < n; ++i) {
      DeviceActivity a;
      a.device = std::uint32_t(uni(0, devices - 1));
      a.stream = std::uint32_t(uni(0, streams - 1));
      a.kind = static_cast<DeviceWork>(uni(0, 2));
      const int s = uni(0, 420);
      a.start_s = s * kUs;
      a.end_s = (s + uni(0, 15)) * kUs;
      a.name = std::uint32_t(uni(1, 5));
      const int who = uni(0, threads);
      a.thread = who == threads ? kUnknownThread : std::uint32_t(who);
      switch (uni(0, 2)) {
        case 0:
          a.launch_s = -1;
          break;
        case 1:
          a.launch_s = std::max(0, s - uni(0, 30)) * kUs;
          break;
        default: {
          const auto& l = launches[who == threads ? 0 : who];
          if (!l.empty()) {
            const HostInterval* h = l[uni(0, int(l.size()) - 1)];
            a.launch_s = ns(h->begin_s) <= ns(a.start_s)
                             ? (h->begin_s + (h->end_s - h->begin_s) / 2)
                             : -1;
          }
        }
      }
      acts.push_back(a);
    }
    // A third of the trials cut the intervals that are not launch calls in
    // two (as an analyzer cutting open intervals at its watermark would);
    // the reference sees them whole.
    std::vector<HostInterval> feed;
    for (const auto& h : ivs) {
      const int b = int(std::lround(h.begin_s / kUs)),
                e = int(std::lround(h.end_s / kUs));
      if (trial % 3 != 0 || h.state == HostState::Launch || e - b < 2) {
        feed.push_back(h);
        continue;
      }
      const int m = uni(b + 1, e - 1);
      HostInterval x = h, y = h;
      x.end_s = y.begin_s = m * kUs;
      feed.push_back(x);
      feed.push_back(y);
    }
    // Feed in windows, shuffled within each, some records early.
    IdleBlame b;
    std::vector<IdleGapRecord> gaps;
    b.set_gap_listener([&](const IdleGapRecord& g) { gaps.push_back(g); });
    std::vector<int> order_a(acts.size()), order_i(feed.size());
    for (std::size_t i = 0; i < acts.size(); ++i) order_a[i] = int(i);
    for (std::size_t i = 0; i < feed.size(); ++i) order_i[i] = int(i);
    std::shuffle(order_a.begin(), order_a.end(), rng);
    std::shuffle(order_i.begin(), order_i.end(), rng);
    std::vector<bool> fed_a(acts.size()), fed_i(feed.size());
    for (int w = uni(1, 40); w <= 480; w += uni(1, 40)) {
      const double W = w * kUs;
      for (int i : order_a)
        if (!fed_a[i] && (acts[i].start_s < W || uni(0, 20) == 0)) {
          b.add_activity(acts[i]);
          fed_a[i] = true;
        }
      for (int i : order_i)
        if (!fed_i[i] && (feed[i].begin_s < W || uni(0, 20) == 0)) {
          b.add_host_interval(feed[i]);
          fed_i[i] = true;
        }
      b.advance(W);
    }
    for (int i : order_a)
      if (!fed_a[i]) b.add_activity(acts[i]);
    for (int i : order_i)
      if (!fed_i[i]) b.add_host_interval(feed[i]);
    b.finish();
    const IdleSummary s =
        b.summary([](std::uint32_t i) { return "n" + std::to_string(i); });
    ASSERT_FALSE(s.dropped.any()) << trial;
    std::map<std::uint64_t, std::int64_t> sbusy;
    std::map<std::uint32_t, std::int64_t> dbusy;
    const auto ref = reference(acts, ivs, &sbusy, &dbusy);
    std::sort(gaps.begin(), gaps.end(),
              [](const IdleGapRecord& x, const IdleGapRecord& y) {
                return x.device != y.device ? x.device < y.device
                                            : x.begin_s < y.begin_s;
              });
    ASSERT_EQ(gaps.size(), ref.size()) << trial;
    std::int64_t ref_cause[addscope::kIdleCauses] = {};
    for (std::size_t i = 0; i < ref.size(); ++i) {
      const auto& g = gaps[i];
      const auto& e = ref[i];
      ASSERT_EQ(g.device, e.device) << trial << " gap " << i;
      ASSERT_EQ(ns(g.begin_s), e.g0) << trial << " gap " << i;
      ASSERT_EQ(ns(g.end_s), e.g1) << trial << " gap " << i;
      ASSERT_EQ(int(g.pieces), e.pieces) << trial << " gap " << i;
      for (int p = 0; p < e.pieces; ++p)
        ASSERT_EQ(g.piece[p].cause, e.cause[p])
            << trial << " gap " << i << " piece " << p;
      if (e.pieces == 2) ASSERT_EQ(ns(g.piece[0].end_s), e.split) << trial;
      ++seen[size_t(e.cause[0])];
      split += e.pieces == 2;
      if (e.pieces == 1) {
        ref_cause[size_t(e.cause[0])] += e.g1 - e.g0;
      } else {
        ref_cause[size_t(e.cause[0])] += e.split - e.g0;
        ref_cause[size_t(e.cause[1])] += e.g1 - e.split;
      }
    }
    for (const auto& c : s.causes)
      EXPECT_EQ(ns(c.idle_s), ref_cause[size_t(c.cause)]) << trial;
    for (const auto& d : s.devices)
      EXPECT_EQ(ns(d.busy_s), dbusy[d.device]) << trial;
    for (const auto& st : s.streams)
      EXPECT_EQ(ns(st.busy_s),
                sbusy[(std::uint64_t(st.device) << 32) | st.stream])
          << trial;
    expect_exact_sums(s);
    // The rows hold every charged nanosecond too.
    std::int64_t rows = 0, regions = 0;
    for (const auto& r : s.sites) rows += ns(r.idle_s);
    for (const auto& r : s.regions) regions += ns(r.idle_s);
    EXPECT_EQ(rows, ns(s.idle_s)) << trial;
    EXPECT_EQ(regions, ns(s.idle_s)) << trial;
  }
  // The timelines reach every rule, many times.
  for (std::size_t c = 0; c < addscope::kIdleCauses; ++c)
    EXPECT_GT(seen[c], 50u) << addscope::idle_cause_name(IdleCause(c));
  EXPECT_GT(split, 50u);
}

// A million gaps: what IdleBlame holds stays flat.
TEST(WaitsIdle, AMillionGapsStayFlat) {
  IdleBlame b;
  std::uint64_t seen = 0;
  b.set_gap_listener([&](const IdleGapRecord&) { ++seen; });
  addscope::IdleFootprint at_10k;
  const int n = 1000000;
  for (int i = 0; i < n; ++i) {
    const double o = i * 10 * kUs;
    HostInterval l;
    l.thread = std::uint32_t(i % 3);
    l.state = HostState::Launch;
    l.begin_s = o;
    l.end_s = o + 4 * kUs;
    l.site = std::uint32_t(1 + i % 7);
    l.region = std::uint32_t(1 + i % 5);
    b.add_host_interval(l);
    HostInterval p = l;
    p.state = i % 2 ? HostState::Blocked : HostState::Program;
    p.begin_s = o + 4 * kUs;
    p.end_s = o + 10 * kUs;
    p.call = std::uint64_t(i);
    b.add_host_interval(p);
    DeviceActivity a;
    a.stream = std::uint32_t(i % 4);
    a.start_s = o + 3 * kUs;
    a.end_s = o + 5 * kUs;
    a.name = std::uint32_t(1 + i % 11);
    a.thread = l.thread;
    a.launch_s = o;
    b.add_activity(a);
    if (i % 64 == 63) b.advance(o + 3 * kUs);
    if (i == 10000) at_10k = b.footprint();
  }
  b.finish();
  const auto f = b.footprint();
  EXPECT_EQ(f.pending, 0u);
  EXPECT_LE(f.entries() - f.pending, at_10k.entries() - at_10k.pending);
  EXPECT_LE(at_10k.pending, 3u * 64 + 3);
  EXPECT_LE(f.longest, IdleLimits().longest);
  EXPECT_EQ(seen, std::uint64_t(n - 1));
  const auto s = b.summary([](std::uint32_t i) { return std::to_string(i); });
  EXPECT_EQ(s.gaps, std::uint64_t(n - 1));
  EXPECT_EQ(ns(s.idle_s), std::int64_t(n - 1) * 8000);
  expect_exact_sums(s);
}

// ---- the report section, the JSON, the trace ------------------------------

namespace {
std::string report(const IdleSummary& s) {
  std::ostringstream os;
  addscope::write_idle_report(os, s);
  return os.str();
}
bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}
}  // namespace

TEST(WaitsIdle, ReportSectionOfTheResidualLoop) {
  const auto r = run(residual_loop(200), IdleLimits(), 0, 7000);
  const std::string text = report(r.s);
  EXPECT_TRUE(has(text,
                  "  device idle: 3.0 ms of device 0's 6.0 ms run (49.9%) in "
                  "599 gaps, busy 3.0 ms (600 kernels, copies and memsets); "
                  "3.0 us start-up before the first work and 1.0 ms tail "
                  "after the last, not counted\n"))
      << text;
  EXPECT_TRUE(has(text,
                  "    synchronization round trip        399      "
                  "2.4 ms   39.9%  a host call"))
      << text;
  EXPECT_TRUE(has(text,
                  "         399      200      2.4 ms   39.9%  round "
                  "trip  deep_copy r_h<-r (Host<-Cuda)  [in region "
                  "loop]\n"))
      << text;
  EXPECT_TRUE(has(text,
                  "the launching thread meanwhile: 199.0 us in the "
                  "program's code, 597.0 us launching, 1.2 ms blocked, "
                  "400.0 us in Kokkos' own work"))
      << text;
  EXPECT_TRUE(has(text,
                  "    599      3.0 ms   49.9%  loop  (round trip "
                  "2.4 ms, launch 597.0 us, start-up 3.0 us; 49.9% of the "
                  "time in it)"))
      << text;
  EXPECT_TRUE(has(text,
                  "    200 deep_copy r_h<-r (Host<-Cuda) round trips left the "
                  "device idle 2.4 ms = 39.9% of the time in region loop; if "
                  "they took no time, the run could be up to 2.4 ms "
                  "shorter\n"))
      << text;
  EXPECT_TRUE(has(text,
                  "    199 launches of probe::residual still in "
                  "progress left the device idle 597.0 us = 10.0% of "
                  "the time in region loop"))
      << text;
  EXPECT_FALSE(has(text, "host code")) << text;  // none: no row, no line
  EXPECT_FALSE(has(text, "idle limits")) << text;
  std::printf("%s", text.c_str());  // the sample in the report to the owner
}

// Start-up in the report: its row after the run's causes (though larger),
// its call-site row in words, no what-if line.
TEST(WaitsIdle, ReportPutsStartUpApart) {
  Timeline t;
  t.work(7, 0, 10, "a", 0, 0);
  t.host(0, HostState::Program, 5, 900);
  t.host(0, HostState::Launch, 900, 905, "b");
  t.work(7, 910, 920, "b", 0, 900);
  t.host(0, HostState::Program, 905, 1000);
  t.host(0, HostState::Launch, 1000, 1005, "b");
  t.work(7, 1010, 1020, "b", 0, 1000);
  const std::string text = report(run(t).s);
  const auto run_row = text.find("    host code  ");
  const auto once_row = text.find("    start-up  ");
  ASSERT_NE(run_row, std::string::npos) << text;
  ASSERT_NE(once_row, std::string::npos) << text;
  EXPECT_LT(run_row, once_row) << text;
  EXPECT_TRUE(has(text, "start-up    the first run of b\n")) << text;
  EXPECT_TRUE(has(text, "(paid once; not the run's own idle)")) << text;
  EXPECT_FALSE(has(text, "before the first run of b left")) << text;
}

// A program without Kokkos (code_first): a call's row leads with its line;
// a kernel's row keeps the kernel first ("launched at" after it), and so
// does every row of a Kokkos program.
TEST(WaitsIdle, ReportRowsOfAProgramWithoutKokkosLeadWithTheLine) {
  IdleSummary s;
  s.any_activity = true;
  s.span_s = 10;
  s.busy_s = 8;
  s.idle_s = 2;
  s.gaps = 2;
  addscope::IdleSiteStats sync;
  sync.cause = IdleCause::SyncRoundTrip;
  sync.site = "cudaStreamSynchronize";
  sync.gaps = sync.calls = 1;
  sync.idle_s = sync.max_s = 1.5;
  sync.code.file = "train.py";
  sync.code.line = 21;
  sync.code.function = "main";
  sync.code.text = "total += loss.item()";
  addscope::IdleSiteStats launch = sync;
  launch.cause = IdleCause::LaunchLatency;
  launch.site = "add";
  launch.calls = 0;
  launch.idle_s = launch.max_s = 0.5;
  launch.code.line = 20;
  launch.code.text = "add[1, 1](a, b, out)";
  s.sites = {sync, launch};
  const std::string to = " \xe2\x86\x92 ";
  std::ostringstream code;
  addscope::write_idle_report(code, s, addscope::WaitsReportOptions(), true);
  EXPECT_TRUE(has(code.str(), "round trip  train.py:21 (main) `total += "
                              "loss.item()`" + to + "cudaStreamSynchronize\n"))
      << code.str();
  EXPECT_TRUE(has(code.str(), "launch      add  launched at train.py:20 "
                              "(main)\n"))
      << code.str();
  std::ostringstream kokkos;
  addscope::write_idle_report(kokkos, s, addscope::WaitsReportOptions(), false);
  EXPECT_TRUE(has(kokkos.str(), "round trip  cudaStreamSynchronize  at "
                                "train.py:21 (main)\n"))
      << kokkos.str();
  EXPECT_FALSE(has(kokkos.str(), to)) << kokkos.str();
}

TEST(WaitsIdle, ReportSaysOnlyWhatTheNumbersSupport) {
  IdleSummary none;
  EXPECT_EQ(report(none),
            "  device idle: no device activity recorded (needs CUPTI's kernel "
            "and copy records)\n");
  Timeline t;
  t.host(0, HostState::Program, 0, 100);
  t.work(7, 0, 10, "a");
  t.work(7, 10, 20, "b");
  const auto r = run(t);
  const std::string text = report(r.s);
  EXPECT_TRUE(has(text, "never idle between the first and the last work"))
      << text;
  EXPECT_FALSE(has(text, "what if")) << text;
  EXPECT_FALSE(has(text, "cause")) << text;
  EXPECT_FALSE(has(text, "start-up")) << text;  // run bounds unknown
  // One gap, one call: singular words; no region: share of the run.
  Timeline u;
  u.work(7, 0, 10, "a", 0, 0);
  u.host(0, HostState::Mpi, 5, 20, "MPI_Wait", "", "", "", 3);
  u.host(0, HostState::Launch, 20, 22, "b");
  u.work(7, 22, 30, "b", 0, 20);
  const auto q = run(u);
  const std::string t2 = report(q.s);
  EXPECT_TRUE(has(t2,
                  "1 MPI_Wait call left the device idle 12.0 us = 40.0% "
                  "of the device's run; if they took no time, the run "
                  "could be up to 12.0 us shorter"))
      << t2;
  EXPECT_TRUE(has(t2, "in 1 gap,")) << t2;
  EXPECT_FALSE(has(t2, "idle by region")) << t2;
}

TEST(WaitsIdle, JsonCarriesEveryClassWithTotals) {
  const auto r = run(residual_loop(10), IdleLimits(), 0, 400);
  const nlohmann::json j = addscope::idle_json(r.s);
  ASSERT_TRUE(j.contains("causes"));
  for (const char* k : {"sync_round_trip", "launch_latency", "host_code",
                        "communication", "submitted", "unknown", "start_up"}) {
    ASSERT_TRUE(j["causes"].contains(k)) << k;
    EXPECT_TRUE(j["causes"][k]["idle_s"].is_number()) << k;
  }
  EXPECT_NEAR(j["causes"]["sync_round_trip"]["idle_s"].get<double>(),
              (10 * 6 + 9 * 6) * kUs, 1e-12);
  EXPECT_EQ(j["causes"]["sync_round_trip"]["calls"].get<int>(), 10);
  EXPECT_TRUE(j["causes"]["launch_latency"]["thread_state_s"].is_null());
  EXPECT_NEAR(
      j["causes"]["sync_round_trip"]["thread_state_s"]["kokkos"].get<double>(),
      20 * kUs, 1e-12);
  EXPECT_NEAR(j["idle_s"].get<double>() + j["busy_s"].get<double>(),
              j["span_s"].get<double>(), 1e-12);
  EXPECT_NEAR(j["startup_s"].get<double>(), 3 * kUs, 1e-12);
  // The residual's first run, apart.
  EXPECT_NEAR(j["causes"]["start_up"]["idle_s"].get<double>(), 3 * kUs, 1e-12);
  bool words = false;
  for (const auto& row : j["sites"])
    words = words || (row["cause"] == "start_up" &&
                      row["words"] == "the first run of probe::residual");
  EXPECT_TRUE(words) << j["sites"].dump();
  EXPECT_EQ(j["devices"].size(), 1u);
  EXPECT_EQ(j["sites"][0]["cause"], "sync_round_trip");
  EXPECT_EQ(j["sites"][0]["region"], "loop");
  EXPECT_TRUE(j["sites"][0]["before"].is_null());
  EXPECT_EQ(j["what_if"][0]["cause"], "sync_round_trip");
  EXPECT_TRUE(j["what_if"][0]["line"].is_string());
  EXPECT_EQ(j["longest"][0]["pieces"].size(), 1u);
  EXPECT_EQ(j["longest"][0]["state"], "blocked");
  EXPECT_EQ(j["dropped"]["late_activities"], 0);
  // Without run bounds: null, not 0.
  const auto q = run(residual_loop(2));
  EXPECT_TRUE(addscope::idle_json(q.s)["startup_s"].is_null());
}

namespace {
struct FakeSink : addscope::IdleTraceSink {
  struct Slice {
    std::string where, name;
    std::uint32_t id;
    double b, e;
    std::string args;
  };
  std::vector<Slice> slices;
  struct Flow {
    std::uint32_t device, thread;
    double from, to;
  };
  std::vector<Flow> flows;
  void idle_slice(std::uint32_t device, std::int64_t stream,
                  const std::string& name, double b, double e,
                  const std::string& args) override {
    EXPECT_EQ(stream, -1);
    slices.push_back({"device", name, device, b, e, args});
  }
  void host_slice(std::uint32_t thread, const std::string& name, double b,
                  double e, const std::string& args) override {
    slices.push_back({"host", name, thread, b, e, args});
  }
  void flow(std::uint32_t device, std::int64_t, double from,
            std::uint32_t thread, double to, const std::string&) override {
    flows.push_back({device, thread, from, to});
  }
  // Is `t` inside a slice of `where`/`id`?
  bool inside(const char* where, std::uint32_t id, double t) const {
    for (const auto& s : slices)
      if (s.where == where && s.id == id && s.b <= t && t <= s.e) return true;
    return false;
  }
};
}  // namespace

TEST(WaitsIdle, TraceDrawsIdleSlicesAndFlowsToTheBlamedHostSlice) {
  // A host-code gap: two idle slices, the program-code slice, a flow
  // between the first idle slice and it.
  Timeline t;
  t.host(0, HostState::Launch, 0, 3, "k");
  t.work(7, 2, 4, "k", 0, 0);
  t.host(0, HostState::Program, 3, 50, "", "step", "k", "k");
  t.host(0, HostState::Launch, 50, 53, "k");
  t.work(7, 52, 54, "k", 0, 50);
  auto r = run(t);
  ASSERT_EQ(r.s.longest.size(), 1u);
  FakeSink sink;
  EXPECT_EQ(addscope::emit_idle_trace(r.s.longest[0], sink), 4u);
  ASSERT_EQ(sink.slices.size(), 3u);
  EXPECT_EQ(sink.slices[0].name, "idle: host code");
  EXPECT_EQ(sink.slices[1].name, "idle: launch latency");
  EXPECT_EQ(sink.slices[2].where, "host");
  EXPECT_NEAR(us(sink.slices[2].b), 4, 1e-9);
  EXPECT_NEAR(us(sink.slices[2].e), 50, 1e-9);
  const auto args = nlohmann::json::parse(sink.slices[0].args);
  EXPECT_EQ(args["cause"], "host_code");
  EXPECT_EQ(args["before"], "k");
  ASSERT_EQ(sink.flows.size(), 1u);
  EXPECT_TRUE(sink.inside("device", 0, sink.flows[0].from));
  EXPECT_TRUE(sink.inside("host", 0, sink.flows[0].to));
  // A round trip: the flow lands inside the blocked call (the owner's
  // trace has its slice), no host slice of ours.
  r = run(residual_loop(2));
  FakeSink s2;
  for (const auto& g : r.s.longest) addscope::emit_idle_trace(g, s2);
  for (const auto& f : s2.flows) {
    bool in_blocked = false;
    for (const auto& g : r.s.longest)
      if (g.state_known && g.host_begin_s <= f.to && f.to <= g.host_end_s)
        in_blocked = true;
    EXPECT_TRUE(in_blocked);
    EXPECT_TRUE(s2.inside("device", 0, f.from));
  }
  for (const auto& s : s2.slices) EXPECT_EQ(s.where, "device");
  // Submitted or unknown: no host to blame, no flow (even when the
  // thread's state is known: it is not the cause).
  for (IdleCause c : {IdleCause::Unknown, IdleCause::Submitted}) {
    addscope::IdleInterval u;
    u.pieces.push_back({c, 0, 1e-6});
    u.end_s = 1e-6;
    u.thread_known = u.state_known = c == IdleCause::Submitted;
    u.state = HostState::Blocked;
    u.host_begin_s = 0;
    u.host_end_s = 2e-6;
    FakeSink s3;
    EXPECT_EQ(addscope::emit_idle_trace(u, s3), 1u);
    EXPECT_TRUE(s3.flows.empty());
  }
  // Host code blamed while the thread was in Kokkos' own work (between its
  // callbacks: no slice of the host's there, seen on the H200): the idle
  // slice alone, no flow to end nowhere.
  for (HostState st : {HostState::KokkosOwn, HostState::Launch}) {
    addscope::IdleInterval u;
    u.pieces.push_back({IdleCause::HostCode, 0, 4e-6});
    u.end_s = 4e-6;
    u.thread_known = u.state_known = true;
    u.state = st;
    u.host_begin_s = 1e-6;
    u.host_end_s = 3e-6;
    FakeSink s4;
    EXPECT_EQ(addscope::emit_idle_trace(u, s4), 1u);
    EXPECT_TRUE(s4.flows.empty());
    EXPECT_EQ(s4.slices.size(), 1u);
  }
}

// A flow's host end stays inside the blamed host interval once printed to
// the nanosecond (tests/tools/waits_check.cpp reads the trace so): on the
// H200 a launch that ended 1 ns into the gap put the arrow at the launch's
// very end, outside its slice once rounded (2 of 10 runs of faults_threads).
TEST(WaitsIdle, TraceFlowsKeepAMarginInsideTheBlamedHostInterval) {
  // One gap: an idle piece [gb, ge) charged to `c`, the launching thread in
  // `st` over [hb, he).
  auto gap = [](IdleCause c, double gb, double ge, HostState st, double hb,
                double he) {
    addscope::IdleInterval u;
    u.begin_s = gb;
    u.end_s = ge;
    u.pieces.push_back({c, gb, ge});
    u.thread_known = u.state_known = true;
    u.state = st;
    u.host_begin_s = hb;
    u.host_end_s = he;
    return u;
  };
  std::mt19937_64 rng(20261201);
  std::uniform_real_distribution<double> start(1e-3, 2.0);
  auto ns = [](double s) { return std::round(s * 1e9); };  // as printed
  for (int i = 0; i < 200; ++i) {
    const double b = start(rng);
    const double len = (1 + int(rng() % 5000)) * 1e-9;  // 1 ns .. 5 us
    for (IdleCause c : {IdleCause::LaunchLatency, IdleCause::SyncRoundTrip}) {
      // The host interval ends 1 ns after the device went idle.
      const double hend = b + len, idle = hend - 1e-9;
      FakeSink s;
      addscope::emit_idle_trace(
          gap(c, idle, idle + 8e-6,
              c == IdleCause::LaunchLatency ? HostState::Launch
                                            : HostState::Blocked,
              b, hend),
          s);
      if (len < 10e-9) {
        EXPECT_TRUE(s.flows.empty()) << len;
        continue;
      }
      ASSERT_EQ(s.flows.size(), 1u) << len;
      const double to = s.flows[0].to;
      const double m = std::min(0.5e-6, 0.5 * len);
      EXPECT_GE(to, b + m - 1e-12) << len;
      EXPECT_LE(to, hend - m + 1e-12) << len;
      // Printed to the nanosecond, strictly inside.
      EXPECT_GT(ns(to), ns(b)) << len;
      EXPECT_LT(ns(to), ns(hend)) << len;
    }
  }
  // Host code overlapping the gap by 1 ns: no sliver of a slice, no arrow.
  FakeSink s;
  EXPECT_EQ(
      addscope::emit_idle_trace(gap(IdleCause::HostCode, 1.0, 1.0 + 5e-6,
                                    HostState::Program, 0.999, 1.0 + 1e-9),
                                s),
      1u);
  EXPECT_TRUE(s.flows.empty());
  EXPECT_EQ(s.slices.size(), 1u);
  // An idle piece of 1 ns: its slice, no arrow from a sliver.
  FakeSink s2;
  EXPECT_EQ(
      addscope::emit_idle_trace(gap(IdleCause::SyncRoundTrip, 1.0, 1.0 + 1e-9,
                                    HostState::Blocked, 0.5, 1.5),
                                s2),
      1u);
  EXPECT_TRUE(s2.flows.empty());
}
