// A plain Kokkos program, as the seed's user wrote it: a vector add launched
// on one thread (league 1, team 1), no fence, then a read of out[2].
// It knows nothing of addscope.
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  {
    const int n = argc > 1 ? std::atoi(argv[1]) : 10000000;
    Kokkos::View<float*> x("x", n), y("y", n), out("out", n);
    Kokkos::parallel_for(
        "user::fill", n, KOKKOS_LAMBDA(int i) {
          x(i) = 0.5f * float(i % 1000);
          y(i) = 2.0f + float(i % 7);
        });
    Kokkos::fence();
    using Policy = Kokkos::TeamPolicy<>;
    Kokkos::parallel_for(
        "user::slow_add[1x1]", Policy(1, 1),
        KOKKOS_LAMBDA(const Policy::member_type&) {
          for (int i = 0; i < n; ++i) out(i) = x(i) + y(i);
        });
    auto one = Kokkos::subview(out, std::make_pair(2, 3));
    auto h = Kokkos::create_mirror_view(one);
    Kokkos::deep_copy(h, one);
    std::printf("out[2] = %g\n", double(h(0)));
    if (h(0) != 1.0f + 4.0f) return 1;
  }
  Kokkos::finalize();
  return 0;
}
