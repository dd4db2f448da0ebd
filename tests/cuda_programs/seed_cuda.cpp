// The seed's program in plain CUDA C++ (no Kokkos): a grid-stride add of N
// floats launched <<<1, 1>>>, no synchronization, then cudaMemcpy of
// out[2] to the host. Prints the launch and the read times
//   seed_cuda: N = 10000000, launch 0.01 ms, read of out[2] 570.0 ms (...)
// Usage: addscope-test-seed-cuda [N]
//        addscope-test-seed-cuda --burst LAUNCHES
//        addscope-test-seed-cuda --streams ROUNDS [N]
//        addscope-test-seed-cuda --syncs ROUNDS [N]
// (--burst: LAUNCHES empty launches back to back, then one
// cudaDeviceSynchronize; prints the host's time per launch
//   seed_cuda: burst 100000 launches, 2.41 us per launch
// for the cost of the tool's injection path beside its Kokkos path.
// --streams: ROUNDS times a stream created, the 1 x 1 add of N floats
// (default 2,000,000) launched on it, cudaStreamSynchronize on it, the
// stream destroyed (the next is often created at the same address: the
// tool must not take it for the destroyed one); one line per round
//   seed_cuda: stream round 1 handle 0x5555... synchronize 118.2 ms)
// --syncs: ROUNDS times the 1 x 1 add of N floats (default 512: some 30
// microseconds on an H100, over the tool's 10 us threshold) then
// cudaStreamSynchronize, at one line: a blocking call in a loop, each one a
// stack under the tool (the cost of a stack taken in a CUPTI callback, taken
// again at one place)
//   seed_cuda: syncs 20000 rounds of n = 512, 31.20 us per round
// Built by nvcc (through nvcc_wrapper) in CUDA builds only.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

__global__ void add(const float* x, const float* y, float* out, long long n) {
  const long long start = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = start; i < n; i += stride) out[i] = x[i] + y[i];
}

#define CHECK(call)                                      \
  do {                                                   \
    const cudaError_t e = (call);                        \
    if (e != cudaSuccess) {                              \
      std::fprintf(stderr, "seed_cuda: %s: %s\n", #call, \
                   cudaGetErrorString(e));               \
      return 1;                                          \
    }                                                    \
  } while (0)

// Back-to-back empty launches (n = 0: no element), one synchronize.
int burst(long long launches) {
  add<<<1, 1>>>(nullptr, nullptr, nullptr, 0);  // loads the module
  CHECK(cudaDeviceSynchronize());
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  for (long long i = 0; i < launches; ++i)
    add<<<1, 1>>>(nullptr, nullptr, nullptr, 0);
  CHECK(cudaDeviceSynchronize());
  const auto t1 = clock::now();
  CHECK(cudaGetLastError());
  std::printf("seed_cuda: burst %lld launches, %.3f us per launch\n", launches,
              std::chrono::duration<double, std::micro>(t1 - t0).count() /
                  double(launches));
  return 0;
}

// Three device arrays of n floats for --streams and --syncs, the kernel's
// module loaded by one launch on nothing (loading it is not a launch they
// time); release() checks the launches and frees them.
int arrays(long long n, float** x, float** y, float** out) {
  CHECK(cudaMalloc(x, n * sizeof(float)));
  CHECK(cudaMalloc(y, n * sizeof(float)));
  CHECK(cudaMalloc(out, n * sizeof(float)));
  add<<<1, 1>>>(*x, *y, *out, 0);  // loads the module
  CHECK(cudaDeviceSynchronize());
  return 0;
}
int release(float* x, float* y, float* out) {
  CHECK(cudaGetLastError());
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  CHECK(cudaFree(out));
  return 0;
}

// ROUNDS streams, one after the other, each with a slow kernel waited for
// by cudaStreamSynchronize, then destroyed.
int streams(int rounds, long long n) {
  float *x = nullptr, *y = nullptr, *out = nullptr;
  if (arrays(n, &x, &y, &out) != 0) return 1;
  using clock = std::chrono::steady_clock;
  for (int r = 1; r <= rounds; ++r) {
    cudaStream_t s = nullptr;
    CHECK(cudaStreamCreate(&s));
    add<<<1, 1, 0, s>>>(x, y, out, n);
    const auto t0 = clock::now();
    CHECK(cudaStreamSynchronize(s));
    const auto t1 = clock::now();
    std::printf("seed_cuda: stream round %d handle %p synchronize %.1f ms\n", r,
                static_cast<void*>(s),
                std::chrono::duration<double, std::milli>(t1 - t0).count());
    CHECK(cudaStreamDestroy(s));
  }
  return release(x, y, out);
}

// ROUNDS slow launches, each waited for at one line.
int syncs(long long rounds, long long n) {
  float *x = nullptr, *y = nullptr, *out = nullptr;
  if (arrays(n, &x, &y, &out) != 0) return 1;
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  for (long long r = 0; r < rounds; ++r) {
    add<<<1, 1>>>(x, y, out, n);
    CHECK(cudaStreamSynchronize(nullptr));
  }
  const auto t1 = clock::now();
  CHECK(cudaGetLastError());
  std::printf("seed_cuda: syncs %lld rounds of n = %lld, %.2f us per round\n",
              rounds, n,
              std::chrono::duration<double, std::micro>(t1 - t0).count() /
                  double(rounds));
  return release(x, y, out);
}

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--syncs") == 0) {
    const long long rounds = argc > 2 ? std::atoll(argv[2]) : 0;
    const long long n = argc > 3 ? std::atoll(argv[3]) : 512LL;
    if (argc < 3 || argc > 4 || rounds < 1 || n < 1) {
      std::fprintf(stderr,
                   "seed_cuda: --syncs ROUNDS [N]: ROUNDS = '%s' and N = "
                   "'%s'; allowed: ROUNDS >= 1, N >= 1\n",
                   argc > 2 ? argv[2] : "", argc > 3 ? argv[3] : "");
      return 2;
    }
    return syncs(rounds, n);
  }
  if (argc > 1 && std::strcmp(argv[1], "--streams") == 0) {
    const int rounds = argc > 2 ? std::atoi(argv[2]) : 0;
    const long long n = argc > 3 ? std::atoll(argv[3]) : 2000000LL;
    if (argc < 3 || argc > 4 || rounds < 1 || rounds > 8 || n < 1) {
      std::fprintf(stderr,
                   "seed_cuda: --streams ROUNDS [N]: ROUNDS = '%s' and N = "
                   "'%s'; allowed: ROUNDS 1 to 8, N >= 1\n",
                   argc > 2 ? argv[2] : "", argc > 3 ? argv[3] : "");
      return 2;
    }
    return streams(rounds, n);
  }
  if (argc > 1 && std::strcmp(argv[1], "--burst") == 0) {
    const long long launches = argc > 2 ? std::atoll(argv[2]) : 0;
    if (argc != 3 || launches < 1) {
      std::fprintf(stderr,
                   "seed_cuda: --burst LAUNCHES = '%s' is invalid; allowed: "
                   "an integer >= 1\n",
                   argc > 2 ? argv[2] : "");
      return 2;
    }
    return burst(launches);
  }
  const long long n = argc > 1 ? std::atoll(argv[1]) : 10000000LL;
  if (n < 3) {
    std::fprintf(stderr, "seed_cuda: N = %lld is invalid; allowed: N >= 3\n",
                 n);
    return 2;
  }
  float *x = nullptr, *y = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&y, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  std::vector<float> ones(n, 1.0f), twos(n, 2.0f);
  CHECK(cudaMemcpy(x, ones.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(y, twos.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  // Once on nothing, so that the launch timed below is not the module's
  // first (loading it is not the launch).
  add<<<1, 1>>>(x, y, out, 0);  // the seed's first launch of add
  CHECK(cudaDeviceSynchronize());
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  add<<<1, 1>>>(x, y, out, n);  // 1 block x 1 thread: the seed's launch
  const auto t1 = clock::now();
  float v = 0;
  CHECK(cudaMemcpy(&v, out + 2, sizeof v, cudaMemcpyDeviceToHost));
  const auto t2 = clock::now();
  CHECK(cudaGetLastError());
  const auto ms = [](clock::duration d) {
    return std::chrono::duration<double, std::milli>(d).count();
  };
  std::printf(
      "seed_cuda: N = %lld, launch %.2f ms, read of out[2] %.1f ms (out[2] = "
      "%g)\n",
      n, ms(t1 - t0), ms(t2 - t1), double(v));
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  CHECK(cudaFree(out));
  return v == 3.0f ? 0 : 1;
}
