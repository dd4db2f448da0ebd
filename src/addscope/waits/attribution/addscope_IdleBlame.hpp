// addscope — why the device sat idle: device idle time blamed on the host
// code that caused it (issue 23). Pure: no clocks, no threads, no devices;
// the analyzer feeds plain records, in (about) time order, and a watermark.
//
// Inputs
//  * DeviceActivity: a kernel, memcpy or memset as the device ran it (CUPTI
//    records), with the host thread that launched it and the begin of the
//    launching call, when known.
//  * HostInterval: what one host thread did from begin to end (HostState):
//    the program's code, a launch call, a call blocked on the device, a
//    Kokkos call's own work, an MPI call — with the call site, the region
//    path, and for program code the Kokkos calls before and after. A
//    thread's intervals do not overlap (overlaps are clipped and counted).
//  Ids (names, sites, regions) are the analyzer's name ids; 0 is "none".
//  Times are seconds on the tracker's clock; internally whole nanoseconds,
//  so that busy + idle = span and the causes sum to the idle time exactly.
//
// Rules
//  * A device is busy while any of its streams runs a kernel, a copy or a
//    memset (the union); a *gap* is an interval with no activity on the
//    device, with activity before and after it. Before its first activity
//    (start-up) and after its last (tail) it is not blamed, only reported.
//    Activities that touch (one ends when the next starts) leave no gap.
//  * Each gap [g0, g1] is charged by the thread T that launched the work
//    starting at g1 (at equal starts: the one launched first; then by
//    stream, thread, end, name, so that arrival order never matters), from
//    what T was doing at g0:
//      - T unknown -> unknown (charged to the next work's name);
//      - the next work's launch call began before g0 and T was not in that
//        call at g0 -> *submitted*: the work was already in the runtime's
//        hands when the device went idle; the gap is the runtime's or the
//        device's own turnaround (a copy queued behind a kernel, an event
//        dependency between streams). Without this rule a copy queued
//        behind a kernel would blame whatever its thread did next — a later
//        fence as a round trip, program code as host code — though no host
//        action could have filled that gap.
//      - no interval of T covers g0 -> unknown;
//      - blocked -> *synchronization round trip*, the whole gap, charged to
//        the blocking call's site: the device -> host -> device round trip
//        (wake-up, the host code until the next launch and that launch are
//        the sync's consequences: without it the launch would have been
//        queued while the device was busy). How T spent the gap is kept
//        (state_s) so that a round trip followed by long host code shows as
//        such;
//      - in an MPI call -> *communication*, the whole gap, charged to it;
//      - in a launch call -> *launch latency*, the whole gap, charged to
//        the next work's name;
//      - in program code or another Kokkos call's own work -> *host code*
//        from g0 until T's launch of the next work begins (the begin of T's
//        launch interval holding the work's launch time; without a launch
//        time, T's first launch call after g0; without one, g1), charged to
//        the calls before/after (or that Kokkos call) and the region, then
//        *launch latency* for the rest.
//    Each part carries T's region path at g0.
//  * Start-up, whatever the rules above said: a gap ending at the device's
//    first kernel (copies before it are the program setting up: loading
//    libraries and modules, copying inputs) is start-up, the whole gap; a
//    gap ending at a kernel's first run on the device (by name) has its
//    host code, launch latency and unknown parts charged to start-up
//    (loading the kernel's module inside its launch, compiling it, the
//    first pass of a loop) — round trips, communication and submitted work
//    stay what they are. Charged to the kernel's name. A device follows
//    the first runs of up to IdleLimits::kernels names; past that, no
//    first run is seen (counted).
//  * Per stream: the busy union of its activities; idle = its device's span
//    minus that.
//
// Incremental and bounded: add_* buffer records; advance(W) says that no
// activity starting before W and no host interval beginning before W will
// arrive any more (so the analyzer must keep W at or before the begin of
// every host interval still open and every device record still to come).
// It then replays, in time order, everything before W, charges the gaps
// that end before W (a gap ending exactly at W waits: work starting at W
// may still come), folds them into aggregates and forgets them. Records
// arriving late (before W) are dropped and counted. A thread's interval may
// be fed in consecutive pieces (same state, site, call, region): the
// analyzer can cut an interval still open at W ([begin, W) now, [W, ...)
// later) so that a quiet thread — one in a long fence, an MPI wait, or its
// own code for minutes — never holds the watermark back; the charge is the
// same (launch calls, which are short, are best fed whole: the host-code
// part ends at the begin of the piece holding the launch time).
// What stays: per device and per (device, thread) a few numbers, the caps'
// aggregates (IdleLimits: past a cap, new rows merge into one "other" row,
// counted), and the K longest gaps — flat whatever the run's length. Not
// thread-safe (the analyzer thread owns it).
#ifndef ADDSCOPE_WAITS_ATTRIBUTION_IDLEBLAME_HPP
#define ADDSCOPE_WAITS_ATTRIBUTION_IDLEBLAME_HPP

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "addscope/waits/model/addscope_IdleSummary.hpp"

namespace addscope {

constexpr std::uint32_t kUnknownThread = 0xffffffffu;

/// One kernel, copy or memset as the device ran it.
struct DeviceActivity {
  std::uint32_t device = 0;
  std::uint32_t stream = 0;
  DeviceWork kind = DeviceWork::Kernel;
  double start_s = 0, end_s = 0;
  std::uint32_t name = 0;                 ///< name id (the Kokkos label, ...)
  std::uint32_t thread = kUnknownThread;  ///< host thread that launched it
  double launch_s = -1;  ///< begin of the call that launched it; < 0: unknown
  /// A stack taken at its launch (the analyzer's id; 0: none): the program's
  /// line that host code before it ran up to.
  std::uint32_t launch_stack = 0;
};

/// One host thread doing one thing from begin_s to end_s.
struct HostInterval {
  std::uint32_t thread = 0;
  HostState state = HostState::Program;
  double begin_s = 0, end_s = 0;
  /// The host call it belongs to (the tracker's call id; 0: none, e.g.
  /// program code): a round trip's fence and its copy, both in one
  /// deep_copy, count as one call.
  std::uint64_t call = 0;
  /// Blocked: the Kokkos call it is charged to ("deep_copy r_h<-r
  /// (Host<-Cuda)"); Mpi: the MPI call; Launch: the kernel; KokkosOwn: the
  /// call; Program: 0.
  std::uint32_t site = 0;
  std::uint32_t region = 0;  ///< the region path ("loop > solve"), 0: none
  std::uint32_t before = 0, after = 0;  ///< Program: the calls around it
  /// Blocked in a call of its own (outside every Kokkos call): the call's
  /// stack (the analyzer's stack id; 0: none). Round-trip rows are kept
  /// apart by it, so that each is at the program's line.
  std::uint32_t stack = 0;
};

/// One charged gap, as the gap listener gets it (ids; seconds).
struct IdleGapRecord {
  std::uint32_t device = 0, stream = 0;
  std::uint32_t thread = kUnknownThread;  ///< the next work's
  double begin_s = 0, end_s = 0;
  std::size_t pieces = 0;  ///< 1 or 2
  IdlePiece piece[2];
  DeviceWork next_kind = DeviceWork::Kernel;
  std::uint32_t next = 0;  ///< the next work's name id
  bool state_known = false;
  HostState state = HostState::Program;  ///< the thread's at begin_s
  std::uint64_t call = 0;
  std::uint32_t site = 0, region = 0, before = 0, after = 0, stack = 0;
  std::uint32_t next_stack = 0;  ///< the next work's launch stack (0: none)
  double host_begin_s = 0, host_end_s = 0;  ///< the interval blamed
};

/// The record with its names resolved (what the trace and the summary's
/// longest gaps hold); `name_of(0)` is never called.
IdleInterval idle_interval(
    const IdleGapRecord& r,
    const std::function<std::string(std::uint32_t)>& name_of);

struct IdleLimits {
  std::size_t devices = 64;
  std::size_t streams = 1024;
  std::size_t threads = 1024;
  std::size_t sites = 4096;     ///< (cause, site, region, before, after) rows
  std::size_t regions = 1024;   ///< region paths
  std::size_t longest = 1000;   ///< gaps kept with details (the trace's)
  std::size_t kernels = 65536;  ///< names per device followed for first runs
};

/// What IdleBlame holds, in entries (the test of boundedness reads it).
struct IdleFootprint {
  std::size_t pending = 0;  ///< records after the watermark, still to replay
  std::size_t devices = 0, streams = 0, threads = 0, accumulators = 0;
  std::size_t sites = 0, regions = 0, longest = 0;
  std::size_t kernels = 0;  ///< names whose first run was seen
  std::size_t entries() const {
    return pending + devices + streams + threads + accumulators + sites +
           regions + longest + kernels;
  }
};

class IdleBlame {
 public:
  using Limits = IdleLimits;
  /// A name id's text (0 -> "").
  using NameOf = std::function<std::string(std::uint32_t)>;
  using GapListener = std::function<void(const IdleGapRecord&)>;

  explicit IdleBlame(Limits limits = Limits());

  void add_activity(const DeviceActivity& a);
  void add_host_interval(const HostInterval& h);
  /// Nothing starting before `watermark_s` will arrive any more: replay and
  /// charge up to it. A watermark below the last one is ignored.
  void advance(double watermark_s);
  /// Everything has arrived: replay all (the last gap of each device stays
  /// its tail).
  void finish();
  /// The run's bounds (the tool's start, Kokkos' finalize): start-up and
  /// tail are measured against them. Unset: reported as unknown.
  void set_run_bounds(double begin_s, double end_s);
  /// Called with every gap as it is charged (the trace writes them; the
  /// summary keeps only the longest).
  void set_gap_listener(GapListener listener);
  double watermark_s() const;

  /// The gaps charged so far (the open gap of each device is not one yet).
  IdleSummary summary(const NameOf& name_of) const;
  IdleFootprint footprint() const;

  // The replay's own records (whole nanoseconds); public for the .cpp's
  // helpers, not an interface.
  using Ns = std::int64_t;
  struct Act {
    Ns start, end, launch;  // launch: kNoNs when unknown
    std::uint64_t seq;
    std::uint32_t device, stream, name, thread, launch_stack;
    DeviceWork kind;
  };
  struct Iv {
    Ns begin, end;
    std::uint64_t seq, call;
    std::uint32_t thread, site, region, before, after, stack;
    HostState state;
  };
  struct Acc {  // one thread over one device's open gap
    std::uint64_t epoch = ~std::uint64_t(0);
    bool covered = false;
    Iv at{};  // the interval covering the gap start (when covered)
    Ns state_ns[kHostStates + 1] = {};
    Ns last_end = 0;
    std::uint8_t last_state = 0;
    Ns first_launch = -1;  // first launch call begun after the gap start
    Ns last_launch_b = -1, last_launch_e = -1;
  };
  struct Gap {
    Ns begin, end;
    std::uint32_t device, stream, thread, next;
    std::uint32_t next_stack;  // the next work's launch stack (0: none)
    DeviceWork next_kind;
    std::uint8_t pieces;
    IdleCause cause[2];
    Ns split;  // piece 0 ends, piece 1 begins
    bool state_known;
    Iv at;
  };

 private:
  struct Dev {
    std::uint32_t id = 0;
    bool started = false, open = false;
    Ns first = 0, u_s = 0, u_e = 0, busy = 0, g0 = 0;
    std::uint64_t epoch = 0, activities = 0, gaps = 0;
    Ns cause_ns[kIdleCauses] = {};
    std::uint64_t cause_gaps[kIdleCauses] = {};
    std::vector<Acc> acc;                   // by thread index
    bool kernel_seen = false;               // start-up: its first kernel
    std::unordered_set<std::uint32_t> ran;  // names that ran on it
  };
  struct Stream {
    std::uint32_t device = 0, stream = 0;
    bool other = false, started = false;
    Ns u_s = 0, u_e = 0, busy = 0;
    std::uint64_t activities = 0;
  };
  struct Thread {
    bool has_last = false;
    Iv last{};
  };
  struct SiteKey {
    std::uint8_t cause;
    std::uint32_t site, region, before, after, stack;
    bool operator==(const SiteKey& o) const {
      return cause == o.cause && site == o.site && region == o.region &&
             before == o.before && after == o.after && stack == o.stack;
    }
  };
  struct SiteKeyHash {
    std::size_t operator()(const SiteKey& k) const;
  };
  struct SiteAgg {
    std::uint64_t gaps = 0, calls = 0, last_call = 0;
    std::uint32_t last_call_thread = kUnknownThread;
    Ns ns = 0, max_ns = 0;
    Ns state_ns[kHostStates + 1] = {};
  };
  struct RegionAgg {
    std::uint64_t gaps = 0;
    Ns ns = 0, host_ns = 0;
    Ns cause_ns[kIdleCauses] = {};
    std::uint32_t thread = kUnknownThread;
    bool one_thread = true;
  };
  struct CauseAgg {
    Ns ns = 0;
    std::uint64_t gaps = 0, calls = 0;
    Ns state_ns[kHostStates + 1] = {};
  };
  static constexpr std::uint32_t kOtherRegion = 0xffffffffu;

  void replay(Ns watermark);
  void replay_interval(const Iv& iv);
  void replay_activity(const Act& a);
  void open_gap(Dev& d);
  void init_acc(Acc& a, const Dev& d, const Thread& t) const;
  void close_gap(Dev& d, const Act& a, bool first_kernel, bool first_run);
  void charge(Dev& d, const Gap& g, const Acc* acc);
  void charge_piece(const Gap& g, IdleCause c, Ns ns, const Acc* acc);
  Dev* device(std::uint32_t id);
  Stream& stream(std::uint32_t device, std::uint32_t stream);
  std::size_t thread_index(std::uint32_t thread, bool create);
  SiteAgg& site(const SiteKey& k);
  RegionAgg& region(std::uint32_t id);
  void keep_longest(const Gap& g);
  IdleGapRecord record(const Gap& g) const;

  Limits limits_;
  Ns watermark_ = std::numeric_limits<Ns>::min();
  Ns run_begin_ = -1, run_end_ = -1;
  bool run_bounds_ = false;
  std::uint64_t seq_ = 0;
  std::vector<Act> acts_;  // pending (at or after the watermark)
  std::vector<Iv> ivs_;
  std::vector<Dev> devices_;
  std::unordered_map<std::uint64_t, Stream> streams_;
  std::unordered_map<std::uint32_t, std::size_t> thread_of_;
  std::vector<Thread> threads_;
  std::unordered_map<SiteKey, SiteAgg, SiteKeyHash> sites_;
  std::unordered_map<std::uint32_t, RegionAgg> regions_;
  CauseAgg causes_[kIdleCauses];
  std::uint64_t gaps_ = 0;
  std::vector<Gap> longest_;  // min-heap on length
  IdleDropped dropped_;
  GapListener listener_;
};

}  // namespace addscope

#endif
