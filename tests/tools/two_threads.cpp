// Two host threads, each with its own instance: a slow kernel, then a
// deep_copy of one element to the host (which waits for it). On host
// backends the main thread does both in turn (Kokkos 3.x host spaces are
// initialized per thread).
// Usage: addscope-test-two-threads [n=10^7]
#include <cstdio>
#include <thread>
#include <type_traits>

#include "tool_programs.hpp"

using namespace tool_programs;

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  int bad = 0;
  {
    const long n = arg(argc, argv, 1, 10000000);
    Kokkos::View<float*> x("x", n), y("y", n), a("a", n), b("b", n);
    fill(x, y);
    auto inst = instances(2);
    Kokkos::View<float*, Kokkos::HostSpace> h[2] = {
        Kokkos::View<float*, Kokkos::HostSpace>("h0", 1),
        Kokkos::View<float*, Kokkos::HostSpace>("h1", 1)};
    auto work = [&](int t, Kokkos::View<float*> out) {
      slow_add("user::slow_t" + std::to_string(t), inst[t], x, y, out);
      auto one = Kokkos::subview(out, std::make_pair(2L, 3L));
      Kokkos::deep_copy(inst[t], h[t], one);
      inst[t].fence();
      if (h[t](0) != 5.0f) bad = 1;
    };
    if (std::is_same<Space, Kokkos::DefaultHostExecutionSpace>::value) {
      work(0, a);
      work(1, b);
    } else {
      std::thread t0(work, 0, a), t1(work, 1, b);
      t0.join();
      t1.join();
    }
    std::printf("two_threads: %s\n", bad ? "wrong values" : "ok");
  }
  Kokkos::finalize();
  return bad;
}
