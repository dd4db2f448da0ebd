// addscope — why the device sat idle, as the snapshot holds it: device busy
// and idle time per device and per stream, every idle interval's cause
// summed per cause, per (cause, call site) and per region, a what-if per
// cause, and the longest idle intervals for the trace. Plain data with the
// names resolved; what IdleBlame (addscope_IdleBlame.hpp) makes and the
// report, the JSON and the trace read. Times in seconds on the tracker's
// clock (device timestamps mapped onto it). Kokkos-free.
#ifndef ADDSCOPE_WAITS_MODEL_IDLESUMMARY_HPP
#define ADDSCOPE_WAITS_MODEL_IDLESUMMARY_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "addscope/waits/model/addscope_CodeSite.hpp"

namespace addscope {

/// What device work a record is (CUPTI kernel, memcpy and memset records:
/// copies keep the device busy too).
enum class DeviceWork : std::uint8_t { Kernel, Memcpy, Memset };
const char* device_work_name(DeviceWork w);  ///< "kernel", "memcpy", "memset"

/// What a host thread is doing, as the analyzer replays its events.
enum class HostState : std::uint8_t {
  Program,    ///< the program's own code, between Kokkos calls
  Launch,     ///< in a call launching device work (a kernel, an async copy)
  Blocked,    ///< in a call blocked on device work: a fence, a synchronous
              ///< copy, a cuda*Synchronize (charged to its Kokkos call)
  KokkosOwn,  ///< in another Kokkos call, doing its own work (not blocked)
  Mpi,        ///< in an MPI call (libaddscope_waits_mpi.so)
};
/// The five states, plus "unknown": no interval of the thread covers the
/// time (before its first event, or a hole in what the analyzer gave).
constexpr std::size_t kHostStates = 5;
constexpr std::size_t kHostStateUnknown = kHostStates;
const char* host_state_name(HostState s);  ///< "program", "launch", ...

/// Why a device sat idle (see addscope_IdleBlame.hpp for the rules).
enum class IdleCause : std::uint8_t {
  SyncRoundTrip,  ///< a host call was blocked on the device when it went
                  ///< idle: the wake-up, the host code until the next
                  ///< launch and that launch are the round trip's
  LaunchLatency,  ///< the next launch call was in progress (launch-bound)
  HostCode,       ///< the launching thread ran the program's own code
                  ///< (host-bound)
  Communication,  ///< the launching thread was in an MPI call
  Submitted,      ///< the next work was submitted before the device went
                  ///< idle: the runtime's or the device's own turnaround
  Unknown,        ///< the next work's thread, or what it did, is unknown
  StartUp,        ///< before the device's first kernel, or before a
                  ///< kernel's first run: loading libraries and modules,
                  ///< compiling, first-time set-up (paid once, reported
                  ///< apart from the run's causes)
};
constexpr std::size_t kIdleCauses = 7;
/// "sync_round_trip", "launch_latency", "host_code", "communication",
/// "submitted", "unknown", "start_up" (the JSON's keys).
const char* idle_cause_name(IdleCause c);
/// "synchronization round trip", "launch latency", ... (the report's words).
const char* idle_cause_words(IdleCause c);

/// One part of an idle interval, charged to one cause.
struct IdlePiece {
  IdleCause cause = IdleCause::Unknown;
  double begin_s = 0, end_s = 0;
};

/// One device over the run. "Run" of a device: its first activity's start
/// to its last one's end; start-up before and tail after are apart, never
/// blamed.
struct IdleDeviceStats {
  std::uint32_t device = 0;
  std::uint64_t activities = 0;  ///< kernels, copies and memsets
  std::uint64_t gaps = 0;        ///< idle intervals (each charged)
  double first_s = 0, last_s = 0;
  double span_s = 0;  ///< last_s - first_s = busy_s + idle_s
  double busy_s = 0;  ///< the union of its streams' activities
  double idle_s = 0;  ///< the gaps, summed
  /// From the run's begin to first_s, and from last_s to the run's end
  /// (IdleBlame::set_run_bounds); -1 when those bounds are unknown. (Gaps
  /// inside the span that are start-up are cause_s[StartUp].)
  double startup_s = -1, tail_s = -1;
  std::array<double, kIdleCauses> cause_s{};
  std::array<std::uint64_t, kIdleCauses> cause_gaps{};
};

/// One stream: its busy union; idle = its device's span minus that.
struct IdleStreamStats {
  std::uint32_t device = 0, stream = 0;
  bool other = false;  ///< streams past the cap, merged (one union)
  std::uint64_t activities = 0;
  double busy_s = 0, idle_s = 0;
};

/// One cause over the run (all devices).
struct IdleCauseStats {
  IdleCause cause = IdleCause::Unknown;
  double idle_s = 0;
  std::uint64_t gaps = 0;   ///< idle intervals with a part of this cause
  std::uint64_t calls = 0;  ///< distinct blamed host calls (round trips,
                            ///< MPI calls); the gaps for other causes
  /// Round trips and communication (the whole gap is theirs): how the
  /// thread that launched next spent those gaps, per HostState (index
  /// kHostStateUnknown: no interval known). Sums to idle_s for those two
  /// causes; zero for the others (their parts are already that split).
  std::array<double, kHostStates + 1> state_s{};
};

/// One (cause, call site, region) row.
struct IdleSiteStats {
  IdleCause cause = IdleCause::Unknown;
  /// Round trip: the Kokkos call blocked ("deep_copy r_h<-r (Host<-Cuda)");
  /// communication: the MPI call; launch latency, submitted, unknown: the
  /// next work's name; host code: the Kokkos call whose own work it was,
  /// or "" for the program's code (named by before/after).
  std::string site;
  std::string region;         ///< the thread's region path at the gap start
  std::string before, after;  ///< host code: the Kokkos calls around it
  bool other = false;         ///< rows past the cap, merged
  std::uint64_t gaps = 0, calls = 0;
  double idle_s = 0, max_s = 0;
  std::array<double, kHostStates + 1> state_s{};  ///< as IdleCauseStats
  /// Round trips of a call of the program's own (no Kokkos call around
  /// it): its stack (the analyzer's id, 0: none) and, once the report's
  /// sites are resolved, the program's line it was called at. Host code:
  /// the line it ran up to, a launch's whose stack was taken (the program's
  /// code before it ran long). Rows named by a kernel
  /// (idle_row_is_a_kernel): the line that launched the work ending the gap
  /// where a stack was taken there, else the kernel's first launch's.
  std::uint32_t stack = 0;
  CodeSite code;
};
/// Rows of these causes are named by the kernel (or copy) that ended the
/// gap: launch latency, already submitted, unknown, start-up.
bool idle_row_is_a_kernel(IdleCause c);

/// One region path.
struct IdleRegionStats {
  std::string region;  ///< "" : outside every region
  bool other = false;  ///< regions past the cap, merged
  std::uint64_t gaps = 0;
  double idle_s = 0;
  std::array<double, kIdleCauses> cause_s{};
  /// Host time spent in it (its threads' intervals summed: thread-seconds).
  double host_s = 0;
  bool one_thread = true;  ///< only one thread was ever in it
};

/// One idle interval with its charge (the longest are kept for the trace).
struct IdleInterval {
  std::uint32_t device = 0;
  std::uint32_t stream = 0;  ///< the stream of the work that ended it
  std::uint32_t thread = 0;  ///< that work's launching thread
  bool thread_known = false;
  double begin_s = 0, end_s = 0;
  double duration_s() const { return end_s - begin_s; }
  std::vector<IdlePiece> pieces;         ///< in time order, covering it exactly
  IdleCause cause = IdleCause::Unknown;  ///< the longest piece's
  DeviceWork next_kind = DeviceWork::Kernel;
  std::string next;  ///< the name of the work that ended it
  bool state_known = false;
  HostState state = HostState::Program;     ///< the thread's, at begin_s
  std::string site, region, before, after;  ///< of that state's interval
  /// The host interval blamed (the thread's at begin_s), for the trace's
  /// flow; only when state_known.
  double host_begin_s = 0, host_end_s = 0;
  /// The program's lines, where stacks were taken (the trace's): the
  /// blamed call's (a round trip, an MPI call, a Kokkos call's own work),
  /// and the launch of the work that ended the gap (what the program's code
  /// ran up to).
  CodeSite call_code, next_code;
};

/// A what-if per cause: the time the run would save if that cause took no
/// time (the idle time of its gaps), with its largest call site.
struct IdleWhatIf {
  IdleCause cause = IdleCause::Unknown;
  double idle_s = 0;  ///< the cause, all sites
  double share = 0;   ///< of IdleSummary::span_s
  std::uint64_t gaps = 0, calls = 0;
  IdleSiteStats top;            ///< its largest (cause, site, region) row
  std::size_t other_sites = 0;  ///< its other rows
  double top_share = 0;         ///< top.idle_s / span_s
  /// top.idle_s / the host time in top.region, when that share means
  /// something (one device, one thread in the region, at most 1); else -1.
  double region_share = -1;
};

/// What IdleBlame let go to stay bounded, or could not use. All zero in a
/// well-formed run within the caps.
struct IdleDropped {
  std::uint64_t late_activities = 0;  ///< arrived before the watermark
  std::uint64_t late_intervals = 0;   ///< host intervals, the same
  std::uint64_t bad_times = 0;        ///< not finite, or ending before start
  std::uint64_t overlapping_intervals = 0;  ///< a thread's intervals
                                            ///< overlapped: clipped
  std::uint64_t devices = 0;  ///< activities of devices past the cap
  std::uint64_t threads = 0;  ///< events of threads past the cap (their
                              ///< work's gaps: unknown)
  std::uint64_t streams = 0, sites = 0, regions = 0;  ///< merged: "other"
  /// Kernel runs of names past IdleLimits::kernels: no first run seen.
  std::uint64_t kernels = 0;
  bool any() const {
    return late_activities || late_intervals || bad_times ||
           overlapping_intervals || devices || threads || streams || sites ||
           regions || kernels;
  }
};

/// Most idle first; ties by cause, site, region, before, after.
void sort_idle_sites(std::vector<IdleSiteStats>& sites);
/// `from`'s gaps, calls and times added to `into` (two rows at one line).
void merge_idle_site(IdleSiteStats& into, const IdleSiteStats& from);

struct IdleSummary;
/// The what-if of every cause with idle time (start-up excepted: paid
/// once) from the summary's causes, sites (sorted) and regions.
void fill_idle_what_if(IdleSummary& s);

struct IdleSummary {
  bool any_activity = false;  ///< any device activity seen
  /// The run's bounds (IdleBlame::set_run_bounds), -1 when not given.
  double run_begin_s = -1, run_end_s = -1;
  /// Over all devices (device-seconds): span_s = busy_s + idle_s exactly.
  double span_s = 0, busy_s = 0, idle_s = 0;
  double startup_s = -1, tail_s = -1;  ///< summed over devices (-1: unknown)
  std::uint64_t gaps = 0;
  double idle_share() const { return span_s > 0 ? idle_s / span_s : 0; }
  std::vector<IdleDeviceStats> devices;  ///< by device id
  std::vector<IdleStreamStats> streams;  ///< by device, stream
  std::vector<IdleCauseStats> causes;    ///< all six, most idle first
  std::vector<IdleSiteStats> sites;      ///< most idle first
  std::vector<IdleRegionStats> regions;  ///< most idle first
  std::vector<IdleWhatIf> what_if;       ///< causes with idle time, most first
  std::vector<IdleInterval> longest;     ///< longest first (top K)
  IdleDropped dropped;
};

}  // namespace addscope

#endif
