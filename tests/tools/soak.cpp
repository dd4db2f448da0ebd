// A long run for a Kokkos Tools library to keep up with: one profiling
// region open for the whole run, KERNELS small kernels on the default
// execution space, a deep_copy of one element to the host every COPY_EVERY
// kernels (which waits for the kernels before it on a device). Plain Kokkos:
// it knows nothing of addscope.
//
// It measures itself, so that a tool loaded into it can be judged by how the
// run changes from its first tenth to its last:
//   * time per kernel in chunks of CHUNK kernels: the mean over the first and
//     the last tenth, and the fastest chunk of each (a loaded machine only
//     makes chunks slower; a tool whose cost grows with the run makes even
//     the fastest chunk of the last tenth slower);
//   * peak resident memory (VmHWM) after the first tenth and at the end, and
//     the current (VmRSS) at the end.
// Usage: addscope-test-soak [kernels=1000000] [copy_every=10] [chunk=1000]
// Prints one line "soak: ..." with every figure (times in ns per kernel,
// memory in KiB).
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

namespace {

// A field of /proc/self/status in KiB ("VmHWM", "VmRSS"); -1 if unknown.
long status_kib(const char* field) {
  std::ifstream f("/proc/self/status");
  std::string line;
  const std::size_t n = std::strlen(field);
  while (std::getline(f, line))
    if (line.compare(0, n, field) == 0 && line.size() > n && line[n] == ':')
      return std::atol(line.c_str() + n + 1);
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  {
    const long n = argc > 1 ? std::atol(argv[1]) : 1000000;
    const long copy_every = argc > 2 ? std::atol(argv[2]) : 10;
    const long chunk = argc > 3 ? std::atol(argv[3]) : 1000;
    if (n < 10 * chunk || copy_every < 1 || chunk < 1) {
      std::fprintf(
          stderr,
          "soak: kernels=%ld must be >= 10 x chunk=%ld, copy_every=%ld "
          ">= 1\n",
          n, chunk, copy_every);
      Kokkos::finalize();
      return 2;
    }
    Kokkos::View<float*> v("soak::v", 1);
    auto h = Kokkos::create_mirror_view(v);
    using clock = std::chrono::steady_clock;
    const long tenth = n / 10;
    double first_s = 0, last_s = 0;
    double first_min = 1e300, last_min = 1e300;
    long hwm_tenth = -1;
    Kokkos::Profiling::pushRegion("soak::run");
    auto chunk_t0 = clock::now();
    for (long i = 0; i < n; ++i) {
      Kokkos::parallel_for(
          "soak::step", Kokkos::RangePolicy<>(0, 1),
          KOKKOS_LAMBDA(int j) { v(j) += 1.0f; });
      if ((i + 1) % copy_every == 0) Kokkos::deep_copy(h, v);
      if ((i + 1) % chunk == 0) {
        const auto t = clock::now();
        const double s = std::chrono::duration<double>(t - chunk_t0).count();
        chunk_t0 = t;
        if (i < tenth) {
          first_s += s;
          first_min = std::min(first_min, s);
        } else if (i >= n - tenth) {
          last_s += s;
          last_min = std::min(last_min, s);
        }
        if (i + 1 == tenth - tenth % chunk) hwm_tenth = status_kib("VmHWM");
      }
    }
    Kokkos::Profiling::popRegion();
    Kokkos::fence();
    const long hwm_end = status_kib("VmHWM");
    const long rss_end = status_kib("VmRSS");
    // Chunks counted in each tenth (the tenth may not be a whole number of
    // chunks).
    const long chunks = std::max(1L, (tenth - tenth % chunk) / chunk);
    const double per = 1e9 / double(chunk);
    std::printf(
        "soak: %ld kernels, deep_copy every %ld, chunks of %ld: first tenth "
        "%.1f ns/kernel (fastest chunk %.1f), last tenth %.1f ns/kernel "
        "(fastest chunk %.1f); peak RSS after the first tenth %ld KiB, at the "
        "end %ld KiB; RSS at the end %ld KiB; value %.0f\n",
        n, copy_every, chunk, first_s / double(chunks) * per, first_min * per,
        last_s / double(chunks) * per, last_min * per, hwm_tenth, hwm_end,
        rss_end, double(h(0)));
  }
  Kokkos::finalize();
  return 0;
}
