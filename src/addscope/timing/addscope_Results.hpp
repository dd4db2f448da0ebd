// addscope — measurement results as plain structs; the apps render them.
#ifndef ADDSCOPE_TIMING_RESULTS_HPP
#define ADDSCOPE_TIMING_RESULTS_HPP

#include <cstdint>
#include <string>
#include <vector>

#include "addscope/timing/addscope_Stats.hpp"
#include "addscope/transfer/addscope_Transfer.hpp"
#include "addscope/waits/addscope_SyncTracker.hpp"

namespace addscope {

struct MeasureOptions {
  int warmup = 2;   ///< untimed runs first (module load, first touch)
  int repeat = 10;  ///< timed runs; statistics over these
  /// Also time each run on the device where the backend can (CUDA events),
  /// in `repeat` further runs.
  bool device_time = true;
  /// A time budget for one measurement, in seconds (0: none). With one, an
  /// untimed probe run is timed first; where warmup + repeat runs of that
  /// length would take longer than the budget, the measurement runs no
  /// warm-up (the probe was one) and as many timed runs as fit, at least 3
  /// (or `repeat`, if fewer) — and says so (reduced_repeat).
  double budget_s = 0;
  /// Throws InvalidArgument naming the field out of range.
  void validate() const;
  /// The options a measurement runs with after a probe run of `probe_s`
  /// (see budget_s); `*reduced` says whether the budget cut them.
  MeasureOptions within_budget(double probe_s, bool* reduced) const;
};

/// One operation timed in the phases a user confuses.
struct PhaseResult {
  std::string label;  ///< e.g. "addscope::add[team:1024x256]"
  std::int64_t n = 0;
  std::uint64_t bytes = 0;  ///< counted explicitly
  Stats launch;             ///< host time until the call returns, no fence
  Stats completion;         ///< launch + fence, host clock
  /// Device time of one run (CUDA events around the second of two
  /// back-to-back launches, so that the first hides the time a launch takes
  /// to reach an idle GPU); count 0 where the backend gives none.
  Stats device;
  double gbps_median = 0;         ///< bytes / completion.median
  double gbps_best = 0;           ///< bytes / completion.min
  double device_gbps_median = 0;  ///< bytes / device.median (0: none)
  bool reduced_repeat = false;    ///< the time budget cut the runs
};

/// A deep_copy between a device View and a host mirror (or two device
/// Views), earlier work fenced first, mirror allocated outside.
struct TransferResult {
  std::string what;  ///< "D2H whole", "D2H out[2]", a reference's name...
  CopyDirection direction = CopyDirection::DeviceToHost;
  MemoryKind memory = MemoryKind::Pageable;
  std::int64_t n = 0;
  std::uint64_t bytes = 0;  ///< D2D: read + write (2 N s); else N s
  Stats time;
  double gbps_median = 0;
  bool reduced_repeat = false;  ///< the time budget cut the runs
};

/// The seed experiment: launch, then read one element — first as the seed's
/// user did (no fence), then with a fence after the launch — and who waited
/// for whom.
struct ReadAfterLaunch {
  std::string label;  ///< kernel label
  std::int64_t n = 0, index = 0;
  std::string element;     ///< the element read, "out[2]" (out's label)
  std::string exec_space;  ///< "Cuda", "OpenMP", ...
  bool async_backend = false;
  // naive: launch; create mirror; deep_copy (no fence)
  double naive_launch_s = 0, naive_mirror_s = 0, naive_copy_s = 0;
  double naive_read_s() const { return naive_mirror_s + naive_copy_s; }
  // fenced: launch; fence; then `reads` reads, each create mirror +
  // deep_copy, timed one by one (nothing pending)
  double fenced_launch_s = 0, completion_s = 0;
  Stats fenced_mirror, fenced_copy, fenced_read;
  double fenced_read_s() const { return fenced_read.median_s; }
  /// Time the naive read spent waiting: naive read − fenced read (>= 0).
  double wait_s() const {
    const double w = naive_read_s() - fenced_read_s();
    return w > 0 ? w : 0;
  }
  /// A wait counts when it exceeds what reads differ by anyway: 10 us, or
  /// the spread (max − min) of the fenced reads if larger.
  double wait_threshold_s() const {
    const double spread = fenced_read.max_s - fenced_read.min_s;
    return spread > 10e-6 ? spread : 10e-6;
  }
  /// Only on an asynchronous backend: where launches return when the
  /// kernel is done, a slower read is the host's own noise, not a wait.
  bool waited() const {
    return async_backend && wait_s() >= wait_threshold_s();
  }
  /// The tracker's account of the naive pass: the calls that waited for
  /// earlier device work.
  std::vector<CallRecord> attribution;
  /// The longest wait as one line ("" if nothing waited).
  std::string attribution_line;
  bool verified = false;  ///< every element read back equals x + y there
};

}  // namespace addscope

#endif
