// Two execution space instances, a slow kernel on each, then both fenced:
// they run concurrently (the wall time is one kernel's, not two). Prints
// the wall time, also as "cost: two_instances_wall SECONDS s"
// (tests/perf/waits_cost.sh).
// Usage: addscope-test-two-instances [n=10^7]
#include <cstdio>

#include "tool_programs.hpp"

using namespace tool_programs;

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  {
    const long n = arg(argc, argv, 1, 10000000);
    Kokkos::View<float*> x("x", n), y("y", n), a("a", n), b("b", n);
    fill(x, y);
    auto inst = instances(2);
    // Warm-up: first launches load the kernel.
    slow_add("user::warmup", inst[0], x, y,
             Kokkos::subview(a, std::make_pair(0L, 1L)));
    Kokkos::fence();
    const double t0 = now_s();
    slow_add("user::slow_a", inst[0], x, y, a);
    slow_add("user::slow_b", inst[1], x, y, b);
    inst[0].fence();
    inst[1].fence();
    const double t1 = now_s();
    std::printf("two_instances: wall %.4f s\n", t1 - t0);
    std::printf("cost: two_instances_wall %.6f s\n", t1 - t0);
  }
  Kokkos::finalize();
  return 0;
}
