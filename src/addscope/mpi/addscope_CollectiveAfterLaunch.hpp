// addscope — the seed experiment across ranks: every rank launches a kernel
// (one of them a bad one), then computes a checksum of its block, stages it
// through a host mirror (deep_copy: Open MPI is not necessarily CUDA-aware)
// and joins MPI_Allreduce on it — first as a user would (no fence), then
// with a fence after the launch and each step timed alone. A collective
// right after an asynchronous launch absorbs the slowest rank's kernel on
// every rank: explain() says from the numbers which rank waited in the
// collective, for which rank, and where that rank lost its time.
#ifndef ADDSCOPE_MPI_COLLECTIVEAFTERLAUNCH_HPP
#define ADDSCOPE_MPI_COLLECTIVEAFTERLAUNCH_HPP

#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "addscope/core/addscope_Error.hpp"
#include "addscope/core/addscope_SpaceKind.hpp"
#include "addscope/mpi/addscope_DistributedAdd.hpp"
#include "addscope/mpi/addscope_DistributedVector.hpp"
#include "addscope/mpi/impl/addscope_MpiCheck.hpp"
#include "addscope/timing/addscope_Measure.hpp"
#include "addscope/timing/addscope_Stats.hpp"
#include "addscope/timing/addscope_Timer.hpp"
#include "addscope/waits/addscope_SyncTracker.hpp"
#include "addscope/waits/output/addscope_AttributionText.hpp"

namespace addscope {
namespace mpi {

struct CollectiveOptions {
  int reads = 5;       ///< fenced repetitions of the staging and collective
  bool warmup = true;  ///< the whole sequence once, untimed, first
  void validate() const {
    ADDSCOPE_THROW_IF(reads < 1,
                      "reads = " << reads << " is invalid; allowed: >= 1");
  }
};

/// One rank's part. The naive pass's moments are seconds from the aligned
/// start (this rank leaving an MPI_Barrier), on the rank's own clock.
struct RankSequence {
  int rank = 0;
  std::string kernel;  ///< the label this rank launched
  /// This rank's aligned start on the time axis all ranks share: where all
  /// ranks run on one node their steady clocks agree, and this is when the
  /// rank left the barrier after the first rank did; across nodes 0 (each
  /// rank's own start, which differs by the barrier's exit skew).
  double start_s = 0;
  // naive: launch; checksum (launched); staging; MPI_Allreduce
  double launch_end_s = 0;
  double stage_begin_s = 0, stage_end_s = 0;
  double collective_begin_s = 0, collective_end_s = 0;
  double launch_s() const { return launch_end_s; }
  /// Between the launch and the staging: launching the checksum.
  double checksum_s() const { return stage_begin_s - launch_end_s; }
  double stage_s() const { return stage_end_s - stage_begin_s; }
  double collective_s() const { return collective_end_s - collective_begin_s; }
  /// When it entered the collective, on the shared axis.
  double arrival_s() const { return start_s + collective_begin_s; }
  // fenced: launch, fence (the kernel); then the staging and the
  // collective `reads` times each, alone (every rank entering together)
  double fenced_launch_s = 0;
  double kernel_s = 0;  ///< launch + fence
  Stats stage_alone, collective_alone;
  /// The waits tracker's longest wait in the naive pass on this rank, one
  /// line ("" if no call waited for local device work).
  std::string tracker_line;
};

struct CollectiveAfterLaunch {
  std::string collective = "MPI_Allreduce";
  std::string staging = "deep_copy(checksum)";
  std::string exec_space;
  bool async_backend = false;
  /// All ranks on one node: their moments share one clock (start_s).
  bool one_clock = false;
  std::vector<RankSequence> ranks;  ///< by rank (on every rank)
  std::uint64_t naive_sum = 0;      ///< what the naive pass's collective gave
  std::uint64_t expected_sum = 0;   ///< checksum(out) after everything, fenced
  /// The naive collective combined the finished kernels' data.
  bool checksum_ok() const { return naive_sum == expected_sum; }
};

/// Collective over out's communicator. `launch()` writes this rank's block
/// of `out` (asynchronously) and is labelled `label`.
template <class ExecSpace, class T, class M, class Launch>
CollectiveAfterLaunch measure_collective_after_launch(
    const ExecSpace& exec, const std::string& label,
    const DistributedVector<T, M>& out, Launch&& launch,
    const CollectiveOptions& opt = CollectiveOptions());

/// A rank that waited in the collective for a later rank.
struct CollectiveWait {
  int rank = -1;
  double wait_s = 0;  ///< its collective time - its median alone
  int for_rank = -1;  ///< the last rank to enter the collective
  /// for_rank's kernel, where its kernel made it late (LateCause Staging
  /// or Launch); "" otherwise.
  std::string for_kernel;
  double arrival_gap_s = 0;  ///< how much later for_rank entered
};

/// Where the last rank's time before the collective went.
enum class LateCause {
  None,      ///< nobody arrived late (beyond the threshold)
  Staging,   ///< its staging waited for its kernel (asynchronous backends)
  Launch,    ///< its launch call took the time (synchronous backends: the
             ///< kernel runs inside the launch)
  Checksum,  ///< launching (on a host backend: computing) its checksum did
  Other      ///< none of them explains at least half of the gap
};
const char* to_string(LateCause c);

struct LateArrival {
  int rank = -1;
  std::string kernel;
  double gap_s = 0;  ///< after the first rank to enter the collective
  LateCause cause = LateCause::None;
  /// Staging: its staging minus its staging alone (median); Launch and
  /// Checksum: that step minus the longest one of the other ranks.
  double cause_s = 0;
  double kernel_s = 0;         ///< its kernel, fenced
  double others_kernel_s = 0;  ///< the slowest other rank's kernel, fenced
};

struct CollectiveFindings {
  /// A collective wait counts from this: the larger of 10 us and the
  /// spread (max - min) of every rank's collective alone.
  double collective_threshold_s = 0;
  /// The same for the staging alone.
  double staging_threshold_s = 0;
  int first_rank = -1, last_rank = -1;  ///< to enter the collective
  LateArrival late;                     ///< cause None: nobody was late
  std::vector<CollectiveWait> waits;    ///< longest first
  /// Ranks whose collective exceeded its time alone by the threshold while
  /// no rank arrived later than them by as much: not a wait for a rank.
  std::vector<int> unexplained;
};

/// The findings, from the numbers only: the last rank to enter the
/// collective is the one waited for; a rank waited if its collective
/// exceeded its time alone by the threshold and the last rank entered
/// later by as much; the last rank's cause is the first step before the
/// collective (staging, launch, checksum) whose excess is at least its
/// threshold and half of the lateness.
CollectiveFindings explain(const CollectiveAfterLaunch& r);

// ---- implementation ----------------------------------------------------

namespace Impl {
/// Packs/unpacks one rank's numbers for the gather.
std::vector<double> pack(const RankSequence& s);
RankSequence unpack(int rank, const std::vector<double>& v, int reads);
/// Gathers every rank's sequence (collective); `steady_start_s` is this
/// rank's aligned start on its steady clock. Sets `one_clock`.
std::vector<RankSequence> gather_sequences(MPI_Comm comm,
                                           const RankSequence& mine,
                                           double steady_start_s, int reads,
                                           bool& one_clock);
}  // namespace Impl

// One function of ~85 lines on purpose: the naive pass is one sequence of
// moments taken in order on one clock (launch, checksum, staging,
// collective, no fence between them); split into functions, each boundary
// would be a place where a fence or a copy could slip in unseen.
template <class ExecSpace, class T, class M, class Launch>
CollectiveAfterLaunch measure_collective_after_launch(
    const ExecSpace& exec, const std::string& label,
    const DistributedVector<T, M>& out, Launch&& launch,
    const CollectiveOptions& opt) {
  opt.validate();
  const MPI_Comm comm = out.comm();
  CollectiveAfterLaunch res;
  res.exec_space = ExecSpace::name();
  res.async_backend = launches_are_async<ExecSpace>();
  RankSequence me;
  me.rank = out.rank();
  me.kernel = label;

  // The checksum and its host mirror exist before anything is timed
  // (allocation is not transfer; on Kokkos 3.4 creating a mirror of a
  // device View reads its label from the device, which would wait).
  Kokkos::View<std::uint64_t, typename ExecSpace::memory_space> dsum(
      "addscope::mpi::checksum");
  auto hsum = Kokkos::create_mirror_view(dsum);
  std::uint64_t total = 0;
  auto allreduce = [&] {
    const std::uint64_t mine = hsum();
    ADDSCOPE_MPI_CHECK(
        MPI_Allreduce(&mine, &total, 1, MPI_UINT64_T, MPI_SUM, comm));
  };
  if (opt.warmup) {
    launch();
    checksum_async(exec, out, dsum);
    Kokkos::deep_copy(hsum, dsum);
    allreduce();
  }

  // Naive: launch, checksum, stage, collective — no fence. The tracker
  // (shared with the waits tool, if loaded) attributes the waits of the
  // calls made from here on; the device is measured (CUPTI, where there is
  // one) around this pass.
  SyncTracker& tr = SyncTracker::global();
  addscope::Impl::DeviceTracingScope tracing(res.async_backend);
  exec.fence();
  ADDSCOPE_MPI_CHECK(MPI_Barrier(comm));
  const auto mark = tr.mark();
  const double t0 = host_seconds();
  addscope::Impl::tracked_step(CallKind::Step, "launch " + label, [&] {
    addscope::Impl::tracked_launch<ExecSpace>(label, launch);
  });
  me.launch_end_s = host_seconds() - t0;
  addscope::Impl::tracked_launch<ExecSpace>(
      "addscope::mpi::checksum", [&] { checksum_async(exec, out, dsum); });
  me.stage_begin_s = host_seconds() - t0;
  addscope::Impl::tracked_step(CallKind::DeepCopy, res.staging,
                               [&] { Kokkos::deep_copy(hsum, dsum); });
  me.stage_end_s = host_seconds() - t0;
  me.collective_begin_s = me.stage_end_s;
  addscope::Impl::tracked_step(CallKind::Step, res.collective, allreduce);
  me.collective_end_s = host_seconds() - t0;
  res.naive_sum = total;
  tr.flush();
  const auto waits = tr.waits_since(mark);
  tracing.stop();
  if (!waits.empty()) me.tracker_line = format_attribution(waits.front());

  // Fenced: the kernel alone, then the staging and the collective alone.
  exec.fence();
  ADDSCOPE_MPI_CHECK(MPI_Barrier(comm));
  const double f0 = host_seconds();
  launch();
  me.fenced_launch_s = host_seconds() - f0;
  exec.fence();
  me.kernel_s = host_seconds() - f0;
  checksum_async(exec, out, dsum);
  exec.fence();
  std::vector<double> stage, coll;
  for (int i = 0; i < opt.reads; ++i) {
    ADDSCOPE_MPI_CHECK(MPI_Barrier(comm));
    const double a = host_seconds();
    Kokkos::deep_copy(hsum, dsum);
    stage.push_back(host_seconds() - a);
    ADDSCOPE_MPI_CHECK(MPI_Barrier(comm));
    const double b = host_seconds();
    allreduce();
    coll.push_back(host_seconds() - b);
  }
  me.stage_alone = Stats::of(stage);
  me.collective_alone = Stats::of(coll);
  res.expected_sum = checksum(exec, out);
  res.ranks = Impl::gather_sequences(comm, me, t0, opt.reads, res.one_clock);
  return res;
}

}  // namespace mpi
}  // namespace addscope

#endif
