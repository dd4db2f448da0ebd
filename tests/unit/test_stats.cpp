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

TEST(Stats, QuartilesAndStandardDeviation) {
  // numpy: percentile([1, 2, 4, 8, 16], [25, 50, 75]) = 2, 4, 8;
  // std(ddof=1) = sqrt((5.2^2 + 4.2^2 + 2.2^2 + 1.8^2 + 9.8^2) / 4)
  //              = sqrt(148.8 / 4) = sqrt(37.2)
  const auto s = addscope::Stats::of({8.0, 1.0, 16.0, 2.0, 4.0});
  EXPECT_EQ(s.q1_s, 2.0);
  EXPECT_EQ(s.median_s, 4.0);
  EXPECT_EQ(s.q3_s, 8.0);
  EXPECT_DOUBLE_EQ(s.mean_s, 6.2);
  EXPECT_DOUBLE_EQ(s.stddev_s, std::sqrt(37.2));
  // Between order statistics: percentile([1, 2, 3, 4], 25) = 1.75.
  const auto e = addscope::Stats::of({4.0, 3.0, 2.0, 1.0});
  EXPECT_DOUBLE_EQ(e.q1_s, 1.75);
  EXPECT_DOUBLE_EQ(e.median_s, 2.5);
  EXPECT_DOUBLE_EQ(e.q3_s, 3.25);
  const auto one = addscope::Stats::of({7.0});
  EXPECT_EQ(one.stddev_s, 0.0);
  EXPECT_EQ(one.q1_s, 7.0);
  EXPECT_EQ(one.q3_s, 7.0);
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
