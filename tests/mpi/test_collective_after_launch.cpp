// The seed experiment across ranks. explain() on made-up timelines whose
// answer is known (an asynchronous backend where the last rank's staging
// absorbed its kernel; a synchronous one where its launch did; nobody late;
// a slow collective with nobody late), then a real run on this machine
// with a delay planted on one rank.
#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <thread>
#include <vector>

#include "addscope/compute/addscope_Add.hpp"
#include "addscope/mpi/addscope_CollectiveAfterLaunch.hpp"

using addscope::Stats;
using addscope::mpi::CollectiveAfterLaunch;
using addscope::mpi::LateCause;
using addscope::mpi::RankSequence;

namespace {
constexpr double ms = 1e-3, us = 1e-6;

/// A rank that launches (launch_s), stages (stage_s) and joins the
/// collective at the end of the staging, which ends at `done_s`; alone, the
/// staging takes ~20 us and the collective ~30 us (spread 4 us).
RankSequence rank_seq(int rank, const char* kernel, double launch_s,
                      double stage_s, double done_s, double kernel_s) {
  RankSequence s;
  s.rank = rank;
  s.kernel = kernel;
  s.launch_end_s = launch_s;
  s.stage_begin_s = launch_s + 2 * us;
  s.stage_end_s = s.stage_begin_s + stage_s;
  s.collective_begin_s = s.stage_end_s;
  s.collective_end_s = done_s;
  s.fenced_launch_s = launch_s;
  s.kernel_s = kernel_s;
  s.stage_alone = Stats::of({19 * us, 20 * us, 21 * us});
  s.collective_alone = Stats::of({28 * us, 30 * us, 32 * us});
  return s;
}
// Rank 1 launched team:1x1 (600 ms) and its staging took all of it; ranks 0
// and 2 entered the collective after ~40 us.
CollectiveAfterLaunch one_slow_rank(bool async_backend) {
  CollectiveAfterLaunch r;
  r.async_backend = async_backend;
  const double end = 600 * ms + 80 * us;
  r.ranks = {
      rank_seq(0, "addscope::add[range]", 5 * us, 20 * us, end, 40 * us),
      rank_seq(1, "addscope::add[team:1x1]", 6 * us, 600 * ms, end, 600 * ms),
      rank_seq(2, "addscope::add[range]", 5 * us, 21 * us, end, 41 * us)};
  return r;
}
}  // namespace

TEST(CollectiveFindings, AsyncLastRankStagingAbsorbedItsKernel) {
  // Rank 1's staging waited for its kernel; ranks 0 and 2 waited in the
  // collective until rank 1 came, 600 ms later.
  const auto f = addscope::mpi::explain(one_slow_rank(true));
  EXPECT_DOUBLE_EQ(f.collective_threshold_s, 10 * us);  // spread 4 us < 10 us
  EXPECT_DOUBLE_EQ(f.staging_threshold_s, 10 * us);
  EXPECT_EQ(f.last_rank, 1);
  EXPECT_EQ(f.first_rank, 0);
  ASSERT_EQ(f.waits.size(), 2u);
  EXPECT_EQ(f.waits[0].rank, 0);  // longest first (rank 0 arrived earliest)
  EXPECT_EQ(f.waits[1].rank, 2);
  for (const auto& w : f.waits) {
    EXPECT_EQ(w.for_rank, 1);
    EXPECT_EQ(w.for_kernel, "addscope::add[team:1x1]");
    EXPECT_NEAR(w.wait_s, 600 * ms, 0.1 * ms);
    EXPECT_NEAR(w.arrival_gap_s, 600 * ms, 0.1 * ms);
  }
  EXPECT_EQ(f.late.rank, 1);
  EXPECT_EQ(f.late.cause, LateCause::Staging);
  EXPECT_NEAR(f.late.cause_s, 600 * ms - 20 * us, 1 * us);
  EXPECT_DOUBLE_EQ(f.late.kernel_s, 600 * ms);
  EXPECT_DOUBLE_EQ(f.late.others_kernel_s, 41 * us);
  EXPECT_TRUE(f.unexplained.empty());
}

TEST(CollectiveFindings, SyncStagingNeverWaitsForAKernel) {
  // The same numbers on a host backend (seen under ASan, where host noise
  // grows): the staging cannot have waited for a kernel that ran inside its
  // launch, so the cause is not Staging.
  const auto f = addscope::mpi::explain(one_slow_rank(false));
  EXPECT_EQ(f.late.rank, 1);
  EXPECT_NE(f.late.cause, LateCause::Staging);
}

TEST(CollectiveFindings, SyncLastRankWasSlowInsideItsLaunch) {
  // A host backend: rank 1's launch is the 40 ms kernel; its staging is
  // quick.
  CollectiveAfterLaunch r;
  const double end = 40 * ms + 100 * us;
  r.ranks = {
      rank_seq(0, "addscope::add[range]", 5 * ms, 20 * us, end, 5 * ms),
      rank_seq(1, "addscope::add[team:1x1]", 40 * ms, 22 * us, end, 40 * ms)};
  const auto f = addscope::mpi::explain(r);
  ASSERT_EQ(f.waits.size(), 1u);
  EXPECT_EQ(f.waits[0].rank, 0);
  EXPECT_EQ(f.waits[0].for_rank, 1);
  EXPECT_NEAR(f.waits[0].wait_s, 35 * ms, 0.1 * ms);
  EXPECT_EQ(f.late.cause, LateCause::Launch);
  EXPECT_NEAR(f.late.cause_s, 35 * ms, 1 * us);
}

TEST(CollectiveFindings, NobodyLateWithinTheSpreadMeansNoWait) {
  // The collective alone varies by 2 ms (a busy machine): 1 ms of lateness
  // and 1.5 ms more in the collective are noise.
  CollectiveAfterLaunch r;
  auto a = rank_seq(0, "k0", 5 * us, 20 * us, 2 * ms, 40 * us);
  auto b = rank_seq(1, "k1", 5 * us, 1 * ms, 2 * ms, 40 * us);
  for (auto* s : {&a, &b})
    s->collective_alone = Stats::of({100 * us, 300 * us, 2100 * us});
  r.ranks = {a, b};
  const auto f = addscope::mpi::explain(r);
  EXPECT_DOUBLE_EQ(f.collective_threshold_s, 2 * ms);
  EXPECT_TRUE(f.waits.empty());
  EXPECT_EQ(f.late.cause, LateCause::None);
  EXPECT_EQ(f.late.rank, -1);
  EXPECT_TRUE(f.unexplained.empty());
}

TEST(CollectiveFindings, SlowCollectiveWithNobodyLateIsNotAWaitForARank) {
  CollectiveAfterLaunch r;
  r.ranks = {rank_seq(0, "k0", 5 * us, 20 * us, 50 * ms, 40 * us),
             rank_seq(1, "k1", 5 * us, 21 * us, 50 * ms, 40 * us)};
  const auto f = addscope::mpi::explain(r);
  EXPECT_TRUE(f.waits.empty());
  EXPECT_EQ(f.unexplained, std::vector<int>{0});  // rank 1 arrived last
  EXPECT_EQ(f.late.cause, LateCause::None);
}

TEST(CollectiveFindings, LateForAReasonNeitherStepExplains) {
  // Rank 1 arrived 30 ms late, but neither its launch, its checksum nor its
  // staging took the time (it was elsewhere after the staging): rank 0
  // waited for rank 1, and no kernel is blamed.
  CollectiveAfterLaunch r;
  auto b = rank_seq(1, "k1", 5 * us, 20 * us, 31 * ms, 40 * us);
  b.collective_begin_s += 30 * ms;
  r.ranks = {rank_seq(0, "k0", 5 * us, 20 * us, 31 * ms, 40 * us), b};
  const auto f = addscope::mpi::explain(r);
  ASSERT_EQ(f.waits.size(), 1u);
  EXPECT_EQ(f.waits[0].for_rank, 1);
  EXPECT_EQ(f.waits[0].for_kernel, "");
  EXPECT_EQ(f.late.rank, 1);
  EXPECT_EQ(f.late.cause, LateCause::Other);
}

TEST(CollectiveFindings, LateBecauseOfItsChecksumBlamesNoKernel) {
  // Rank 1's checksum (computed inside its launch on a host backend) took
  // 30 ms longer than rank 0's; its add did not.
  CollectiveAfterLaunch r;
  auto b = rank_seq(1, "k1", 5 * us, 20 * us, 31 * ms, 40 * us);
  b.stage_begin_s += 30 * ms;
  b.stage_end_s += 30 * ms;
  b.collective_begin_s += 30 * ms;
  r.ranks = {rank_seq(0, "k0", 5 * us, 20 * us, 31 * ms, 40 * us), b};
  const auto f = addscope::mpi::explain(r);
  ASSERT_EQ(f.waits.size(), 1u);
  EXPECT_EQ(f.waits[0].for_kernel, "");
  EXPECT_EQ(f.late.cause, LateCause::Checksum);
  EXPECT_NEAR(f.late.cause_s, 30 * ms, 1 * us);
}

TEST(CollectiveAfterLaunch, OneNodeMomentsShareTheFirstRanksClock) {
  // Rank r left the barrier r x 10 ms after rank 0 (on the steady clock):
  // on one node its moments move by that much.
  int me = 0, R = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &R);
  RankSequence s = rank_seq(me, "k", 5 * us, 20 * us, 1 * ms, 40 * us);
  bool one_clock = false;
  const auto all = addscope::mpi::Impl::gather_sequences(
      MPI_COMM_WORLD, s, 1000.0 + me * 10 * ms, 3, one_clock);
  EXPECT_TRUE(one_clock);
  ASSERT_EQ(int(all.size()), R);
  for (int r = 0; r < R; ++r) {
    EXPECT_EQ(all[std::size_t(r)].rank, r);
    EXPECT_NEAR(all[std::size_t(r)].start_s, r * 10 * ms, 1e-9);
    EXPECT_NEAR(all[std::size_t(r)].arrival_s(),
                r * 10 * ms + s.collective_begin_s, 1e-9);
    EXPECT_EQ(all[std::size_t(r)].collective_alone.samples_s,
              s.collective_alone.samples_s);
  }
}

TEST(CollectiveAfterLaunch, PlantedSlowRankIsFoundByTheOthers) {
  // Every rank adds its block with `range`; the last rank also sleeps
  // 150 ms inside its launch (as a host backend's slow kernel would keep
  // it): every other rank must wait for it in MPI_Allreduce.
  int me = 0, R = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &R);
  using Space = Kokkos::DefaultHostExecutionSpace;
  using M = Space::memory_space;
  const Space exec;
  const std::int64_t n = 10007;
  addscope::mpi::DistributedVector<float, M> x("x", n, MPI_COMM_WORLD),
      y("y", n, MPI_COMM_WORLD), out("out", n, MPI_COMM_WORLD);
  Kokkos::deep_copy(x.local(), 1.5f);
  Kokkos::deep_copy(y.local(), 2.0f);
  bool slow = false;
  auto launch = [&] {
    addscope::mpi::add(exec, x, y, out);
    if (slow && me == R - 1)
      std::this_thread::sleep_for(std::chrono::milliseconds(150));
  };
  addscope::mpi::CollectiveOptions opt;
  opt.reads = 3;
  slow = true;
  const auto r = addscope::mpi::measure_collective_after_launch(
      exec, me == R - 1 ? "slow" : "fast", out, launch, opt);
  ASSERT_EQ(int(r.ranks.size()), R);
  EXPECT_TRUE(r.checksum_ok());
  EXPECT_EQ(r.expected_sum, addscope::mpi::checksum(exec, out));
  EXPECT_EQ(r.ranks[std::size_t(R - 1)].kernel, "slow");
  EXPECT_GE(r.ranks[std::size_t(R - 1)].launch_s(), 150 * ms);
  EXPECT_GE(r.ranks[std::size_t(R - 1)].kernel_s, 150 * ms);  // fenced too
  for (const auto& s : r.ranks) {
    EXPECT_EQ(s.rank, &s - r.ranks.data());
    EXPECT_EQ(s.stage_alone.count, 3u);
    EXPECT_LT(s.launch_end_s, s.stage_begin_s);  // the checksum's launch
    EXPECT_LE(s.stage_end_s, s.collective_begin_s);
    EXPECT_LE(s.collective_begin_s, s.collective_end_s);
  }
  const auto f = addscope::mpi::explain(r);
  EXPECT_EQ(f.last_rank, R - 1);
  if (R == 1) {
    EXPECT_TRUE(f.waits.empty());
    return;
  }
  ASSERT_EQ(int(f.waits.size()), R - 1);
  for (const auto& w : f.waits) {
    EXPECT_NE(w.rank, R - 1);
    EXPECT_EQ(w.for_rank, R - 1);
    EXPECT_EQ(w.for_kernel, "slow");  // its kernel (launch) made it late
    EXPECT_GE(w.wait_s, 100 * ms);
    EXPECT_GE(w.arrival_gap_s, 100 * ms);
  }
  EXPECT_EQ(f.late.rank, R - 1);
  EXPECT_EQ(f.late.cause, LateCause::Launch);
  EXPECT_GE(f.late.cause_s, 100 * ms);
}
