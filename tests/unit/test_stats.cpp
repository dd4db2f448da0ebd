#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "addscope/core/addscope_Error.hpp"
#include "addscope/timing/addscope_Results.hpp"
#include "addscope/timing/addscope_Stats.hpp"

TEST(Stats, OddAndEvenCounts) {
  const auto s = addscope::Stats::of({5.0, 1.0, 3.0});
  EXPECT_EQ(s.count, 3u);
  EXPECT_EQ(s.min_s, 1.0);
  EXPECT_EQ(s.median_s, 3.0);
  EXPECT_EQ(s.max_s, 5.0);
  EXPECT_EQ(s.mean_s, 3.0);
  const auto e = addscope::Stats::of({4.0, 1.0, 2.0, 8.0});
  EXPECT_EQ(e.median_s, 3.0);
  EXPECT_EQ(e.samples_s.size(), 4u);
  EXPECT_EQ(e.samples_s[0], 4.0);  // kept in measured order
}

TEST(Stats, RejectsBadSamples) {
  EXPECT_THROW(addscope::Stats::of({}), addscope::InvalidArgument);
  EXPECT_THROW(addscope::Stats::of({1.0, -1.0}), addscope::InvalidArgument);
  EXPECT_THROW(addscope::Stats::of({std::nan("")}), addscope::InvalidArgument);
}

TEST(Bytes, CountedExplicitly) {
  EXPECT_EQ(addscope::add_bytes(10000000, 4), 120000000u);
  EXPECT_EQ(addscope::copy_bytes(10000000, 4), 80000000u);
  EXPECT_EQ(addscope::transfer_bytes(10000000, 4), 40000000u);
  EXPECT_EQ(addscope::add_bytes(1 << 28, 8), 3ull * 8 * (1ull << 28));
  EXPECT_EQ(addscope::add_bytes(0, 4), 0u);
  EXPECT_THROW(addscope::add_bytes(-1, 4), addscope::InvalidArgument);
  EXPECT_THROW(addscope::add_bytes(std::numeric_limits<std::int64_t>::max(), 8),
               addscope::InvalidArgument);
}

TEST(Bytes, GigabytesPerSecondAreDecimal) {
  EXPECT_DOUBLE_EQ(addscope::gbps(120000000, 1e-3), 120.0);
  EXPECT_DOUBLE_EQ(addscope::gbps(4230000000ull, 1.0), 4.23);
  EXPECT_DOUBLE_EQ(addscope::gbps(3ull * 4 * (1ull << 28), 0.5),
                   3.0 * 4 * 268435456 / 0.5 / 1e9);
  EXPECT_THROW(addscope::gbps(1, 0.0), addscope::InvalidArgument);
  EXPECT_THROW(addscope::gbps(1, -1.0), addscope::InvalidArgument);
}

TEST(MeasureOptions, Validates) {
  addscope::MeasureOptions o;
  EXPECT_NO_THROW(o.validate());
  o.repeat = 0;
  EXPECT_THROW(o.validate(), addscope::InvalidArgument);
  o.repeat = 1;
  o.warmup = -1;
  EXPECT_THROW(o.validate(), addscope::InvalidArgument);
}
