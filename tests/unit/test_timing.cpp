// The timing module. The phase arithmetic is checked on a fake execution
// space whose "kernels" are known sleeps (launch overhead on the host, work
// finished by fence()), so that each statistic has a value to be right
// about; the seed experiment runs for real on every enabled space.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "addscope/compute/addscope_Add.hpp"
#include "addscope/timing/addscope_Measure.hpp"
#include "addscope/timing/addscope_ReadAfterLaunch.hpp"
#include "addscope_TestSpaces.hpp"
#include "test_util.hpp"
#include "tracker_util.hpp"

using namespace addscope_test;

namespace {

void sleep_ms(double ms) {
  std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(ms));
}

/// An execution space whose launches queue `pending_ms` of work that only
/// fence() waits out — an asynchronous device, on the host clock.
struct FakeExec {
  mutable double pending_ms = 0;
  mutable int fences = 0;
  void fence() const {
    sleep_ms(pending_ms);
    pending_ms = 0;
    ++fences;
  }
};

constexpr double ms = 1e-3;

}  // namespace

TEST(MeasurePhases, LaunchCompletionMedianAndSpreadOnKnownDurations) {
  // Each launch spends 2 ms on the host, then queues a kernel of 4, 6, 8,
  // 30 or 40 ms (after one warmup run of 1 ms): launch ~2 ms; completion
  // ~6, 8, 10, 32, 42 ms: median 10, min 6, max 42, mean ~19.6 ms.
  FakeExec exec;
  const std::vector<double> kernel_ms = {1, 4, 6, 8, 30, 40};
  int calls = 0;
  addscope::MeasureOptions opt;
  opt.warmup = 1;
  opt.repeat = 5;
  const std::uint64_t bytes = 1000000000;  // 1 GB per run
  const auto p = addscope::measure_phases(
      exec, "fake", 123, bytes,
      [&] {
        sleep_ms(2);
        exec.pending_ms = kernel_ms[std::size_t(calls++)];
      },
      opt);
  EXPECT_EQ(calls, 6);  // warmup + repeat
  EXPECT_EQ(p.label, "fake");
  EXPECT_EQ(p.n, 123);
  ASSERT_EQ(p.launch.count, 5u);
  ASSERT_EQ(p.completion.count, 5u);
  EXPECT_EQ(p.device.count, 0u);  // no device clock on this space
  // Sleeps last at least as long as asked, so these bounds hold however
  // busy the machine is. Run by run, in measured order: the launch is the
  // call (>= 2 ms), and completion - launch is the fence, which waited for
  // that run's kernel (a completion without the fence, or a launch that
  // includes it, fails here).
  for (std::size_t i = 0; i < 5; ++i) {
    SCOPED_TRACE(i);
    EXPECT_GE(p.launch.samples_s[i], 2 * ms);
    EXPECT_GE(p.completion.samples_s[i] - p.launch.samples_s[i],
              kernel_ms[i + 1] * ms);
  }
  // The statistics are over those runs: median >= the third (10 ms), max
  // >= the last (42 ms), min >= the first (6 ms).
  EXPECT_GE(p.completion.min_s, 6 * ms);
  EXPECT_GE(p.completion.median_s, 10 * ms);
  EXPECT_GE(p.completion.q3_s, 32 * ms);
  EXPECT_GE(p.completion.max_s, 42 * ms);
  // The statistics are of these very samples, by hand: five samples, so
  // (numpy's linear interpolation at p (n - 1)) q1, median and q3 are the
  // 2nd, 3rd and 4th smallest exactly.
  for (const auto* st : {&p.launch, &p.completion}) {
    std::vector<double> v = st->samples_s;
    ASSERT_EQ(v.size(), 5u);
    std::sort(v.begin(), v.end());
    EXPECT_EQ(st->min_s, v[0]);
    EXPECT_EQ(st->q1_s, v[1]);
    EXPECT_EQ(st->median_s, v[2]);
    EXPECT_EQ(st->q3_s, v[3]);
    EXPECT_EQ(st->max_s, v[4]);
    EXPECT_DOUBLE_EQ(st->mean_s, (v[0] + v[1] + v[2] + v[3] + v[4]) / 5);
  }
  // GB/s = 10^9 bytes / the median time: with 10^9 bytes a run, 1 / median
  // (s); the best from the fastest run. 1 GB in >= 10 ms is <= 100 GB/s
  // (from the minimum, 6 ms, it would be up to 167; in GiB or bits, more).
  EXPECT_DOUBLE_EQ(p.gbps_median, 1.0 / p.completion.median_s);
  EXPECT_DOUBLE_EQ(p.gbps_best, 1.0 / p.completion.min_s);
  EXPECT_LE(p.gbps_median, 100.0);
  EXPECT_LE(p.gbps_best, 1.0 / 0.006);
  EXPECT_GT(p.gbps_best, p.gbps_median);
  EXPECT_EQ(exec.pending_ms, 0.0);    // every run was fenced
  EXPECT_EQ(exec.fences, 1 + 2 * 5);  // warmup, and before + after each run
}

TEST(MeasurePhases, ValidatesOptions) {
  FakeExec exec;
  addscope::MeasureOptions opt;
  opt.repeat = 0;
  EXPECT_THROW(addscope::measure_phases(
                   exec, "x", 1, 1, [] {}, opt),
               addscope::InvalidArgument);
}

TEST(MeasureCopy, BytesFollowTheDirectionAndEveryRunIsTimed) {
  FakeExec exec;
  int copies = 0;
  addscope::MeasureOptions opt;
  opt.warmup = 2;
  opt.repeat = 3;
  auto copy = [&] {
    ++copies;
    sleep_ms(5);
  };
  const auto d2d = addscope::measure_copy_with(
      exec, "D2D", addscope::CopyDirection::DeviceToDevice,
      addscope::MemoryKind::Device, 1000, 4, copy, opt);
  EXPECT_EQ(copies, 5);
  EXPECT_EQ(d2d.bytes, 8000u);  // read + write
  EXPECT_EQ(d2d.time.count, 3u);
  EXPECT_GE(d2d.time.min_s, 5 * ms);
  EXPECT_LE(d2d.gbps_median, 8000 / 5e-3 * 1e-9);
  const auto d2h = addscope::measure_copy_with(
      exec, "D2H", addscope::CopyDirection::DeviceToHost,
      addscope::MemoryKind::Pinned, 1000, 4, copy, opt);
  EXPECT_EQ(d2h.bytes, 4000u);  // crosses the link once
  EXPECT_EQ(d2h.direction, addscope::CopyDirection::DeviceToHost);
  EXPECT_EQ(d2h.memory, addscope::MemoryKind::Pinned);
}

TEST(ReadAfterLaunch, AWaitCountsFromTheThresholdUp) {
  addscope::ReadAfterLaunch r;
  r.async_backend = true;
  r.fenced_read = addscope::Stats::of({10e-6, 12e-6, 30e-6});  // spread 20 us
  EXPECT_DOUBLE_EQ(r.fenced_read_s(), 12e-6);
  EXPECT_DOUBLE_EQ(r.wait_threshold_s(), 20e-6);
  r.naive_mirror_s = 20e-6;
  r.naive_copy_s = 5e-6;  // naive read 25 us: 13 us more
  EXPECT_NEAR(r.wait_s(), 13e-6, 1e-12);
  EXPECT_FALSE(r.waited());
  r.naive_mirror_s = 27e-6;  // 32 us: 20 us more
  EXPECT_TRUE(r.waited());
  r.fenced_read = addscope::Stats::of({10e-6, 11e-6, 12e-6});  // spread 2 us
  EXPECT_DOUBLE_EQ(r.wait_threshold_s(), 10e-6);               // the floor
  r.naive_mirror_s = 1e-6;
  r.naive_copy_s = 1e-6;
  EXPECT_EQ(r.wait_s(), 0.0);  // never negative
}

TEST(ReadAfterLaunch, NothingWaitsOnASynchronousBackend) {
  // Launches return when the kernel is done: a slower naive read (seen on
  // the H200's host: the first read after a long kernel wakes sleeping
  // OpenMP threads, 100-250 us) is host noise, never a wait for the kernel.
  addscope::ReadAfterLaunch r;
  r.fenced_read = addscope::Stats::of({10e-6, 11e-6, 12e-6});
  r.naive_mirror_s = 200e-6;
  EXPECT_GT(r.wait_s(), r.wait_threshold_s());
  r.async_backend = false;
  EXPECT_FALSE(r.waited());
  r.async_backend = true;
  EXPECT_TRUE(r.waited());
}

// The seed experiment's naive pass is recorded in the process's tracker:
// every test here starts it fed by no tool, and must leave no call open
// (tracker_util.hpp).
template <class Space>
class Timing : public addscope_test::GlobalTrackerTest {};
TYPED_TEST_SUITE(Timing, ExecSpaces);

TYPED_TEST(Timing, SeedExperimentOneByOne) {
  using Space = TypeParam;
  using MS = typename Space::memory_space;
  Space exec;
  // ~10^7 elements: a 1x1 launch takes hundreds of ms on a GPU and tens of
  // ms on one CPU core — far above timer noise either way.
  const std::int64_t n = 10000000;
  const auto hx = random_values<float>(n, 5), hy = random_values<float>(n, 6);
  auto x = to_device<float, Space>(hx, "x");
  auto y = to_device<float, Space>(hy, "y");
  Kokkos::View<float*, MS> out("out", n);
  Kokkos::deep_copy(out, poison<float>());
  const auto cfg = addscope::parse_launch_config("team:1x1");
  const std::string label = cfg.kernel_label();
  int launches = 0;
  addscope::ReadOptions ro;
  ro.reads = 3;
  const auto r = addscope::measure_read_after_launch(
      exec, label, out, 2, hx[2] + hy[2],
      [&] {
        ++launches;
        addscope::add(exec, x, y, out, cfg);
      },
      ro);
  exec.fence();
  EXPECT_EQ(launches, 3);  // warmup, naive, fenced
  EXPECT_TRUE(r.verified);
  EXPECT_EQ(r.fenced_read.count, 3u);
  EXPECT_EQ(r.async_backend, addscope::launches_are_async<Space>());
  // One thread reads 2 x 40 MB and writes 40 MB: no core or GPU thread
  // does that in under 2 ms (60 GB/s).
  ASSERT_GT(r.completion_s, 2e-3);
  if (r.async_backend) {
    // The launch returns long before the kernel is done...
    EXPECT_LT(r.naive_launch_s, 0.1 * r.completion_s);
    // ...so the naive read absorbs it: its wait is most of the kernel,
    EXPECT_GT(r.wait_s(), 0.5 * r.completion_s);
    EXPECT_TRUE(r.waited());
    // while the fenced read alone is small.
    EXPECT_LT(r.fenced_read_s(), 0.1 * r.completion_s);
    // The tracker names the call that waited and the kernel it waited for.
    ASSERT_FALSE(r.attribution.empty());
    const auto& top = r.attribution.front();
    ASSERT_FALSE(top.waited_for.empty());
    EXPECT_EQ(top.waited_for.front().kernel, label);
    EXPECT_GT(top.wait_s, 0.5 * r.completion_s);
    EXPECT_NE(r.attribution_line.find("waiting for " + label),
              std::string::npos)
        << r.attribution_line;
  } else {
    // Synchronous backend: the launch *is* the completion, and the read
    // has nothing to wait for.
    EXPECT_GT(r.fenced_launch_s, 0.5 * r.completion_s);
    EXPECT_GT(r.naive_launch_s, 10 * r.naive_read_s());
    EXPECT_FALSE(r.waited());
    for (const auto& c : r.attribution) ADD_FAILURE() << c.what;
    EXPECT_TRUE(r.attribution_line.empty());
  }
}

TYPED_TEST(Timing, ReadAfterLaunchDoesNotClearTheTracker) {
  // Calls recorded before the experiment stay in the shared tracker (the
  // waits tool loaded into the demo reports them at the end). The tracker
  // is the process's: only what this test adds is compared (snapshots
  // before and after), so that it holds whatever ran before, and again.
  using Space = TypeParam;
  using MS = typename Space::memory_space;
  Space exec;
  auto& tr = addscope::SyncTracker::global();
  const std::string ours = "user step before the experiment";
  const auto before = settled_snapshot(tr);
  const auto id = tr.call_begin(addscope::CallKind::Step, ours);
  tr.call_end(id);
  Kokkos::View<float*, MS> x("x", 100), y("y", 100), out("out", 100);
  const auto r = addscope::measure_read_after_launch(
      exec, "addscope::add[range]", out, 2, 0.0f,
      [&] { addscope::add(exec, x, y, out); });
  EXPECT_TRUE(r.verified);
  tr.flush();
  const auto after = settled_snapshot(tr);
  // Ours, and the naive pass's: its launch step, the kernel in it (a host
  // kernel or a launch call, each a call of its own), create_mirror_view
  // and deep_copy. The warm-up and the fenced reads are not tracked — on a
  // GPU their CUDA calls that block (the copies, the fences' synchronize)
  // are seen by CUPTI and are calls of their own (11 or 12 in all on the
  // H200).
  if (addscope::launches_are_async<Space>())
    EXPECT_GE(after.totals.calls - before.totals.calls, 5u);
  else
    EXPECT_EQ(after.totals.calls - before.totals.calls, 5u);
  EXPECT_EQ(site_calls(after, ours) - site_calls(before, ours), 1u);
  for (const char* step : {"launch addscope::add[range]",
                           "create_mirror_view(out[2])", "deep_copy(out[2])"})
    EXPECT_EQ(site_calls(after, step) - site_calls(before, step), 1u) << step;
}

TYPED_TEST(Timing, PhasesAndTransferOnTheSpace) {
  using Space = TypeParam;
  using MS = typename Space::memory_space;
  Space exec;
  const std::int64_t n = 1 << 20;
  const auto hx = random_values<double>(n, 7), hy = random_values<double>(n, 8);
  auto x = to_device<double, Space>(hx, "x");
  auto y = to_device<double, Space>(hy, "y");
  Kokkos::View<double*, MS> out("out", n);
  addscope::MeasureOptions opt;
  opt.warmup = 1;
  opt.repeat = 5;
  const auto p = addscope::measure_phases(
      exec, "add", n, addscope::add_bytes(n, sizeof(double)),
      [&] { addscope::add(exec, x, y, out); }, opt);
  EXPECT_EQ(p.completion.count, 5u);
  EXPECT_EQ(p.device.count, addscope::DeviceTimer<Space>::available ? 5u : 0u);
  if (p.device.count) {
    // 3 x 2^20 doubles (25.2 MB) moved: no device does it in under
    // 2.5 us (10 TB/s).
    EXPECT_GT(p.device.min_s, 2.5e-6);
    // The device time of one add fits inside the host's launch + fence.
    EXPECT_LT(p.device.median_s, p.completion.max_s);
  }

  auto mirror =
      addscope::make_host_array<double, addscope::PinnedHostSpace>("mirror", n);
  const auto t = addscope::measure_copy(
      exec, "D2H whole", addscope::CopyDirection::DeviceToHost,
      addscope::MemoryKind::Pinned, mirror, out, opt);
  EXPECT_EQ(t.bytes, 8u * std::uint64_t(n));
  EXPECT_EQ(t.time.count, 5u);
  for (std::int64_t i = 0; i < n; i += 4099)
    ASSERT_EQ(mirror(i), hx[i] + hy[i]);

  // Host to device, from pageable memory: the copy lands on the device.
  auto source =
      addscope::make_host_array<double, addscope::PageableHostSpace>("src", n);
  for (std::int64_t i = 0; i < n; ++i) source(i) = hy[i] - hx[i];
  const auto h2d = addscope::measure_copy(
      exec, "H2D whole", addscope::CopyDirection::HostToDevice,
      addscope::MemoryKind::Pageable, out, source, opt);
  EXPECT_EQ(h2d.bytes, 8u * std::uint64_t(n));
  const auto back = to_host(out);
  for (std::int64_t i = 0; i < n; i += 4099) ASSERT_EQ(back[i], hy[i] - hx[i]);
  auto small = addscope::make_host_array<double, addscope::PageableHostSpace>(
      "small", 3);
  EXPECT_THROW(
      addscope::measure_copy(exec, "bad", addscope::CopyDirection::DeviceToHost,
                             addscope::MemoryKind::Pageable, small, out, opt),
      addscope::InvalidArgument);
}

TYPED_TEST(Timing, ElementIndexIsChecked) {
  using MS = typename TypeParam::memory_space;
  Kokkos::View<float*, MS> v("v", 10);
  EXPECT_THROW(addscope::element(v, 10), addscope::InvalidArgument);
  EXPECT_THROW(addscope::element(v, -1), addscope::InvalidArgument);
  EXPECT_EQ(addscope::element(v, 9).extent(0), 1u);
}
