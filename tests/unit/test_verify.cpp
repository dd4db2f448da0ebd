// Device-side verification finds every wrong element, exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "addscope/timing/addscope_Verify.hpp"
#include "addscope_TestSpaces.hpp"
#include "test_util.hpp"

using namespace addscope_test;

template <class Space>
class Verify : public ::testing::Test {};
TYPED_TEST_SUITE(Verify, ExecSpaces);

namespace {
template <class Space, class T>
void plant_and_find(std::uint64_t seed) {
  using MS = typename Space::memory_space;
  Space exec;
  const std::int64_t n = 100003;
  const auto hx = random_values<T>(n, seed), hy = random_values<T>(n, seed + 1);
  auto x = to_device<T, Space>(hx, "x");
  auto y = to_device<T, Space>(hy, "y");
  std::vector<T> ho(n);
  for (std::int64_t i = 0; i < n; ++i) ho[i] = T(hx[i] + hy[i]);
  auto out = to_device<T, Space>(ho, "out");
  auto v = addscope::verify_add(exec, x, y, out);
  EXPECT_TRUE(v.ok()) << v.detail;
  EXPECT_EQ(v.checked, n);
  EXPECT_EQ(v.first_bad, -1);
  // One element off by the smallest step, and the last one poisoned.
  ho[4321] = std::is_floating_point<T>::value
                 ? std::nextafter(ho[4321], std::numeric_limits<T>::max())
                 : T(ho[4321] + 1);
  ho[n - 1] = poison<T>();
  out = to_device<T, Space>(ho, "out");
  v = addscope::verify_add(exec, x, y, out);
  EXPECT_FALSE(v.ok());
  EXPECT_EQ(v.mismatches, 2);
  EXPECT_EQ(v.first_bad, 4321);
  EXPECT_NE(v.detail.find("out[4321]"), std::string::npos) << v.detail;
  EXPECT_NE(v.detail.find("2 of 100003"), std::string::npos) << v.detail;
}
}  // namespace

TYPED_TEST(Verify, FloatOneUlpIsWrong) { plant_and_find<TypeParam, float>(11); }
TYPED_TEST(Verify, Double) { plant_and_find<TypeParam, double>(12); }
TYPED_TEST(Verify, Int32) { plant_and_find<TypeParam, std::int32_t>(13); }
TYPED_TEST(Verify, Int64) { plant_and_find<TypeParam, std::int64_t>(14); }

TYPED_TEST(Verify, NaNFromTheInputsIsTheRightAnswer) {
  using Space = TypeParam;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto x = to_device<double, Space>({nan, 1.0, 2.0}, "x");
  auto y = to_device<double, Space>({1.0, 1.0, 2.0}, "y");
  auto out = to_device<double, Space>({nan, 2.0, nan}, "out");
  const auto v = addscope::verify_add(Space(), x, y, out);
  EXPECT_EQ(v.mismatches, 1);  // out[2] = NaN where 4 was due
  EXPECT_EQ(v.first_bad, 2);
}

TYPED_TEST(Verify, EmptyAndMismatchedExtents) {
  using Space = TypeParam;
  using MS = typename Space::memory_space;
  Kokkos::View<float*, MS> a("a", 0), b("b", 3);
  EXPECT_TRUE(addscope::verify_add(Space(), a, a, a).ok());
  EXPECT_THROW(addscope::verify_add(Space(), a, b, b),
               addscope::InvalidArgument);
}
