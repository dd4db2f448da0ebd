// addscope::sweep_add, sweep_transfers and sweep_latency on every enabled
// space: a point per size (every candidate verified, references beside
// them), each step told to the observer in order, the transfers of every
// size both ways, the element reads and both empty kernels.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <string>
#include <type_traits>
#include <vector>

#include "addscope/bench/addscope_DeviceInfo.hpp"
#include "addscope/bench/addscope_Sweep.hpp"
#include "addscope_TestSpaces.hpp"

namespace {

using namespace addscope;

template <class Space>
class Sweep : public ::testing::Test {};
TYPED_TEST_SUITE(Sweep, addscope_test::ExecSpaces);

SweepPlan small_plan() {
  SweepPlan p;
  p.sizes = {1000, 4096};
  p.candidates = {LaunchConfig::range(), LaunchConfig::team_auto()};
  p.advisor.measure.warmup = 1;
  p.advisor.measure.repeat = 2;
  p.latency_opt.warmup = 1;
  p.latency_opt.repeat = 2;
  p.launches = 10;
  p.fenced_launches = 3;
  p.seed = 7;
  return p;
}

TYPED_TEST(Sweep, AddEverySizeEveryCandidateVerified) {
  const TypeParam exec;
  const SweepPlan plan = small_plan();
  SweepResults out;
  out.verify_failures = -5;  // poison: counted from here
  std::vector<std::string> steps;
  sweep_add<double>(exec, plan, "double", out, [&](const SweepStep& s) {
    std::string t = s.type + " " + std::to_string(s.n) + " " +
                    std::to_string(s.elem_size) + " ";
    if (s.kind == SweepStep::Kind::References) t += "refs";
    if (s.kind == SweepStep::Kind::Candidate)
      t += s.result->candidate.to_string() + " left " + std::to_string(s.left);
    steps.push_back(t);
  });
  EXPECT_EQ(out.verify_failures, -5);
  EXPECT_EQ(steps, (std::vector<std::string>{
                       "double 1000 8 refs", "double 1000 8 range left 1",
                       "double 1000 8 team:auto left 0", "double 4096 8 refs",
                       "double 4096 8 range left 1",
                       "double 4096 8 team:auto left 0"}));
  ASSERT_EQ(out.points.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const SweepPoint& p = out.points[i];
    EXPECT_EQ(p.n, plan.sizes[i]);
    EXPECT_EQ(p.type, "double");
    EXPECT_EQ(p.elem_size, sizeof(double));
    EXPECT_FALSE(p.references.empty());
    ASSERT_EQ(p.results.size(), 2u);
    for (const auto& r : p.results) {
      EXPECT_TRUE(r.measured) << r.skipped;
      EXPECT_EQ(r.check.checked, p.n);
      EXPECT_TRUE(r.check.ok()) << r.check.detail;
      EXPECT_EQ(r.phases.completion.count, 2u);
    }
  }
  EXPECT_TRUE(out.transfers.empty());
  EXPECT_TRUE(out.latency.empty());
  // A second type appends its points after the first's.
  sweep_add<float>(exec, plan, "float", out);
  ASSERT_EQ(out.points.size(), 4u);
  EXPECT_EQ(out.points[2].type, "float");
  EXPECT_EQ(out.points[3].n, 4096);
}

TYPED_TEST(Sweep, TransfersEverySizeThenElementReadsAndLatency) {
  const TypeParam exec;
  const SweepPlan plan = small_plan();
  const DeviceInfo dev = device_info(exec);
#if defined(KOKKOS_ENABLE_CUDA)
  const std::size_t apis = std::is_same<TypeParam, Kokkos::Cuda>::value ? 2 : 1;
#else
  const std::size_t apis = 1;
#endif
  const std::size_t kinds = dev.has_pinned ? 2 : 1;
  SweepResults out;
  std::vector<std::int64_t> told;
  sweep_transfers(exec, plan, dev, out, [&](const SweepStep& s) {
    EXPECT_EQ(s.kind, SweepStep::Kind::Transfers);
    EXPECT_EQ(s.elem_size, sizeof(float));
    told.push_back(s.n);
  });
  EXPECT_EQ(told, plan.sizes);
  ASSERT_EQ(out.transfers.size(), plan.sizes.size() * kinds * 2 * apis);
  EXPECT_EQ(out.transfers.front().result.n, 1000);
  EXPECT_EQ(out.transfers.front().result.what, "H2D whole");
  EXPECT_EQ(out.transfers.back().result.n, 4096);
  EXPECT_EQ(out.transfers.back().result.direction, CopyDirection::DeviceToHost);
  ASSERT_EQ(out.element_reads.size(), kinds * apis);
  EXPECT_EQ(out.element_reads.front().result.what, "D2H dev[2]");
  EXPECT_EQ(out.element_reads.front().result.time.count, 2u);
  EXPECT_TRUE(out.points.empty());

  sweep_latency(exec, plan, out);
  ASSERT_EQ(out.latency.size(), 2u);
  EXPECT_EQ(out.latency[0].kernel, EmptyKernel::Range);
  EXPECT_EQ(out.latency[1].kernel, EmptyKernel::Team);
  EXPECT_EQ(out.latency[0].launches, 10);
}

TYPED_TEST(Sweep, TeamMaxAndConfigsCheckedNamingTheParameter) {
  const TypeParam exec;
  const int team_max = sweep_team_max<float>(exec);
  EXPECT_GE(team_max, 1);
  check_sweep_configs<float>(
      exec, "--configs", {LaunchConfig::range(), LaunchConfig::team_auto()});
  try {
    check_sweep_configs<float>(exec, "--configs",
                               {LaunchConfig::team_policy(4, team_max + 1)});
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("--configs: team size = ", 0), 0u)
        << e.what();
  }
}

}  // namespace
