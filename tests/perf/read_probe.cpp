// Where does the time of reading out[2] go after a long kernel? A GPU
// investigation (issue 13: the demo's fenced read measured 3.2 ms and 6.0 ms
// in two float runs on the H200, 18.5-22 us in others).
//
// After a team:1x1 add of N floats (hundreds of ms) and a fence, it reads
// out[2] `reads` times as the demo does — create_mirror_view of the
// one-element subview, then deep_copy — and times each read's parts one by
// one, not as medians:
//   label    src.label(): Kokkos 3.4 copies the allocation header from the
//            device (a synchronous cudaMemcpy)
//   alloc    the host View, WithoutInitializing (host allocation only)
//   mirror   create_mirror_view (label + allocation + initialisation, which
//            is a parallel_for on the default host space: OpenMP)
//   copy     deep_copy(mirror, out[2])
//   pinned   deep_copy into a pinned one-element View made beforehand
// and, for comparison, the same without a kernel before (idle GPU).
//   addscope-read-probe [n] [reads] [rounds]
#include <Kokkos_Core.hpp>
#include <addscope/addscope.hpp>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {
using Exec = Kokkos::DefaultExecutionSpace;
using Mem = Exec::memory_space;

template <class T>
void probe(const char* type, std::int64_t n, int reads, int rounds) {
  Exec exec;
  Kokkos::View<T*, Mem> x("x", n), y("y", n), out("out", n);
  Kokkos::deep_copy(x, T(1));
  Kokkos::deep_copy(y, T(2));
  const auto one = addscope::parse_launch_config("team:1x1");
  addscope::add(exec, x, y, out);  // module load
  exec.fence();
  auto e = addscope::element(out, 2);
  using Mirror = decltype(Kokkos::create_mirror_view(e));
  auto pinned = addscope::make_host_array<T, addscope::PinnedHostSpace>("p", 1);
  for (int round = 0; round < rounds; ++round) {
    for (int after_kernel = 1; after_kernel >= 0; --after_kernel) {
      double kernel_s = 0;
      if (after_kernel) {
        exec.fence();
        kernel_s = addscope::time_host([&] {
          addscope::add(exec, x, y, out, one);
          exec.fence();
        });
      }
      for (int i = 0; i < reads; ++i) {
        std::string label;
        const double t_label =
            addscope::time_host([&] { label = std::string(e.label()); });
        Kokkos::View<T*, Kokkos::HostSpace> raw;
        const double t_alloc = addscope::time_host([&] {
          raw = Kokkos::View<T*, Kokkos::HostSpace>(
              Kokkos::view_alloc(Kokkos::WithoutInitializing, "raw"), 1);
        });
        Mirror m;
        const double t_mirror =
            addscope::time_host([&] { m = Kokkos::create_mirror_view(e); });
        const double t_copy =
            addscope::time_host([&] { Kokkos::deep_copy(m, e); });
        const double t_pinned =
            addscope::time_host([&] { Kokkos::deep_copy(pinned, e); });
        std::printf(
            "%s round %d %-12s kernel %9.3f ms read %d: label %8.1f us  "
            "alloc %7.1f us  mirror %8.1f us  copy %8.1f us  pinned %7.1f us"
            "  value %g\n",
            type, round, after_kernel ? "after-kernel" : "idle-gpu",
            kernel_s * 1e3, i, t_label * 1e6, t_alloc * 1e6, t_mirror * 1e6,
            t_copy * 1e6, t_pinned * 1e6, double(m(0)));
      }
    }
  }
}
}  // namespace

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  {
    const std::int64_t n = argc > 1 ? std::atoll(argv[1]) : 10000000;
    const int reads = argc > 2 ? std::atoi(argv[2]) : 5;
    const int rounds = argc > 3 ? std::atoi(argv[3]) : 2;
    const char* omp = std::getenv("OMP_NUM_THREADS");
    std::printf(
        "read_probe: n = %lld, %d reads, %d rounds, %s, host %s (%d "
        "threads, OMP_NUM_THREADS=%s)\n",
        (long long)n, reads, rounds, Exec::name(),
        Kokkos::DefaultHostExecutionSpace::name(),
        Kokkos::DefaultHostExecutionSpace().concurrency(), omp ? omp : "unset");
    probe<float>("float", n, reads, rounds);
    probe<double>("double", n, reads, rounds);
  }
  Kokkos::finalize();
  return 0;
}
