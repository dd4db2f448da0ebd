// addscope::WaitScope: the region reaches the process's tracker (no tool
// loaded here), nests, ends with the scope, and is not heard twice when a
// Kokkos tool feeds the tracker. (With the tool loaded: tests/tools,
// case wait_scope.)
#include <gtest/gtest.h>

#include <addscope/addscope.hpp>
#include <string>

namespace {

// The regions the tracker recorded for call site `site` ("" if none: the
// site was called outside every region; "?" if it was never called).
std::string regions_of(const std::string& site) {
  std::string r = "?";
  for (const auto& s : addscope::SyncTracker::global().snapshot().sites)
    if (s.site == site) r = s.regions;
  return r;
}

void step(const std::string& what) {
  auto& t = addscope::SyncTracker::global();
  t.call_end(t.call_begin(addscope::CallKind::Step, what));
}

}  // namespace

TEST(WaitScope, NamesTheRegionOfTheCallsInside) {
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
  EXPECT_EQ(regions_of("wait_scope: in outer"), "test::assemble");
  EXPECT_EQ(regions_of("wait_scope: in inner"),
            "test::assemble > test::boundary");
  EXPECT_EQ(regions_of("wait_scope: in outer again"), "test::assemble");
  EXPECT_EQ(regions_of("wait_scope: after"), "");
}

TEST(WaitScope, NotHeardTwiceWhenAToolFeedsTheTracker) {
  auto& t = addscope::SyncTracker::global();
  ASSERT_FALSE(t.fed_by_kokkos_tools());
  t.set_fed_by_kokkos_tools(true);  // as libaddscope_waits.so does
  {
    // Kokkos would pass the region to the tool; none is loaded here, so the
    // tracker must hear nothing from the scope itself.
    addscope::WaitScope s("test::via_kokkos");
    step("wait_scope: tool-fed");
  }
  t.set_fed_by_kokkos_tools(false);
  EXPECT_EQ(regions_of("wait_scope: tool-fed"), "");
}

TEST(WaitScope, RejectsAnEmptyName) {
  try {
    addscope::WaitScope s("");
    FAIL() << "no exception";
  } catch (const addscope::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("name = '' is invalid"),
              std::string::npos)
        << e.what();
  }
}
