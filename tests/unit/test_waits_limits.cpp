// The waits tracker under what real programs do to a tool: callbacks that
// do not pair up, calls and regions never closed, threads that come and go,
// endless distinct names, launches never fenced, device records that never
// come — on synthetic timelines (no device). What the tracker holds stays
// under its caps (TrackerLimits, LedgerLimits) and what it let go is
// counted (WaitsSnapshot::dropped) and reported.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "addscope/waits/output/addscope_ChromeTrace.hpp"
#include "addscope/waits/output/addscope_WaitsReport.hpp"
#include "addscope/waits/tool/addscope_ToolCallbacks.hpp"
#include "waits_sim.hpp"

using addscope::CallKind;
using addscope::SyncApi;
using addscope::WaitClass;
using addscope::WaitsMode;
using addscope_test::cuda;
using addscope_test::WaitsSim;

namespace {

addscope::TrackerOptions small_options(bool device_records) {
  addscope::TrackerOptions o;
  o.clock = std::make_shared<addscope::ManualWaitsClock>();
  o.device_records_by_hand = device_records;
  o.settle_every = 16;
  o.tracker_limits.pending_records = 512;
  o.tracker_limits.names = 256;
  o.tracker_limits.open_per_thread = 32;
  o.tracker_limits.region_depth = 8;
  o.tracker_limits.pending_launches = 64;
  o.limits.kernels = 50;
  o.limits.sites = 50;
  o.limits.streams = 10;
  o.limits.threads = 10;
  return o;
}

std::string report_of(const addscope::WaitsSnapshot& w) {
  std::ostringstream os;
  addscope::write_waits_report(os, w);
  return os.str();
}

}  // namespace

// Ends without begins, pops without pushes, a blocking call's end without
// its begin: counted, ignored, and nothing else changes.
TEST(WaitsLimits, UnmatchedEndsAreCountedAndIgnored) {
  WaitsSim s;
  s.t->kernel_end(12345);
  s.t->call_end(777);
  s.t->region_pop();
  s.t->call_end_innermost(CallKind::DeepCopy);  // counted below
  s.t->on_blocking_end();
  // Then a normal wait, attributed as if nothing had happened.
  const auto k = s.launch("user::k", 0.0, 1e-5);
  s.ran(k, 7, 1e-5, 0.1);
  s.call(CallKind::DeepCopy, "deep_copy h<-d (Host<-Cuda, 4 B)", 2e-5, 0.1001,
         [&] { s.block(SyncApi::Memcpy, 3e-5, 0.1, -1, 4); });
  // A second end for the same call.
  s.t->kernel_end(k.id);
  const auto w = s.done();
  EXPECT_EQ(w.dropped.unmatched_ends, 6u);
  EXPECT_EQ(w.dropped.unended_calls, 0u);
  ASSERT_EQ(w.waits.size(), 1u);
  EXPECT_NEAR(w.waits[0].wait_s, 0.1 - 3e-5, 1e-9);
  const std::string r = report_of(w);
  EXPECT_NE(r.find("limits: 6 end callbacks without a begin"),
            std::string::npos)
      << r;
  const auto j = nlohmann::json::parse(addscope::waits_json(w));
  EXPECT_EQ(j["dropped"]["unmatched_ends"], 6);
}

// Ends out of order (B begun inside A, A ends first): each ends as itself.
TEST(WaitsLimits, EndsOutOfOrderPairByIdentity) {
  WaitsSim s;
  s.at(0.0);
  const auto a = s.t->call_begin(CallKind::Fence, "Kokkos::fence: A");
  s.at(1.0);
  const auto b = s.t->call_begin(CallKind::Fence, "Kokkos::fence: B");
  s.at(2.0);
  s.t->call_end(a);
  s.at(4.0);
  s.t->call_end(b);
  const auto w = s.done();
  EXPECT_EQ(w.totals.calls, 2u);
  EXPECT_EQ(w.dropped.unmatched_ends, 0u);
  double da = 0, db = 0;
  for (const auto& site : w.sites) {
    if (site.site == "Kokkos::fence: A") da = site.duration_s;
    if (site.site == "Kokkos::fence: B") db = site.duration_s;
  }
  EXPECT_DOUBLE_EQ(da, 2.0);
  EXPECT_DOUBLE_EQ(db, 3.0);
}

// Calls begun and never ended: at most open_per_thread are held (the
// oldest go), the rest are counted; a call left open does not hold back
// the attribution of later waits (with device records).
TEST(WaitsLimits, CallsNeverEndedAreCappedAndHoldNothingBack) {
  auto o = small_options(true);
  WaitsSim s(o);
  s.at(0.0);
  s.t->call_begin(CallKind::DeepCopy, "deep_copy leaked");  // never ends
  double t = 1.0;
  for (int i = 0; i < 200; ++i) {
    s.at(t);
    s.t->kernel_begin("user::leak", cuda());  // never ends
    t += 1e-3;
  }
  EXPECT_LE(s.t->footprint().open, o.tracker_limits.open_per_thread);
  // Later launches and fences on another thread are attributed as the run
  // goes, not held until the leaked calls end.
  addscope_test::Actor other;
  for (int i = 0; i < 2000; ++i) {
    other.run([&] {
      const auto k = s.launch("user::k", t, t + 1e-6);
      s.ran(k, 7, t + 1e-6, t + 1e-4);
      s.call(CallKind::Fence, "Kokkos::fence: Unnamed Global Fence", t + 2e-6,
             t + 2e-4, [&] {
               s.block(SyncApi::DeviceSynchronize, t + 3e-6, t + 1.1e-4);
             });
    });
    t += 1e-3;
    if (i % 100 == 99) {
      EXPECT_LT(s.t->pending_records(), 64u) << i;
    }
  }
  const auto w = s.done();
  EXPECT_EQ(w.totals.explicit_calls, 2000u);
  // 201 begun, 32 held (counted at the report), 169 pushed out.
  EXPECT_EQ(w.dropped.unended_calls, 201u);
  EXPECT_EQ(w.dropped.settled_early, 0u);
}

// Regions pushed and never popped: the path holds region_depth at most;
// deeper pushes are counted and pop in order.
TEST(WaitsLimits, RegionsNeverPoppedAreCapped) {
  auto o = small_options(false);
  WaitsSim s(o);
  for (int i = 0; i < 20; ++i) s.t->region_push("level " + std::to_string(i));
  // 12 pushes past the depth of 8 are popped first.
  for (int i = 0; i < 12; ++i) s.t->region_pop();
  s.at(1.0);
  s.t->call_begin(CallKind::Fence, "in the regions");  // never ends
  s.at(2.0);
  const auto f = s.t->call_begin(CallKind::Fence, "Kokkos::fence: f");
  s.t->call_end(f);
  const auto w = s.done();
  EXPECT_EQ(w.dropped.regions_too_deep, 12u);
  EXPECT_EQ(w.dropped.unpopped_regions, 8u);
  EXPECT_EQ(w.dropped.unended_calls, 1u);
  bool found = false;
  for (const auto& site : w.sites)
    if (site.site == "Kokkos::fence: f") {
      found = true;
      EXPECT_EQ(site.regions,
                "level 0 > level 1 > level 2 > level 3 > level 4 > level 5 > "
                "level 6 > level 7");
    }
  EXPECT_TRUE(found);
  EXPECT_NE(report_of(w).find("8 regions never popped"), std::string::npos);
}

// Endless distinct names (a step number in a kernel's label): the name
// table stops at its cap, the ledger merges kernels past its own.
TEST(WaitsLimits, DistinctNamesAreCapped) {
  auto o = small_options(false);
  WaitsSim s(o);
  for (int i = 0; i < 5000; ++i) {
    s.at(i * 1e-3);
    const auto id = s.t->kernel_begin("step " + std::to_string(i),
                                      addscope::DeviceKind::OpenMP);
    s.at(i * 1e-3 + 1e-4);
    s.t->kernel_end(id);
  }
  const auto f = s.t->footprint();
  EXPECT_LE(f.names, o.tracker_limits.names);
  const auto w = s.done();
  // 5000 names, 256 slots (a few of them the tracker's own): every name
  // past the table is counted.
  EXPECT_GE(w.dropped.names, 5000u - o.tracker_limits.names);
  EXPECT_LE(w.dropped.names, 5000u - o.tracker_limits.names + 16);
  // The ledger keeps the first 50 names, one call each; the other 4950
  // launches go to one "(other kernels)" entry, each counted.
  EXPECT_EQ(w.kernels.size(), o.limits.kernels + 1);
  EXPECT_EQ(w.dropped.kernels, 5000u - o.limits.kernels);
  std::uint64_t other = 0, own = 0;
  for (const auto& k : w.kernels) {
    if (k.name == "(other kernels)")
      other += k.calls;
    else if (k.name.rfind("step ", 0) == 0 && k.calls == 1)
      ++own;
  }
  EXPECT_EQ(other, 5000u - o.limits.kernels);
  EXPECT_EQ(own, o.limits.kernels);
  EXPECT_EQ(w.totals.host_kernels, 5000u);
  std::uint64_t calls = 0;
  for (const auto& k : w.kernels) calls += k.calls;
  EXPECT_EQ(calls, 5000u);  // nothing lost, merged
  EXPECT_LE(w.sites.size(), o.limits.sites + 1);
}

// Threads that come and go: their state is let go when they exit; what
// they left open is counted.
TEST(WaitsLimits, ExitedThreadsAreLetGo) {
  WaitsSim s(true);
  for (int i = 0; i < 300; ++i) {
    std::thread th([&] {
      s.t->region_push("worker");  // never popped
      const auto k = s.t->kernel_begin("user::worker", cuda());
      s.t->on_launch(100000u + std::uint32_t(i));
      s.t->kernel_end(k);
      s.t->kernel_begin("user::left_open", cuda());  // never ended
    });
    th.join();
  }
  s.t->flush();
  EXPECT_LE(s.t->footprint().threads, 2u);  // this one, at most one more
  const auto w = s.done();
  EXPECT_EQ(w.dropped.unpopped_regions, 300u);
  EXPECT_EQ(w.dropped.unended_calls, 300u);
  EXPECT_EQ(w.threads_seen, 300u);
  EXPECT_EQ(w.totals.launches, 300u);
  EXPECT_EQ(w.kernels_without_device_record, 300u);
}

// Launches whose device record never comes (kernels never fenced, records
// lost): the oldest are given up past the cap, and they do not hold back
// the attribution of everything else for ever.
TEST(WaitsLimits, LaunchesWithoutRecordsAreGivenUp) {
  auto o = small_options(true);
  WaitsSim s(o);
  double t = 0;
  for (int i = 0; i < 5000; ++i) {
    const auto k = s.launch("user::lost", t, t + 1e-6);  // no record
    (void)k;
    const auto m = s.launch("user::k", t + 2e-6, t + 3e-6);
    s.ran(m, 7, t + 3e-6, t + 5e-5);
    s.call(CallKind::Fence, "Kokkos::fence: Unnamed Global Fence", t + 4e-6,
           t + 6e-5,
           [&] { s.block(SyncApi::DeviceSynchronize, t + 5e-6, t + 5.5e-5); });
    t += 1e-4;
    EXPECT_LE(s.t->pending_records(), o.tracker_limits.pending_records + 16)
        << i;
  }
  const auto w = s.done();
  EXPECT_EQ(w.kernels_without_device_record, 5000u);
  EXPECT_EQ(w.totals.explicit_calls, 5000u);
  EXPECT_EQ(w.totals.device_kernels, 5000u);
  // Each lost launch holds back the records after it until the held
  // records reach their cap: nearly every fence is settled early (all but
  // those within the cap at the end; a fence and its kernel each count).
  EXPECT_GE(w.dropped.settled_early, 5000u - o.tracker_limits.pending_records);
  EXPECT_LE(w.dropped.settled_early, 2u * 5000u);
}

// A blocking call that never returns (its end callback lost) holds back
// the records after it only up to the cap.
TEST(WaitsLimits, ABlockingCallThatNeverEndsHoldsBackOnlyUpToTheCap) {
  auto o = small_options(true);
  WaitsSim s(o);
  addscope::Impl::BlockingBegin b;
  b.api = SyncApi::DeviceSynchronize;
  addscope_test::Actor stuck;
  stuck.run([&] {
    s.at(0.0);
    s.t->on_blocking_begin(b);
  });
  double t = 1e-3;
  for (int i = 0; i < 5000; ++i) {
    const auto k = s.launch("user::k", t, t + 1e-6);
    s.ran(k, 7, t + 1e-6, t + 5e-5);
    s.call(CallKind::Fence, "Kokkos::fence: Unnamed Global Fence", t + 2e-6,
           t + 6e-5,
           [&] { s.block(SyncApi::DeviceSynchronize, t + 3e-6, t + 5.5e-5); });
    t += 1e-4;
    EXPECT_LE(s.t->pending_records(), o.tracker_limits.pending_records + 16)
        << i;
  }
  const auto w = s.done();
  EXPECT_EQ(w.totals.explicit_calls, 5000u);
  // Everything after the stuck call waits on it: nearly every fence is
  // settled early (all but those within the cap at the end).
  EXPECT_GE(w.dropped.settled_early, 5000u - o.tracker_limits.pending_records);
  EXPECT_LE(w.dropped.settled_early, 2u * 5000u);
  EXPECT_EQ(w.dropped.unended_calls, 1u);  // the blocking call, still open
}

// Kernel records on more streams than the ledger keeps.
TEST(WaitsLimits, StreamsPastTheCapAreMerged) {
  auto o = small_options(true);
  WaitsSim s(o);
  for (int i = 0; i < 100; ++i) {
    const double t = i * 1e-3;
    const auto k = s.launch("user::k", t, t + 1e-6);
    s.ran(k, std::uint32_t(1000 + i), t + 1e-6, t + 1e-4);
  }
  const auto w = s.done();
  EXPECT_LE(w.streams.size(), o.limits.streams + 1);
  EXPECT_EQ(w.dropped.streams, 100u - o.limits.streams);
  std::uint64_t n = 0;
  for (const auto& st : w.streams) n += st.kernels;
  EXPECT_EQ(n, 100u);
  // ... and every one tied to its launch (not merely delivered: a tracker
  // that recorded no host event would still count the device's records).
  ASSERT_EQ(w.kernels.size(), 1u);
  EXPECT_EQ(w.kernels[0].name, "user::k");
  EXPECT_EQ(w.kernels[0].launches, 100u);
}

// No device records (Kokkos-only): launches never fenced are forgotten
// past the cap, oldest first; a later fence still bounds its wait.
TEST(WaitsLimits, KokkosOnlyLaunchesNeverFencedAreCapped) {
  auto o = small_options(false);
  WaitsSim s(o);
  double t = 0;
  for (int i = 0; i < 1000; ++i, t += 1e-4)
    s.launch("user::async", t, t + 1e-6);
  EXPECT_LE(s.t->footprint().pending_launches,
            o.tracker_limits.pending_launches);
  s.call(CallKind::Fence, "Kokkos::fence: Unnamed Global Fence", t, t + 0.5);
  const auto w = s.done();
  EXPECT_EQ(w.mode, WaitsMode::KokkosOnly);
  EXPECT_EQ(w.dropped.pending_launches,
            1000u - o.tracker_limits.pending_launches);
  ASSERT_EQ(w.waits.size(), 1u);
  EXPECT_TRUE(w.waits[0].wait_is_bound);
  EXPECT_NEAR(w.waits[0].wait_s, 0.5, 1e-9);
}

// Callbacks only (ADDSCOPE_WAITS_DEVICE=callbacks): launches and blocking
// calls with their streams, no kernel records. A blocking call waited up to
// its whole time for the last launch on a stream it covers.
TEST(WaitsLimits, CallbacksOnlyWaitsAreBoundsOnTheirStreams) {
  addscope::TrackerOptions o;
  auto clock = std::make_shared<addscope::ManualWaitsClock>();
  o.clock = clock;
  o.callbacks_by_hand = true;
  addscope::SyncTracker t(o);
  auto launch = [&](const char* name, double t0, std::uint32_t stream) {
    clock->set(t0);
    const auto id = t.kernel_begin(name, cuda());
    addscope::Impl::LaunchBegin l;
    l.correlation = 1;
    l.stream_known = true;
    l.stream = stream;
    t.on_launch(l);
    clock->set(t0 + 1e-5);
    t.kernel_end(id);
  };
  auto block = [&](SyncApi api, double t0, double t1, int stream) {
    addscope::Impl::BlockingBegin b;
    b.api = api;
    b.all_streams = stream < 0;
    b.stream = stream < 0 ? 0 : std::uint32_t(stream);
    clock->set(t0);
    t.on_blocking_begin(b);
    clock->set(t1);
    t.on_blocking_end();
  };
  launch("user::on_a", 0.0, 13);
  launch("user::on_b", 0.001, 14);
  // Synchronizing stream 14 covers user::on_b only.
  clock->set(0.002);
  auto f = t.call_begin(CallKind::Fence, "Kokkos::fence: b");
  block(SyncApi::StreamSynchronize, 0.0021, 0.3, 14);
  clock->set(0.3001);
  t.call_end(f);
  // A copy outside Kokkos calls (Kokkos 3.4's label read) waits for all.
  block(SyncApi::Memcpy, 0.4, 0.6, -1);
  clock->set(0.7);
  t.instant(CallKind::Alloc, "allocate x (Host, 4 B)");
  // Nothing pending any more: a later synchronization waited for nothing.
  block(SyncApi::DeviceSynchronize, 0.8, 0.81, -1);
  t.finish();
  const auto w = t.snapshot();
  EXPECT_EQ(w.mode, WaitsMode::Callbacks);
  ASSERT_EQ(w.waits.size(), 2u);
  const auto& fence = w.waits[0];  // longer first
  const auto& copy = w.waits[1];
  EXPECT_EQ(copy.kind, CallKind::Runtime);
  EXPECT_EQ(copy.wait_class, WaitClass::Hidden);
  EXPECT_TRUE(copy.wait_is_bound);
  EXPECT_NEAR(copy.wait_s, 0.2, 1e-9);
  ASSERT_EQ(copy.waited_for.size(), 1u);
  EXPECT_EQ(copy.waited_for[0].kernel, "user::on_a");
  EXPECT_EQ(copy.context,
            "between 'Kokkos::fence: b' and 'allocate x (Host, 4 B)'");
  EXPECT_EQ(fence.what, "Kokkos::fence: b");
  EXPECT_TRUE(fence.wait_is_bound);
  EXPECT_NEAR(fence.wait_s, 0.3 - 0.0021, 1e-9);
  ASSERT_EQ(fence.waited_for.size(), 1u);
  EXPECT_EQ(fence.waited_for[0].kernel, "user::on_b");
  EXPECT_EQ(w.totals.device_kernels, 0u);
  const std::string r = report_of(w);
  EXPECT_NE(r.find("bounded by the blocking call that ended it"),
            std::string::npos)
      << r;
  EXPECT_NE(r.find("waited up to 200.0 ms for user::on_a"), std::string::npos)
      << r;
}

// 16 threads launching, fencing and copying at once, device records from
// another thread: every event counted, nothing held at the end.
TEST(WaitsLimits, SixteenThreadsAtOnce) {
  addscope::TrackerOptions o;
  o.device_records_by_hand = true;
  addscope::SyncTracker t(o);
  constexpr int kThreads = 16, kEach = 2000;
  std::atomic<std::uint32_t> corr{1};
  std::atomic<bool> done{false};
  std::mutex rec_mu;
  std::vector<addscope::Impl::DeviceKernelRecord> recs;
  std::thread device([&] {
    std::vector<addscope::Impl::DeviceKernelRecord> batch;
    while (!done) {
      {
        std::lock_guard<std::mutex> g(rec_mu);
        batch.swap(recs);
      }
      if (!batch.empty()) t.on_device_kernels(batch);
      batch.clear();
      std::this_thread::yield();
    }
  });
  std::vector<std::thread> ths;
  for (int i = 0; i < kThreads; ++i)
    ths.emplace_back([&, i] {
      addscope::Impl::BlockingBegin b;
      b.api = SyncApi::StreamSynchronize;
      b.all_streams = false;
      b.stream = std::uint32_t(i);
      t.region_push("thread " + std::to_string(i));
      for (int k = 0; k < kEach; ++k) {
        const double t0 = t.now();
        const auto id = t.kernel_begin("user::k" + std::to_string(k % 3),
                                       cuda(std::uint32_t(i + 1)));
        const std::uint32_t c = corr++;
        t.on_launch(c);
        t.kernel_end(id);
        const auto f = t.call_begin(CallKind::DeepCopy,
                                    "deep_copy h<-d (Host<-Cuda, 4 B)", cuda());
        t.on_blocking_begin(b);
        addscope::Impl::DeviceKernelRecord r;
        r.correlation = c;
        r.stream = std::uint32_t(i);
        r.start_s = t0;
        r.end_s = t.now();
        {
          std::lock_guard<std::mutex> g(rec_mu);
          recs.push_back(r);
        }
        t.on_blocking_end();
        t.call_end(f);
      }
      t.region_pop();
    });
  for (auto& th : ths) th.join();
  done = true;
  device.join();
  {
    std::lock_guard<std::mutex> g(rec_mu);
    t.on_device_kernels(recs);
  }
  t.finish();
  const auto w = t.snapshot();
  EXPECT_EQ(w.totals.launches, std::uint64_t(kThreads) * kEach);
  EXPECT_EQ(w.totals.device_kernels, std::uint64_t(kThreads) * kEach);
  EXPECT_EQ(w.totals.calls, 2u * kThreads * kEach);
  EXPECT_EQ(w.threads_seen, std::uint64_t(kThreads));
  // Nothing lost or unpaired (records may have been settled early: the
  // device thread here can fall behind 16 others on a small machine).
  auto d = w.dropped;
  d.settled_early = 0;
  EXPECT_FALSE(d.any()) << report_of(w);
  EXPECT_EQ(t.pending_records(), 0u);
}

// Names are the program's bytes: invalid UTF-8 must not stop the report,
// the JSON or the trace (each stays valid JSON).
TEST(WaitsLimits, NamesThatAreNotUtf8) {
  const std::string path = testing::TempDir() + "addscope_waits_utf8.json";
  WaitsSim s;
  ASSERT_TRUE(s.t->open_trace(path));
  const std::string bad = std::string("user::\xff\xfe k \xc3(") + '\x01';
  const auto k = s.launch(bad, 0.0, 1e-5);
  s.ran(k, 7, 1e-5, 0.1);
  s.call(CallKind::DeepCopy, bad, 2e-5, 0.1001,
         [&] { s.block(SyncApi::Memcpy, 3e-5, 0.1, -1, 4); });
  const auto w = s.done();
  ASSERT_EQ(w.waits.size(), 1u);
  nlohmann::json j;
  EXPECT_NO_THROW(j = nlohmann::json::parse(addscope::waits_json(w)));
  EXPECT_NO_THROW(report_of(w));
  std::ifstream f(path);
  nlohmann::json trace;
  EXPECT_NO_THROW(trace = nlohmann::json::parse(f));
  // Every event is there, the name in each of its slices with the bytes
  // that are not UTF-8 replaced (U+FFFD) and the control character kept
  // (escaped in the file): 5 metadata events (the host, its sort index and
  // thread 0, device 0 and its stream 7), 4 slices (the launch, the
  // deep_copy, its cudaMemcpy, the kernel) and the wait's arrow (2 ends).
  const std::string shown =
      std::string("user::\xef\xbf\xbd\xef\xbf\xbd k \xef\xbf\xbd(") + '\x01';
  std::map<std::string, int> phases;
  std::map<std::string, std::string> slice;  // name by category
  for (const auto& e : trace) {
    ++phases[e.value("ph", "")];
    if (e.value("ph", "") == "X")
      slice[e.value("cat", "")] = e.value("name", "");
  }
  EXPECT_EQ(trace.size(), 11u);
  EXPECT_EQ(phases["M"], 5);
  EXPECT_EQ(phases["X"], 4);
  EXPECT_EQ(phases["s"], 1);
  EXPECT_EQ(phases["f"], 1);
  EXPECT_EQ(slice["kernel"], shown);
  EXPECT_EQ(slice["deep_copy"], shown);
  EXPECT_EQ(slice["launch"], "launch of " + shown);
  EXPECT_EQ(slice["runtime"], "cudaMemcpy 4 B");
  std::remove(path.c_str());
}

// The Kokkos Tools front door: deep_copy ends pair per thread, a file that
// cannot be written costs one line and no report is lost.
TEST(WaitsLimits, ToolCallbacksPairDeepCopiesAndSurviveBadPaths) {
  addscope::TrackerOptions o;
  addscope::SyncTracker t(o);
  addscope::Impl::ToolCallbacks c(t);
  c.init(20211015);
  addscope::Impl::ToolsSpaceHandle host{"HostSpace"}, dev{"Cuda"};
  c.end_deep_copy();  // no begin
  c.push_region("r");
  c.begin_deep_copy(host, "h", dev, "d", 4);
  std::thread th([&] {
    c.begin_deep_copy(host, "h2", host, "h3", 1 << 20);
    c.end_deep_copy();
  });
  th.join();
  c.allocate(host, "x", 8);
  c.end_deep_copy();
  c.pop_region();
  std::uint64_t id = 0;
  c.begin_kernel(nullptr, 0x1000000, &id);  // a null name
  c.end_kernel(id);
  std::ostringstream report, errors;
  EXPECT_FALSE(c.finalize(report, "/nonexistent-dir/x/waits.json", errors));
  EXPECT_EQ(errors.str(),
            "addscope waits: cannot write '/nonexistent-dir/x/waits.json': "
            "No such file or directory (ADDSCOPE_WAITS_JSON); no JSON "
            "report\n");
  EXPECT_NE(report.str().find("1 end callbacks without a begin"),
            std::string::npos)
      << report.str();
  const auto w = t.snapshot();
  EXPECT_EQ(w.totals.calls, 3u);  // two deep_copies, one kernel
  bool site = false;
  for (const auto& s : w.sites)
    site = site || s.site == "deep_copy h2<-h3 (Host<-Host)";
  EXPECT_TRUE(site);
}

// A launch that "blocked" with times that make no sense (what a broken
// clock or a corrupt CUPTI callback could give: NaN, infinite, ending
// before it began) is ignored: no wait, nothing negative or infinite in the
// totals (tests/fuzz/fuzz_waits_tool.cpp sends such times). Then a launch
// that really blocked, from 1 us after the last of them until 0.50001 s
// (user::slow ended at 0.5 s): the nonsense must not have cost the tracker
// its state (a tracker that dropped everything would pass the checks on
// nothing).
namespace {
void expect_nonsense_ignored(
    const std::vector<std::pair<double, double>>& bad) {
  WaitsSim s;
  const auto a = s.launch("user::slow", 0.0, 1e-5, cuda(1));
  s.ran(a, 13, 1e-5, 0.5);
  double now = 2e-5;
  for (const auto& b : bad) {
    s.at(now);
    const auto id = s.t->kernel_begin("user::next", cuda(2));
    s.t->on_launch(s.next_corr++);
    s.t->on_slow_launch(b.first, b.second);
    now += 1e-5;
    s.at(now);
    s.t->kernel_end(id);
  }
  s.at(now);
  const auto last = s.t->kernel_begin("user::after", cuda(2));
  s.t->on_launch(s.next_corr++);
  s.t->on_slow_launch(now + 1e-6, 0.50001);
  s.at(0.50002);
  s.t->kernel_end(last);
  const auto w = s.done();
  ASSERT_EQ(w.waits.size(), 1u);
  const auto& good = w.waits[0];
  EXPECT_EQ(good.kind, CallKind::Launch);
  EXPECT_EQ(good.what, "launch of user::after");
  ASSERT_EQ(good.waited_for.size(), 1u);
  EXPECT_EQ(good.waited_for[0].kernel, "user::slow");
  EXPECT_NEAR(good.wait_s, 0.5 - (now + 1e-6), 1e-9);
  EXPECT_NEAR(w.totals.hidden_s, good.wait_s, 1e-12);
  EXPECT_EQ(w.totals.hidden_calls, 1u);
  // user::slow, each user::next, user::after.
  EXPECT_EQ(w.totals.launches, 2u + bad.size());
  const addscope::KernelStats* next = nullptr;
  for (const auto& k : w.kernels)
    if (k.name == "user::next") next = &k;
  ASSERT_NE(next, nullptr);
  EXPECT_EQ(next->calls, bad.size());
  EXPECT_EQ(next->waited_hidden_s, 0.0);
  const auto ok = [](double v) { return std::isfinite(v) && v >= 0; };
  const auto& t = w.totals;
  for (double v : {t.hidden_s, t.explicit_s, t.overlap_s, t.device_busy_s})
    EXPECT_TRUE(ok(v)) << v;
  for (const auto& site : w.sites)
    for (double v : {site.duration_s, site.wait_hidden_s, site.wait_explicit_s,
                     site.max_wait_s})
      EXPECT_TRUE(ok(v)) << site.site << ": " << v;
  for (const auto& th : w.threads)
    for (double v : {th.wait_hidden_s, th.wait_explicit_s})
      EXPECT_TRUE(ok(v)) << v;
  for (const auto& k : w.kernels)
    for (double v : {k.device_s, k.device_max_s, k.waited_hidden_s,
                     k.waited_explicit_s, k.overlap_s})
      EXPECT_TRUE(ok(v)) << v;
  const std::string r = report_of(w);
  EXPECT_EQ(r.find("nan"), std::string::npos) << r;
  EXPECT_EQ(r.find("inf"), std::string::npos) << r;
  EXPECT_NO_THROW(nlohmann::json::parse(addscope::waits_json(w)).size());
}
}  // namespace

TEST(WaitsLimits, SlowLaunchWithNonsenseTimesIsIgnored) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  expect_nonsense_ignored({{nan, 0.5}, {-inf, 0.5}, {3e-5, inf}, {0.5, 3e-5}});
}

// A slow launch that ends at NaN: recorded, it would never be merged (the
// analyzer takes records in time order) and would stall every later event
// of its thread (here: the real slow launch after it, the kernels' ends).
TEST(WaitsLimits, SlowLaunchEndingAtNaNDoesNotStallItsThread) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  expect_nonsense_ignored({{3e-5, nan}});
}
