// A STREAM-style program (as BabelStream's Kokkos model writes it: member
// functions launching unlabelled lambdas), a fence after every kernel.
// Every wait is in a fence the program wrote; the kernel names are lambda
// types. Prints the best bandwidth of each kernel, and "cost: stream_add
// GBS GB/s" and "cost: stream_triad GBS GB/s" (tests/perf/waits_cost.sh).
// Usage: addscope-test-stream-fenced [n=10^7] [iterations=100]
#include <algorithm>
#include <cstdio>

#include "tool_programs.hpp"

using namespace tool_programs;

template <class T>
class StreamCase {
 public:
  explicit StreamCase(long n) : a_("a", n), b_("b", n), c_("c", n), n_(n) {}
  void init() {
    auto a = a_, b = b_, c = c_;
    Kokkos::parallel_for(
        n_, KOKKOS_LAMBDA(long i) {
          a(i) = T(0.1);
          b(i) = T(0.2);
          c(i) = T(0.0);
        });
    Kokkos::fence();
  }
  void copy() {
    auto a = a_, c = c_;
    Kokkos::parallel_for(
        n_, KOKKOS_LAMBDA(long i) { c(i) = a(i); });
    Kokkos::fence();
  }
  void mul() {
    auto b = b_, c = c_;
    Kokkos::parallel_for(
        n_, KOKKOS_LAMBDA(long i) { b(i) = T(0.4) * c(i); });
    Kokkos::fence();
  }
  void add() {
    auto a = a_, b = b_, c = c_;
    Kokkos::parallel_for(
        n_, KOKKOS_LAMBDA(long i) { c(i) = a(i) + b(i); });
    Kokkos::fence();
  }
  void triad() {
    auto a = a_, b = b_, c = c_;
    Kokkos::parallel_for(
        n_, KOKKOS_LAMBDA(long i) { a(i) = b(i) + T(0.4) * c(i); });
    Kokkos::fence();
  }
  T dot() {
    auto a = a_, b = b_;
    T sum = 0;
    Kokkos::parallel_reduce(
        n_, KOKKOS_LAMBDA(long i, T& s) { s += a(i) * b(i); }, sum);
    return sum;
  }

 private:
  Kokkos::View<T*> a_, b_, c_;
  long n_;
};

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  {
    const long n = arg(argc, argv, 1, 10000000);
    const int iters = int(arg(argc, argv, 2, 100));
    StreamCase<float> s(n);
    s.init();
    double best[5] = {1e30, 1e30, 1e30, 1e30, 1e30};
    float sum = 0;
    const double t0 = now_s();
    for (int it = 0; it < iters; ++it) {
      double t = now_s();
      s.copy();
      best[0] = std::min(best[0], now_s() - t);
      t = now_s();
      s.mul();
      best[1] = std::min(best[1], now_s() - t);
      t = now_s();
      s.add();
      best[2] = std::min(best[2], now_s() - t);
      t = now_s();
      s.triad();
      best[3] = std::min(best[3], now_s() - t);
      t = now_s();
      sum = s.dot();
      best[4] = std::min(best[4], now_s() - t);
    }
    const double total = now_s() - t0;
    const double fb = double(sizeof(float)) * double(n) * 1e-9;
    std::printf(
        "stream_fenced: n %ld, %d iterations, %.4f s; best GB/s: copy %.1f mul "
        "%.1f add %.1f triad %.1f dot %.1f (dot %g)\n",
        n, iters, total, 2 * fb / best[0], 2 * fb / best[1], 3 * fb / best[2],
        3 * fb / best[3], 2 * fb / best[4], double(sum));
    std::printf("cost: stream_add %.2f GB/s\n", 3 * fb / best[2]);
    std::printf("cost: stream_triad %.2f GB/s\n", 3 * fb / best[3]);
  }
  Kokkos::finalize();
  return 0;
}
