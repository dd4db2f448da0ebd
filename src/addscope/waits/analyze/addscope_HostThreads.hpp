// addscope — what the analyzer knows of each program thread, replayed from
// its log: the calls and regions open on it (its call stack), its region
// path, the blocking runtime call it is in, its last event (the context of
// a runtime call outside Kokkos calls), and the blocking calls it sat in
// while kernels not yet settled may have run (for overlap). Caps: calls and
// regions open per thread, regions per path.
#ifndef ADDSCOPE_WAITS_ANALYZE_HOSTTHREADS_HPP
#define ADDSCOPE_WAITS_ANALYZE_HOSTTHREADS_HPP

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "addscope/waits/addscope_WaitsSnapshot.hpp"
#include "addscope/waits/attribution/addscope_IdleBlame.hpp"
#include "addscope/waits/model/addscope_IdleSummary.hpp"
#include "addscope/waits/model/addscope_WaitRecords.hpp"

namespace addscope {
namespace Impl {

/// What a kernel cost a call that waited for it (ids, not text).
struct Share {
  std::uint32_t kernel;  // name id
  std::uint32_t stream;
  double wait_s;
  // The kernel's launch: its stack (0: none taken there) and shape.
  std::uint32_t launch_stack = 0;
  LaunchShape shape;
};

/// What a wait is charged to: an open call, or a finished one whose
/// blocking calls are not all attributed yet.
struct Charge {
  std::uint64_t id = 0;
  CallKind kind = CallKind::Step;
  double begin_s = 0;
  std::uint64_t own_launch = 0;  // its own kernels are its work, not waits
  bool bound = false;            // waits without device times: upper bounds
  std::uint32_t via = 0;         // where it blocked the longest
  double via_wait_s = 0;
  std::uint32_t stack = 0;  // where in the program (a StackTable id)
  std::vector<Share> shares;
};

/// A call or region open on a thread.
struct Open : Charge {
  std::uint32_t what = 0, site = 0;
  ExecId exec;
  std::array<std::uint32_t, 4> corr{};
  std::uint8_t ncorr = 0;
  bool blocked = false;  // a blocking runtime call happened inside
  std::uint32_t place_stack = 0;  // a launch's: where it was made
  // Callbacks-only mode: the stream its launch went to.
  bool lane_known = false;
  std::uint32_t lane_device = 0, lane_stream = 0;
};

/// A call that ended, kept until its blocking calls are attributed.
struct LiveCall : Charge {
  std::uint32_t what = 0, site = 0, regions = 0, context = 0;
  SyncApi api = SyncApi::Other;
  std::uint32_t thread = 0;
  double end_s = 0;
  std::uint32_t prev_event = 0;  // runtime calls: the Kokkos event before
  bool awaiting_next_event = false;
  // A Kokkos program's runtime call before any Kokkos event on its thread:
  // Kokkos' own (its initialize), never the program's explicit wait.
  bool kokkos_own = false;
};

struct HostThread {
  std::uint32_t index = 0;
  std::vector<Open> stack;                  // regions included
  std::vector<std::uint32_t> region_paths;  // path id per kept region
  std::uint32_t region_path = 0;
  std::uint64_t regions_ignored = 0;  // pushes past the depth cap, open
  int blocking_depth = 0;
  BlockingCall blocking;
  std::uint32_t blocking_via = 0;
  std::uint32_t last_event = 0;
  // The last event was an instant (an allocation): named only if a runtime
  // call needs it for its context. Its parts (name ids) and size.
  bool instant_pending = false;
  CallKind instant_kind = CallKind::Alloc;
  std::uint32_t instant_label = 0, instant_space = 0;
  std::uint64_t instant_bytes = 0;
  DeviceKind last_alloc_kind = DeviceKind::Unknown;  // the last allocation's
  std::uint64_t last_launch = 0;  // the last asynchronous launch ended
  std::uint32_t last_launch_name = 0;
  bool last_event_was_launch = false;  // ... and nothing happened since
  // Runtime calls outside Kokkos calls, named by the events around them
  // once the next one comes.
  std::vector<std::uint64_t> awaiting_next_event;
  // Where its launches were made: a place's number (the thread's log's,
  // record/addscope_LaunchPlaces.hpp) -> the stack taken at its first
  // launch there. At most kMaxPlaces (past it a new place has no line).
  static constexpr std::size_t kMaxPlaces = 4096;
  std::unordered_map<std::uint32_t, std::uint32_t> place_stacks;
  // Blocking calls attributed, in time order (one thread's do not
  // overlap), kept while a kernel not yet settled may have run during them.
  std::deque<BlockingCall> blocked;
  bool exited = false;
  // Its timeline for the idle blame (analyze/addscope_IdleFeed.hpp): the
  // interval open now, and the site of the last outermost call that ended.
  bool idle_open = false;
  HostState idle_state = HostState::Program;
  double idle_begin = 0;
  std::uint64_t idle_call = 0;
  std::uint32_t idle_site = 0, idle_region = 0, idle_before = 0;
  std::uint32_t idle_stack = 0;  // a blocking call of its own: its stack
  std::uint32_t last_outer_site = 0;
  // A Kokkos call's blocked time, held until the call ends (its stack is
  // taken then: the round trip's line), with the intervals after it in
  // order (a deep_copy's fence, its own work, its copy). At most kHeld.
  static constexpr std::size_t kHeld = 8;
  std::vector<HostInterval> held;

  /// The outermost / innermost open call that is not a region (or null).
  Open* outermost_call() {
    for (auto& o : stack)
      if (o.kind != CallKind::Region) return &o;
    return nullptr;
  }
  Open* innermost_call() {
    for (auto it = stack.rbegin(); it != stack.rend(); ++it)
      if (it->kind != CallKind::Region) return &*it;
    return nullptr;
  }
};

class HostThreads {
 public:
  HostThreads(std::size_t open_per_thread, WaitsDropped& dropped)
      : open_cap_(open_per_thread), dropped_(dropped) {}

  HostThread& get(std::uint32_t idx);
  HostThread* find(std::uint32_t idx);
  /// Pushes an open call or region; past the cap the oldest goes (counted).
  void push_open(HostThread& t, Open o);
  /// What `t` left open never ends (its thread exited): counted.
  void count_left_open(const HostThread& t, WaitsDropped& into) const;

  std::uint64_t used() const { return used_; }
  std::size_t size() const { return threads_.size(); }
  /// Forgets a thread that exited with nothing left that refers to it.
  template <class Keep>
  void erase_exited(Keep still_needed) {
    for (auto it = threads_.begin(); it != threads_.end();) {
      HostThread& t = *it->second;
      if (t.exited && t.blocked.empty() && t.stack.empty() &&
          t.blocking_depth == 0 && t.awaiting_next_event.empty() &&
          !still_needed(t)) {
        if (last_ == &t) last_ = nullptr;
        it = threads_.erase(it);
      } else {
        ++it;
      }
    }
  }
  template <class F>
  void for_each(F f) {
    for (auto& kv : threads_) f(*kv.second);
  }
  template <class F>
  void for_each(F f) const {
    for (const auto& kv : threads_) f(*kv.second);
  }

 private:
  std::size_t open_cap_;
  WaitsDropped& dropped_;
  std::unordered_map<std::uint32_t, std::unique_ptr<HostThread>> threads_;
  HostThread* last_ = nullptr;  // the one used last
  std::uint64_t used_ = 0;
};

}  // namespace Impl
}  // namespace addscope

#endif
