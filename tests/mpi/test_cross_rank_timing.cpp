// Timing across ranks: the statistics over ranks (pure), and real runs with
// a delay planted on one rank — the slowest rank must be that one, its time
// at least the delay, the job's time per run the slowest rank's, and the
// aggregate rate all ranks' bytes over that time.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

#include "addscope/core/addscope_Error.hpp"
#include "addscope/mpi/addscope_CrossRankTiming.hpp"
#include "addscope/timing/addscope_Timer.hpp"

using addscope::mpi::RankTimes;

namespace {
int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int world_size() {
  int s = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}
void sleep_ms(double ms) {
  std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(ms));
}
constexpr double ms = 1e-3;
}  // namespace

TEST(RankTimes, MinMaxMeanAndWhichRank) {
  const auto t = RankTimes::of({0.3, 0.1, 0.7, 0.7, 0.1});
  EXPECT_DOUBLE_EQ(t.min_s, 0.1);
  EXPECT_DOUBLE_EQ(t.max_s, 0.7);
  EXPECT_DOUBLE_EQ(t.mean_s, 0.38);
  EXPECT_DOUBLE_EQ(t.spread_s(), 0.6);
  EXPECT_EQ(t.slowest_rank, 2);  // the lowest rank among ties
  EXPECT_EQ(t.fastest_rank, 1);
  EXPECT_THROW(RankTimes::of({}), addscope::InvalidArgument);
  EXPECT_THROW(RankTimes::of({0.1, -1}), addscope::InvalidArgument);
}

TEST(CrossRankTiming, PlantedDelayMakesThatRankTheSlowest) {
  const int R = world_size(), me = world_rank();
  const int late = R - 1;
  const Kokkos::DefaultHostExecutionSpace exec;
  // Every rank works 5 ms; the last one 80 ms more.
  const auto t = addscope::mpi::time_across_ranks(
      MPI_COMM_WORLD, exec, [&] { sleep_ms(5 + (me == late ? 80 : 0)); });
  ASSERT_EQ(int(t.seconds.size()), R);
  EXPECT_EQ(t.slowest_rank, late);
  EXPECT_GE(t.max_s, 85 * ms);
  EXPECT_DOUBLE_EQ(t.max_s, t.seconds[std::size_t(late)]);
  for (int r = 0; r < R; ++r) EXPECT_GE(t.seconds[std::size_t(r)], 5 * ms);
  if (R > 1) {
    EXPECT_LT(t.min_s, t.max_s - 40 * ms);  // the others did not wait
    EXPECT_NE(t.fastest_rank, late);
  }
  // Every rank has the same numbers.
  double mx = t.max_s, all_max = 0;
  MPI_Allreduce(&mx, &all_max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_EQ(all_max, t.max_s);
}

TEST(CrossRankTiming, OnOneNodeTheJobSpansFirstStartToLastEnd) {
  // Made-up intervals on one clock: rank 0 from 10.000 s for 2 ms, rank 1
  // from 10.003 s for 1 ms: the job took 4 ms, its longest rank 2 ms.
  const int me = world_rank(), R = world_size();
  const double start = 10.0 + (me == 1 ? 0.003 : 0.0);
  const double secs = me == 1 ? 1 * ms : 2 * ms;
  const auto one =
      addscope::mpi::gather_times(MPI_COMM_WORLD, secs, true, start);
  const auto apart =
      addscope::mpi::gather_times(MPI_COMM_WORLD, secs, false, start);
  EXPECT_DOUBLE_EQ(apart.span_s, apart.max_s);  // clocks not compared
  if (R > 1)
    EXPECT_NEAR(one.span_s, 4 * ms, 1e-9);
  else
    EXPECT_NEAR(one.span_s, 2 * ms, 1e-9);
  EXPECT_TRUE(addscope::mpi::all_on_one_node(MPI_COMM_WORLD));
}

TEST(CrossRankTiming, TheClockStartsAfterTheBarrierAndStopsAfterTheFence) {
  // Rank 0 arrives 60 ms late at the barrier: nobody's time includes that.
  // The work is "asynchronous": a fake space whose fence does the work.
  struct FakeExec {
    mutable double pending_ms = 0;
    void fence() const {
      sleep_ms(pending_ms);
      pending_ms = 0;
    }
  } exec;
  const int me = world_rank();
  if (me == 0) sleep_ms(60);
  double arrived = addscope::host_seconds();  // rank 0: at the barrier
  const auto t = addscope::mpi::time_across_ranks(
      MPI_COMM_WORLD, exec, [&] { exec.pending_ms = 20; }, true);
  // No rank started before rank 0 reached the barrier (one node: one
  // clock; told afterwards, so that telling it synchronises nothing).
  MPI_Bcast(&arrived, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  EXPECT_GE(t.min_s, 20 * ms);  // the fence's work is inside
  EXPECT_LT(t.max_s, 60 * ms);  // the barrier's wait is not
  ASSERT_EQ(int(t.starts_s.size()), world_size());
  for (double s : t.starts_s) EXPECT_GE(s, arrived);
}

TEST(CrossRankTiming, RepeatedRunsGiveJobTimePerRankStatsAndAggregate) {
  const int R = world_size(), me = world_rank();
  const int late = R > 1 ? 1 : 0;
  const Kokkos::DefaultHostExecutionSpace exec;
  addscope::MeasureOptions opt;
  opt.warmup = 1;
  opt.repeat = 4;
  opt.device_time = false;
  int calls = 0;
  const std::uint64_t bytes = 1000000;  // 1 MB per rank per run
  const auto p = addscope::mpi::measure_across_ranks(
      MPI_COMM_WORLD, exec, "sleep", 100 + me, bytes,
      [&] {
        ++calls;
        sleep_ms(me == late ? 30 : 2);
      },
      opt);
  EXPECT_EQ(calls, 5);
  EXPECT_EQ(p.ranks, R);
  EXPECT_EQ(p.label, "sleep");
  EXPECT_EQ(p.n_total, 100 * R + R * (R - 1) / 2);
  EXPECT_EQ(p.bytes_total, bytes * std::uint64_t(R));
  ASSERT_EQ(p.runs.size(), 4u);
  ASSERT_EQ(int(p.per_rank.size()), R);
  std::vector<double> job;
  EXPECT_TRUE(p.one_clock);  // the tests run on one node
  for (const auto& run : p.runs) {
    EXPECT_EQ(run.slowest_rank, late);
    EXPECT_TRUE(run.one_clock);
    // First start to last end: at least the slowest rank's own time.
    EXPECT_GE(run.span_s, run.max_s);
    job.push_back(run.span_s);
  }
  EXPECT_EQ(p.job.samples_s, job);  // the job's time, run by run
  EXPECT_EQ(p.slowest_rank, late);
  EXPECT_EQ(p.slowest_count[std::size_t(late)], 4);
  EXPECT_GE(p.job.median_s, 30 * ms);
  EXPECT_DOUBLE_EQ(p.aggregate_gbps,
                   double(p.bytes_total) / p.job.median_s / 1e9);
  EXPECT_DOUBLE_EQ(p.max_rank_median_s(),
                   p.per_rank[std::size_t(late)].median_s);
  EXPECT_LE(p.min_rank_median_s(), p.mean_rank_median_s());
  EXPECT_LE(p.mean_rank_median_s(), p.max_rank_median_s());
}

TEST(CrossRankTiming, EachRankAloneThenTogetherGivesWeakScaling) {
  // Each rank "moves" 1 MB in 10 ms (rank 1: 20 ms) whether alone or not:
  // nothing is shared, so the aggregate is what the slowest rank allows.
  const int R = world_size(), me = world_rank();
  const Kokkos::DefaultHostExecutionSpace exec;
  addscope::MeasureOptions opt;
  opt.warmup = 0;
  opt.repeat = 3;
  const std::uint64_t bytes = 1000000;
  std::vector<double>
      when;  // start and end of every call (one node: one clock)
  const auto w = addscope::mpi::measure_weak_scaling(
      MPI_COMM_WORLD, exec, "sleep", 1000, bytes,
      [&] {
        when.push_back(addscope::host_seconds());
        sleep_ms(me == 1 ? 20 : 10);
        when.push_back(addscope::host_seconds());
      },
      opt);
  EXPECT_EQ(w.ranks, R);
  EXPECT_EQ(w.n_per_rank, 1000);
  ASSERT_EQ(int(w.alone.gbps.size()), R);
  double sum = 0;
  for (int r = 0; r < R; ++r) {
    const double want_s = r == 1 ? 20 * ms : 10 * ms;
    EXPECT_GE(w.alone.completion[std::size_t(r)].median_s, want_s);
    EXPECT_DOUBLE_EQ(
        w.alone.gbps[std::size_t(r)],
        double(bytes) / w.alone.completion[std::size_t(r)].median_s / 1e9);
    sum += w.alone.gbps[std::size_t(r)];
  }
  EXPECT_DOUBLE_EQ(w.single_rank_gbps, sum / R);
  EXPECT_DOUBLE_EQ(w.aggregate_gbps, w.together.aggregate_gbps);
  EXPECT_DOUBLE_EQ(w.efficiency, w.aggregate_gbps / (R * w.single_rank_gbps));
  EXPECT_GE(w.together.job.median_s, (R > 1 ? 20 : 10) * ms);
  // Alone means alone: rank a's alone calls (the first three) all end
  // before rank b's begin. Together, every run starts after a barrier: no
  // rank's call k begins before every rank's call k - 1 ended. (One node:
  // one clock.)
  ASSERT_EQ(when.size(), 2u * 6u);
  std::vector<double> all(when.size() * std::size_t(R));
  MPI_Allgather(when.data(), int(when.size()), MPI_DOUBLE, all.data(),
                int(when.size()), MPI_DOUBLE, MPI_COMM_WORLD);
  auto at = [&](int r, int k) {
    return all[std::size_t(r) * when.size() + std::size_t(k)];
  };
  for (int a = 0; a < R; ++a)
    for (int b = 0; b < R; ++b) {
      if (a < b) EXPECT_LE(at(a, 5), at(b, 0)) << "ranks " << a << ", " << b;
      for (int k = 8; k < 12; k += 2)
        EXPECT_LE(at(b, k - 1), at(a, k)) << "ranks " << a << ", " << b;
    }
}
