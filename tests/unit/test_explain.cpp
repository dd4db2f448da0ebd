// addscope::explain for the seed experiment: the verdict and the sentences
// from plain numbers (no device), at the boundaries where they change.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "addscope/timing/addscope_ReadAfterLaunch.hpp"
#include "test_util.hpp"

namespace {

using addscope::ReadAfterLaunch;
using addscope::ReadVerdict;
using addscope::Stats;
using addscope::WaitedStep;

constexpr double us = 1e-6, ms = 1e-3;

using addscope_test::runs;

/// An asynchronous backend where the naive read took `naive_read_s` (all of
/// it in deep_copy) and the fenced reads 20 us each (spread 4 us: the wait
/// threshold is 10 us).
ReadAfterLaunch seq(double naive_launch_s, double naive_read_s,
                    bool async = true) {
  ReadAfterLaunch r;
  r.label = "addscope::add[team:1x1]";
  r.n = 1000;
  r.index = 2;
  r.element = "out[2]";
  r.exec_space = async ? "Cuda" : "OpenMP";
  r.async_backend = async;
  r.naive_launch_s = naive_launch_s;
  r.naive_mirror_s = 0;
  r.naive_copy_s = naive_read_s;
  r.fenced_launch_s = 50 * us;
  r.completion_s = 600 * ms;
  r.fenced_mirror = runs(1 * us, 2 * us, 3 * us, 5);
  r.fenced_copy = runs(17 * us, 18 * us, 19 * us, 5);
  r.fenced_read = runs(18 * us, 20 * us, 22 * us, 5);
  return r;
}

void waited_in(ReadAfterLaunch& r, const std::string& what, double wait_s) {
  addscope::CallRecord c;
  c.what = what;
  c.wait_s = wait_s;
  r.attribution = {c};
  r.attribution_line = what + "  (the tracker's line)";
}

TEST(Explain, WaitedInCreateMirrorAsOnKokkos34) {
  auto r = seq(100 * us, 600 * ms);
  std::swap(r.naive_mirror_s, r.naive_copy_s);  // the wait in the mirror
  waited_in(r, "create_mirror_view(out[2])", 599 * ms);
  const auto e = addscope::explain(r, "team:1x1");
  EXPECT_EQ(e.verdict, ReadVerdict::Waited);
  EXPECT_TRUE(e.looks_slow);
  EXPECT_DOUBLE_EQ(e.read_over_launch, 6000);
  EXPECT_EQ(e.waited_in, "create_mirror_view(out[2])");
  EXPECT_EQ(e.waited_step, WaitedStep::CreateMirror);
  EXPECT_DOUBLE_EQ(e.waited_step_alone_s, 2 * us);
  const std::vector<std::string> want = {
      "1. The naive sequence: addscope::add[team:1x1] returned after 100.0 "
      "us; reading out[2] then took 600.0 ms.",
      "   Taken at face value, the read looks 6000 times slower than the "
      "launch: \"the transfer is slow\".",
      "2. With a fence after the launch, the kernel itself took 600.0 ms; "
      "reading out[2] took 20.0 us (median of 5 reads, 18.0 us..22.0 us: "
      "create_mirror_view 2.0 us + deep_copy 18.0 us).",
      "   The naive read took 600.0 ms more than the fenced one: it waited "
      "for the kernel (a wait counts from 10.0 us, the larger of 10 us and "
      "the spread of the fenced reads).",
      "   Who waited for whom (sync tracker): create_mirror_view(out[2])  "
      "(the tracker's line)",
      "   The wait landed in create_mirror_view(out[2]), which copies none "
      "of out's values: the first call that had to wait for the kernel "
      "(alone it takes 2.0 us)."};
  EXPECT_EQ(e.lines, want);
  EXPECT_EQ(e.conclusion,
            "the 600.0 ms you would have blamed on reading out[2] was the "
            "team:1x1 kernel (600.0 ms of it was waiting); the read itself "
            "takes 20.0 us");
}

TEST(Explain, WaitedInDeepCopyAsOnKokkos4) {
  auto r = seq(100 * us, 600 * ms);
  waited_in(r, "deep_copy(out[2])", 599 * ms);
  const auto e = addscope::explain(r);  // the kernel named by its label
  EXPECT_EQ(e.waited_step, WaitedStep::DeepCopy);
  EXPECT_DOUBLE_EQ(e.waited_step_alone_s, 18 * us);
  ASSERT_EQ(e.lines.size(), 6u);
  EXPECT_EQ(e.lines[5],
            "   The wait landed in deep_copy(out[2]): the first call that had "
            "to wait for the kernel (alone it takes 18.0 us).");
  EXPECT_NE(e.conclusion.find("was the addscope::add[team:1x1] kernel"),
            std::string::npos)
      << e.conclusion;
}

TEST(Explain, LooksSlowFromTenTimesTheLaunch) {
  // A wait (well above the threshold) with the read exactly 10 x the
  // launch (binary fractions: exact): "the transfer is slow" is what the
  // user saw; just below, it is not said (the wait still is).
  for (const double read : {1.25, 1.25 - 1.0 / 1024}) {
    SCOPED_TRACE(read);
    const auto e = addscope::explain(seq(0.125, read));
    EXPECT_EQ(e.verdict, ReadVerdict::Waited);
    EXPECT_EQ(e.looks_slow, read >= 1.25);
    const bool said =
        e.lines[1].find("the transfer is slow") != std::string::npos;
    EXPECT_EQ(said, read >= 1.25);
  }
}

TEST(Explain, AWaitCountsFromTheThreshold) {
  // Fenced reads spread over 2^-15 s (above 10 us: the threshold), median
  // 2^-15: a naive read of 2^-14 waited exactly the threshold (counts);
  // 2^-30 s less did not.
  const double t = 1.0 / 32768;
  auto r = seq(1 * us, 2 * t);
  r.fenced_read = runs(t / 2, t, t / 2 + t, 5);
  const auto at = addscope::explain(r);
  EXPECT_EQ(at.verdict, ReadVerdict::Waited);
  r.naive_copy_s = 2 * t - 1.0 / (1 << 30);
  const auto below = addscope::explain(r);
  EXPECT_EQ(below.verdict, ReadVerdict::NoWait);
  EXPECT_FALSE(below.looks_slow);
  EXPECT_EQ(
      below.lines[1],
      "   The read did not wait: the kernel was done before it was read.");
  EXPECT_NE(below.lines[3].find(": no wait, within noise ("), std::string::npos)
      << below.lines[3];
  EXPECT_EQ(below.lines[4],
            "   Who waited for whom (sync tracker): no call waited for earlier "
            "device work.");
  EXPECT_EQ(below.conclusion.rfind("nothing was hidden here: the "
                                   "addscope::add[team:1x1] kernel took "
                                   "600.0 ms and was done before out[2] was "
                                   "read",
                                   0),
            0u)
      << below.conclusion;
}

TEST(Explain, SynchronousBackendNeverWaits) {
  // Host noise made the naive read 1000 x slower: on a synchronous backend
  // that is still not a wait.
  const auto e = addscope::explain(seq(1 * us, 100 * ms, false), "team:1x1");
  EXPECT_EQ(e.verdict, ReadVerdict::Synchronous);
  EXPECT_FALSE(e.looks_slow);
  EXPECT_EQ(e.lines[1],
            "   On OpenMP the launch returns only when the kernel is done: "
            "nothing was left for the read to absorb.");
  EXPECT_NE(e.lines[3].find(": not a wait (the kernel was done before the "
                            "read began) ("),
            std::string::npos)
      << e.lines[3];
  for (const auto& l : e.lines)
    EXPECT_EQ(l.find("waited for the kernel"), std::string::npos) << l;
  EXPECT_EQ(e.conclusion,
            "on OpenMP launches are synchronous: the launch call returns only "
            "when the work is done, so the gap cannot appear. The team:1x1 "
            "launch took 50.0 us and reading out[2] took 20.0 us");
}

TEST(Explain, AWaitInAnotherCallIsNamedWithoutATimeAlone) {
  auto r = seq(100 * us, 600 * ms);
  waited_in(r, "Kokkos::fence", 599 * ms);
  const auto e = addscope::explain(r);
  EXPECT_EQ(e.waited_step, WaitedStep::Other);
  EXPECT_DOUBLE_EQ(e.waited_step_alone_s, 0);
  EXPECT_EQ(e.lines.back(),
            "   The wait landed in Kokkos::fence: the first call that had to "
            "wait for the kernel.");
}

}  // namespace
