// addscope — inputs for the add: random, reproducible from a seed, never a
// value that hides a wrong result (the demo's, the bench's and the sweep's).
#ifndef ADDSCOPE_COMPUTE_INPUTS_HPP
#define ADDSCOPE_COMPUTE_INPUTS_HPP

#include <Kokkos_Core.hpp>
#include <Kokkos_Random.hpp>
#include <cstdint>
#include <type_traits>

namespace addscope {

/// Fills x and y with random values from `seed`: floating point uniform in
/// [-1000, 1000), integers in [-10^6, 10^6) (sums exact, no overflow).
template <class ExecSpace, class XView, class YView>
void fill_inputs(const ExecSpace& exec, const XView& x, const YView& y,
                 std::uint64_t seed) {
  using T = typename XView::non_const_value_type;
  Kokkos::Random_XorShift64_Pool<ExecSpace> pool(seed);
  const T lo = std::is_floating_point<T>::value ? T(-1000) : T(-1000000);
  const T hi = std::is_floating_point<T>::value ? T(1000) : T(1000000);
  Kokkos::fill_random(x, pool, lo, hi);
  Kokkos::fill_random(y, pool, lo, hi);
  exec.fence();
  Kokkos::fence();
}

}  // namespace addscope

#endif
