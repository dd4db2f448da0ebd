// Test helpers for the process's waits tracker (SyncTracker::global()),
// which every test of a binary shares: read what a test added by comparing
// snapshots taken before and after, never totals.
#ifndef ADDSCOPE_TEST_TRACKER_UTIL_HPP
#define ADDSCOPE_TEST_TRACKER_UTIL_HPP

#include <chrono>
#include <cstdint>
#include <string>
#include <thread>

#include "addscope/waits/addscope_SyncTracker.hpp"

namespace addscope_test {

/// The tracker's results including everything recorded before this call.
/// The analyzer merges the threads' logs only up to its watermark, 2 us
/// before now on the steady clock (addscope_TrackerParts.hpp: the slack for
/// cores whose clocks disagree): the events of the last 2 us are not in a
/// snapshot taken at once. 1 ms later they are.
inline addscope::WaitsSnapshot settled_snapshot(addscope::SyncTracker& t) {
  std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return t.snapshot();
}

/// Calls of call site `site` in region path `regions` ("": outside every
/// region; "*": in any).
inline std::uint64_t site_calls(const addscope::WaitsSnapshot& w,
                                const std::string& site,
                                const std::string& regions = "*") {
  std::uint64_t n = 0;
  for (const auto& s : w.sites)
    if (s.site == site && (regions == "*" || s.regions == regions))
      n += s.calls;
  return n;
}

}  // namespace addscope_test

#endif
