// Why is a default RangePolicy add slow with Kokkos 3.4 on Hopper? This probe
// (CUDA builds only) reports the launch shape Kokkos picks and times
// variants of the same add side by side, with a raw CUDA add and
// cudaMemcpy D2D in the same run. Usage: addscope-range-probe [log2 sizes...]
#include <cuda_runtime.h>

#include <Kokkos_Core.hpp>
#include <addscope/addscope.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

using Exec = Kokkos::Cuda;
using V = Kokkos::View<float*, Kokkos::CudaSpace>;

struct ShapeProbe {
  V x, y, out;
  Kokkos::View<int*, Kokkos::CudaSpace> shape;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    out(i) = x(i) + y(i);
#ifdef __CUDA_ARCH__
    if (i == 0) {
      shape(0) = blockDim.x;
      shape(1) = blockDim.y;
      shape(2) = gridDim.x;
    }
#endif
  }
};

__global__ void raw_add(const float* x, const float* y, float* o, long n) {
  const long i = long(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) o[i] = x[i] + y[i];
}

__global__ void raw_add_ydim(const float* x, const float* y, float* o, long n) {
  const long i = long(blockIdx.x) * blockDim.y + threadIdx.y;
  if (i < n) o[i] = x[i] + y[i];
}

template <class F>
double median_s(F&& f, int reps = 30) {
  f();
  Kokkos::fence();
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    Kokkos::fence();
    const double t0 = addscope::host_seconds();
    f();
    Kokkos::fence();
    t.push_back(addscope::host_seconds() - t0);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// Device time from CUDA events on the legacy default stream (Kokkos 3.4's
// default instance launches there): no host fence overhead in it.
template <class F>
double median_event_s(F&& f, int reps = 30) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  f();
  Kokkos::fence();
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    cudaEventRecord(a, 0);
    f();
    cudaEventRecord(b, 0);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms * 1e-3);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  {
    std::vector<int> logs;
    for (int i = 1; i < argc; ++i)
      if (argv[i][0] != '-') logs.push_back(std::atoi(argv[i]));
    if (logs.empty()) logs = {0, 24, 28};  // 0 = 10^7
    for (int lg : logs) {
      const long n = lg == 0 ? 10000000L : (1L << lg);
      V x("x", n), y("y", n), out("out", n);
      Kokkos::deep_copy(x, 1.5f);
      Kokkos::deep_copy(y, 2.25f);
      Kokkos::View<int*, Kokkos::CudaSpace> shape("shape", 3);
      Kokkos::parallel_for(
          "probe::shape",
          Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(0, n),
          ShapeProbe{x, y, out, shape});
      auto hs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), shape);
      const double bytes = 3.0 * 4 * n;
      std::printf(
          "n=%ld: Kokkos RangePolicy launches block (%d,%d) x grid %d\n", n,
          hs(0), hs(1), hs(2));
      auto row = [&](const char* name, double s) {
        std::printf("  %-40s %9.1f us  %7.1f GB/s\n", name, s * 1e6,
                    bytes / s * 1e-9);
      };
      Exec exec;
      std::printf("  [fence + host clock | CUDA events]\n");
      for (const char* c :
           {"range:ilp=1", "range", "range:ilp=2", "range:ilp=8",
            "range:pack,ilp=1", "range:pack,ilp=2", "range:pack",
            "range:pack,ilp=8", "team:auto", "team:2112x256", "team:1056x256",
            "team:1056x512", "blas"}) {
        const auto cfg = addscope::parse_launch_config(c);
        auto f = [&] { addscope::add(exec, x, y, out, cfg); };
        const double h = median_s(f), e = median_event_s(f);
        std::printf("  %-28s %9.1f us %7.1f GB/s | %9.1f us %7.1f GB/s\n", c,
                    h * 1e6, bytes / h * 1e-9, e * 1e6, bytes / e * 1e-9);
      }
      row("RangePolicy LaunchBounds<256,1>", median_s([&] {
            Kokkos::parallel_for(
                Kokkos::RangePolicy<Exec, Kokkos::LaunchBounds<256, 1>>(0, n),
                KOKKOS_LAMBDA(long i) { out(i) = x(i) + y(i); });
          }));
      row("RangePolicy int index", median_s([&] {
            Kokkos::parallel_for(
                Kokkos::RangePolicy<Exec, Kokkos::IndexType<int>>(0, int(n)),
                KOKKOS_LAMBDA(int i) { out(i) = x(i) + y(i); });
          }));
      for (int b : {128, 256, 512, 1024}) {
        char name[64];
        std::snprintf(name, sizeof name, "raw CUDA add <<<n/%d, %d>>>", b, b);
        row(name, median_s([&] {
              raw_add<<<(n + b - 1) / b, b>>>(x.data(), y.data(), out.data(),
                                              n);
            }));
        std::snprintf(name, sizeof name, "raw CUDA add block(1,%d) y-index", b);
        row(name, median_s([&] {
              raw_add_ydim<<<(n + b - 1) / b, dim3(1, b, 1)>>>(
                  x.data(), y.data(), out.data(), n);
            }));
      }
      const double cp = median_s([&] {
        cudaMemcpy(out.data(), x.data(), n * 4, cudaMemcpyDeviceToDevice);
      });
      const double cpe = median_event_s([&] {
        cudaMemcpyAsync(out.data(), x.data(), n * 4, cudaMemcpyDeviceToDevice,
                        0);
      });
      std::printf("  %-40s %9.1f us  %7.1f GB/s (2 N s bytes, CUDA events)\n",
                  "cudaMemcpyAsync D2D", cpe * 1e6, 2.0 * 4 * n / cpe * 1e-9);
      std::printf("  %-40s %9.1f us  %7.1f GB/s (2 N s bytes)\n",
                  "cudaMemcpy D2D", cp * 1e6, 2.0 * 4 * n / cp * 1e-9);
      const double kc = median_s([&] { Kokkos::deep_copy(out, x); });
      std::printf("  %-40s %9.1f us  %7.1f GB/s (2 N s bytes)\n",
                  "Kokkos::deep_copy D2D", kc * 1e6, 2.0 * 4 * n / kc * 1e-9);
      const double empty = median_s([&] {
        Kokkos::parallel_for(Kokkos::RangePolicy<Exec>(0, 1),
                             KOKKOS_LAMBDA(int){});
      });
      std::printf("  %-40s %9.1f us\n", "empty Kokkos launch + fence",
                  empty * 1e6);
    }
  }
  Kokkos::finalize();
  return 0;
}
