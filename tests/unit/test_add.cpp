// addscope::add on every enabled execution space: every configuration, the
// four value types, sizes around warp/team boundaries; random inputs,
// poisoned outputs, exact comparison with a host reference and the blas path.
#include <gtest/gtest.h>

#include <Kokkos_Random.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "addscope/compute/addscope_Add.hpp"
#include "addscope/core/addscope_SpaceKind.hpp"
#include "addscope_TestSpaces.hpp"
#include "test_util.hpp"

using namespace addscope_test;

template <class Space>
class Add : public ::testing::Test {};
TYPED_TEST_SUITE(Add, ExecSpaces);

namespace {

const std::int64_t kSizes[] = {0, 1, 2, 31, 32, 33, 1023, 1024, 1025, 1000007};

// The configurations every space runs; team sizes are clamped to what the
// space allows (the clamp itself is tested in TeamSizeAboveMaxIsRejected).
template <class Space>
std::vector<addscope::LaunchConfig> configs_for(int team_max, std::int64_t n) {
  using addscope::LaunchConfig;
  auto t = [&](int want) { return want < team_max ? want : team_max; };
  std::vector<LaunchConfig> v = {
      LaunchConfig(),
      addscope::parse_launch_config("range:ilp=1"),
      addscope::parse_launch_config("range:chunk=4096"),
      addscope::parse_launch_config("range:pack"),
      addscope::parse_launch_config("range:pack,ilp=1"),
      addscope::parse_launch_config("range:pack,chunk=3,ilp=16"),
      addscope::parse_launch_config("range:chunk=1,ilp=2"),
      addscope::parse_launch_config("range:ilp=4"),
      addscope::parse_launch_config("range:ilp=16"),
      LaunchConfig::team_policy(1, 1),
      LaunchConfig::team_policy(3, t(7)),
      LaunchConfig::team_policy(1, t(32)),
      LaunchConfig::team_policy(5, t(33)),
      LaunchConfig::team_policy(1024, t(256)),
      LaunchConfig::team_policy(7, t(team_max)),
      LaunchConfig::team_auto(),
      LaunchConfig::blas()};
  // One thread per element: on hosts only where the league stays small
  // (Kokkos spends microseconds per team on a CPU).
  if (addscope::is_gpu_space<Space>() || n <= 1025) {
    v.push_back(LaunchConfig::team_per_element(t(32)));
    v.push_back(LaunchConfig::team_per_element(t(1024)));
  }
  return v;
}

template <class Space, class T>
void check_all_configs(std::uint64_t seed) {
  using MS = typename Space::memory_space;
  Space exec;
  for (std::int64_t n : kSizes) {
    const auto hx = random_values<T>(n, seed + n);
    const auto hy = random_values<T>(n, seed + 7 * n + 1);
    auto x = to_device<T, Space>(hx, "x");
    auto y = to_device<T, Space>(hy, "y");
    Kokkos::View<const T*, MS> cx = x, cy = y;  // inputs may be const
    Kokkos::View<T*, MS> out("out", n);
    const int team_max = addscope::add_team_size_max(exec, cx, cy, out);
    ASSERT_GE(team_max, 1);
    // The blas path's result, as a second reference.
    Kokkos::deep_copy(out, poison<T>());
    addscope::add(exec, cx, cy, out, addscope::LaunchConfig::blas());
    exec.fence();
    const auto ref_blas = to_host(out);
    for (const auto& cfg : configs_for<Space>(team_max, n)) {
      SCOPED_TRACE(cfg.to_string() + " n=" + std::to_string(n));
      Kokkos::deep_copy(out, poison<T>());
      const auto launched = addscope::add(exec, cx, cy, out, cfg);
      const auto& ran = launched.resolved;
      exec.fence();
      EXPECT_EQ(launched.requested, cfg);
      EXPECT_EQ(launched.label, cfg.kernel_label(ran));
      if (!cfg.is_auto()) {
        EXPECT_EQ(ran, cfg);
      } else if (cfg.kind == addscope::LaunchKind::TeamAuto) {
        EXPECT_EQ(ran.kind, addscope::LaunchKind::Team);
      } else if (cfg.kind == addscope::LaunchKind::TeamPerElement) {
        EXPECT_EQ(ran.kind, addscope::LaunchKind::Team);
        EXPECT_EQ(ran.team, cfg.team);
        EXPECT_EQ(ran.league,
                  std::max<std::int64_t>(1, (n + cfg.team - 1) / cfg.team));
      } else {
        EXPECT_GE(ran.ilp, 1);
      }
      const auto got = to_host(out);
      std::size_t bad = 0;
      for (std::int64_t i = 0; i < n; ++i) {
        const T ref = T(hx[i] + hy[i]);
        if (!same_value(got[i], ref) || !same_value(got[i], ref_blas[i])) {
          if (bad++ < 3)
            ADD_FAILURE() << "element " << i << ": got " << got[i] << ", want "
                          << ref;
        }
      }
      ASSERT_EQ(bad, 0u);
    }
  }
}

}  // namespace

TYPED_TEST(Add, Float) { check_all_configs<TypeParam, float>(1); }
TYPED_TEST(Add, Double) { check_all_configs<TypeParam, double>(2); }
TYPED_TEST(Add, Int32) { check_all_configs<TypeParam, std::int32_t>(3); }
TYPED_TEST(Add, Int64) { check_all_configs<TypeParam, std::int64_t>(4); }

TYPED_TEST(Add, StridedSubviews) {
  using Space = TypeParam;
  using MS = typename Space::memory_space;
  Space exec;
  const std::int64_t n = 1025;
  Kokkos::View<float**, Kokkos::LayoutRight, MS> xs("xs", n, 3), ys("ys", n, 2),
      outs("outs", n, 5);
  // Fill the parents with random data, poison the output parent.
  Kokkos::Random_XorShift64_Pool<Space> pool(12345);
  Kokkos::fill_random(xs, pool, -100.f, 100.f);
  Kokkos::fill_random(ys, pool, -100.f, 100.f);
  Kokkos::deep_copy(outs, poison<float>());
  auto x = Kokkos::subview(xs, Kokkos::ALL, 1);
  auto y = Kokkos::subview(ys, Kokkos::ALL, 0);
  auto out = Kokkos::subview(outs, Kokkos::ALL, 4);
  ASSERT_EQ(x.stride(0), 3u);
  // 16-byte packs need contiguous Views: refused, out untouched.
  Kokkos::deep_copy(outs, poison<float>());
  EXPECT_THROW(
      addscope::add(exec, x, y, out, addscope::LaunchConfig::range_pack()),
      addscope::InvalidArgument);
  for (const char* c :
       {"range", "range:ilp=4", "team:7x1", "team:auto", "blas"}) {
    SCOPED_TRACE(c);
    Kokkos::deep_copy(outs, poison<float>());
    addscope::add(exec, x, y, out, addscope::parse_launch_config(c));
    exec.fence();
    const auto hx = to_host(x), hy = to_host(y);
    const auto ho =
        Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), outs);
    for (std::int64_t i = 0; i < n; ++i) {
      ASSERT_EQ(ho(i, 4), hx[i] + hy[i]) << i;
      for (int j = 0; j < 4; ++j)  // the rest of the parent is untouched
        ASSERT_TRUE(std::isnan(ho(i, j))) << i << "," << j;
    }
  }
}

TYPED_TEST(Add, InPlaceAliasing) {
  using Space = TypeParam;
  Space exec;
  const std::int64_t n = 1000007;
  const auto hx = random_values<double>(n, 99),
             hy = random_values<double>(n, 98);
  for (const char* c : {"range", "range:ilp=16", "range:pack", "team:3x1",
                        "team:auto", "blas"}) {
    SCOPED_TRACE(c);
    auto x = to_device<double, Space>(hx, "x");
    auto y = to_device<double, Space>(hy, "y");
    addscope::add(exec, x, y, x, addscope::parse_launch_config(c));  // x += y
    addscope::add(exec, x, y, y,
                  addscope::parse_launch_config(c));  // y = x + y
    exec.fence();
    const auto gx = to_host(x), gy = to_host(y);
    for (std::int64_t i = 0; i < n; ++i) {
      ASSERT_EQ(gx[i], hx[i] + hy[i]) << i;
      ASSERT_EQ(gy[i], (hx[i] + hy[i]) + hy[i]) << i;
    }
  }
}

TYPED_TEST(Add, DefaultRangeResolvesPerBackend) {
  using Space = TypeParam;
  using MS = typename Space::memory_space;
  Space exec;
  Kokkos::View<float*, MS> x("x", 1000), y("y", 1000), out("out", 1000);
  Kokkos::View<float**, Kokkos::LayoutRight, MS> wide("wide", 1000, 2);
  auto strided = Kokkos::subview(wide, Kokkos::ALL, 1);
  const auto a = addscope::resolve_launch_config(exec, x, y, out,
                                                 addscope::LaunchConfig());
  const auto b = addscope::resolve_launch_config(exec, x, y, strided,
                                                 addscope::LaunchConfig());
  const bool gpu = addscope::is_gpu_space<Space>();
  if (gpu) {
    EXPECT_EQ(a.to_string(), "range:pack,ilp=1");  // packs when contiguous
    EXPECT_EQ(b.to_string(), "range:ilp=4");       // elements when strided
  } else {
    EXPECT_EQ(a.to_string(), "range:ilp=1");
    EXPECT_EQ(b.to_string(), "range:ilp=1");
  }
  EXPECT_EQ(
      addscope::LaunchConfig().kernel_label(a),
      gpu ? "addscope::add[range(pack,ilp=1)]" : "addscope::add[range(ilp=1)]");
}

TYPED_TEST(Add, NonFiniteValuesAddAsIeeeSays) {
  using Space = TypeParam;
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> hx = {inf, -inf, inf, nan, 1.0, -0.0, 1e308};
  const std::vector<double> hy = {1.0, -1.0, -inf, 2.0, nan, -0.0, 1e308};
  auto x = to_device<double, Space>(hx, "x");
  auto y = to_device<double, Space>(hy, "y");
  for (const char* c : {"range", "range:pack", "team:2x1", "blas"}) {
    SCOPED_TRACE(c);
    Kokkos::View<double*, typename Space::memory_space> out("out", hx.size());
    addscope::add(Space(), x, y, out, addscope::parse_launch_config(c));
    Space().fence();
    const auto g = to_host(out);
    EXPECT_EQ(g[0], inf);
    EXPECT_EQ(g[1], -inf);
    EXPECT_TRUE(std::isnan(g[2]));  // inf + -inf
    EXPECT_TRUE(std::isnan(g[3]));
    EXPECT_TRUE(std::isnan(g[4]));
    EXPECT_EQ(g[5], 0.0);
    EXPECT_TRUE(std::signbit(g[5]));  // -0 + -0 = -0
    EXPECT_EQ(g[6], inf);             // overflow rounds to inf
  }
}

TYPED_TEST(Add, PartialOverlapIsRejected) {
  using Space = TypeParam;
  using MS = typename Space::memory_space;
  Kokkos::View<int*, MS> v("v", 150);
  auto a = Kokkos::subview(v, std::make_pair(0, 50));
  auto b = Kokkos::subview(v, std::make_pair(1, 51));
  auto c = Kokkos::subview(v, std::make_pair(100, 150));
  // out = v[1, 51) overlaps x = v[0, 50) partially.
  EXPECT_THROW(addscope::add(Space(), a, c, b), addscope::InvalidArgument);
  // x and y may overlap each other (they are only read); out is disjoint.
  EXPECT_NO_THROW(addscope::add(Space(), a, b, c));
  EXPECT_NO_THROW(addscope::add(Space(), b, b, c));
  Space().fence();
}

TYPED_TEST(Add, MismatchedExtentsNameBothAndLeaveOutUntouched) {
  using Space = TypeParam;
  using MS = typename Space::memory_space;
  Kokkos::View<float*, MS> x("x", 33), y("y", 32), out("out", 33);
  Kokkos::deep_copy(out, 7.5f);
  try {
    addscope::add(Space(), x, y, out, addscope::LaunchConfig());
    ADD_FAILURE() << "no error";
  } catch (const addscope::InvalidArgument& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("x.extent(0) = 33"), std::string::npos) << m;
    EXPECT_NE(m.find("y.extent(0) = 32"), std::string::npos) << m;
  }
  for (float v : to_host(out)) ASSERT_EQ(v, 7.5f);
}

TYPED_TEST(Add, TeamSizeAboveMaxIsRejected) {
  using Space = TypeParam;
  using MS = typename Space::memory_space;
  Space exec;
  Kokkos::View<float*, MS> x("x", 64), y("y", 64), out("out", 64);
  Kokkos::deep_copy(out, 2.5f);
  const int max = addscope::add_team_size_max(exec, x, y, out);
  EXPECT_NO_THROW(addscope::add(exec, x, y, out,
                                addscope::LaunchConfig::team_policy(2, max)));
  exec.fence();
  Kokkos::deep_copy(out, 2.5f);
  try {
    addscope::add(exec, x, y, out,
                  addscope::LaunchConfig::team_policy(2, max + 1));
    ADD_FAILURE() << "no error";
  } catch (const addscope::InvalidArgument& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("team_size_max = " + std::to_string(max)),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("team size = " + std::to_string(max + 1)),
              std::string::npos)
        << m;
  }
  for (float v : to_host(out)) ASSERT_EQ(v, 2.5f);
}

namespace {
std::vector<std::string>& seen_names() {
  static std::vector<std::string> v;
  return v;
}
void record_kernel(const char* name, std::uint32_t, std::uint64_t*) {
  seen_names().push_back(name);
}
void record_region(const char* name) { seen_names().push_back(name); }
}  // namespace

TYPED_TEST(Add, KernelLabelsReachKokkosTools) {
  // The label add() returns is the one the kernel ran under, automatic
  // configurations included.
  using Space = TypeParam;
  using MS = typename Space::memory_space;
  Space exec;
  Kokkos::View<float*, MS> x("x", 100), y("y", 100), out("out", 100);
  std::vector<std::string> returned;
  seen_names().clear();
  Kokkos::Tools::Experimental::set_begin_parallel_for_callback(record_kernel);
  Kokkos::Tools::Experimental::set_push_region_callback(record_region);
  for (const char* c : {"1x1", "range:ilp=4", "range", "range:pack",
                        "team:auto", "team:ceil(N/1)x1", "blas"})
    returned.push_back(
        addscope::add(exec, x, y, out, addscope::parse_launch_config(c)).label);
  exec.fence();
  Kokkos::Tools::Experimental::set_begin_parallel_for_callback(nullptr);
  Kokkos::Tools::Experimental::set_push_region_callback(nullptr);
  auto has = [&](const std::string& n) {
    for (const auto& s : seen_names())
      if (s == n) return true;
    return false;
  };
  for (const auto& label : returned) EXPECT_TRUE(has(label)) << label;
  EXPECT_EQ(returned[0], "addscope::add[team:1x1]");
  EXPECT_EQ(returned[1], "addscope::add[range:ilp=4]");
  EXPECT_EQ(returned[5], "addscope::add[team:ceil(N/1)x1(100x1)]");
  EXPECT_EQ(returned[6], "addscope::add[blas]");
  EXPECT_NE(returned[4].find("addscope::add[team:auto("), std::string::npos);
}

namespace {
std::vector<std::pair<std::string, std::uint32_t>>& seen_kernels() {
  static std::vector<std::pair<std::string, std::uint32_t>> v;
  return v;
}
void record_kernel_device(const char* name, std::uint32_t dev, std::uint64_t*) {
  seen_kernels().emplace_back(name, dev);
}
}  // namespace

// `blas` runs on the instance it is given: the kernel KokkosBlas launches
// reports that instance's Kokkos Tools device id. Observable only where
// instances have distinct ids (Cuda on Kokkos 4.x; host spaces and Kokkos 3.x
// give every instance the same id), and only Kokkos Kernels 4.1+ takes one.
TYPED_TEST(Add, BlasRunsOnTheCallersInstance) {
#if KOKKOS_VERSION < 40000
  GTEST_SKIP() << "Kokkos 3.x: no partition_space, and every instance has "
                  "the same Kokkos Tools device id";
#else
  using Space = TypeParam;
  using MS = typename Space::memory_space;
  const auto parts = Kokkos::Experimental::partition_space(Space(), 1, 1);
  const Space other = parts[1];
  const std::uint32_t want = Kokkos::Tools::Experimental::device_id(other);
  if (want == Kokkos::Tools::Experimental::device_id(Space()))
    GTEST_SKIP() << Space::name()
                 << ": a second instance has the default instance's Kokkos "
                    "Tools device id, so the instance is not observable";
  const std::int64_t n = 1000;
  const auto hx = random_values<float>(n, 11), hy = random_values<float>(n, 12);
  auto x = to_device<float, Space>(hx, "x");
  auto y = to_device<float, Space>(hy, "y");
  Kokkos::View<float*, MS> out("out", n);
  Kokkos::deep_copy(out, poison<float>());
  Kokkos::fence();
  seen_kernels().clear();
  Kokkos::Tools::Experimental::set_begin_parallel_for_callback(
      record_kernel_device);
  addscope::add(other, x, y, out, addscope::LaunchConfig::blas());
  Kokkos::Tools::Experimental::set_begin_parallel_for_callback(nullptr);
  other.fence();
  ASSERT_FALSE(seen_kernels().empty());
  for (const auto& [name, dev] : seen_kernels())
    EXPECT_EQ(dev, want) << "kernel '" << name << "' ran on device id " << dev
                         << ", not on the instance given (" << want << ")";
  const auto h = to_host(out);
  for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(h[i], hx[i] + hy[i]) << i;
#endif
}
