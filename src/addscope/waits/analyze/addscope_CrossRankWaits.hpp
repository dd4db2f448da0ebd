// addscope — waits that cross MPI ranks: in a collective every rank waits
// until the last one enters, so a rank that came late (blocked on its own
// device, or busy) costs every other rank that much inside the collective,
// where it looks like communication. From each rank's collective calls (on
// one time base) and each rank's own waits, this names who waited in which
// collective, for which rank, and what that rank was doing. Plain data and
// rules: no MPI, no Kokkos.
#ifndef ADDSCOPE_WAITS_ANALYZE_CROSSRANKWAITS_HPP
#define ADDSCOPE_WAITS_ANALYZE_CROSSRANKWAITS_HPP

#include <cstdint>
#include <string>
#include <vector>

namespace addscope {
namespace waits_mpi {

/// One collective call as every rank made it (the k-th collective on one
/// communicator is the same call on all its ranks). Times in seconds on the
/// shared time base; ranks that did not record it (not in the communicator,
/// or the record was no longer kept) have present = false.
struct CollectiveInstance {
  std::string name;       ///< "MPI_Allreduce"
  std::string comm;       ///< "MPI_COMM_WORLD", "comm of 4 ranks (...)"
  std::uint64_t seq = 0;  ///< its number on that communicator
  std::vector<double> enter_s, exit_s;  ///< by world rank
  std::vector<bool> present;
};

/// A call of one rank that waited for its own device work (from its waits
/// tracker), on the shared time base.
struct RankWaitCall {
  double begin_s = 0, end_s = 0;
  double wait_s = 0;
  std::string what;        ///< "deep_copy sum_h<-sum (Host<-Cuda, 8 B)"
  std::string kernel;      ///< the kernel it waited for most
  std::string wait_class;  ///< "hidden" | "explicit"
  bool bound = false;      ///< no device times: the wait is at most this
  /// Where the rank's program called it ("solver.cpp:40 (step)"; "":
  /// unknown).
  std::string at;
};

/// What one rank's tracker knows, for the explanations.
struct RankWaits {
  std::string mode;  ///< "device" | "host" | "kokkos-only" (waits_mode_name)
  std::vector<RankWaitCall> waits;
  /// Its host calls (from its trace, where one was written; MPI calls and
  /// regions left out): `what` the call, `wait_class` its kind ("kernel",
  /// "deep_copy", ...), wait_s 0.
  std::vector<RankWaitCall> busy;
};

/// A rank that waited in a collective for a later rank.
struct CrossRankWait {
  int rank = -1;     ///< who waited
  std::string call;  ///< "MPI_Allreduce"
  std::string comm;
  std::uint64_t seq = 0;
  double enter_s = 0, duration_s = 0;
  double wait_s = 0;  ///< until the last rank entered (or it left)
  int for_rank = -1;  ///< the last rank to enter
  double gap_s = 0;   ///< how much later for_rank entered
  /// What for_rank was doing: its waiting call that covers most of
  /// [enter_s, enter_s + gap_s] ("" if none covers half of it).
  RankWaitCall late_call;
  bool late_call_found = false;
  /// Otherwise for_rank's host call that covers most of that interval
  /// (from its trace; on host backends the kernel that ran inside its
  /// launch); late_busy_found if it covers at least half.
  RankWaitCall late_busy;
  bool late_busy_found = false;
  double late_busy_overlap_s = 0;  ///< 0: none covers any of it
};

struct CrossRankOptions {
  double min_wait_s = 10e-6;  ///< smaller waits are not reported
  std::size_t top = 10;       ///< kept, longest first
};

/// The cross-rank waits of every instance, longest first (at most
/// opt.top). `ranks[r]` is world rank r's tracker account.
std::vector<CrossRankWait> cross_rank_waits(
    const std::vector<CollectiveInstance>& instances,
    const std::vector<RankWaits>& ranks,
    const CrossRankOptions& opt = CrossRankOptions());

/// "rank 0's MPI_Allreduce (MPI_COMM_WORLD, #3) 300.1 ms = 300.0 ms waiting
/// for rank 1 + 0.1 ms own; rank 1 entered 300.0 ms later: it was blocked
/// in deep_copy ... on user::slow_add[1x1] (hidden wait 299.9 ms)".
std::string format_cross_rank_wait(const CrossRankWait& w);

}  // namespace waits_mpi
}  // namespace addscope

#endif
