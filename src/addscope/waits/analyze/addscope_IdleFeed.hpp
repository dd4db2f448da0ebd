// addscope — what the idle-device blame (attribution/addscope_IdleBlame.hpp)
// is fed by the replay: each host thread's timeline as consecutive intervals
// of one state (the program's code, a launch, a blocked call, a Kokkos
// call's own work, an MPI call), cut from the thread's call stack as the
// events are replayed; and the device's kernels, copies and memsets once
// they are tied to the threads that launched them. Only with device records
// (on): a host backend has no device to be idle.
#ifndef ADDSCOPE_WAITS_ANALYZE_IDLEFEED_HPP
#define ADDSCOPE_WAITS_ANALYZE_IDLEFEED_HPP

#include <cstdint>

#include "addscope/waits/analyze/addscope_HostThreads.hpp"
#include "addscope/waits/attribution/addscope_IdleBlame.hpp"

namespace addscope {
namespace Impl {

class IdleFeed {
 public:
  explicit IdleFeed(IdleBlame& blame) : blame_(blame) {}

  bool on = false;

  /// After an event was replayed on `t` at `now_s`: if the thread's state
  /// (or the call or region it is in) changed, the interval that ends now
  /// goes to the blame and the next one opens. `blocked_site`: a blocking
  /// call outside every Kokkos call that ends now names itself by it, and
  /// by its stack (`blocked_stack`, 0: none taken).
  void update(HostThread& t, double now_s, std::uint32_t blocked_site = 0,
              std::uint32_t blocked_stack = 0);
  /// The thread exits: its open interval ends.
  void close(HostThread& t, double now_s);
  /// Call `call` on `t` ended, at `stack` (0: none taken): the time
  /// inside it held back goes to the blame, at that stack. Before update().
  void call_ended(HostThread& t, std::uint64_t call, std::uint32_t stack);
  /// Cuts every open interval at `w` (a quiet thread never holds the blame
  /// back) and lets the blame charge what lies before `w` — or before what
  /// is held for its line, at most kHoldBack_s less. `final`: the run's
  /// end, everything held goes.
  void advance(HostThreads& threads, double w, bool final = false);

 private:
  struct Now {
    HostState state;
    std::uint64_t call;
    std::uint32_t site;
  };
  static Now state_of(HostThread& t);
  /// The interval open on `t` ends at `end_s` (`after`: the call after
  /// it); `may_hold`: a Kokkos call's time may wait for its line
  /// (a cut at the watermark goes behind what is held, never starts it).
  void emit(HostThread& t, double end_s, std::uint32_t after,
            bool may_hold = true);
  /// The blocked interval held back on `t`, if any, to the blame.
  void release(HostThread& t);
  /// How far the blame may stay behind the watermark for intervals held.
  static constexpr double kHoldBack_s = 0.1;
  IdleBlame& blame_;
};

}  // namespace Impl
}  // namespace addscope

#endif
