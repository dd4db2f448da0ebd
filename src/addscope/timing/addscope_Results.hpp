// addscope — measurement results as plain structs; the apps render them.
#ifndef ADDSCOPE_TIMING_RESULTS_HPP
#define ADDSCOPE_TIMING_RESULTS_HPP

#include <cstdint>
#include <string>
#include <vector>

#include "addscope/timing/addscope_Stats.hpp"
#include "addscope/waits/addscope_SyncTracker.hpp"

namespace addscope {

struct MeasureOptions {
  int warmup = 2;   ///< untimed runs first (module load, first touch)
  int repeat = 10;  ///< timed runs; statistics over these
  void validate() const;
};

/// One operation timed in the phases a user confuses.
struct PhaseResult {
  std::string label;  ///< e.g. "addscope::add[team:1024x256]"
  std::int64_t n = 0;
  std::uint64_t bytes = 0;  ///< counted explicitly
  Stats launch;             ///< host time until the call returns, no fence
  Stats completion;         ///< launch + fence
  double gbps_median = 0;   ///< bytes / completion.median
  double gbps_best = 0;     ///< bytes / completion.min
};

/// A deep_copy between a device View and a host mirror (or two device
/// Views), earlier work fenced first, mirror allocated outside.
struct TransferResult {
  std::string what;       ///< "D2H whole", "D2H out[2]", "H2D whole", "D2D"
  std::string direction;  ///< D2H | H2D | D2D
  std::string memory;     ///< pageable | pinned | device
  std::int64_t n = 0;
  std::uint64_t bytes = 0;
  Stats time;
  double gbps_median = 0;
};

/// The seed's experiment: launch, then read one element — without and with
/// a fence — and who waited for whom.
struct SeedResult {
  std::string label;  ///< kernel label
  std::int64_t n = 0, index = 0;
  bool async_backend = false;
  // naive: launch; create mirror; deep_copy (no fence)
  double naive_launch_s = 0, naive_mirror_s = 0, naive_copy_s = 0;
  double naive_read_s() const { return naive_mirror_s + naive_copy_s; }
  // fenced: launch; fence; create mirror; deep_copy
  double fenced_launch_s = 0, completion_s = 0, fenced_mirror_s = 0,
         fenced_copy_s = 0;
  double fenced_read_s() const { return fenced_mirror_s + fenced_copy_s; }
  /// Time the naive read spent waiting: naive read − fenced read (>= 0).
  double wait_s() const {
    const double w = naive_read_s() - fenced_read_s();
    return w > 0 ? w : 0;
  }
  /// The tracker's account of the naive pass: the calls that waited.
  std::vector<CallRecord> attribution;
  /// The longest wait as one line ("" if nothing waited).
  std::string attribution_line;
  bool verified = false;  ///< the element read back equals x + y there
};

}  // namespace addscope

#endif
