// Measures what a Kokkos Tools library costs per event: run it once plainly
// and once with the library loaded, and compare the per-iteration times
// (tests/perf/waits_cost.sh does, in interleaved rounds). Three loops:
//   launch_fence  one empty parallel_for + one fence, per iteration;
//   deep_copy     one deep_copy of a single element from the default memory
//                 space to the host, per iteration;
//   burst_launch  `burst` empty parallel_fors back to back, then one fence:
//                 the time per launch (on a device: what a queue of launches
//                 costs the host, nothing waits in between).
// Usage: addscope-test-event-overhead [iterations=20000] [burst=100000]
// (burst 0: no burst). Each loop runs inside a region named cost::LOOP
// (what tests/tools/count_tool.cpp counts events by). Prints one summary
// line and one "cost: NAME VALUE UNIT" line per metric, plus "cost:
// exec_space NAME", "cost: kokkos VERSION" and "cost: concurrency N" (what
// tests/perf/waits_cost.sh reads).
#include <Kokkos_Core.hpp>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace {

// An integer argument in [lo, hi], or exit 2 naming it.
long parse_arg(int argc, char** argv, int i, const char* name, long dflt,
               long lo, long hi) {
  if (argc <= i) return dflt;
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(argv[i], &end, 10);
  if (errno != 0 || end == argv[i] || *end != '\0' || v < lo || v > hi) {
    std::fprintf(stderr,
                 "event_overhead: %s = '%s' is invalid; allowed: an integer "
                 "from %ld to %ld\n",
                 name, argv[i], lo, hi);
    std::exit(2);
  }
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  // Checked before Kokkos starts: a usage error loads no tool.
  const long iters =
      parse_arg(argc, argv, 1, "iterations", 20000, 1, 1000000000L);
  const long burst = parse_arg(argc, argv, 2, "burst", 100000, 0, 1000000000L);
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<float*> v("v", 1);
    auto h = Kokkos::create_mirror_view(v);
    auto now = [] { return std::chrono::steady_clock::now(); };
    auto us = [](auto a, auto b) {
      return std::chrono::duration<double, std::micro>(b - a).count();
    };
    for (int i = 0; i < 100; ++i)  // warm-up
      Kokkos::parallel_for("overhead::empty", 1, KOKKOS_LAMBDA(int){});
    Kokkos::fence();
    Kokkos::Profiling::pushRegion("cost::launch_fence");
    const auto t0 = now();
    for (long i = 0; i < iters; ++i) {
      Kokkos::parallel_for("overhead::empty", 1, KOKKOS_LAMBDA(int){});
      Kokkos::fence();
    }
    const auto t1 = now();
    Kokkos::Profiling::popRegion();
    Kokkos::Profiling::pushRegion("cost::deep_copy");
    const auto t2 = now();
    for (long i = 0; i < iters; ++i) Kokkos::deep_copy(h, v);
    const auto t3 = now();
    Kokkos::Profiling::popRegion();
    Kokkos::Profiling::pushRegion("cost::burst_launch");
    const auto t4 = now();
    for (long i = 0; i < burst; ++i)
      Kokkos::parallel_for("overhead::burst", 1, KOKKOS_LAMBDA(int){});
    Kokkos::fence();
    const auto t5 = now();
    Kokkos::Profiling::popRegion();
    const double lf = us(t0, t1) / double(iters);
    const double dc = us(t2, t3) / double(iters);
    const double bl = burst > 0 ? us(t4, t5) / double(burst) : 0.0;
    std::printf(
        "event_overhead: %ld iterations: launch+fence %.3f us, "
        "deep_copy %.3f us per iteration",
        iters, lf, dc);
    if (burst > 0)
      std::printf("; burst of %ld launches + 1 fence: %.3f us per launch",
                  burst, bl);
    std::printf("\n");
    std::printf("cost: launch_fence %.4f us\n", lf);
    std::printf("cost: deep_copy %.4f us\n", dc);
    if (burst > 0) std::printf("cost: burst_launch %.4f us\n", bl);
    std::printf("cost: exec_space %s\n", Kokkos::DefaultExecutionSpace::name());
    std::printf("cost: kokkos %d.%d.%d\n", KOKKOS_VERSION / 10000,
                KOKKOS_VERSION / 100 % 100, KOKKOS_VERSION % 100);
    std::printf("cost: concurrency %d\n",
                int(Kokkos::DefaultExecutionSpace().concurrency()));
  }
  Kokkos::finalize();
  return 0;
}
