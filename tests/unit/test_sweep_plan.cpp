// addscope::plan_sweep on plain data: the sizes asked for (sorted, once
// each) or powers of two up to what memory allows, the --quick defaults,
// sizes that cannot fit refused naming the parameter, the cache note, the
// configurations given or the device's candidates.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "addscope/core/addscope_Error.hpp"
#include "addscope/bench/addscope_SweepPlan.hpp"

namespace {

using namespace addscope;

DeviceInfo host_device(std::uint64_t available) {
  DeviceInfo d;
  d.exec_space = "OpenMP";
  d.units = 4;
  d.memory.available = available;
  return d;
}

bool has_note(const SweepPlan& p, const std::string& part) {
  for (const auto& n : p.notes)
    if (n.find(part) != std::string::npos) return true;
  return false;
}

TEST(SweepPlan, Log2SizesInclusive) {
  EXPECT_EQ(log2_sizes(3, 5), (std::vector<std::int64_t>{8, 16, 32}));
  EXPECT_EQ(log2_sizes(4, 4), (std::vector<std::int64_t>{16}));
  EXPECT_TRUE(log2_sizes(5, 4).empty());
}

TEST(SweepPlan, DefaultMaxLog2IsMemoryBoundOrTheCap) {
  std::string why = "poison";
  // 3 arrays of 2^20 floats = 12 MiB, +5%: 13 MiB holds 2^20, not 2^21.
  EXPECT_EQ(default_max_log2(13u << 20, 4, 26, &why), 20);
  EXPECT_NE(why.find("memory-bound"), std::string::npos) << why;
  EXPECT_EQ(default_max_log2(std::uint64_t(1) << 40, 4, 26, &why), 26);
  EXPECT_NE(why.find("the default cap"), std::string::npos) << why;
  EXPECT_EQ(default_max_log2(0, 4, 28, &why), 28);
  EXPECT_NE(why.find("free memory unknown"), std::string::npos) << why;
}

TEST(SweepPlan, ExplicitSizesSortedOnceEach) {
  SweepRequest q;
  q.sizes = {4096, 1024, 4096, 2048};
  q.configs = {LaunchConfig::range()};
  const SweepPlan p = plan_sweep(q, host_device(1u << 30), 64, 0);
  EXPECT_EQ(p.sizes, (std::vector<std::int64_t>{1024, 2048, 4096}));
  EXPECT_TRUE(p.user_configs);
  ASSERT_EQ(p.candidates.size(), 1u);
  EXPECT_FALSE(has_note(p, "largest size"));
}

TEST(SweepPlan, QuickDefaults) {
  SweepRequest q;
  q.quick = true;
  q.repeat = 3;
  q.warmup = 0;
  const SweepPlan p = plan_sweep(q, host_device(std::uint64_t(1) << 40), 64, 0);
  EXPECT_EQ(p.sizes.front(), 1 << 16);
  EXPECT_EQ(p.sizes.back(), 1 << 22);
  EXPECT_EQ(p.sizes.size(), 7u);
  EXPECT_TRUE(has_note(p, "--quick: up to 2^22"));
  EXPECT_EQ(p.advisor.measure.repeat, 3);
  EXPECT_EQ(p.advisor.measure.warmup, 0);
  EXPECT_EQ(p.latency_opt.repeat, 20);
  EXPECT_EQ(p.latency_opt.warmup, 1);
  EXPECT_FALSE(p.latency_opt.device_time);
  EXPECT_EQ(p.launches, 1000);
  EXPECT_EQ(p.fenced_launches, 200);
  EXPECT_FALSE(p.user_configs);
  EXPECT_EQ(p.candidates.size(), 6u);  // launch_candidates' Quick set
}

TEST(SweepPlan, FullDefaultsAndTheCacheNote) {
  SweepRequest q;
  q.min_log2 = 10;
  q.max_log2 = 12;
  q.max_log2_set = true;
  DeviceInfo d = host_device(1u << 30);
  d.llc_bytes = 3 * 4 * 2048;  // 2^11 floats x 3 fit, 2^12 do not
  const SweepPlan p = plan_sweep(q, d, 64, 0);
  EXPECT_EQ(p.sizes, (std::vector<std::int64_t>{1024, 2048, 4096}));
  EXPECT_EQ(p.launches, 10000);
  EXPECT_EQ(p.latency_opt.repeat, 100);
  EXPECT_TRUE(has_note(p, "sizes up to 2^11 fit in the last-level cache"));
  EXPECT_GT(p.candidates.size(), 6u);
}

TEST(SweepPlan, RefusesWhatCannotRunNamingTheParameter) {
  SweepRequest q;
  q.sizes = {std::int64_t(1) << 30};
  q.sizes_param = "--n";
  try {
    plan_sweep(q, host_device(1u << 20), 64, 0);
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("--n = 1073741824 needs"),
              std::string::npos)
        << e.what();
  }
  // The smallest size above what memory allows.
  SweepRequest r;
  r.min_log2 = 20;
  r.min_log2_set = true;
  r.min_log2_param = "--min-log2";
  try {
    plan_sweep(r, host_device(1u << 20), 64, 0);
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("--min-log2 = 20 > largest size 2^"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
