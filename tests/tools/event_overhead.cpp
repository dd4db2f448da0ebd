// Measures what a Kokkos Tools library costs per event: run it once plainly
// and once with the library loaded, and compare the per-iteration times.
// Each iteration is one empty parallel_for + one fence, and one deep_copy of
// a single element from the default memory space to the host.
// Usage: addscope-test-event-overhead [iterations]
#include <Kokkos_Core.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  {
    const int iters = argc > 1 ? std::atoi(argv[1]) : 20000;
    Kokkos::View<float*> v("v", 1);
    auto h = Kokkos::create_mirror_view(v);
    auto now = [] { return std::chrono::steady_clock::now(); };
    auto us = [](auto a, auto b) {
      return std::chrono::duration<double, std::micro>(b - a).count();
    };
    for (int i = 0; i < 100; ++i)  // warm-up
      Kokkos::parallel_for("overhead::empty", 1, KOKKOS_LAMBDA(int){});
    Kokkos::fence();
    const auto t0 = now();
    for (int i = 0; i < iters; ++i) {
      Kokkos::parallel_for("overhead::empty", 1, KOKKOS_LAMBDA(int){});
      Kokkos::fence();
    }
    const auto t1 = now();
    for (int i = 0; i < iters; ++i) Kokkos::deep_copy(h, v);
    const auto t2 = now();
    std::printf(
        "event_overhead: %d iterations: launch+fence %.3f us, "
        "deep_copy %.3f us per iteration\n",
        iters, us(t0, t1) / iters, us(t1, t2) / iters);
  }
  Kokkos::finalize();
  return 0;
}
