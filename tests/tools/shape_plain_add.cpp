// The add as most people write it: parallel_for(label, n, lambda), Kokkos
// picks the launch shape (Kokkos 3.4 on CUDA: 64-thread blocks). Fenced,
// repeated. Prints the Kokkos version and out[2].
// Usage: addscope-test-shape-plain-add [n=2^24] [repeat=20]
#include <cstdio>

#include "tool_programs.hpp"

using namespace tool_programs;

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  {
    const long n = arg(argc, argv, 1, 1L << 24);
    const int repeat = int(arg(argc, argv, 2, 20));
    Kokkos::View<float*> x("x", n), y("y", n), out("out", n);
    fill(x, y);
    for (int r = 0; r < repeat; ++r) {
      Kokkos::parallel_for(
          "user::plain_add", n,
          KOKKOS_LAMBDA(long i) { out(i) = x(i) + y(i); });
      Kokkos::fence();
    }
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    std::printf("shape_plain_add: kokkos %d, out[2] = %g\n", KOKKOS_VERSION,
                double(h(2)));
    if (h(2) != 5.0f) return 1;
  }
  Kokkos::finalize();
  return 0;
}
