// The distributed add on every enabled execution space: random global data
// (the same on every rank, from one seed), each rank's block copied in,
// outputs poisoned, every element compared with the host's x + y at its
// global index; the collective verification, a planted wrong element, and
// the checksum's independence of the distribution.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "addscope/core/addscope_Error.hpp"
#include "addscope/mpi/addscope_DistributedAdd.hpp"
#include "addscope_TestSpaces.hpp"
#include "test_util.hpp"

using namespace addscope_test;
using addscope::mpi::DistributedVector;

template <class Space>
class DistributedAdd : public ::testing::Test {};
TYPED_TEST_SUITE(DistributedAdd, ExecSpaces);

namespace {
int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int world_size() {
  int s = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

/// A distributed vector holding `global[offset .. offset + count)`.
template <class Space, class T>
DistributedVector<T, typename Space::memory_space> distribute(
    const char* label, const std::vector<T>& global, MPI_Comm comm) {
  DistributedVector<T, typename Space::memory_space> v(
      label, std::int64_t(global.size()), comm);
  auto h = Kokkos::create_mirror_view(v.local());
  for (std::int64_t i = 0; i < v.local_extent(); ++i)
    h(i) = global[std::size_t(v.offset() + i)];
  Kokkos::deep_copy(v.local(), h);
  return v;
}

template <class Space, class T>
void check_add(std::int64_t n, const addscope::LaunchConfig& config) {
  SCOPED_TRACE(testing::Message() << "N = " << n << ", " << config);
  const auto gx = random_values<T>(std::size_t(n), 11 + std::uint64_t(n));
  const auto gy = random_values<T>(std::size_t(n), 23 + std::uint64_t(n));
  auto x = distribute<Space>("x", gx, MPI_COMM_WORLD);
  auto y = distribute<Space>("y", gy, MPI_COMM_WORLD);
  auto out = distribute<Space>(
      "out", std::vector<T>(std::size_t(n), poison<T>()), MPI_COMM_WORLD);
  Space exec;
  const auto launched = addscope::mpi::add(exec, x, y, out, config);
  exec.fence();
  EXPECT_EQ(launched.requested, config);
  // Every local element against the host's add at its global index.
  const auto got = to_host(out.local());
  ASSERT_EQ(std::int64_t(got.size()), out.local_extent());
  std::int64_t wrong = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const std::size_t g = std::size_t(out.offset()) + i;
    if (!same_value(got[i], T(gx[g] + gy[g]))) ++wrong;
  }
  EXPECT_EQ(wrong, 0) << "on rank " << world_rank();
  // The collective check agrees, on every rank.
  const auto v = addscope::mpi::verify_add(exec, x, y, out);
  EXPECT_EQ(v.checked, n);
  EXPECT_EQ(v.mismatches, 0) << v.detail;
  EXPECT_EQ(v.first_bad, -1);
}
}  // namespace

TYPED_TEST(DistributedAdd, EveryElementOnEveryRankForBoundarySizes) {
  using Space = TypeParam;
  const int R = world_size();
  for (std::int64_t n :
       {std::int64_t(0), std::int64_t(1), std::int64_t(R - 1), std::int64_t(R),
        std::int64_t(R + 1), std::int64_t(2 * R + 1), std::int64_t(100003)}) {
    // A team of up to 7 (hosts with one thread allow 1).
    Kokkos::View<float*, typename Space::memory_space> one("one", 1);
    const int team =
        std::min(7, addscope::add_team_size_max(Space(), one, one, one));
    const std::string teams = "team:3x" + std::to_string(team);
    for (const std::string c : {"range", "range:pack", "team:1x1", "team:auto",
                                teams.c_str(), "blas"}) {
      check_add<Space, float>(n, addscope::parse_launch_config(c));
      check_add<Space, std::int64_t>(n, addscope::parse_launch_config(c));
    }
    check_add<Space, double>(n, addscope::parse_launch_config("range:ilp=4"));
    check_add<Space, std::int32_t>(
        n, addscope::parse_launch_config("range:ilp=2"));
  }
}

TYPED_TEST(DistributedAdd, VerificationNamesTheFirstWrongGlobalElement) {
  using Space = TypeParam;
  const int R = world_size();
  const std::int64_t n = 1000 + R;
  const auto gx = random_values<double>(std::size_t(n), 5);
  const auto gy = random_values<double>(std::size_t(n), 6);
  auto x = distribute<Space>("x", gx, MPI_COMM_WORLD);
  auto y = distribute<Space>("y", gy, MPI_COMM_WORLD);
  auto out = distribute<Space>("out", std::vector<double>(std::size_t(n), 0.0),
                               MPI_COMM_WORLD);
  Space exec;
  addscope::mpi::add(exec, x, y, out);
  exec.fence();
  // Plant two wrong values on the last rank (one on rank 0 too when there
  // is more than one rank: the first wrong one is then rank 0's).
  const std::int64_t bad = out.distribution().offset(R - 1) + 3;
  const std::int64_t bad0 = R > 1 ? 7 : bad;
  auto h =
      Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out.local());
  for (std::int64_t g : {bad, bad + 1, bad0})
    if (out.distribution().owner(g) == out.rank())
      h(g - out.offset()) = -12345.0;
  Kokkos::deep_copy(out.local(), h);
  const auto v = addscope::mpi::verify_add(exec, x, y, out);
  EXPECT_EQ(v.checked, n);
  EXPECT_EQ(v.mismatches, R > 1 ? 3 : 2);
  EXPECT_EQ(v.first_bad, bad0);
  const std::string owner = "rank " + std::to_string(R > 1 ? 0 : R - 1);
  EXPECT_NE(v.detail.find("out[" + std::to_string(bad0) + "] is " + owner),
            std::string::npos)
      << v.detail;
  EXPECT_NE(v.detail.find("= -12345"), std::string::npos) << v.detail;
}

TYPED_TEST(DistributedAdd, MismatchedDistributionsAreRejectedBeforeLaunch) {
  using Space = TypeParam;
  using M = typename Space::memory_space;
  DistributedVector<float, M> x("x", 10, MPI_COMM_WORLD),
      y("y", 10, MPI_COMM_WORLD), out("out", 11, MPI_COMM_WORLD);
  try {
    addscope::mpi::add(Space(), x, y, out);
    ADD_FAILURE() << "no exception";
  } catch (const addscope::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("distributions differ: x is N = 10"),
              std::string::npos)
        << e.what();
  }
}

TYPED_TEST(DistributedAdd, ChecksumDoesNotDependOnTheDistribution) {
  using Space = TypeParam;
  const std::int64_t n = 100003;
  const auto g = random_values<float>(std::size_t(n), 77);
  Space exec;
  // The whole vector over all ranks, and on each rank alone.
  const auto spread =
      addscope::mpi::checksum(exec, distribute<Space>("v", g, MPI_COMM_WORLD));
  const auto whole =
      addscope::mpi::checksum(exec, distribute<Space>("v", g, MPI_COMM_SELF));
  EXPECT_EQ(spread, whole);
  // A changed value, or two values swapped, change it.
  auto changed = g;
  changed[n / 2] = std::nextafter(changed[n / 2], 1e9f);
  EXPECT_NE(addscope::mpi::checksum(
                exec, distribute<Space>("v", changed, MPI_COMM_WORLD)),
            spread);
  auto swapped = g;
  std::swap(swapped[1], swapped[n - 2]);
  EXPECT_NE(addscope::mpi::checksum(
                exec, distribute<Space>("v", swapped, MPI_COMM_WORLD)),
            spread);
  // Asynchronous form into a device View: the local part.
  auto v = distribute<Space>("v", g, MPI_COMM_WORLD);
  Kokkos::View<std::uint64_t, typename Space::memory_space> r("r");
  addscope::mpi::checksum_async(exec, v, r);
  exec.fence();
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), r);
  std::uint64_t mine = h(), all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(all, spread);
}
