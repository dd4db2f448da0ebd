// The seed's first mistake alone: a vector add launched as one block of one
// thread (TeamPolicy(1, 1)), then fenced — nothing hides the wait, the
// launch shape is the problem. Prints the Kokkos version and out[2].
// Usage: addscope-test-shape-starved [n=10^7]
#include <cstdio>

#include "tool_programs.hpp"

using namespace tool_programs;

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  {
    const long n = arg(argc, argv, 1, 10000000);
    Kokkos::View<float*> x("x", n), y("y", n), out("out", n);
    fill(x, y);
    using Policy = Kokkos::TeamPolicy<Space>;
    const int len = int(n);
    Kokkos::parallel_for(
        "user::starved_add", Policy(1, 1),
        KOKKOS_LAMBDA(const Policy::member_type&) {
          for (int i = 0; i < len; ++i) out(i) = x(i) + y(i);
        });
    Kokkos::fence();
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    std::printf("shape_starved: kokkos %d, out[2] = %g\n", KOKKOS_VERSION,
                double(h(2)));
    if (h(2) != 5.0f) return 1;
  }
  Kokkos::finalize();
  return 0;
}
