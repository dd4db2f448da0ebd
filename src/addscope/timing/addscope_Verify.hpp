// addscope — verification of an add on the device: every element of out is
// compared with x + y computed again where the data lives. IEEE addition is
// exact (one correctly rounded operation), so the comparison is equality,
// for every type; NaN matches NaN.
#ifndef ADDSCOPE_TIMING_VERIFY_HPP
#define ADDSCOPE_TIMING_VERIFY_HPP

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <utility>

#include "addscope/compute/addscope_Add.hpp"
#include "addscope/core/addscope_Error.hpp"

namespace addscope {

/// What verify_add found.
struct Verification {
  std::int64_t checked = 0;     ///< elements compared (all of them)
  std::int64_t mismatches = 0;  ///< elements with out != x + y
  std::int64_t first_bad = -1;  ///< smallest such index (-1: none)
  std::string detail;           ///< "out[7] = 3, expected 1 + 4 = 5"
  bool ok() const { return mismatches == 0; }
};

namespace Impl {
/// out(i) != x(i) + y(i), where a NaN the add produced is the right answer.
template <class XView, class YView, class OutView>
struct AddMismatch {
  XView x;
  YView y;
  OutView out;
  KOKKOS_INLINE_FUNCTION bool at(const std::int64_t i) const {
    using T = typename OutView::non_const_value_type;
    const T want = x(i) + y(i);
    const T got = out(i);
    return !(got == want) && !(got != got && want != want);
  }
  /// parallel_reduce body counting mismatches.
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i,
                                         std::int64_t& bad) const {
    if (at(i)) ++bad;
  }
};

/// parallel_reduce body finding the smallest mismatching index (Min).
template <class Mismatch>
struct FirstMismatch {
  Mismatch m;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i,
                                         std::int64_t& first) const {
    if (i < first && m.at(i)) first = i;
  }
};

template <class View>
typename View::non_const_value_type read_one(const View& v, std::int64_t i) {
  auto e = Kokkos::subview(v, std::make_pair(i, i + 1));
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), e);
  return h(0);
}
}  // namespace Impl

/// Compares every out(i) with x(i) + y(i), computed on `exec` where the
/// Views live; returns how many differ and describes the first. out must
/// not be x or y (the inputs would have changed). Fences `exec`.
template <class ExecSpace, class XView, class YView, class OutView>
Verification verify_add(const ExecSpace& exec, const XView& x, const YView& y,
                        const OutView& out) {
  (void)sizeof(Impl::AddChecks<ExecSpace, XView, YView, OutView>);
  Impl::check_same_extents(x, y, out);
  Verification v;
  const std::int64_t n = std::int64_t(out.extent(0));
  v.checked = n;
  if (n == 0) return v;
  using Policy =
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using Mismatch = Impl::AddMismatch<XView, YView, OutView>;
  const Mismatch mismatch{x, y, out};
  Kokkos::parallel_reduce("addscope::verify_add[count]", Policy(exec, 0, n),
                          mismatch, v.mismatches);
  if (v.mismatches > 0) {
    std::int64_t first = n;
    Kokkos::parallel_reduce("addscope::verify_add[first]", Policy(exec, 0, n),
                            Impl::FirstMismatch<Mismatch>{mismatch},
                            Kokkos::Min<std::int64_t>(first));
    v.first_bad = first;
    using T = typename OutView::non_const_value_type;
    const T a = Impl::read_one(x, first), b = Impl::read_one(y, first),
            o = Impl::read_one(out, first);
    std::ostringstream os;
    os.precision(std::numeric_limits<T>::max_digits10);
    os << "out[" << first << "] = " << +o << ", expected " << +a << " + " << +b
       << " = " << +T(a + b) << " (" << v.mismatches << " of " << n
       << " elements wrong)";
    v.detail = os.str();
  }
  exec.fence();
  return v;
}

}  // namespace addscope

#endif
