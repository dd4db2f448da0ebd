// addscope — timing across ranks, honestly: every rank starts together
// (after an MPI_Barrier), each fences its own work before its clock stops,
// and the times are gathered so that every rank knows the minimum, maximum
// and mean over ranks and which rank was slowest. A distributed job takes
// as long as its slowest rank: aggregate rates divide the bytes of all
// ranks by that rank's time.
//
// Each rank times on its own steady clock from the moment it left the
// barrier. Where all ranks run on one node their steady clocks agree, and
// the job's time is from the first rank's start to the last rank's end;
// across nodes clocks are never compared: the job's time is then the
// longest rank's time, and the barrier's exit skew (microseconds on one
// node, more across a network) is not in it.
#ifndef ADDSCOPE_MPI_CROSSRANKTIMING_HPP
#define ADDSCOPE_MPI_CROSSRANKTIMING_HPP

#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "addscope/mpi/impl/addscope_MpiCheck.hpp"
#include "addscope/timing/addscope_Measure.hpp"
#include "addscope/timing/addscope_Results.hpp"
#include "addscope/timing/addscope_Stats.hpp"
#include "addscope/timing/addscope_Timer.hpp"

namespace addscope {
namespace mpi {

/// One duration per rank, and its spread over the ranks.
struct RankTimes {
  std::vector<double> seconds;  ///< by rank
  double min_s = 0, max_s = 0, mean_s = 0;
  int slowest_rank = -1;  ///< largest time (the lowest such rank on ties)
  int fastest_rank = -1;  ///< smallest time (the lowest such rank on ties)
  /// The job's time: first start to last end where the ranks share one
  /// clock (one node), else max_s.
  double span_s = 0;
  bool one_clock = false;
  /// Where each rank's interval began on its steady clock (comparable
  /// between ranks only with one_clock; empty from of()).
  std::vector<double> starts_s;
  double spread_s() const { return max_s - min_s; }
  /// Throws InvalidArgument for no values or a negative or NaN one.
  static RankTimes of(std::vector<double> seconds);
};

/// Every rank's `seconds`, gathered on every rank (collective). With
/// `one_clock` (all ranks on one node: all_on_one_node), `start_s` is when
/// this rank's interval began on its steady clock, and span_s covers all
/// intervals.
RankTimes gather_times(MPI_Comm comm, double seconds, bool one_clock = false,
                       double start_s = 0);

/// Do all ranks of `comm` run on one node (MPI_COMM_TYPE_SHARED), so that
/// their steady clocks agree? Collective.
bool all_on_one_node(MPI_Comm comm);

/// Every rank: MPI_Barrier, then f(), then exec.fence(); each rank's time
/// from leaving the barrier to the end of its fence, gathered on every
/// rank (collective). `one_clock`: all_on_one_node(comm), if known.
template <class ExecSpace, class F>
RankTimes time_across_ranks(MPI_Comm comm, const ExecSpace& exec, F&& f,
                            bool one_clock = false) {
  exec.fence();
  ADDSCOPE_MPI_CHECK(MPI_Barrier(comm));
  const double t0 = host_seconds();
  f();
  exec.fence();
  return gather_times(comm, host_seconds() - t0, one_clock, t0);
}

/// An operation run on every rank at once, `repeat` times.
struct CrossRankPhase {
  std::string label;  ///< this rank's label
  int ranks = 0;
  std::int64_t n_total = 0;       ///< elements, all ranks together
  std::uint64_t bytes_total = 0;  ///< bytes one run moves, all ranks
  std::vector<RankTimes> runs;    ///< each run: every rank's time
  /// Over the runs: each run's span_s — how long the job took (launch +
  /// fence, from an aligned start: first start to last end on one node,
  /// the slowest rank's time across nodes).
  Stats job;
  bool one_clock = false;       ///< the runs' spans cover every rank's interval
  std::vector<Stats> per_rank;  ///< each rank's times over the runs
  std::vector<int> slowest_count;  ///< runs in which each rank was slowest
  int slowest_rank = -1;           ///< the rank with the largest median
  double aggregate_gbps = 0;       ///< bytes_total / job.median_s
  double min_rank_median_s() const;
  double max_rank_median_s() const;
  double mean_rank_median_s() const;
};

/// Collective: `opt.warmup` untimed runs, then `opt.repeat` runs of
/// time_across_ranks(launch). `n_local` and `bytes_local` are this rank's
/// share (they are summed over the ranks).
template <class ExecSpace, class Launch>
CrossRankPhase measure_across_ranks(
    MPI_Comm comm, const ExecSpace& exec, const std::string& label,
    std::int64_t n_local, std::uint64_t bytes_local, Launch&& launch,
    const MeasureOptions& opt = MeasureOptions());

/// Each rank's operation measured while the other ranks wait (at a
/// barrier), rank after rank: what one rank does with the machine to
/// itself, in the same run.
struct AloneRates {
  std::vector<Stats> completion;  ///< by rank: launch + fence
  std::vector<double> gbps;       ///< by rank: its bytes / its median
  double mean_gbps = 0;           ///< the single-rank rate
};

/// Collective: rank 0's measure_phases (launch + fence, no device time)
/// while the others wait, then rank 1's, ... (`bytes_local` is this
/// rank's).
template <class ExecSpace, class Launch>
AloneRates measure_each_rank_alone(
    MPI_Comm comm, const ExecSpace& exec, std::uint64_t bytes_local,
    Launch&& launch, const MeasureOptions& opt = MeasureOptions());

/// Weak scaling of one operation: each rank alone, then all together.
/// efficiency = aggregate rate / (ranks x single-rank rate), where the
/// single-rank rate is the mean of the ranks' alone rates: the fraction of
/// what the ranks would do if they did not share anything.
struct WeakScaling {
  int ranks = 0;
  std::int64_t n_per_rank = 0;  ///< rank 0's (weak scaling: every rank's)
  AloneRates alone;
  CrossRankPhase together;
  double single_rank_gbps = 0;  ///< alone.mean_gbps
  double aggregate_gbps = 0;    ///< together.aggregate_gbps
  double efficiency = 0;        ///< aggregate / (ranks x single rank)
};

template <class ExecSpace, class Launch>
WeakScaling measure_weak_scaling(MPI_Comm comm, const ExecSpace& exec,
                                 const std::string& label, std::int64_t n_local,
                                 std::uint64_t bytes_local, Launch&& launch,
                                 const MeasureOptions& opt = MeasureOptions());

// ---- implementation ----------------------------------------------------

namespace Impl {
/// Fills the statistics of `p` from p.runs (ranks, labels and totals set).
void summarize(CrossRankPhase& p);
/// alone rates from each rank's samples (gathered).
AloneRates alone_rates(MPI_Comm comm, const Stats& mine,
                       std::uint64_t bytes_local);
std::int64_t sum_over_ranks(MPI_Comm comm, std::int64_t v);
}  // namespace Impl

template <class ExecSpace, class Launch>
CrossRankPhase measure_across_ranks(MPI_Comm comm, const ExecSpace& exec,
                                    const std::string& label,
                                    std::int64_t n_local,
                                    std::uint64_t bytes_local, Launch&& launch,
                                    const MeasureOptions& opt) {
  opt.validate();
  CrossRankPhase p;
  p.label = label;
  ADDSCOPE_MPI_CHECK(MPI_Comm_size(comm, &p.ranks));
  p.n_total = Impl::sum_over_ranks(comm, n_local);
  p.bytes_total =
      std::uint64_t(Impl::sum_over_ranks(comm, std::int64_t(bytes_local)));
  p.one_clock = all_on_one_node(comm);
  for (int i = 0; i < opt.warmup; ++i)
    time_across_ranks(comm, exec, launch, p.one_clock);
  for (int i = 0; i < opt.repeat; ++i)
    p.runs.push_back(time_across_ranks(comm, exec, launch, p.one_clock));
  Impl::summarize(p);
  return p;
}

template <class ExecSpace, class Launch>
AloneRates measure_each_rank_alone(MPI_Comm comm, const ExecSpace& exec,
                                   std::uint64_t bytes_local, Launch&& launch,
                                   const MeasureOptions& opt) {
  int rank = 0, ranks = 1;
  ADDSCOPE_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  ADDSCOPE_MPI_CHECK(MPI_Comm_size(comm, &ranks));
  MeasureOptions o = opt;
  o.device_time = false;
  Stats mine;
  exec.fence();
  for (int r = 0; r < ranks; ++r) {
    ADDSCOPE_MPI_CHECK(MPI_Barrier(comm));
    if (r == rank)
      mine = measure_phases(exec, "", 0, bytes_local, launch, o).completion;
  }
  ADDSCOPE_MPI_CHECK(MPI_Barrier(comm));
  return Impl::alone_rates(comm, mine, bytes_local);
}

template <class ExecSpace, class Launch>
WeakScaling measure_weak_scaling(MPI_Comm comm, const ExecSpace& exec,
                                 const std::string& label, std::int64_t n_local,
                                 std::uint64_t bytes_local, Launch&& launch,
                                 const MeasureOptions& opt) {
  WeakScaling w;
  ADDSCOPE_MPI_CHECK(MPI_Comm_size(comm, &w.ranks));
  std::int64_t n0 = n_local;
  ADDSCOPE_MPI_CHECK(MPI_Bcast(&n0, 1, MPI_INT64_T, 0, comm));
  w.n_per_rank = n0;
  w.alone = measure_each_rank_alone(comm, exec, bytes_local, launch, opt);
  w.together = measure_across_ranks(comm, exec, label, n_local, bytes_local,
                                    launch, opt);
  w.single_rank_gbps = w.alone.mean_gbps;
  w.aggregate_gbps = w.together.aggregate_gbps;
  if (w.single_rank_gbps > 0)
    w.efficiency = w.aggregate_gbps / (w.ranks * w.single_rank_gbps);
  return w;
}

}  // namespace mpi
}  // namespace addscope

#endif
