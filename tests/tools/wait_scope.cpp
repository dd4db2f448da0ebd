// A program that names a region of its own code with addscope::WaitScope
// (the one test program here that uses addscope): a slow kernel, then a
// read of one element inside the scope. Under the waits tool the read's
// hidden wait is reported in region user::assemble — once, not twice.
// Usage: addscope-test-wait-scope [n=10^7]
#include <addscope/addscope.hpp>
#include <cstdio>

#include "tool_programs.hpp"

using namespace tool_programs;

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  {
    const long n = arg(argc, argv, 1, 10000000);
    Kokkos::View<float*> x("x", n), y("y", n), out("out", n);
    fill(x, y);
    float v = 0;
    {
      addscope::WaitScope scope("user::assemble");
      slow_add("user::slow_scoped", Space(), x, y, out);
      auto one = Kokkos::subview(out, std::make_pair(2, 3));
      auto h = Kokkos::create_mirror_view(one);
      Kokkos::deep_copy(h, one);
      v = h(0);
    }
    std::printf("wait_scope: out[2] = %g\n", double(v));
    if (v != 5.0f) return 1;
  }
  Kokkos::finalize();
  return 0;
}
