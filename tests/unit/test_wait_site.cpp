// Where the naive read's wait lands (which call absorbs the 1x1 kernel)
// depends on the Kokkos version; the demo reports the tracker's measured
// answer. This pins that answer per version on asynchronous backends:
// - Kokkos < 3.6 (3.4 measured on an H200): create_mirror_view, because it
//   names the mirror after the device View and a device View's label is
//   read from its allocation header by a synchronous device-to-host copy
//   (HostInaccessibleSharedAllocationRecordCommon::get_label).
// - Kokkos >= 3.6 (4.6.99 measured on an H200): labels are kept on the host
//   (kokkos commit f5ba06c6e, "Access label directly", first in 3.6.00), so
//   create_mirror_view does not wait; deep_copy does, in its global fence
//   "Kokkos::deep_copy: copy between contiguous views, pre view equality
//   check".
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "addscope/compute/addscope_Add.hpp"
#include "addscope/timing/addscope_ReadAfterLaunch.hpp"
#include "addscope_TestSpaces.hpp"
#include "test_util.hpp"
#include "tracker_util.hpp"

using namespace addscope_test;

// The naive pass is recorded in the process's tracker: the fixture starts
// it fed by no tool and fails a test that leaves a call open
// (tracker_util.hpp).
template <class Space>
class WaitSite : public addscope_test::GlobalTrackerTest {};
TYPED_TEST_SUITE(WaitSite, ExecSpaces);

TYPED_TEST(WaitSite, NaiveReadWaitLandsWhereKokkosBlocks) {
  using Space = TypeParam;
  using MS = typename Space::memory_space;
  if (!addscope::launches_are_async<Space>())
    GTEST_SKIP() << Space::name()
                 << ": launches are synchronous, no later call waits";
  Space exec;
  // A 1x1 add of 2^22 floats: tens of ms on a GPU, far above the reads.
  const std::int64_t n = std::int64_t(1) << 22;
  const auto hx = random_values<float>(n, 21), hy = random_values<float>(n, 22);
  auto x = to_device<float, Space>(hx, "x");
  auto y = to_device<float, Space>(hy, "y");
  Kokkos::View<float*, MS> out("out", n);
  Kokkos::deep_copy(out, poison<float>());
  const auto cfg = addscope::parse_launch_config("team:1x1");
  const auto r = addscope::measure_read_after_launch(
      exec, cfg.kernel_label(), out, 2, hx[2] + hy[2],
      [&] { addscope::add(exec, x, y, out, cfg); });
  exec.fence();
  EXPECT_TRUE(r.verified);
  const std::string expected = KOKKOS_VERSION < 30600
                                   ? "create_mirror_view(out[2])"
                                   : "deep_copy(out[2])";
  const std::string other = KOKKOS_VERSION < 30600
                                ? "deep_copy(out[2])"
                                : "create_mirror_view(out[2])";
  ASSERT_FALSE(r.attribution.empty());
  const auto& top = r.attribution.front();
  EXPECT_EQ(top.what, expected) << r.attribution_line;
  EXPECT_GT(top.wait_s, 0.5 * r.completion_s) << r.attribution_line;
  // The other step of the read waited for nothing of the kernel's size.
  for (const auto& c : r.attribution)
    if (c.what == other) EXPECT_LT(c.wait_s, 0.1 * r.completion_s) << c.what;
  // The naive times agree: the absorbing step holds the kernel's time.
  const double absorbing =
      KOKKOS_VERSION < 30600 ? r.naive_mirror_s : r.naive_copy_s;
  EXPECT_GT(absorbing, 0.5 * r.completion_s);
}
