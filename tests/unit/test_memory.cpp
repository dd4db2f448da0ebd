// The one memory budget: where the numbers come from, and the boundary at
// which work is refused.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <string>

#include "addscope/core/addscope_Memory.hpp"
#include "addscope_TestSpaces.hpp"
#include "test_util.hpp"

TEST(Memory, ParsesMemAvailableNotFreePages) {
  const auto m = addscope::Impl::parse_meminfo(
      "MemTotal:       24576000 kB\n"
      "MemFree:          512000 kB\n"
      "MemAvailable:   20480000 kB\n"
      "Buffers:          100000 kB\n");
  EXPECT_EQ(m.total, 24576000ull * 1024);
  EXPECT_EQ(m.available, 20480000ull * 1024);  // not MemFree
  EXPECT_NE(m.source.find("MemAvailable"), std::string::npos);
  const auto none = addscope::Impl::parse_meminfo("MemFree: 1 kB\n");
  EXPECT_EQ(none.available, 0u);  // unknown, not MemFree
}

TEST(Memory, HostInfoComesFromProcMeminfo) {
  // /proc/meminfo read here, around the call: MemTotal is fixed,
  // MemAvailable moves with the machine (other processes), 256 MiB allowed.
  const std::uint64_t avail0 = addscope_test::meminfo_bytes("MemAvailable:");
  const auto m = addscope::memory_info<Kokkos::HostSpace>();
  const std::uint64_t avail1 = addscope_test::meminfo_bytes("MemAvailable:");
  ASSERT_GT(avail0, 0u);
  EXPECT_EQ(m.total, addscope_test::meminfo_bytes("MemTotal:"));
  EXPECT_GE(m.available + (256u << 20), std::min(avail0, avail1));
  EXPECT_LE(m.available, std::max(avail0, avail1) + (256u << 20));
  EXPECT_LE(m.available, m.total);
  EXPECT_NE(m.source.find("/proc/meminfo"), std::string::npos) << m.source;
}

TEST(Memory, MaxElementsIsTheBoundaryOfCheckFits) {
  // 3 arrays of 4-byte elements + 5%: 12.6 bytes per element.
  const std::uint64_t avail = 1260000;
  const std::int64_t max = addscope::max_elements_that_fit(avail, 4, 3);
  EXPECT_EQ(max, 100000);
  EXPECT_NO_THROW(addscope::check_fits("--n", max, 4, 3, avail, "HostSpace"));
  try {
    addscope::check_fits("--n", max + 1, 4, 3, avail, "HostSpace");
    ADD_FAILURE() << "no error";
  } catch (const addscope::InvalidArgument& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("--n = 100001"), std::string::npos) << m;
    EXPECT_NE(m.find("--n <= 100000"), std::string::npos) << m;
    EXPECT_NE(m.find("1260000 bytes are available"), std::string::npos) << m;
  }
  // Unknown memory (0) refuses nothing; negative sizes are refused.
  EXPECT_NO_THROW(addscope::check_fits("--n", 1ll << 40, 8, 3, 0, "X"));
  EXPECT_THROW(addscope::check_fits("--n", -1, 4, 3, avail, "X"),
               addscope::InvalidArgument);
}

template <class Space>
class MemorySpaces : public ::testing::Test {};
TYPED_TEST_SUITE(MemorySpaces, addscope_test::ExecSpaces);

TYPED_TEST(MemorySpaces, TooLargeForTheSpaceIsRefusedNamingTheParameter) {
  using MS = typename TypeParam::memory_space;
  const auto avail = addscope::available_bytes<MS>();
  ASSERT_GT(avail, 0u);
  const std::int64_t max = addscope::max_elements_that_fit(avail, 4, 3);
  EXPECT_THROW(addscope::check_fits<MS>("--n", max + 1000000, 4, 3),
               addscope::InvalidArgument);
  EXPECT_NO_THROW(addscope::check_fits<MS>("--n", 1000, 4, 3));
}
