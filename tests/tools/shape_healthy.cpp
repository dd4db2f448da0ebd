// Launch shapes that keep the device busy, and small ones that do not
// matter: a triad over n elements as a RangePolicy and as a TeamPolicy of
// 4096 teams of 256 threads, a reduction, and one label launched with two
// shapes (over n elements, then over 100: a tiny kernel that must not be
// flagged). Every kernel fenced. Prints the Kokkos version and a checksum.
// Usage: addscope-test-shape-healthy [n=2^24] [repeat=10]
#include <algorithm>
#include <cstdio>

#include "tool_programs.hpp"

using namespace tool_programs;

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  {
    const long n = arg(argc, argv, 1, 1L << 24);
    const int repeat = int(arg(argc, argv, 2, 10));
    Kokkos::View<float*> x("x", n), y("y", n), out("out", n);
    fill(x, y);
    using Team = Kokkos::TeamPolicy<Space>;
    // Teams stride over the array: at most 4096 of them (1M threads of a
    // GPU's 256-thread teams, more than it holds at once).
    auto triad_team = KOKKOS_LAMBDA(const Team::member_type& m) {
      const long stride = long(m.league_size()) * m.team_size();
      for (long i = long(m.league_rank()) * m.team_size() + m.team_rank();
           i < n; i += stride)
        out(i) = x(i) + 0.5f * y(i);
    };
    // 256-thread teams where the space allows them (host spaces: fewer).
    const int team = std::min(
        256, Team(1, 1).team_size_max(triad_team, Kokkos::ParallelForTag()));
    const int league = int(std::min<long>((n + team - 1) / team, 4096));
    for (int r = 0; r < repeat; ++r) {
      Kokkos::parallel_for(
          "user::triad_range", Kokkos::RangePolicy<Space>(0, n),
          KOKKOS_LAMBDA(long i) { out(i) = x(i) + 0.5f * y(i); });
      Kokkos::fence();
      Kokkos::parallel_for("user::triad_team", Team(league, team), triad_team);
      Kokkos::fence();
      for (long len : {n, 100L})
        Kokkos::parallel_for(
            "user::scale", Kokkos::RangePolicy<Space>(0, len),
            KOKKOS_LAMBDA(long i) { out(i) = 2.0f * x(i); });
      Kokkos::fence();
    }
    double sum = 0;
    Kokkos::parallel_reduce(
        "user::sum", Kokkos::RangePolicy<Space>(0, n),
        KOKKOS_LAMBDA(long i, double& s) { s += out(i); }, sum);
    std::printf("shape_healthy: kokkos %d, sum %.6g\n", KOKKOS_VERSION, sum);
  }
  Kokkos::finalize();
  return 0;
}
