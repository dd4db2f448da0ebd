// The apps' progress line (the bench's): one measure, the share of the
// estimated work done, and an ETA only once it means something.
#include <gtest/gtest.h>

#include "common/addscope_apps_Progress.hpp"

namespace {

using addscope::apps::Progress;

TEST(Progress, ShowsTheShareOfTheWorkAndNothingElse) {
  // 7 of 56 steps done, but 1 % of the work: the line says 1 %, no step
  // count beside it to contradict it.
  EXPECT_EQ(Progress::status(1, 100, 0.5, "n=2^16 float range"),
            "[  1%] n=2^16 float range  elapsed 500.0 ms");
  EXPECT_EQ(Progress::status(50, 100, 3.0, "x"),
            "[ 50%] x  elapsed 3.000 s  ETA 3.000 s");
  EXPECT_EQ(Progress::status(100, 100, 9.0, "x"), "[100%] x  elapsed 9.000 s");
  // Never beyond 100 % when the estimate was short.
  EXPECT_EQ(Progress::status(130, 100, 9.0, "x"), "[100%] x  elapsed 9.000 s");
}

TEST(Progress, NoEtaFromTheFirstSecondsOrPercent) {
  EXPECT_EQ(Progress::status(40, 100, 1.9, "x"), "[ 40%] x  elapsed 1.900 s");
  EXPECT_EQ(Progress::status(4.9, 100, 10, "x"), "[  5%] x  elapsed 10.000 s");
  EXPECT_EQ(Progress::status(5, 100, 10, "x"),
            "[  5%] x  elapsed 10.000 s  ETA 190.000 s");
}

TEST(Progress, WeightCountsBytesAndALaunchPerRun) {
  EXPECT_DOUBLE_EQ(Progress::weight(0, 3), 3 * 256.0 * 1024);
  EXPECT_DOUBLE_EQ(Progress::weight(1 << 20, 2), 2 * (1048576.0 + 262144.0));
}

}  // namespace
