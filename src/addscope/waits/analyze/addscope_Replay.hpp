// addscope — the analyzer's interpretation of the events, in time order:
// each thread's calls, regions and blocking calls replayed onto its call
// stack (analyze/addscope_HostThreads.hpp), launches tied to their kernel
// records (analyze/addscope_Launches.hpp), and, once nothing earlier can
// arrive any more (settle), the attribution rules (attribution/) applied
// and what can no longer change folded into the results (analyze/
// addscope_Fold.hpp: the ledger, the trace). Owned and run by one thread
// at a time (the analyzer's lock): no lock inside.
//
// addscope_Replay.cpp: calls, regions, kernels on host spaces, the
// snapshot; addscope_ReplayBlocking.cpp: calls ending, launches, blocking
// calls; addscope_Settle.cpp: settling.
#ifndef ADDSCOPE_WAITS_ANALYZE_REPLAY_HPP
#define ADDSCOPE_WAITS_ANALYZE_REPLAY_HPP

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "addscope/waits/addscope_TrackerOptions.hpp"
#include "addscope/waits/addscope_WaitsSnapshot.hpp"
#include "addscope/waits/analyze/addscope_DeviceRecords.hpp"
#include "addscope/waits/analyze/addscope_Fold.hpp"
#include "addscope/waits/analyze/addscope_HostThreads.hpp"
#include "addscope/waits/analyze/addscope_IdleFeed.hpp"
#include "addscope/waits/analyze/addscope_Launches.hpp"
#include "addscope/waits/analyze/addscope_NameTable.hpp"
#include "addscope/waits/analyze/addscope_StackTable.hpp"
#include "addscope/waits/analyze/addscope_TimeQueue.hpp"
#include "addscope/waits/attribution/addscope_IdleBlame.hpp"
#include "addscope/waits/device/addscope_DeviceSource.hpp"

namespace addscope {
namespace Impl {

class TraceSink;

/// A launch call longer than this may have blocked (behind the legacy
/// stream, a full launch queue): it is looked at as a blocking call.
constexpr double kSlowLaunch_s = 20e-6;

/// How device work is observed right now.
struct DeviceMode {
  bool async_seen = false;      // an asynchronous device is in use
  bool device_times = false;    // kernel records come
  bool callbacks_only = false;  // launches and blocking calls, no records
  LaunchTie tie = LaunchTie::Callbacks;
};

class Replay {
 public:
  explicit Replay(const TrackerOptions& opt);
  ~Replay();

  DeviceMode mode;
  bool device_times_ever = false, callbacks_ever = false;
  std::uint64_t kokkos_interface = 0;
  DeviceKind default_kind = DeviceKind::Unknown;  // Kokkos' default space

  // ---- host events (times on the tracker's clock) ---------------------------
  // `stack`: where in the program the event happened (a StackTable id, 0:
  // none captured).
  /// `place`: the place it was launched from (its thread's number, see
  /// record/addscope_LaunchPlaces.hpp; 0: none), whose stack is `stack`
  /// when taken there now, else the one taken there before.
  void kernel_begin(std::uint32_t thread, double t, std::uint64_t id,
                    std::uint32_t name, ExecId exec, std::uint32_t stack = 0,
                    std::uint32_t place = 0);
  void call_begin(std::uint32_t thread, double t, std::uint64_t id,
                  CallKind kind, std::uint32_t what, std::uint32_t site,
                  ExecId exec);
  void call_end(std::uint32_t thread, double t, std::uint64_t id,
                std::uint32_t stack = 0);
  void call_end_innermost(std::uint32_t thread, double t, CallKind kind,
                          std::uint32_t stack = 0);
  void region_push(std::uint32_t thread, double t, std::uint32_t name);
  void region_pop(std::uint32_t thread, double t);
  /// An allocation or deallocation: context for what follows.
  void instant(std::uint32_t thread, CallKind kind, std::uint32_t label,
               std::uint32_t space, std::uint64_t bytes);
  /// `stack`: one taken at it (its kernel's first launch on the thread, or
  /// the program's code before it ran long: 0 when none).
  void launch(std::uint32_t thread, double t, const LaunchBegin& l,
              std::uint32_t stack = 0, std::uint32_t place = 0);
  void launch_failed(std::uint32_t correlation);
  /// Kernel `name` (its raw name) was first launched at `stack` (a CUDA
  /// launch outside Kokkos; the first one kept).
  void launch_site(std::uint32_t name, std::uint32_t stack) {
    if (launch_stacks_.size() < lim_.names) launch_stacks_.emplace(name, stack);
  }
  void slow_launch(std::uint32_t thread, double begin_s, double end_s,
                   std::uint64_t own_id = 0, std::uint32_t correlation = 0,
                   std::uint32_t stack = 0);
  /// `name`: the call's own name (a name id; 0: the API's).
  void blocking_begin(std::uint32_t thread, double t, const BlockingBegin& b,
                      std::uint64_t own_id, std::uint32_t name = 0);
  void blocking_end(std::uint32_t thread, double t, std::uint32_t stack = 0);
  void thread_exit(std::uint32_t thread);

  // ---- device records
  // ------------------------------------------------------------
  /// Kernels the device ran: held until their launch is known (settle).
  void device_kernel(const DeviceKernelRecord& r) { records_.add_kernel(r); }
  /// Copies and memsets the device ran (they keep it busy).
  void device_copy(const DeviceCopyRecord& r) { records_.add_copy(r); }
  /// Device records start coming (or stop): the idle blame is fed then.
  void set_device_times(bool on);
  /// CUPTI: runtime call `correlation` was made inside Kokkos call `id`.
  void external_correlation(std::uint32_t correlation, std::uint64_t id) {
    launches_.map_correlation(correlation, id);
  }

  // ---- settling (addscope_Settle.cpp)
  // ------------------------------------------------
  /// Attributes and forgets everything that can no longer change: nothing
  /// will arrive from the program's threads before `host_s`, and every
  /// kernel that ended before `device_s` has been delivered. kForever for
  /// both: the end of the run (what is still missing is given up).
  void settle(double host_s, double device_s);
  /// Past the cap on records held: settles what is held with what has
  /// arrived (counted).
  void enforce_cap(double now_s);
  std::size_t pending_total() const;
  /// The two reasons for the analyzer to ask the device source for its
  /// records now (SyncTracker::tick() paces each): a blocking call has
  /// ended and waits for them to be explained, or the records held are
  /// near their cap. Not merely because kernels are in flight: CUPTI's
  /// flush waits for a running kernel's record, and the program's launches
  /// meanwhile wait for the flush (on the H200 a PyTorch launch was held
  /// 444 ms behind a spin kernel by it).
  /// So the first only when nothing was launched since the latest blocking
  /// call ended (the device then has nothing of the program's running, as
  /// far as the events read say); the second past kFlushHeld records held
  /// (a busy program, whose kernels are short: the records held stay few).
  static constexpr std::size_t kFlushHeld = 4096;
  bool blocking_waits_for_device() const {
    return !blockings_.empty() && last_launch_s_ < last_blocking_end_s_;
  }
  bool device_records_near_cap() const {
    return pending_total() > std::min(kFlushHeld, lim_.pending_records / 2);
  }

  // ---- results
  // ------------------------------------------------------------------------
  NameTable& names() { return names_; }
  StackTable& stacks() { return stacks_; }
  const StackTable& stacks() const { return stacks_; }
  const Ledger& ledger() const { return fold_.ledger(); }
  /// The results (recent waits kept, the devices' capacities).
  Fold& fold() { return fold_; }
  WaitsDropped& dropped() { return dropped_; }
  std::uint64_t kernels_without_record() const { return without_record_; }
  void fill_snapshot(WaitsSnapshot& w) const;
  void fill_footprint(TrackerFootprint& f) const;
  /// The calls begun at or after `mark`, longest wait first.
  std::vector<CallRecord> waits_since(std::uint64_t mark) const {
    return fold_.ledger().waits_since(mark);
  }
  void set_trace(std::unique_ptr<TraceSink> t);
  TraceSink* trace() { return fold_.trace(); }

 private:
  struct LiveBlocking {
    BlockingCall b;
    std::uint32_t via = 0;
  };
  // events
  void set_last_event(HostThread& t, std::uint32_t what, bool launch);
  std::uint32_t last_event(HostThread& t);
  Charge* charge_of(std::uint64_t id, std::uint32_t thread);
  void end_open(HostThread& t, Open& o, double now_s);
  void add_live(LiveCall c);
  std::uint32_t describe_blocking(const BlockingBegin& b,
                                  std::uint32_t name = 0);
  void kokkos_only_completion(HostThread& t, const Open& call, double end_s);
  void callbacks_completion(const BlockingCall& b, Charge* owner);
  bool fence_completes_launch(std::uint32_t fence, std::uint32_t launch);
  // settling
  void settle_impl(double host_s, double device_s, bool force);
  void attribute_blocking(LiveBlocking& lb);
  void finalize_kernel(DeviceKernel& k);

  const TrackerOptions& opt_;
  TrackerLimits lim_;
  WaitsDropped dropped_;
  NameTable names_;
  StackTable stacks_;
  // Each kernel name's first launch stack (name id -> StackTable id).
  std::unordered_map<std::uint32_t, std::uint32_t> launch_stacks_;
  /// The stack of a launch at `place` on `th` (`stack` if one was taken
  /// at it, else the place's; 0: none known).
  static std::uint32_t place_stack(HostThread& th, std::uint32_t place,
                                   std::uint32_t stack);
  HostThreads threads_;
  Launches launches_;
  Fold fold_;

  std::unordered_map<std::uint64_t, LiveCall> live_calls_;
  TimeQueue<std::uint64_t> live_by_end_;  // live calls named, by end time
  TimeQueue<LiveBlocking> blockings_;     // finished blocking calls, by begin
  DeviceRecords records_;                 // the device's records, until settled
  IdleBlame idle_;
  IdleFeed feed_{idle_};
  double last_t_ = 0;                       // the latest event's time
  double last_launch_s_ = -kForever;        // the latest launch read
  double last_blocking_end_s_ = -kForever;  // the latest blocking call's end
  std::uint64_t without_record_ = 0;
  double synced_s_ = 0;  // the device had finished all launched before this
  DeviceKind host_kind_ = DeviceKind::Unknown;  // a host space kernels ran on
  std::vector<DeviceKernel*> scratch_cands_;
  std::vector<const DeviceKernel*> scratch_ccands_;
};

}  // namespace Impl
}  // namespace addscope

#endif
