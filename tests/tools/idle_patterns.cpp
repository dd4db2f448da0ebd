// Why is the device idle (issue 23)? Four plain Kokkos programs in one, each
// a pattern whose idle split is known in advance:
//   loop          the loop: a small add, a one-thread residual
//                 kernel, a deep_copy of the residual to the host, every
//                 iteration (region "probe::loop"): idle mostly
//                 synchronization round trips (the deep_copy), then launch
//                 latency
//   host_bound    a small kernel, then ~`work_us` of the program's own code
//                 before the next launch (region "probe::host"): idle mostly
//                 host code
//   launch_bound  a burst of one-element kernels, nothing between them:
//                 idle mostly launch latency
//   streaming     large adds queued back to back, one fence at the end:
//                 idle near 0
// It knows nothing of addscope; run it with libaddscope_waits.so loaded.
// Usage: addscope-test-idle-patterns MODE [iterations] [n] [work_us]
#include <cstdio>
#include <cstring>

#include "tool_programs.hpp"

using namespace tool_programs;

namespace {

// The program's own work: spins ~`us` microseconds of host time.
double host_work(double us) {
  const double until = now_s() + us * 1e-6;
  double x = 0;
  while (now_s() < until) x += 1e-9;
  return x;
}

int loop(long iters, long n) {
  Kokkos::View<float*> x("x", n), y("y", n);
  Kokkos::View<double> r("probe::r");
  auto r_h = Kokkos::create_mirror_view(r);
  Kokkos::deep_copy(x, 1.0f);
  Kokkos::deep_copy(y, 2.0f);
  Kokkos::fence();
  Kokkos::Profiling::pushRegion("probe::loop");
  for (long it = 0; it < iters; ++it) {
    Kokkos::parallel_for(
        "probe::add", Kokkos::RangePolicy<Space>(0, n),
        KOKKOS_LAMBDA(long i) { y(i) = y(i) + 1e-3f * x(i); });
    Kokkos::parallel_for(
        "probe::residual", Kokkos::RangePolicy<Space>(0, 1),
        KOKKOS_LAMBDA(long) {
          double s = 0;
          for (long i = 0; i < n; i += 64) s += double(y(i));
          r() = s;
        });
    Kokkos::deep_copy(r_h, r);
  }
  Kokkos::Profiling::popRegion();
  std::printf("idle_patterns loop: %ld iterations, residual %g\n", iters,
              r_h());
  return r_h() > 0 ? 0 : 1;
}

int host_bound(long iters, long n, double work_us) {
  Kokkos::View<float*> x("x", n);
  Kokkos::fence();
  double sink = 0;
  Kokkos::Profiling::pushRegion("probe::host");
  for (long it = 0; it < iters; ++it) {
    Kokkos::parallel_for(
        "probe::step", Kokkos::RangePolicy<Space>(0, n),
        KOKKOS_LAMBDA(long i) { x(i) += 1.0f; });
    sink += host_work(work_us);
  }
  Kokkos::Profiling::popRegion();
  Kokkos::fence();
  std::printf("idle_patterns host_bound: %ld iterations of %g us (%g)\n", iters,
              work_us, sink > 0 ? 1.0 : 0.0);
  return 0;
}

int launch_bound(long iters) {
  Kokkos::View<float*> x("x", 1);
  Kokkos::fence();
  for (long it = 0; it < iters; ++it)
    Kokkos::parallel_for(
        "probe::tiny", Kokkos::RangePolicy<Space>(0, 1),
        KOKKOS_LAMBDA(long) { x(0) += 1.0f; });
  Kokkos::fence();
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
  std::printf("idle_patterns launch_bound: %ld kernels, x = %g\n", iters,
              double(h(0)));
  return h(0) == float(iters) ? 0 : 1;
}

int streaming(long iters, long n) {
  Kokkos::View<float*> a("a", n), b("b", n), c("c", n);
  Kokkos::deep_copy(a, 1.0f);
  Kokkos::deep_copy(b, 2.0f);
  Kokkos::fence();
  for (long it = 0; it < iters; ++it)
    Kokkos::parallel_for(
        "probe::stream_add", Kokkos::RangePolicy<Space>(0, n),
        KOKKOS_LAMBDA(long i) { c(i) = a(i) + b(i); });
  Kokkos::fence();
  std::printf("idle_patterns streaming: %ld adds of %ld floats\n", iters, n);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode != "loop" && mode != "host_bound" && mode != "launch_bound" &&
      mode != "streaming") {
    std::fprintf(stderr,
                 "addscope-test-idle-patterns: MODE='%s' is not one of loop, "
                 "host_bound, launch_bound, streaming\n"
                 "usage: addscope-test-idle-patterns MODE [iterations] [n] "
                 "[work_us]\n",
                 mode.c_str());
    return 2;
  }
  int rc = 0;
  Kokkos::initialize(argc, argv);
  {
    const long iters = arg(argc, argv, 2, mode == "launch_bound" ? 2000 : 200);
    const long n =
        arg(argc, argv, 3, mode == "streaming" ? 1L << 26 : 1L << 16);
    const double work_us = double(arg(argc, argv, 4, 50));
    if (mode == "loop") rc = loop(iters, n);
    if (mode == "host_bound") rc = host_bound(iters, n, work_us);
    if (mode == "launch_bound") rc = launch_bound(iters);
    if (mode == "streaming") rc = streaming(iters, n);
  }
  Kokkos::finalize();
  return rc;
}
