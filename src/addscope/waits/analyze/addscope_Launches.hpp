// addscope — the analyzer's device launches not settled yet, the three ways
// a launch can be known:
//   * by correlation (the runtime's launch callbacks): a launch waiting for
//     its kernel record, keyed by the runtime's correlation id;
//   * by the Kokkos call (external correlation): the facts of each Kokkos
//     call on a device, keyed by its id, and CUPTI's map from correlation
//     ids to those ids (EXTERNAL_CORRELATION records);
//   * without device records (Kokkos-only and callbacks-only modes): the
//     launches not known finished, per lane (a Kokkos instance or a device
//     stream), finished by the next blocking call that covers them.
// Every container is capped (TrackerLimits): past a cap the oldest goes,
// counted.
#ifndef ADDSCOPE_WAITS_ANALYZE_LAUNCHES_HPP
#define ADDSCOPE_WAITS_ANALYZE_LAUNCHES_HPP

#include <cstdint>
#include <deque>
#include <vector>

#include "addscope/waits/model/addscope_ExecId.hpp"
#include "addscope/waits/model/addscope_WaitRecords.hpp"

namespace addscope {
namespace Impl {

/// What the analyzer knows of a launch when its kernel record comes.
struct LaunchFacts {
  std::uint64_t launch = 0;      // the Kokkos call's id (0: none)
  std::uint64_t owner_call = 0;  // the outermost call open at the launch
  std::uint32_t name = 0;
  std::uint32_t thread = 0;
  ExecId exec;
  double launch_s = 0, launch_end_s = 0;
  bool seen = false;        // a kernel record came for it
  std::uint32_t stack = 0;  // a stack taken at the launch (0: none)
};

struct PendingCorr {
  std::uint32_t correlation = 0;
  bool done = false;  // its record came (erased from the front lazily)
  LaunchFacts facts;
};

/// A launch without device records, not known finished.
struct PendingLaunch {
  std::uint64_t launch = 0, owner_call = 0;
  std::uint32_t name = 0;
  std::uint32_t stack = 0;  // where it was launched (0: not known)
  double launch_end_s = 0;
};
struct Lane {
  ExecId exec;  // Kokkos-only
  bool stream_known = false;
  std::uint32_t device = 0, stream = 0;  // callbacks-only
  std::deque<PendingLaunch> q;
};

class Launches {
 public:
  Launches(std::size_t max_pending_launches, std::size_t max_streams)
      : max_pending_(max_pending_launches), max_streams_(max_streams) {}

  // ---- by correlation ------------------------------------------------------
  void add_corr(const PendingCorr& p);
  PendingCorr* find_corr(std::uint32_t correlation);
  void done_corr(PendingCorr* p);
  std::size_t corr_live() const { return corr_live_; }
  /// The launch time of the oldest launch still waiting for its record
  /// (`fallback` if none).
  double oldest_corr_launch(double fallback) const;
  /// Gives up launches still waiting until at most `keep` are; returns how
  /// many were given up.
  std::uint64_t give_up_corr(std::size_t keep);

  // ---- by the Kokkos call (external correlation) ---------------------------
  void add_call(const LaunchFacts& f);
  LaunchFacts* find_call(std::uint64_t id);
  /// CUPTI: runtime call `correlation` was made inside Kokkos call `id`.
  void map_correlation(std::uint32_t correlation, std::uint64_t id);
  /// The Kokkos call a correlation id was made in (0: not known).
  std::uint64_t call_of(std::uint32_t correlation) const;
  /// Forgets calls that launched before `synced_s`, a moment at which the
  /// device had finished everything launched before it, and whose records
  /// have all been delivered.
  void forget_calls_before(double synced_s);
  std::size_t calls_held() const { return calls_.size() + corr_ext_.size(); }
  /// The launch time of the oldest Kokkos launch no kernel record came for
  /// yet (`fallback` if none).
  double oldest_unseen_call(double fallback) const;
  /// A runtime copy `correlation` was made by `thread` (its record will
  /// say which thread's it was).
  void map_copy(std::uint32_t correlation, std::uint32_t thread);
  /// The thread of a runtime copy (kUnknownThread if not known).
  std::uint32_t copy_thread(std::uint32_t correlation) const;

  // ---- without device records
  // ------------------------------------------------
  Lane& lane_for(const ExecId& exec, bool stream_known, std::uint32_t device,
                 std::uint32_t stream, bool by_stream);
  /// Past the cap the oldest pending launch goes (counted in `*dropped`).
  void push_pending(Lane& l, const PendingLaunch& p, std::uint64_t* dropped);
  std::size_t pending_count() const { return pending_count_; }
  /// Launches on lanes `covers` accepts that returned by `before_s` are
  /// finished now; the last of them in `*last`. False if none.
  template <class Covers>
  bool complete_launches(Covers covers, double before_s, PendingLaunch* last) {
    bool any = false;
    for (auto& l : lanes_) {
      if (!covers(l)) continue;
      while (!l.q.empty() && l.q.front().launch_end_s <= before_s) {
        if (!any || l.q.front().launch_end_s >= last->launch_end_s)
          *last = l.q.front();
        any = true;
        l.q.pop_front();
        --pending_count_;
      }
    }
    return any;
  }

 private:
  std::size_t max_pending_, max_streams_;
  std::deque<PendingCorr> corr_;  // by correlation id (which grows)
  std::size_t corr_live_ = 0;
  std::deque<LaunchFacts> calls_;  // by call id (which grows)
  struct CorrExt {
    std::uint32_t correlation;
    std::uint64_t id;
  };
  std::deque<CorrExt> corr_ext_;  // by correlation id
  std::deque<std::pair<std::uint32_t, std::uint32_t>> copy_thread_;
  std::vector<Lane> lanes_;
  std::size_t pending_count_ = 0;
};

}  // namespace Impl
}  // namespace addscope

#endif
