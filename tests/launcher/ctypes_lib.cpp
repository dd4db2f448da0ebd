// A Kokkos library with a C interface, driven from Python through ctypes
// (ctypes_driver.py; issue 36's CI check): under the launcher the waits
// tool must name the Python lines that called into it, on a host backend
// as on a GPU. A View filled by a labelled kernel, copied into a host
// mirror (a real copy: create_mirror, never the same View), fenced.
#include <Kokkos_Core.hpp>

namespace {
bool g_started = false, g_ended = false;
}  // namespace

extern "C" {

int addscope_ctypes_init() {
  if (!g_started) {
    Kokkos::initialize();
    g_started = true;
  }
  return 0;
}

/// One step over n elements; returns the last one (0.5 * (n - 1)).
double addscope_ctypes_step(long n) {
  if (!g_started || g_ended || n < 1) return -1;
  Kokkos::View<double*> x("ctypes::x", n);
  Kokkos::parallel_for(
      "ctypes::fill", Kokkos::RangePolicy<>(0, n),
      KOKKOS_LAMBDA(const long i) { x(i) = 0.5 * double(i); });
  auto h = Kokkos::create_mirror(Kokkos::HostSpace(), x);
  Kokkos::deep_copy(h, x);
  Kokkos::fence();  // unnamed: Kokkos 3.4 has no labelled fence
  return h(n - 1);
}

void addscope_ctypes_finalize() {
  if (g_started && !g_ended) {
    Kokkos::finalize();
    g_ended = true;
  }
}

}  // extern "C"
