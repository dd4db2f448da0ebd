// Test helpers for the process's waits tracker (SyncTracker::global()),
// which every test of a binary shares: read what a test added by comparing
// snapshots taken before and after, never totals; and run each such test in
// the GlobalTrackerTest fixture, so that it starts from the state it needs
// whatever ran before it, and leaves nothing for the tests after it.
#ifndef ADDSCOPE_TEST_TRACKER_UTIL_HPP
#define ADDSCOPE_TEST_TRACKER_UTIL_HPP

#include <gtest/gtest.h>

#include <chrono>
#include <cstddef>
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

/// A fixture for tests of what reaches SyncTracker::global(). The state a
/// test of it could inherit from the tests before it is put right first:
/// no Kokkos tool feeds the tracker (the flag is set off, and put back
/// after), and the number of calls and regions open is taken, so that
/// TearDown fails a test that leaves one open — every later call on this
/// thread would be inside it (another region path, another nesting) — and
/// closes the regions it left.
class GlobalTrackerTest : public ::testing::Test {
 protected:
  static addscope::SyncTracker& tracker() {
    return addscope::SyncTracker::global();
  }
  void SetUp() override {
    was_fed_ = tracker().fed_by_kokkos_tools();
    tracker().set_fed_by_kokkos_tools(false);
    open_ = settled_open();
  }
  void TearDown() override {
    const std::size_t open = settled_open();
    EXPECT_EQ(open, open_)
        << "the test left calls or regions open on the process's tracker";
    // Regions left open on this thread are closed, so that the tests after
    // this one see their own region paths.
    for (std::size_t i = open_; i < open; ++i) tracker().region_pop();
    tracker().set_fed_by_kokkos_tools(was_fed_);
  }

 private:
  static std::size_t settled_open() {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return tracker().footprint().open;
  }
  bool was_fed_ = false;
  std::size_t open_ = 0;
};

}  // namespace addscope_test

#endif
