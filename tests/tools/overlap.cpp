// The healthy pattern: launch a slow kernel, do useful host work longer than
// it, then fence. Nobody waits; the kernel overlaps the host work.
// Usage: addscope-test-overlap [n=10^7] [host_ms=1000]
#include <cstdio>

#include "tool_programs.hpp"

using namespace tool_programs;

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  {
    const long n = arg(argc, argv, 1, 10000000);
    const double host_s = double(arg(argc, argv, 2, 1000)) * 1e-3;
    Kokkos::View<float*> x("x", n), y("y", n), out("out", n);
    fill(x, y);
    const double t0 = now_s();
    slow_add("probe::slow_add[1x1]", Space(), x, y, out);
    volatile double acc = 0;  // the host's own work
    while (now_s() - t0 < host_s) acc = acc + 1.0;
    const double t1 = now_s();
    Kokkos::fence();
    const double t2 = now_s();
    std::printf("overlap: host work %.3f s, then fence %.6f s\n", t1 - t0,
                t2 - t1);
  }
  Kokkos::finalize();
  return 0;
}
