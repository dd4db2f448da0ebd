// Consumer of an installed addscope: adds two random vectors on the default
// execution space with a chosen configuration and checks every element.
#include <addscope/addscope.hpp>
#include <cstdio>
#include <random>

static_assert(ADDSCOPE_VERSION >= 100,
              "ADDSCOPE_VERSION comes with the headers");
#ifdef NLOHMANN_JSON_VERSION_MAJOR
#error "the umbrella header must not drag in nlohmann-json"
#endif

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  int bad = 0;
  {
    const int n = 100003;
    Kokkos::View<float*> x("x", n), y("y", n), out("out", n);
    auto hx = Kokkos::create_mirror_view(x), hy = Kokkos::create_mirror_view(y);
    std::mt19937 gen(42);
    std::uniform_real_distribution<float> d(-10.f, 10.f);
    for (int i = 0; i < n; ++i) hx(i) = d(gen), hy(i) = d(gen);
    Kokkos::deep_copy(x, hx);
    Kokkos::deep_copy(y, hy);
    for (const char* c : {"range", "team:auto", "blas"}) {
      Kokkos::deep_copy(out, -1.f);
      const auto ran = addscope::add(Kokkos::DefaultExecutionSpace(), x, y, out,
                                     addscope::parse_launch_config(c));
      if (ran.label.rfind("addscope::add[", 0) != 0) ++bad;
      auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
      for (int i = 0; i < n; ++i) bad += h(i) != hx(i) + hy(i);
    }
    std::printf("addscope consumer: %d wrong elements\n", bad);
  }
  Kokkos::finalize();
  return bad == 0 ? 0 : 1;
}
