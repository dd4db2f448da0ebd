// The seed's experiment, measured by the timing module. Ratios with wide
// margins on work large enough to dominate noise; never absolute times.
#include <gtest/gtest.h>

#include <cstdint>

#include "addscope/compute/addscope_Add.hpp"
#include "addscope/timing/addscope_Measure.hpp"
#include "addscope_TestSpaces.hpp"
#include "test_util.hpp"

using namespace addscope_test;

template <class Space>
class Timing : public ::testing::Test {};
TYPED_TEST_SUITE(Timing, ExecSpaces);

TYPED_TEST(Timing, SeedSequenceOneByOne) {
  using Space = TypeParam;
  using MS = typename Space::memory_space;
  Space exec;
  // ~10^7 elements: a 1x1 launch takes hundreds of ms on a GPU and tens of
  // ms on one CPU core — far above timer noise either way.
  const std::int64_t n = 10000000;
  const auto hx = random_values<float>(n, 5), hy = random_values<float>(n, 6);
  auto x = to_device<float, Space>(hx, "x");
  auto y = to_device<float, Space>(hy, "y");
  Kokkos::View<float*, MS> out("out", n);
  Kokkos::deep_copy(out, poison<float>());
  const auto cfg = addscope::parse_launch_config("team:1x1");
  const std::string label = cfg.kernel_label();
  const auto r = addscope::measure_seed_sequence(
      exec, label, out, 2, hx[2] + hy[2],
      [&] { addscope::add(exec, x, y, out, cfg); });
  exec.fence();
  EXPECT_TRUE(r.verified);
  EXPECT_EQ(r.async_backend, addscope::launches_are_async<Space>());
  ASSERT_GT(r.completion_s, 0);
  if (r.async_backend) {
    // The launch returns long before the kernel is done...
    EXPECT_LT(r.naive_launch_s, 0.1 * r.completion_s);
    // ...so the naive read absorbs it: its wait is most of the kernel,
    EXPECT_GT(r.wait_s(), 0.5 * r.completion_s);
    // while the fenced read alone is small.
    EXPECT_LT(r.fenced_read_s(), 0.1 * r.completion_s);
    // The tracker names the call that waited and the kernel it waited for.
    ASSERT_FALSE(r.attribution.empty());
    const auto& top = r.attribution.front();
    ASSERT_FALSE(top.waited_for.empty());
    EXPECT_EQ(top.waited_for.front().kernel, label);
    EXPECT_GT(top.wait_s, 0.5 * r.completion_s);
    EXPECT_NE(r.attribution_line.find("waiting for " + label),
              std::string::npos)
        << r.attribution_line;
  } else {
    // Synchronous backend: the launch *is* the completion.
    EXPECT_GT(r.fenced_launch_s, 0.5 * r.completion_s);
    EXPECT_LT(r.wait_s(), 0.5 * r.completion_s);
    // Nothing waited for device work.
    for (const auto& c : r.attribution) ADD_FAILURE() << c.what;
    EXPECT_TRUE(r.attribution_line.empty());
  }
}

TYPED_TEST(Timing, PhasesAndTransfer) {
  using Space = TypeParam;
  using MS = typename Space::memory_space;
  Space exec;
  const std::int64_t n = 1 << 20;
  const auto hx = random_values<double>(n, 7), hy = random_values<double>(n, 8);
  auto x = to_device<double, Space>(hx, "x");
  auto y = to_device<double, Space>(hy, "y");
  Kokkos::View<double*, MS> out("out", n);
  addscope::MeasureOptions opt;
  opt.warmup = 1;
  opt.repeat = 5;
  const auto p = addscope::measure_phases(
      exec, "add", n, addscope::add_bytes(n, sizeof(double)),
      [&] { addscope::add(exec, x, y, out); }, opt);
  EXPECT_EQ(p.launch.count, 5u);
  EXPECT_EQ(p.bytes, 3u * 8u * std::uint64_t(n));
  for (std::size_t i = 0; i < 5; ++i)
    EXPECT_LE(p.launch.samples_s[i], p.completion.samples_s[i]);
  EXPECT_DOUBLE_EQ(p.gbps_median,
                   double(p.bytes) / p.completion.median_s / 1e9);

  auto mirror =
      addscope::make_host_array<double, addscope::PinnedHostSpace>("mirror", n);
  const auto t = addscope::measure_copy(exec, "D2H whole", "D2H", "pinned",
                                        mirror, out, opt);
  EXPECT_EQ(t.bytes, 8u * std::uint64_t(n));
  EXPECT_GT(t.gbps_median, 0);
  for (std::int64_t i = 0; i < n; i += 4099)
    ASSERT_EQ(mirror(i), hx[i] + hy[i]);

  // Host to device, from pageable memory: the copy lands on the device.
  auto source =
      addscope::make_host_array<double, addscope::PageableHostSpace>("src", n);
  for (std::int64_t i = 0; i < n; ++i) source(i) = hy[i] - hx[i];
  const auto h2d = addscope::measure_copy(exec, "H2D whole", "H2D", "pageable",
                                          out, source, opt);
  EXPECT_EQ(h2d.bytes, 8u * std::uint64_t(n));
  EXPECT_EQ(h2d.time.count, 5u);
  const auto back = to_host(out);
  for (std::int64_t i = 0; i < n; i += 4099) ASSERT_EQ(back[i], hy[i] - hx[i]);
}

TYPED_TEST(Timing, ElementIndexIsChecked) {
  using MS = typename TypeParam::memory_space;
  Kokkos::View<float*, MS> v("v", 10);
  EXPECT_THROW(addscope::element(v, 10), addscope::InvalidArgument);
  EXPECT_THROW(addscope::element(v, -1), addscope::InvalidArgument);
  EXPECT_EQ(addscope::element(v, 9).extent(0), 1u);
}
