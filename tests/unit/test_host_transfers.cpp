// addscope::measure_host_transfers on every enabled space: both directions
// (or back only), named by direction, N sizeof(T) bytes each, the data
// really copied, and cudaMemcpy beside deep_copy exactly on CUDA.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <type_traits>

#include "addscope/bench/addscope_HostTransfers.hpp"
#include "addscope_TestSpaces.hpp"

namespace {

template <class Space>
class HostTransfers : public ::testing::Test {};
TYPED_TEST_SUITE(HostTransfers, addscope_test::ExecSpaces);

TYPED_TEST(HostTransfers, BothWaysThenBackOnly) {
  using Space = TypeParam;
  const Space exec;
  const std::int64_t n = 1000;
  Kokkos::View<double*, typename Space::memory_space> d("d", n);
  auto h =
      addscope::make_host_array<double, addscope::PageableHostSpace>("h", n);
  for (std::int64_t i = 0; i < n; ++i) h(i) = 0.5 * double(i);
  addscope::MeasureOptions mo;
  mo.warmup = 1;
  mo.repeat = 2;
#if defined(KOKKOS_ENABLE_CUDA)
  const bool cuda = std::is_same<Space, Kokkos::Cuda>::value;
#else
  const bool cuda = false;
#endif
  const auto both = addscope::measure_host_transfers(
      exec, d, h, addscope::MemoryKind::Pageable, "whole", true, mo);
  ASSERT_EQ(both.size(), cuda ? 4u : 2u);
  EXPECT_EQ(both[0].api, "Kokkos::deep_copy");
  EXPECT_EQ(both[0].result.what, "H2D whole");
  EXPECT_EQ(both[0].result.direction, addscope::CopyDirection::HostToDevice);
  EXPECT_EQ(both[1].result.what, "D2H whole");
  EXPECT_EQ(both[1].result.direction, addscope::CopyDirection::DeviceToHost);
  for (const auto& t : both) {
    EXPECT_EQ(t.result.bytes, std::uint64_t(8 * n));
    EXPECT_EQ(t.result.memory, addscope::MemoryKind::Pageable);
    EXPECT_EQ(t.result.time.count, 2u);
  }
  if (cuda) EXPECT_EQ(both[2].api, "cudaMemcpy");
  // The device array holds what the host array held (H2D ran), and the
  // host array still does (D2H brought it back).
  auto back = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d);
  EXPECT_EQ(back(n - 1), 0.5 * double(n - 1));
  EXPECT_EQ(h(7), 3.5);
  const auto one = addscope::measure_host_transfers(
      exec, addscope::element(d, 2),
      addscope::make_host_array<double, addscope::PageableHostSpace>("one", 1),
      addscope::MemoryKind::Pageable, "d[2]", false, mo);
  ASSERT_EQ(one.size(), cuda ? 2u : 1u);
  EXPECT_EQ(one[0].result.what, "D2H d[2]");
  EXPECT_EQ(one[0].result.bytes, 8u);
}

}  // namespace
