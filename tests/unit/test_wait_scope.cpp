// addscope::WaitScope: the region reaches the process's tracker (no tool
// loaded here), nests, ends with the scope, and is not heard twice when a
// Kokkos tool feeds the tracker. (With the tool loaded: tests/tools,
// case wait_scope.)
#include <gtest/gtest.h>

#include <addscope/addscope.hpp>
#include <cstdint>
#include <string>

#include "tracker_util.hpp"

namespace {

// The process's tracker is shared by every test here (and by a repeat of
// this one): each test compares snapshots taken before and after, never
// totals, and runs in the fixture that gives it a tracker fed by no tool
// and fails it if it leaves a region open (tracker_util.hpp).
using addscope_test::settled_snapshot;
using addscope_test::site_calls;

class WaitScope : public addscope_test::GlobalTrackerTest {};

void step(const std::string& what) {
  auto& t = addscope::SyncTracker::global();
  t.call_end(t.call_begin(addscope::CallKind::Step, what));
}

// Sets the tracker's "fed by Kokkos Tools" flag for a scope, and puts it
// back however the scope ends (a failed ASSERT included).
class FedByTools {
 public:
  explicit FedByTools(bool on)
      : was_(addscope::SyncTracker::global().fed_by_kokkos_tools()) {
    addscope::SyncTracker::global().set_fed_by_kokkos_tools(on);
  }
  ~FedByTools() {
    addscope::SyncTracker::global().set_fed_by_kokkos_tools(was_);
  }
  FedByTools(const FedByTools&) = delete;
  FedByTools& operator=(const FedByTools&) = delete;

 private:
  bool was_;
};

}  // namespace

TEST_F(WaitScope, NamesTheRegionOfTheCallsInside) {
  auto& t = addscope::SyncTracker::global();
  ASSERT_FALSE(t.fed_by_kokkos_tools());  // the fixture's: no tool feeds it
  const auto before = settled_snapshot(t);
  {
    addscope::WaitScope outer("test::assemble");
    EXPECT_EQ(outer.name(), "test::assemble");
    step("wait_scope: in outer");
    {
      addscope::WaitScope inner("test::boundary");
      step("wait_scope: in inner");
    }
    step("wait_scope: in outer again");
  }
  step("wait_scope: after");
  const auto after = settled_snapshot(t);
  auto added = [&](const std::string& site, const std::string& regions) {
    return site_calls(after, site, regions) - site_calls(before, site, regions);
  };
  auto added_anywhere = [&](const std::string& site) {
    return site_calls(after, site) - site_calls(before, site);
  };
  // Each step once, in its own region path and nowhere else.
  EXPECT_EQ(added("wait_scope: in outer", "test::assemble"), 1u);
  EXPECT_EQ(added_anywhere("wait_scope: in outer"), 1u);
  EXPECT_EQ(added("wait_scope: in inner", "test::assemble > test::boundary"),
            1u);
  EXPECT_EQ(added_anywhere("wait_scope: in inner"), 1u);
  EXPECT_EQ(added("wait_scope: in outer again", "test::assemble"), 1u);
  EXPECT_EQ(added_anywhere("wait_scope: in outer again"), 1u);
  EXPECT_EQ(added("wait_scope: after", ""), 1u);
  EXPECT_EQ(added_anywhere("wait_scope: after"), 1u);
  EXPECT_EQ(after.totals.calls - before.totals.calls, 4u);
  EXPECT_EQ(after.dropped.unmatched_ends, before.dropped.unmatched_ends);
}

TEST_F(WaitScope, NotHeardTwiceWhenAToolFeedsTheTracker) {
  auto& t = addscope::SyncTracker::global();
  ASSERT_FALSE(t.fed_by_kokkos_tools());
  const auto before = settled_snapshot(t);
  {
    FedByTools fed(true);  // as libaddscope_waits.so does
    // Kokkos would pass the region to the tool; none is loaded here, so the
    // tracker must hear nothing from the scope itself.
    addscope::WaitScope s("test::via_kokkos");
    step("wait_scope: tool-fed");
  }
  EXPECT_FALSE(t.fed_by_kokkos_tools());
  const auto after = settled_snapshot(t);
  EXPECT_EQ(site_calls(after, "wait_scope: tool-fed", "") -
                site_calls(before, "wait_scope: tool-fed", ""),
            1u);
  EXPECT_EQ(site_calls(after, "wait_scope: tool-fed") -
                site_calls(before, "wait_scope: tool-fed"),
            1u);
  EXPECT_EQ(after.dropped.unmatched_ends, before.dropped.unmatched_ends);
}

TEST_F(WaitScope, RejectsAnEmptyName) {
  try {
    addscope::WaitScope s("");
    FAIL() << "no exception";
  } catch (const addscope::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("name = '' is invalid"),
              std::string::npos)
        << e.what();
  }
}
