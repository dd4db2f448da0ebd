// The time budget of a measurement (MeasureOptions::budget_s) and the
// re-measuring of noisy copy references (ReferenceOptions): the arithmetic
// on plain numbers, the budget on a fake execution space whose kernels are
// known sleeps, the references for real on every enabled space.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <thread>
#include <vector>

#include "addscope/core/addscope_Error.hpp"
#include "addscope/bench/addscope_References.hpp"
#include "addscope/timing/addscope_Measure.hpp"
#include "addscope_TestSpaces.hpp"

namespace {

using addscope::MeasureOptions;

MeasureOptions opts(int warmup, int repeat, double budget_s) {
  MeasureOptions m;
  m.warmup = warmup;
  m.repeat = repeat;
  m.budget_s = budget_s;
  return m;
}

TEST(MeasureBudget, FewerRunsOnlyBeyondTheBudget) {
  bool reduced = true;
  // No budget: as asked, whatever the probe says.
  auto o = opts(2, 10, 0).within_budget(100.0, &reduced);
  EXPECT_FALSE(reduced);
  EXPECT_EQ(o.warmup, 2);
  EXPECT_EQ(o.repeat, 10);
  // 12 runs of 0.25 s = 3 s, the budget: not beyond it.
  o = opts(2, 10, 3.0).within_budget(0.25, &reduced);
  EXPECT_FALSE(reduced);
  EXPECT_EQ(o.repeat, 10);
  // Beyond it: no warm-up, as many as fit (2 s / 0.25 s = 8).
  o = opts(2, 10, 2.0).within_budget(0.25, &reduced);
  EXPECT_TRUE(reduced);
  EXPECT_EQ(o.warmup, 0);
  EXPECT_EQ(o.repeat, 8);
  // Far beyond: at least 3 runs...
  o = opts(2, 10, 2.0).within_budget(5.0, &reduced);
  EXPECT_TRUE(reduced);
  EXPECT_EQ(o.repeat, 3);
  // ... or as many as were asked for, if fewer.
  o = opts(1, 2, 2.0).within_budget(5.0, &reduced);
  EXPECT_TRUE(reduced);
  EXPECT_EQ(o.repeat, 2);
}

TEST(MeasureBudget, InvalidBudgetsNamed) {
  for (const double b : {-1.0, std::nan(""), double(INFINITY)}) {
    SCOPED_TRACE(b);
    try {
      opts(1, 1, b).validate();
      ADD_FAILURE() << "accepted";
    } catch (const addscope::InvalidArgument& e) {
      EXPECT_EQ(std::string(e.what()).rfind("budget_s = ", 0), 0u) << e.what();
    }
  }
  EXPECT_NO_THROW(opts(1, 1, 0).validate());
}

void sleep_ms(double ms) {
  std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(ms));
}

/// Launches queue `pending_ms` of work that fence() waits out.
struct FakeExec {
  mutable double pending_ms = 0;
  void fence() const {
    sleep_ms(pending_ms);
    pending_ms = 0;
  }
};

TEST(MeasureBudget, ASlowKernelRunsFewerTimesAndSaysSo) {
  // 20 ms kernels, 2 + 10 runs: 240 ms > a 100 ms budget. One probe, then
  // no warm-up and max(3, min(10, 100 / 20+)) runs: 3 or 4 (the probe takes
  // at least 20 ms, so at most 5 fit).
  FakeExec exec;
  int calls = 0;
  const auto p = addscope::measure_phases(
      exec, "slow", 1, 1000,
      [&] {
        ++calls;
        exec.pending_ms = 20;
      },
      opts(2, 10, 0.1));
  EXPECT_TRUE(p.reduced_repeat);
  EXPECT_GE(p.completion.count, 3u);
  EXPECT_LE(p.completion.count, 5u);
  EXPECT_EQ(calls, 1 + int(p.completion.count));  // the probe + the runs
  // Without a budget: 2 + 10 runs, no probe.
  calls = 0;
  const auto q = addscope::measure_phases(
      exec, "slow", 1, 1000,
      [&] {
        ++calls;
        exec.pending_ms = 1;
      },
      opts(2, 10, 0));
  EXPECT_FALSE(q.reduced_repeat);
  EXPECT_EQ(q.completion.count, 10u);
  EXPECT_EQ(calls, 12);
}

TEST(MeasureBudget, CopiesHaveABudgetToo) {
  FakeExec exec;
  int calls = 0;
  const auto r = addscope::measure_copy_with(
      exec, "slow copy", addscope::CopyDirection::DeviceToHost,
      addscope::MemoryKind::Pageable, 10, 4,
      [&] {
        ++calls;
        sleep_ms(20);
      },
      opts(2, 10, 0.1));
  EXPECT_TRUE(r.reduced_repeat);
  EXPECT_GE(r.time.count, 3u);
  EXPECT_EQ(calls, 1 + int(r.time.count));
}

/// Canned measurements, one after the other: runs `spreads[i]` x apart.
struct Canned {
  std::vector<double> spreads;
  int calls = 0;
  addscope::TransferResult operator()() {
    addscope::TransferResult t;
    const double s = spreads.at(std::size_t(calls++));
    t.time.count = 3;
    t.time.min_s = 1e-3;
    t.time.median_s = 1e-3;
    t.time.max_s = s * 1e-3;
    t.gbps_median = 1 / s;  // tells the attempts apart
    return t;
  }
};

TEST(ReferenceRetries, ReMeasuredWhileNoisyUpToTheAttempts) {
  addscope::ReferenceOptions ro;  // max > 2 min above 50 us; 3 attempts
  {
    Canned c{{1.5}};  // clean at once: measured once
    const auto r = addscope::Impl::measure_until_clean("a", "", c, ro);
    EXPECT_EQ(r.attempts, 1);
    EXPECT_TRUE(r.clean);
    EXPECT_EQ(c.calls, 1);
  }
  {
    Canned c{{5, 1.2, 9}};  // clean at the second: that one is kept
    const auto r = addscope::Impl::measure_until_clean("a", "note", c, ro);
    EXPECT_EQ(r.attempts, 2);
    EXPECT_TRUE(r.clean);
    EXPECT_DOUBLE_EQ(r.result.gbps_median, 1 / 1.2);
    EXPECT_EQ(r.name, "a");
    EXPECT_EQ(r.note, "note");
  }
  {
    Canned c{{5, 3, 8, 1}};  // never clean in 3: the cleanest (3x) kept
    const auto r = addscope::Impl::measure_until_clean("a", "", c, ro);
    EXPECT_EQ(r.attempts, 3);
    EXPECT_FALSE(r.clean);
    EXPECT_EQ(c.calls, 3);
    EXPECT_DOUBLE_EQ(r.result.gbps_median, 1.0 / 3);
  }
  ro.attempts = 1;
  Canned c{{5, 1}};
  const auto r = addscope::Impl::measure_until_clean("a", "", c, ro);
  EXPECT_EQ(r.attempts, 1);
  EXPECT_FALSE(r.clean);
  ro.attempts = 0;
  EXPECT_THROW(ro.validate(), addscope::InvalidArgument);
}

template <class Space>
class References : public ::testing::Test {};
TYPED_TEST_SUITE(References, addscope_test::ExecSpaces);

TYPED_TEST(References, MeasuredCleanOrMarked) {
  using Space = TypeParam;
  const Space exec;
  const std::int64_t n = 1 << 16;
  Kokkos::View<float*, typename Space::memory_space> a("a", n), b("b", n);
  Kokkos::deep_copy(a, 1.5f);
  addscope::MeasureOptions mo;
  mo.warmup = 1;
  mo.repeat = 3;
  addscope::ReferenceOptions ro;
  const auto refs = addscope::measure_copy_references(exec, b, a, mo, ro);
  ASSERT_GE(refs.size(), 2u);
  for (const auto& r : refs) {
    SCOPED_TRACE(r.name);
    EXPECT_GE(r.attempts, 1);
    EXPECT_LE(r.attempts, ro.attempts);
    // Clean exactly when the runs kept are within the bound; measured once
    // more only while they were not.
    EXPECT_EQ(r.clean, !ro.noise.exceeded_by(r.result.time));
    if (r.attempts < ro.attempts) EXPECT_TRUE(r.clean);
    EXPECT_EQ(r.result.bytes, std::uint64_t(8 * n));
  }
  ro.attempts = 1;
  for (const auto& r : addscope::measure_copy_references(exec, b, a, mo, ro))
    EXPECT_EQ(r.attempts, 1);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
  EXPECT_EQ(h(n - 1), 1.5f);
}

}  // namespace
