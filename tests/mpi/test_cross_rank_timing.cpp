// Timing across ranks: the statistics over ranks (pure), and real runs with
// a delay planted on one rank — the slowest rank must be that one, its time
// at least the delay, the job's time per run the slowest rank's, and the
// aggregate rate all ranks' bytes over that time.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
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

// The statistics over runs and ranks on made-up times (no clock, no MPI):
// 3 ranks, 4 runs, 3 MB a run in all.
TEST(CrossRankPhase, SummaryOfMadeUpRuns) {
  addscope::mpi::CrossRankPhase p;
  p.ranks = 3;
  p.bytes_total = 3000000;
  const double secs[4][3] = {{0.010, 0.030, 0.012},
                             {0.011, 0.028, 0.010},
                             {0.009, 0.012, 0.040},
                             {0.010, 0.035, 0.011}};
  const double spans[4] = {0.031, 0.029, 0.041, 0.036};
  for (int i = 0; i < 4; ++i) {
    auto t = RankTimes::of({secs[i][0], secs[i][1], secs[i][2]});
    t.span_s = spans[i];
    t.one_clock = true;
    p.runs.push_back(t);
  }
  addscope::mpi::Impl::summarize(p);
  // The job: the spans 0.031, 0.029, 0.041, 0.036 (numpy percentile 25,
  // 50, 75: 0.0305, 0.0335, 0.03725; mean 0.03425; std(ddof=1)
  // 0.00537742193496723).
  EXPECT_EQ(p.job.samples_s, std::vector<double>({0.031, 0.029, 0.041, 0.036}));
  EXPECT_DOUBLE_EQ(p.job.min_s, 0.029);
  EXPECT_DOUBLE_EQ(p.job.q1_s, 0.0305);
  EXPECT_DOUBLE_EQ(p.job.median_s, 0.0335);
  EXPECT_DOUBLE_EQ(p.job.q3_s, 0.03725);
  EXPECT_DOUBLE_EQ(p.job.max_s, 0.041);
  EXPECT_DOUBLE_EQ(p.job.mean_s, 0.03425);
  EXPECT_NEAR(p.job.stddev_s, 0.00537742193496723, 1e-15);
  // Each rank over the runs: medians 0.010, 0.029, 0.0115.
  ASSERT_EQ(p.per_rank.size(), 3u);
  EXPECT_EQ(p.per_rank[1].samples_s,
            std::vector<double>({0.030, 0.028, 0.012, 0.035}));
  EXPECT_DOUBLE_EQ(p.per_rank[0].median_s, 0.010);
  EXPECT_DOUBLE_EQ(p.per_rank[1].median_s, 0.029);
  EXPECT_DOUBLE_EQ(p.per_rank[2].median_s, 0.0115);
  EXPECT_DOUBLE_EQ(p.per_rank[2].max_s, 0.040);
  EXPECT_DOUBLE_EQ(p.min_rank_median_s(), 0.010);
  EXPECT_DOUBLE_EQ(p.max_rank_median_s(), 0.029);
  EXPECT_DOUBLE_EQ(p.mean_rank_median_s(), 0.0505 / 3);
  // Rank 1 was slowest in runs 0, 1, 3; rank 2 in run 2.
  EXPECT_EQ(p.slowest_count, std::vector<int>({0, 3, 1}));
  EXPECT_EQ(p.slowest_rank, 1);
  // 3 MB over the job's median 33.5 ms: 0.0895522388059701 GB/s.
  EXPECT_NEAR(p.aggregate_gbps, 0.0895522388059701, 1e-15);

  // Ties: the lowest rank with the largest median; no runs: refused.
  addscope::mpi::CrossRankPhase q;
  q.ranks = 2;
  q.bytes_total = 1000000000;
  q.runs.push_back(RankTimes::of({0.5, 0.5}));
  addscope::mpi::Impl::summarize(q);
  EXPECT_EQ(q.slowest_rank, 0);
  EXPECT_EQ(q.slowest_count, std::vector<int>({1, 0}));
  EXPECT_DOUBLE_EQ(q.aggregate_gbps, 2.0);  // 1 GB in 0.5 s (span = max)
  addscope::mpi::CrossRankPhase none;
  none.ranks = 2;
  EXPECT_THROW(addscope::mpi::Impl::summarize(none),
               addscope::InvalidArgument);
}

// Each rank's alone rate from its own samples and its own bytes, gathered:
// rank r moves (r + 1) MB with samples 30 ms, 10 ms, 20 + r ms (median
// 20 + r ms).
TEST(CrossRankPhase, AloneRatesOfMadeUpSamples) {
  const int R = world_size(), me = world_rank();
  const auto mine = addscope::Stats::of({0.030, 0.010, 0.020 + 0.001 * me});
  const auto a = addscope::mpi::Impl::alone_rates(
      MPI_COMM_WORLD, mine, std::uint64_t(1000000) * std::uint64_t(me + 1));
  ASSERT_EQ(int(a.completion.size()), R);
  ASSERT_EQ(int(a.gbps.size()), R);
  // 1 MB / 20 ms, 2 MB / 21 ms, 3 MB / 22 ms.
  const double want[3] = {0.05, 0.0952380952380952, 0.136363636363636};
  const double mean[3] = {0.05, 0.0726190476190476, 0.0938672438672439};
  for (int r = 0; r < R && r < 3; ++r) {
    SCOPED_TRACE(r);
    EXPECT_DOUBLE_EQ(a.completion[std::size_t(r)].median_s, 0.020 + 0.001 * r);
    EXPECT_EQ(a.completion[std::size_t(r)].count, 3u);
    EXPECT_NEAR(a.gbps[std::size_t(r)], want[r], 1e-14);
  }
  if (R <= 3)
    EXPECT_NEAR(a.mean_gbps, mean[R - 1], 1e-14);
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
  // The job takes the late rank's 30 ms (sleeps overshoot; 15 ms allowed
  // for a loaded machine): R MB in 30 to 45 ms.
  EXPECT_GE(p.job.median_s, 30 * ms);
  EXPECT_LT(p.job.median_s, 45 * ms);
  EXPECT_LE(p.aggregate_gbps, R * 1e6 / (30 * ms) / 1e9);
  EXPECT_GE(p.aggregate_gbps, R * 1e6 / (45 * ms) / 1e9);
  // The late rank's median is the largest (30 ms); the others' 2 ms; the
  // mean of the medians (30 + 2 (R - 1)) / R ms, with the same allowance.
  EXPECT_GE(p.max_rank_median_s(), 30 * ms);
  EXPECT_LT(p.max_rank_median_s(), 45 * ms);
  EXPECT_EQ(p.max_rank_median_s(), p.per_rank[std::size_t(late)].median_s);
  if (R > 1) {
    EXPECT_GE(p.min_rank_median_s(), 2 * ms);
    EXPECT_LT(p.min_rank_median_s(), 17 * ms);
  }
  EXPECT_GE(p.mean_rank_median_s(), (30 + 2 * (R - 1)) * ms / R);
  EXPECT_LT(p.mean_rank_median_s(), (45 + 17 * (R - 1)) * ms / R);
}

TEST(CrossRankTiming, EachRankAloneThenTogetherGivesWeakScaling) {
  // Each rank "moves" 5 MB in 50 ms (rank 1: 100 ms) whether alone or not:
  // nothing is shared, so the aggregate is what the slowest rank allows.
  const int R = world_size(), me = world_rank();
  const Kokkos::DefaultHostExecutionSpace exec;
  addscope::MeasureOptions opt;
  opt.warmup = 0;
  opt.repeat = 3;
  const std::uint64_t bytes = 5000000;
  std::vector<double>
      when;  // start and end of every call (one node: one clock)
  const auto w = addscope::mpi::measure_weak_scaling(
      MPI_COMM_WORLD, exec, "sleep", 1000, bytes,
      [&] {
        when.push_back(addscope::host_seconds());
        sleep_ms(me == 1 ? 100 : 50);
        when.push_back(addscope::host_seconds());
      },
      opt);
  EXPECT_EQ(w.ranks, R);
  EXPECT_EQ(w.n_per_rank, 1000);
  ASSERT_EQ(int(w.alone.gbps.size()), R);
  // Alone, rank r moves 5 MB in 50 ms (rank 1: 100 ms): 0.1 GB/s (0.05),
  // less by what the sleeps overshoot (up to 30%, a loaded machine: long
  // sleeps, so that its milliseconds weigh little).
  for (int r = 0; r < R; ++r) {
    SCOPED_TRACE(r);
    const double want_s = r == 1 ? 100 * ms : 50 * ms;
    EXPECT_GE(w.alone.completion[std::size_t(r)].median_s, want_s);
    EXPECT_LE(w.alone.gbps[std::size_t(r)], 5e6 / want_s / 1e9);
    EXPECT_GE(w.alone.gbps[std::size_t(r)], 0.7 * 5e6 / want_s / 1e9);
  }
  // By hand, for 1, 2, 3 ranks: the single-rank rate (the mean of the alone
  // rates) 0.1, (0.1 + 0.05) / 2 = 0.075, (0.1 + 0.05 + 0.1) / 3 = 0.0833
  // GB/s; together the job takes the slowest rank's time (50, 100, 100 ms):
  // 5 R MB in it, 0.1, 0.1, 0.15 GB/s; efficiency 1, 0.667, 0.6.
  const double single[3] = {0.1, 0.075, 0.25 / 3};
  const double aggregate[3] = {0.1, 0.1, 0.15};
  const double efficiency[3] = {1.0, 0.1 / 0.15, 0.6};
  if (R <= 3) {
    EXPECT_LE(w.single_rank_gbps, single[R - 1] * 1.0001);
    EXPECT_GE(w.single_rank_gbps, single[R - 1] * 0.7);
    EXPECT_LE(w.aggregate_gbps, aggregate[R - 1] * 1.0001);
    EXPECT_GE(w.aggregate_gbps, aggregate[R - 1] * 0.7);
    EXPECT_NEAR(w.efficiency, efficiency[R - 1], 0.3 * efficiency[R - 1]);
  }
  EXPECT_EQ(w.aggregate_gbps, w.together.aggregate_gbps);
  EXPECT_LE(w.efficiency, 1.3);
  EXPECT_GE(w.together.job.median_s, (R > 1 ? 100 : 50) * ms);
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
