// What the waits tool's test programs share: plain Kokkos (they know
// nothing of addscope), a deliberately slow kernel, execution space
// instances on any Kokkos version, a host clock.
#ifndef ADDSCOPE_TEST_TOOL_PROGRAMS_HPP
#define ADDSCOPE_TEST_TOOL_PROGRAMS_HPP

#include <Kokkos_Core.hpp>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>
#if defined(KOKKOS_ENABLE_CUDA) && KOKKOS_VERSION < 40000
#include <cuda_runtime.h>
#endif

namespace tool_programs {

using Space = Kokkos::DefaultExecutionSpace;

inline double now_s() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

inline long arg(int argc, char** argv, int i, long dflt) {
  return argc > i ? std::atol(argv[i]) : dflt;
}

/// out = x + y by a single thread: slow on purpose (~0.5 s for 10^7 floats
/// on an H200). Launched on `exec`, not fenced.
inline void slow_add(const std::string& label, const Space& exec,
                     Kokkos::View<float*> x, Kokkos::View<float*> y,
                     Kokkos::View<float*> out) {
  const int n = int(out.extent(0));
  Kokkos::parallel_for(
      label, Kokkos::RangePolicy<Space>(exec, 0, 1), KOKKOS_LAMBDA(int) {
        for (int i = 0; i < n; ++i) out(i) = x(i) + y(i);
      });
}

/// `count` execution space instances of the default space that may run
/// concurrently: partition_space on Kokkos 4.x (where the space has a
/// thread for each: a 1-thread OpenMP space partitioned in two aborts with
/// "Instance has no resource allocated to it", as tests/perf/waits_cost.sh
/// runs it); on 3.x with CUDA, instances on streams made here; otherwise the
/// default instance.
inline std::vector<Space> instances(int count) {
  std::vector<Space> v;
#if KOKKOS_VERSION >= 40000
  if (Space().concurrency() >= count) {
    std::vector<int> weights(std::size_t(count), 1);
    v = Kokkos::Experimental::partition_space(Space(), weights);
  } else {
    for (int i = 0; i < count; ++i) v.push_back(Space());
  }
#elif defined(KOKKOS_ENABLE_CUDA)
  for (int i = 0; i < count; ++i) {
    cudaStream_t s;
    cudaStreamCreate(&s);
    v.push_back(Kokkos::Cuda(s));
  }
#else
  for (int i = 0; i < count; ++i) v.push_back(Space());
#endif
  return v;
}

/// Fills x and y with values whose sum is known.
inline void fill(Kokkos::View<float*> x, Kokkos::View<float*> y) {
  Kokkos::parallel_for(
      "user::fill", Kokkos::RangePolicy<Space>(0, x.extent(0)),
      KOKKOS_LAMBDA(int i) {
        x(i) = 0.5f * float(i % 1000);
        y(i) = 2.0f + float(i % 7);
      });
  Kokkos::fence();
}

}  // namespace tool_programs

#endif
