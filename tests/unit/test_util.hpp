// Test helpers: random data, poison values, host references.
#ifndef ADDSCOPE_TEST_UTIL_HPP
#define ADDSCOPE_TEST_UTIL_HPP

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "addscope/timing/addscope_Stats.hpp"

namespace addscope_test {

/// A field of /proc/meminfo ("MemTotal:") in bytes, read here (0: none).
inline std::uint64_t meminfo_bytes(const std::string& key) {
  std::ifstream f("/proc/meminfo");
  std::string k, unit;
  std::uint64_t v = 0;
  while (f >> k >> v) {
    std::getline(f, unit);
    if (k == key) return unit.find("kB") != std::string::npos ? v * 1024 : v;
  }
  return 0;
}

/// Statistics of `count` runs from min to max around a median (quartiles
/// and mean at the median): what a result's spread and median look like to
/// the code that judges them.
inline addscope::Stats runs(double min_s, double median_s, double max_s,
                            std::size_t count = 3) {
  addscope::Stats s;
  s.count = count;
  s.min_s = min_s;
  s.q1_s = s.median_s = s.q3_s = s.mean_s = median_s;
  s.max_s = max_s;
  return s;
}

/// Random values that are never zero-filled and never overflow when added.
template <class T>
std::vector<T> random_values(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::vector<T> v(n);
  if constexpr (std::is_floating_point<T>::value) {
    std::uniform_real_distribution<T> d(T(-1000), T(1000));
    for (auto& e : v) e = d(gen);
  } else {
    std::uniform_int_distribution<T> d(std::numeric_limits<T>::min() / 4,
                                       std::numeric_limits<T>::max() / 4);
    for (auto& e : v) e = d(gen);
  }
  return v;
}

/// A value no correct add of random_values produces.
template <class T>
T poison() {
  if constexpr (std::is_floating_point<T>::value)
    return std::numeric_limits<T>::quiet_NaN();
  else
    return std::numeric_limits<T>::max();
}

template <class T>
bool same_value(T a, T b) {
  if constexpr (std::is_floating_point<T>::value)
    return a == b;  // NaN (poison) never compares equal
  else
    return a == b;
}

/// A device View filled from host values.
template <class T, class Space>
Kokkos::View<T*, typename Space::memory_space> to_device(
    const std::vector<T>& h, const char* label) {
  Kokkos::View<T*, typename Space::memory_space> d(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)),
      h.size());
  Kokkos::View<const T*, Kokkos::HostSpace,
               Kokkos::MemoryTraits<Kokkos::Unmanaged>>
      hv(h.data(), h.size());
  Kokkos::deep_copy(d, hv);
  return d;
}

/// Host copy of any rank-1 View (strided too).
template <class View>
std::vector<typename View::non_const_value_type> to_host(const View& v) {
  // Strided Views go through a contiguous copy in their own space first.
  Kokkos::View<typename View::non_const_value_type*,
               typename View::memory_space>
      c(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("copy")),
        v.extent(0));
  Kokkos::deep_copy(c, v);
  auto m = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c);
  std::vector<typename View::non_const_value_type> out(v.extent(0));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = m(i);
  return out;
}

}  // namespace addscope_test

#endif
