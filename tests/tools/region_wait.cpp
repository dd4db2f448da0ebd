// Waits inside a profiling region that Kokkos reports no event for: the
// program's own cudaMemcpy (hidden) and its own cudaDeviceSynchronize (a
// synchronization it asked for: explicit). On host backends, plain copies.
// Usage: addscope-test-region-wait [n=10^7]
#include <cstdio>
#include <cstring>

#include "tool_programs.hpp"
#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

using namespace tool_programs;

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  {
    const long n = arg(argc, argv, 1, 10000000);
    Kokkos::View<float*> x("x", n), y("y", n), out("out", n);
    fill(x, y);
    Kokkos::Profiling::pushRegion("user::phase");
    slow_add("user::slow_r1", Space(), x, y, out);
    float v = 0;
#if defined(KOKKOS_ENABLE_CUDA)
    cudaMemcpy(&v, out.data() + 2, sizeof v, cudaMemcpyDeviceToHost);
#else
    std::memcpy(&v, out.data() + 2, sizeof v);
#endif
    slow_add("user::slow_r2", Space(), x, y, out);
#if defined(KOKKOS_ENABLE_CUDA)
    cudaDeviceSynchronize();
#endif
    Kokkos::Profiling::popRegion();
    std::printf("region_wait: out[2] = %g\n", double(v));
    if (v != 5.0f) return 1;
  }
  Kokkos::finalize();
  return 0;
}
