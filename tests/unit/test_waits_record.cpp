// Record now, explain later: the program threads' side of the waits tracker
// (record/: name cache, thread logs, chunk pool) and the analyzer's (the
// merge, the background thread, kernels tied by the tracker's call ids, the
// device's delivery watermark, fork).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "addscope/waits/output/addscope_WaitsReport.hpp"
#include "addscope/waits/record/addscope_NameCache.hpp"
#include "addscope/waits/record/addscope_StackCapture.hpp"
#include "addscope/waits/record/addscope_ThreadLog.hpp"
#include "child_process.hpp"
#include "waits_sim.hpp"

using addscope::CallKind;
using addscope::DeviceKind;
using addscope::SyncApi;
using addscope::Impl::ChunkPool;
using addscope::Impl::EventKind;
using addscope::Impl::EventRecord;
using addscope::Impl::kChunkRecords;
using addscope::Impl::kMaxStackFrames;
using addscope::Impl::NameCache;
using addscope::Impl::ThreadLog;
using addscope_test::cuda;
using addscope_test::WaitsSim;

// ---- the name cache
// -------------------------------------------------------------

TEST(WaitsRecord, NamesAreFoundByTextWhateverTheirAddress) {
  NameCache c;
  bool is_new = false;
  std::string a = "user::kernel_one", b = a;  // same text, two addresses
  const auto s1 = c.find(a, &is_new);
  EXPECT_TRUE(is_new);
  EXPECT_EQ(s1, 1u);  // a fresh cache's first slot (0 is the empty name)
  EXPECT_EQ(c.find(b, &is_new), s1);
  EXPECT_FALSE(is_new);
  EXPECT_EQ(c.text(s1), "user::kernel_one");
  EXPECT_EQ(c.find("", &is_new), 0u);  // the empty name
}

TEST(WaitsRecord, AnAddressReusedForAnotherTextIsAnotherName) {
  // Kokkos passes the text of temporaries: the same buffer holds one label
  // now and another later. The cache must never trust the address alone.
  NameCache c;
  char buf[32];
  bool is_new = false;
  std::strcpy(buf, "label::first");
  const auto s1 = c.find(buf, &is_new);
  std::strcpy(buf, "label::other");  // same address, same length
  const auto s2 = c.find(buf, &is_new);
  EXPECT_TRUE(is_new);
  EXPECT_NE(s1, s2);
  EXPECT_EQ(c.text(s2), "label::other");
  std::strcpy(buf, "label::first");
  EXPECT_EQ(c.find(buf, &is_new), s1);
  EXPECT_FALSE(is_new);
}

TEST(WaitsRecord, SlotsAreReusedInTurnAndRedefined) {
  NameCache c;
  bool is_new = false;
  const auto first = c.find("name 0", &is_new);
  for (std::uint32_t i = 1; i + 1 < NameCache::kSlots; ++i)
    c.find("name " + std::to_string(i), &is_new);
  // Every slot taken: the next new name takes the first one's slot...
  const auto again = c.find("one more", &is_new);
  EXPECT_TRUE(is_new);
  EXPECT_EQ(again, first);
  // ... and the first name, asked for again, is new again (defined anew).
  c.find("name 0", &is_new);
  EXPECT_TRUE(is_new);
}

// ---- thread logs
// -------------------------------------------------------------------

namespace {
// Reads every record (name definitions applied) the way the analyzer does.
std::vector<EventRecord> read_all(ThreadLog& l,
                                  std::vector<std::string>* names) {
  std::vector<EventRecord> out;
  while (const EventRecord* r = l.peek()) {
    if (r->kind == EventKind::NameDef) {
      const std::uint32_t slot = r->name;
      const std::string text(l.pop_name_def());
      if (names) {
        if (names->size() <= slot) names->resize(slot + 1);
        (*names)[slot] = text;
      }
      continue;
    }
    out.push_back(*r);
    l.pop();
  }
  return out;
}
}  // namespace

TEST(WaitsRecord, LogsKeepOrderAcrossChunksAndRecycleThem) {
  ChunkPool pool(8);
  ThreadLog log(pool, 0);
  const int n = 3 * kChunkRecords + 17;
  std::vector<EventRecord> got;
  std::vector<std::string> names;
  for (int i = 0; i < n; ++i) {
    log.begin();
    const auto slot = log.name(i % 2 ? "odd" : "even name, a longer one");
    EventRecord* r = log.reserve();
    ASSERT_NE(r, nullptr);
    r->kind = EventKind::RegionPush;
    r->name = slot;
    r->id = std::uint64_t(i);
    r->t = i;
    log.commit(r->t);
    log.end();
    if (i % 1000 == 999) {  // the reader, now and then
      auto part = read_all(log, &names);
      got.insert(got.end(), part.begin(), part.end());
    }
  }
  auto rest = read_all(log, &names);
  got.insert(got.end(), rest.begin(), rest.end());
  ASSERT_EQ(got.size(), std::size_t(n));
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(got[i].id, std::uint64_t(i));
    EXPECT_EQ(names[got[i].name], i % 2 ? "odd" : "even name, a longer one");
  }
  // Chunks read whole went back to the pool: a few in use, not n's worth.
  EXPECT_LE(pool.allocated(), 3u);
  EXPECT_EQ(log.dropped(), 0u);
}

TEST(WaitsRecord, AFullPoolDropsAndCountsWithoutBlocking) {
  ChunkPool pool(1);  // the log's first chunk is all there is
  ThreadLog log(pool, 0);
  const auto t0 = std::chrono::steady_clock::now();
  int kept = 0;
  for (int i = 0; i < 2 * int(kChunkRecords); ++i) {
    log.begin();
    if (EventRecord* r = log.reserve()) {
      r->kind = EventKind::RegionPop;
      log.commit(double(i));
      ++kept;
    }
    log.end();
  }
  const double s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
          .count();
  EXPECT_EQ(kept, int(kChunkRecords));
  EXPECT_EQ(log.dropped(), std::uint64_t(kChunkRecords));
  // Only the first drop waited (at most ThreadLog::kOverflowWait_s): the
  // others were dropped at once.
  EXPECT_LT(s, 0.5);
  EXPECT_EQ(read_all(log, nullptr).size(), std::size_t(kChunkRecords));
}

// A stack is what a site costs, not the event it goes with: one that needs
// a new chunk when the pool keeps its last quarter for events (three of
// four chunks out, none free) is left out at once and counted; the events
// after it keep their room. With room to spare, a stack crosses into a new
// chunk whole.
TEST(WaitsRecord, AStackIsLeftOutBeforeAnEventWhenTheLogRunsShort) {
  for (const bool short_of_room : {true, false}) {
    ChunkPool pool(short_of_room ? 4 : 64);
    ThreadLog log(pool, 0);
    auto event = [&](double t) {
      log.begin();
      EventRecord* r = log.reserve();
      if (r) {
        r->kind = EventKind::RegionPop;
        log.commit(t);
      }
      log.end();
      return r != nullptr;
    };
    // Two chunks full, then all but two records of a third: three of four
    // chunks out, none free.
    int events = 0;
    for (std::uint32_t i = 0; i < 3 * kChunkRecords - 2; ++i)
      events += event(double(i));
    std::uint64_t pcs[kMaxStackFrames];
    for (std::uint32_t i = 0; i < kMaxStackFrames; ++i) pcs[i] = 0x1000 + i;
    log.begin();
    log.stack(pcs, kMaxStackFrames, 1e6);  // 5 records: a new chunk
    log.end();
    for (int i = 0; i < 10; ++i) events += event(1e6 + i);  // and past it
    EXPECT_EQ(events, int(3 * kChunkRecords - 2 + 10));
    EXPECT_EQ(log.dropped(), 0u);
    EXPECT_EQ(log.stacks_dropped(), short_of_room ? 1u : 0u);
    int read = 0, stacks = 0;
    while (const EventRecord* r = log.peek()) {
      if (r->kind == EventKind::Stack) {
        std::uint64_t got[kMaxStackFrames];
        ASSERT_EQ(log.pop_stack(got, kMaxStackFrames), kMaxStackFrames);
        EXPECT_EQ(got[kMaxStackFrames - 1], 0x1000 + kMaxStackFrames - 1);
        ++stacks;
        continue;
      }
      EXPECT_EQ(r->kind, EventKind::RegionPop);
      ++read;
      log.pop();
    }
    EXPECT_EQ(read, events);
    EXPECT_EQ(stacks, short_of_room ? 0 : 1);
  }
}

TEST(WaitsRecord, ALongNameIsDefinedWholeInOneChunk) {
  ChunkPool pool(8);
  ThreadLog log(pool, 0);
  std::vector<std::string> names;
  // Fill most of the first chunk, then a name that cannot fit in its rest.
  for (std::uint32_t i = 0; i + 3 < kChunkRecords; ++i) {
    log.begin();
    EventRecord* r = log.reserve();
    r->kind = EventKind::RegionPop;
    log.commit(0.0);
    log.end();
  }
  const std::string long_name(1000, 'k');
  log.begin();
  const auto slot = log.name(long_name);
  EventRecord* r = log.reserve();
  r->kind = EventKind::RegionPush;
  r->name = slot;
  log.commit(1.0);
  log.end();
  const auto got = read_all(log, &names);
  ASSERT_EQ(got.size(), std::size_t(kChunkRecords - 3 + 1));
  EXPECT_EQ(got.back().kind, EventKind::RegionPush);
  EXPECT_EQ(names.at(got.back().name), long_name);
}

// ---- the analyzer
// ------------------------------------------------------------------

// Many threads recording at once, the analyzer draining on its own thread:
// every event counted, nothing dropped, per-thread order kept (no call ends
// before it begins).
TEST(WaitsAnalyzer, ManyThreadsWithTheAnalyzerOnItsOwnThread) {
  addscope::TrackerOptions o;
  o.background = true;
  addscope::SyncTracker t(o);
  t.start_background();
  // Within the logs' cap even if the analyzer never ran (a loaded machine):
  // what is checked is the merge, not the analyzer's speed.
  const int threads = 8, kernels = 4000;
  std::vector<std::thread> ts;
  addscope::ExecId host;
  host.kind = DeviceKind::OpenMP;
  for (int k = 0; k < threads; ++k)
    ts.emplace_back([&, k] {
      const std::string label = "thread " + std::to_string(k) + " kernel";
      for (int i = 0; i < kernels; ++i) {
        t.region_push("region");
        t.kernel_end(t.kernel_begin(label, host));
        t.region_pop();
      }
    });
  for (auto& th : ts) th.join();
  t.finish();
  const auto w = t.snapshot();
  EXPECT_EQ(w.dropped.events, 0u);
  EXPECT_EQ(w.dropped.unmatched_ends, 0u);
  EXPECT_EQ(w.dropped.unended_calls, 0u);
  std::uint64_t calls = 0;
  for (const auto& k : w.kernels) {
    EXPECT_EQ(k.calls, std::uint64_t(kernels)) << k.name;
    calls += k.calls;
  }
  EXPECT_EQ(calls, std::uint64_t(threads) * kernels);
  EXPECT_EQ(w.threads_seen, std::uint64_t(threads));
}

// A thread's calls after its logs are gone — a CUDA callback during the
// exit's teardown, a thread_local destroyed after them — record nothing and
// touch no freed log (a program ending without Kokkos::finalize crashed in
// its exit on a GPU: the analyzer had deleted the retired log by then).
TEST(WaitsAnalyzer, CallsAfterTheThreadsLogsAreGoneRecordNothing) {
  addscope::TrackerOptions o;
  addscope::SyncTracker t(o);
  addscope::ExecId host;
  host.kind = DeviceKind::OpenMP;
  struct Late {
    addscope::SyncTracker* t = nullptr;
    addscope::ExecId exec;
    ~Late() {
      if (!t) return;
      t->flush();  // the retired log read to its end and deleted
      for (int i = 0; i < 1000; ++i)
        t->kernel_end(t->kernel_begin("after the logs", exec));
    }
  };
  std::thread th([&] {
    // Constructed before the thread's logs, so destroyed after them.
    thread_local Late late;
    late.t = &t;
    late.exec = host;
    t.kernel_end(t.kernel_begin("before", host));
  });
  th.join();
  t.finish();
  const auto w = t.snapshot();
  ASSERT_EQ(w.kernels.size(), 1u);
  EXPECT_EQ(w.kernels[0].name, "before");
  EXPECT_EQ(w.kernels[0].calls, 1u);
  EXPECT_EQ(w.dropped.events, 2000u);  // each begin and end, counted
}

namespace {
// A device source that delivers by hand what a test queues, as CUPTI would:
// only when flushed (the tracker's flush() or the analyzer's own).
struct FakeSource final : addscope::Impl::DeviceSource {
  bool by_call = true;
  std::vector<addscope::Impl::DeviceKernelRecord> queued, ready;
  std::vector<std::pair<std::uint32_t, std::uint64_t>> ext_queued, ext_ready;
  std::vector<std::uint64_t>* pushed = nullptr;
  std::atomic<int>* flushes = nullptr;  // counted when set
  bool start(addscope::Impl::DeviceSink&) override { return true; }
  void stop() override { flush(); }
  void flush() override {
    if (flushes) ++*flushes;
    ready.insert(ready.end(), queued.begin(), queued.end());
    queued.clear();
    ext_ready.insert(ext_ready.end(), ext_queued.begin(), ext_queued.end());
    ext_queued.clear();
  }
  std::string description() const override { return "fake"; }
  bool ties_by_call() const override { return by_call; }
  void push_call(std::uint64_t id) override {
    if (pushed) pushed->push_back(id);
  }
  void drain(addscope::Impl::DeviceRecordSink& out) override {
    for (const auto& e : ext_ready)
      out.on_external_correlation(e.first, e.second);
    ext_ready.clear();
    if (!ready.empty()) out.on_device_kernels(ready);
    ready.clear();
  }
};

// A tracker whose device source is `src` (it takes it over), on `clock`.
addscope::TrackerOptions with_source(
    std::shared_ptr<addscope::WaitsClock> clock, FakeSource* src) {
  addscope::TrackerOptions o;
  o.clock = std::move(clock);
  o.make_device_source = [src] {
    return std::unique_ptr<addscope::Impl::DeviceSource>(src);
  };
  return o;
}

// The record of user::slow[1x1] (a 1 x 1 launch, correlation 77, stream 7)
// running from `start_s` to `end_s`.
addscope::Impl::DeviceKernelRecord slow_kernel(double start_s, double end_s) {
  addscope::Impl::DeviceKernelRecord r;
  r.correlation = 77;
  r.stream = 7;
  r.start_s = start_s;
  r.end_s = end_s;
  r.shape.grid[0] = r.shape.block[0] = 1;
  r.shape.grid[1] = r.shape.grid[2] = r.shape.block[1] = r.shape.block[2] = 1;
  r.name = "_Z4slowv";
  return r;
}
}  // namespace

// Kernels tied by the Kokkos call's id (no launch callback): the kernel
// record's correlation maps to the call that pushed it; a blocking call is
// attributed only once a flush has delivered what it may have waited for.
TEST(WaitsAnalyzer, KernelsTiedByTheCallIdAndAttributedAfterDelivery) {
  auto clock = std::make_shared<addscope::ManualWaitsClock>();
  FakeSource* src = new FakeSource;
  std::vector<std::uint64_t> pushed;
  src->pushed = &pushed;
  addscope::SyncTracker t(with_source(clock, src));
  ASSERT_TRUE(t.start_device_tracing());
  clock->set(1.0);
  const auto id = t.kernel_begin("user::slow[1x1]", cuda());
  clock->set(1.00001);
  t.kernel_end(id);
  ASSERT_EQ(pushed, std::vector<std::uint64_t>{id});  // kernels only
  // The read: a deep_copy 1.00005 .. 1.60001 blocked in a cudaMemcpy
  // 1.0001 .. 1.6.
  clock->set(1.00005);
  t.deep_copy_begin("h", "d", "Host", "Cuda", 4);
  pushed.clear();
  addscope::Impl::BlockingBegin b;
  b.api = SyncApi::Memcpy;
  clock->set(1.0001);
  t.on_blocking_begin(b);
  clock->set(1.6);
  t.on_blocking_end();
  clock->set(1.60001);
  t.call_end_innermost(CallKind::DeepCopy);
  // The kernel ran 1.00002 .. 1.59999; CUPTI has it, not delivered yet.
  src->queued.push_back(slow_kernel(1.00002, 1.59999));
  src->ext_queued.push_back({77, id});
  clock->set(1.7);
  // Not delivered: the deep_copy is not settled yet (it would read "waited
  // for nothing").
  auto pending = t.snapshot();
  EXPECT_TRUE(pending.waits.empty());
  for (const auto& site : pending.sites)
    EXPECT_EQ(site.kind == CallKind::DeepCopy ? site.calls : 0u, 0u)
        << site.site << " settled before its kernel was delivered";
  t.flush();  // delivers: now the wait is known
  const auto w = t.snapshot();
  ASSERT_EQ(w.waits.size(), 1u);
  EXPECT_EQ(w.waits[0].waited_for.at(0).kernel, "user::slow[1x1]");
  EXPECT_NEAR(w.waits[0].wait_s, 1.59999 - 1.0001, 1e-9);
  EXPECT_EQ(w.waits[0].wait_class, addscope::WaitClass::Hidden);
  t.finish();
}

// The seed experiment asks right after its read which kernel the read
// waited for (timing/addscope_ReadAfterLaunch.hpp: flush(), then
// waits_since): the answer must be there, though the read ended only
// microseconds before — on the real clock, as on a GPU. (It came back empty
// on the H200: the flush was not later than the read's end by the clock
// tolerance, so the read was not settled yet.)
TEST(WaitsAnalyzer, TheWaitOfACallThatJustEndedIsKnownAtOnce) {
  auto clock = std::make_shared<addscope::SteadyWaitsClock>();
  FakeSource* src = new FakeSource;
  addscope::SyncTracker t(with_source(clock, src));
  ASSERT_TRUE(t.start_device_tracing());
  const auto mark = t.mark();
  const double k0 = clock->now();
  const auto id = t.kernel_begin("user::slow[1x1]", cuda());
  t.kernel_end(id);
  t.deep_copy_begin("h", "d", "Host", "Cuda", 4);
  addscope::Impl::BlockingBegin b;
  b.api = SyncApi::Memcpy;
  const double b0 = clock->now();
  t.on_blocking_begin(b);
  const double b1 = clock->now();
  // The kernel ran until just before the copy returned.
  const double spin_until = clock->now() + 2e-3;
  while (clock->now() < spin_until) {
  }
  const double k_end = clock->now() - 1e-6;
  src->queued.push_back(slow_kernel(k0 + 1e-6, k_end));
  src->ext_queued.push_back({77, id});
  t.on_blocking_end();
  t.call_end_innermost(CallKind::DeepCopy);
  t.flush();
  const auto w = t.waits_since(mark);
  ASSERT_EQ(w.size(), 1u);
  ASSERT_FALSE(w[0].waited_for.empty());
  EXPECT_EQ(w[0].waited_for[0].kernel, "user::slow[1x1]");
  // It waited from the copy's blocking begin (read between b0 and b1) to
  // the kernel's end, 2 ms later (1 ns: the analyzer's rounding).
  EXPECT_GE(w[0].wait_s, k_end - b1 - 1e-9);
  EXPECT_LE(w[0].wait_s, k_end - b0 + 1e-9);
  t.finish();
}

// Started through CUDA injection (InitializeInjection runs inside the
// program's cuInit), the tracker must not ask the driver anything until
// CUDA is in use: a cuInit of its own there made CUDA's initialization fail
// for the program (CuPy, numba, PyTorch and a plain CUDA program on the
// H200: "initialization error"). The devices are asked at the first call the
// source reports, and the report has them.
TEST(WaitsAnalyzer, InjectionAsksTheDevicesOnlyOnceCudaIsInUse) {
  auto clock = std::make_shared<addscope::ManualWaitsClock>();
  FakeSource* src = new FakeSource;
  addscope::TrackerOptions o = with_source(clock, src);
  o.make_any_program_source = o.make_device_source;
  int asked = 0;
  o.query_devices = [&asked] {
    ++asked;
    addscope::DeviceCapacity d;
    d.device = 0;
    d.name = "Fake GPU";
    d.sms = 4;
    return std::vector<addscope::DeviceCapacity>{d};
  };
  addscope::SyncTracker t(o);
  t.trace_any_cuda_program();
  EXPECT_EQ(asked, 0) << "the driver was asked from inside cuInit";
  EXPECT_TRUE(t.snapshot().devices.empty());
  t.on_cuda_in_use();
  EXPECT_EQ(asked, 1);
  t.on_cuda_in_use();  // once
  EXPECT_EQ(asked, 1);
  const auto w = t.snapshot();
  ASSERT_EQ(w.devices.size(), 1u);
  EXPECT_EQ(w.devices[0].name, "Fake GPU");
  t.finish();
}

// Device records on, and the device ran nothing (Kokkos 4.x allocates in
// CudaSpace at start-up, which starts the device source): a host-only run,
// as the H200 showed for tests/tools/faults.cpp host_only (read as
// "device"). One device kernel makes it a device run.
TEST(WaitsAnalyzer, ARunWhoseDeviceRanNothingIsAHostRun) {
  for (bool with_device_kernel : {false, true}) {
    auto clock = std::make_shared<addscope::ManualWaitsClock>();
    FakeSource* src = new FakeSource;
    src->by_call = false;
    addscope::SyncTracker t(with_source(clock, src));
    ASSERT_TRUE(t.start_device_tracing());
    addscope::ExecId host;
    host.kind = addscope::DeviceKind::OpenMP;
    clock->set(1.0);
    const auto h = t.kernel_begin("user::host_kernel", host);
    clock->set(1.001);
    t.kernel_end(h);
    if (with_device_kernel) {
      clock->set(1.002);
      const auto k = t.kernel_begin("user::slow[1x1]", cuda());
      t.on_launch(77);
      clock->set(1.00201);
      t.kernel_end(k);
      src->queued.push_back(slow_kernel(1.00202, 1.003));
    }
    clock->set(1.01);
    t.finish();
    const auto w = t.snapshot();
    EXPECT_EQ(w.mode, with_device_kernel ? addscope::WaitsMode::Device
                                         : addscope::WaitsMode::Host)
        << (with_device_kernel ? "one device kernel" : "host kernels only");
  }
}

namespace {
// A tracker with a fake device source that counts its flushes, its
// analyzer on a thread of its own, on a manual clock.
struct FlushCounting {
  std::atomic<int> flushes{0};
  std::shared_ptr<addscope::ManualWaitsClock> clock =
      std::make_shared<addscope::ManualWaitsClock>();
  std::unique_ptr<addscope::SyncTracker> tracker;
  std::uint32_t corr = 0;
  explicit FlushCounting(
      const std::function<void(addscope::TrackerOptions&)>& adjust = {}) {
    auto* src = new FakeSource;
    src->by_call = false;
    src->flushes = &flushes;
    addscope::TrackerOptions o = with_source(clock, src);
    if (adjust) adjust(o);
    tracker = std::make_unique<addscope::SyncTracker>(o);
    EXPECT_TRUE(tracker->start_device_tracing());
    tracker->start_background();
  }
  void launch(double at) {
    clock->set(at);
    const auto k = tracker->kernel_begin("user::long", cuda());
    tracker->on_launch(++corr);
    tracker->kernel_end(k);
  }
  void synchronize(double begin_s, double end_s) {
    addscope::Impl::BlockingBegin b;
    b.api = SyncApi::DeviceSynchronize;
    clock->set(begin_s);
    tracker->on_blocking_begin(b);
    clock->set(end_s);
    tracker->on_blocking_end();
  }
  static void settle() {  // the analyzer's thread ticks every 5 ms
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  void wait_for_a_flush_then_settle() {
    const auto give_up =
        std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (flushes.load() == 0 && std::chrono::steady_clock::now() < give_up)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    settle();
  }
};
}  // namespace

// The analyzer's thread asks the device source for its records only when a
// blocking call waits to be explained and nothing was launched since it
// ended — never merely because kernels are in flight: CUPTI's flush waits
// for a running kernel's record and holds the program's launches meanwhile
// (on the H200 a PyTorch launch was held 437 ms behind a spin kernel by the
// analyzer's flush, once periodic, then after the synchronize just before
// the spin's launch). The analyzer thread runs on the real clock; the
// events carry a manual one (its flush period is 20 ms of it).
TEST(WaitsAnalyzer, TheAnalyzerFlushesOnlyWhenNothingRunsSinceABlockingCall) {
  FlushCounting f;
  auto& t = *f.tracker;
  // 1. Kernels launched, none delivered: no flush.
  for (int i = 0; i < 10; ++i) f.launch(0.001 + i * 1e-5);
  // 2. A synchronize, then a launch at once (written before the flush
  //    period of the manual clock has passed: no tick can flush between).
  f.synchronize(0.0012, 0.0013);
  f.launch(0.0014);
  // ... and again with a launch slow enough to count as a blocking call of
  // its own (PyTorch's spin launch after torch.cuda.synchronize(): 36 us).
  f.synchronize(0.0015, 0.0016);
  f.clock->set(0.0017);
  const auto slow = t.kernel_begin("user::spin", cuda());
  t.on_launch(++f.corr);
  t.on_slow_launch(0.00171, 0.0018, f.corr);
  f.clock->set(0.0018);
  t.kernel_end(slow);
  f.clock->set(1.0);
  f.settle();
  EXPECT_EQ(f.flushes.load(), 0)
      << "flushed while the kernel launched after the synchronize may run";
  // 3. A synchronize with nothing after it: its kernels' records are asked.
  f.synchronize(1.0, 1.0001);
  f.clock->set(1.5);
  // Once: the manual clock stands still at 1.5 from here, so the flush
  // period (20 ms of it) never passes again, however often the analyzer
  // ticks meanwhile.
  f.wait_for_a_flush_then_settle();
  EXPECT_EQ(f.flushes.load(), 1) << "a finished blocking call explained by "
                                    "that many flushes (0: never)";
  t.finish();
}

// ADDSCOPE_WAITS_FLUSH_EVERY=0 (device_flush_every_s infinite): a blocking
// call's wait never asks CUPTI on a timer; records held near their cap
// still do, once per 20 ms of the clock (the manual clock stands still: once).
TEST(WaitsAnalyzer, NoFlushTimerStillFlushesNearTheCapOnly) {
  FlushCounting f([](addscope::TrackerOptions& o) {
    o.device_flush_every_s = std::numeric_limits<double>::infinity();
    o.tracker_limits.pending_records = 64;  // near the cap: more than 32 held
  });
  // 1. A few kernels, then a synchronize with nothing after it: the reason
  //    to flush of the test above, but no timer.
  for (int i = 0; i < 4; ++i) f.launch(0.001 + i * 1e-5);
  f.synchronize(0.002, 0.003);
  f.clock->set(1.0);
  f.settle();
  EXPECT_EQ(f.flushes.load(), 0) << "flushed on a timer that was turned off";
  // 2. Launches whose records never come, past half the cap held.
  for (int i = 0; i < 40; ++i) f.launch(1.0 + i * 1e-5);
  f.clock->set(1.5);
  f.wait_for_a_flush_then_settle();
  EXPECT_EQ(f.flushes.load(), 1)
      << "records held near the cap asked for that many times (0: never)";
  f.tracker->finish();
}

// Through Kokkos Tools (not inside cuInit) the devices are asked at once.
TEST(WaitsAnalyzer, KokkosToolsAsksTheDevicesAtStart) {
  auto clock = std::make_shared<addscope::ManualWaitsClock>();
  FakeSource* src = new FakeSource;
  addscope::TrackerOptions o = with_source(clock, src);
  int asked = 0;
  o.query_devices = [&asked] {
    ++asked;
    return std::vector<addscope::DeviceCapacity>(1);
  };
  addscope::SyncTracker t(o);
  ASSERT_TRUE(t.start_device_tracing());
  EXPECT_EQ(asked, 1);
  t.on_cuda_in_use();
  EXPECT_EQ(asked, 1);
  EXPECT_EQ(t.snapshot().devices.size(), 1u);
  t.finish();
}

// A kernel a deep_copy launches is that call's own work, tied by its id.
TEST(WaitsAnalyzer, AKernelADeepCopyLaunchesIsItsOwnWork) {
  addscope::TrackerOptions o;
  o.device_records_by_hand = true;
  o.tie_by_hand = addscope::LaunchTie::External;
  WaitsSim s(o);
  s.at(1.0);
  const auto dc = s.t->deep_copy_begin("dst", "src", "Cuda", "Cuda", 4000000);
  s.at(1.0001);
  s.t->on_blocking_begin({});
  s.at(1.2);
  s.t->on_blocking_end();
  s.at(1.2001);
  s.t->call_end_innermost(CallKind::DeepCopy);
  s.t->on_external_correlation(5, dc);
  addscope::Impl::DeviceKernelRecord r;
  r.correlation = 5;
  r.start_s = 1.00005;
  r.end_s = 1.19;
  r.name = "_Z8copyview";
  std::vector<addscope::Impl::DeviceKernelRecord> v{r};
  s.t->on_device_kernels(v);
  const auto w = s.done();
  EXPECT_TRUE(w.waits.empty()) << w.waits[0].what;
  EXPECT_EQ(w.totals.hidden_calls, 0u);
}

// fork() while the tool works: the child starts empty and never hangs, the
// parent keeps its state.
TEST(WaitsAnalyzer, ForkLeavesTheChildEmptyAndNeverHangs) {
  addscope::TrackerOptions o;
  o.background = true;
  addscope::SyncTracker t(o);
  t.start_background();
  addscope::ExecId host;
  host.kind = DeviceKind::Serial;
  std::atomic<bool> stop{false};
  std::thread busy([&] {
    while (!stop) t.kernel_end(t.kernel_begin("busy", host));
  });
  for (int k = 0; k < 20; ++k) {
    t.prepare_fork();
    const pid_t pid = ::fork();
    if (pid == 0) {
      t.after_fork_child();
      t.kernel_end(t.kernel_begin("child", host));
      t.finish();
      const auto w = t.snapshot();
      bool only_child = w.kernels.size() == 1 && w.kernels[0].name == "child";
      _exit(only_child ? 0 : 3);
    }
    t.after_fork_parent();
    // (no ASSERT here: the busy thread must be stopped and joined)
    int st = 0;
    const bool ended = addscope_test::wait_or_kill(pid, 10.0, &st);
    EXPECT_TRUE(ended) << "child " << k << " hung (killed after 10 s)";
    EXPECT_TRUE(!ended || WIFEXITED(st)) << "child " << k << " did not exit";
    EXPECT_TRUE(!ended || !WIFEXITED(st) || WEXITSTATUS(st) == 0)
        << "child " << k << " saw its parent's";
    if (!ended || !WIFEXITED(st)) break;
  }
  stop = true;
  busy.join();
  t.finish();
  const auto w = t.snapshot();
  ASSERT_EQ(w.kernels.size(), 1u);
  EXPECT_EQ(w.kernels[0].name, "busy");
}

// The analyzer feeds the idle blame: the residual loop, by hand. Each
// iteration launches an add (its kernel runs 100 us), a one-thread residual
// queued behind it (100 us), then a deep_copy of the residual blocked until
// it ends; the next iteration's add reaches the device 20 us later: each of
// those gaps is a synchronization round trip, charged to the deep_copy.
TEST(WaitsAnalyzer, TheIdleDeviceIsBlamedOnTheRoundTrip) {
  WaitsSim s;
  const int iters = 20;
  const double step = 220e-6;
  for (int i = 0; i < iters; ++i) {
    const double t = 1.0 + i * step;
    const auto add = s.launch("probe::add", t, t + 5e-6);
    s.ran(add, 7, t + 5e-6, t + 105e-6);
    const auto res = s.launch("probe::residual", t + 10e-6, t + 15e-6);
    s.ran(res, 7, t + 105e-6, t + 205e-6);
    s.call(CallKind::DeepCopy, "deep_copy r_h<-r (Host<-Cuda, 8 B)", t + 20e-6,
           t + 215e-6,
           [&] { s.block(SyncApi::Memcpy, t + 25e-6, t + 212e-6, -1, 8); });
  }
  const auto w = s.done();
  const addscope::IdleSummary& id = w.idle;
  ASSERT_TRUE(id.any_activity);
  ASSERT_EQ(id.devices.size(), 1u);
  // Busy: each iteration 5 .. 205 us; idle: 205 .. 225 us, between them.
  EXPECT_EQ(id.gaps, std::uint64_t(iters - 1));
  EXPECT_NEAR(id.idle_s, (iters - 1) * 20e-6, 1e-9);
  EXPECT_NEAR(id.busy_s, iters * 200e-6, 1e-9);
  ASSERT_FALSE(id.causes.empty());
  EXPECT_EQ(id.causes[0].cause, addscope::IdleCause::SyncRoundTrip);
  EXPECT_NEAR(id.causes[0].idle_s, id.idle_s, 1e-9);
  ASSERT_FALSE(id.sites.empty());
  EXPECT_EQ(id.sites[0].cause, addscope::IdleCause::SyncRoundTrip);
  EXPECT_EQ(id.sites[0].site, "deep_copy r_h<-r (Host<-Cuda, 8 B)");
  EXPECT_EQ(id.sites[0].calls, std::uint64_t(iters - 1));
  // In the report: the section and its what-if line.
  std::ostringstream os;
  addscope::write_waits_report(os, w);
  EXPECT_NE(os.str().find("round trips left the device idle"),
            std::string::npos)
      << os.str();
}

// A host backend has no device to be idle: nothing is blamed.
TEST(WaitsAnalyzer, AHostBackendBlamesNoIdleDevice) {
  WaitsSim s(false);
  addscope::ExecId host;
  host.kind = DeviceKind::OpenMP;
  for (int i = 0; i < 10; ++i) {
    s.at(i * 1e-3);
    const auto id = s.t->kernel_begin("host::k", host);
    s.at(i * 1e-3 + 5e-4);
    s.t->kernel_end(id);
  }
  const auto w = s.done();
  EXPECT_FALSE(w.idle.any_activity);
  EXPECT_EQ(w.idle.gaps, 0u);
}

// A driver call is named by itself (numba reads out[2] with
// cuMemcpyDtoHAsync, not the runtime's cudaMemcpyAsync).
TEST(WaitsAnalyzer, ADriverCallKeepsItsOwnName) {
  WaitsSim s;
  const auto k = s.launch("add", 0.0, 1e-5);
  s.ran(k, 7, 1e-5, 0.5);
  addscope::Impl::BlockingBegin b;
  b.api = SyncApi::MemcpyAsync;
  b.copy_kind = 3;
  b.bytes = 4;
  b.name = "cuMemcpyDtoHAsync";
  s.at(2e-5);
  s.t->on_blocking_begin(b);
  s.at(0.50001);
  s.t->on_blocking_end();
  const auto w = s.done();
  ASSERT_EQ(w.waits.size(), 1u);
  EXPECT_EQ(w.waits[0].what, "cuMemcpyDtoHAsync D2H 4 B");
  EXPECT_EQ(w.waits[0].waited_for.at(0).kernel, "add");
}
