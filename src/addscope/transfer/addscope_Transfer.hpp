// addscope — host mirrors (pageable and pinned) and the copies between them
// and device Views: whole arrays and single elements. Knows nothing of
// which kernel ran.
#ifndef ADDSCOPE_TRANSFER_TRANSFER_HPP
#define ADDSCOPE_TRANSFER_TRANSFER_HPP

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "addscope/core/addscope_Error.hpp"

namespace addscope {

/// Page-locked host memory where the backend has it (CudaHostPinnedSpace),
/// else plain HostSpace.
#if defined(KOKKOS_ENABLE_CUDA)
using PinnedHostSpace = Kokkos::CudaHostPinnedSpace;
constexpr bool has_pinned_host_space = true;
#else
using PinnedHostSpace = Kokkos::HostSpace;
constexpr bool has_pinned_host_space = false;
#endif
using PageableHostSpace = Kokkos::HostSpace;

/// Which way a copy goes.
enum class CopyDirection {
  HostToDevice,    ///< "H2D"
  DeviceToHost,    ///< "D2H"
  DeviceToDevice,  ///< "D2D": both ends in the execution space's memory
};
inline const char* to_string(CopyDirection d) {
  switch (d) {
    case CopyDirection::HostToDevice:
      return "H2D";
    case CopyDirection::DeviceToHost:
      return "D2H";
    case CopyDirection::DeviceToDevice:
      return "D2D";
  }
  return "?";
}

/// The memory at the host end of a copy (Device for D2D).
enum class MemoryKind { Pageable, Pinned, Device };
inline const char* to_string(MemoryKind m) {
  switch (m) {
    case MemoryKind::Pageable:
      return "pageable";
    case MemoryKind::Pinned:
      return "pinned";
    case MemoryKind::Device:
      return "device";
  }
  return "?";
}

/// A contiguous host array of `n` elements in `Space`, not initialised
/// (allocation only — never part of a timed transfer).
template <class T, class Space>
Kokkos::View<T*, Kokkos::LayoutRight, Space> make_host_array(
    const std::string& label, std::int64_t n) {
  static_assert(
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, Space>::accessible,
      "addscope::make_host_array: Space must be host-accessible");
  ADDSCOPE_THROW_IF(n < 0, "n = " << n << " is invalid; allowed: >= 0");
  return Kokkos::View<T*, Kokkos::LayoutRight, Space>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, label), std::size_t(n));
}

/// The one-element subview v(i:i+1) (the seed's out[2]).
template <class View>
auto element(const View& v, std::int64_t i) {
  static_assert(View::rank == 1, "addscope::element: rank-1 View expected");
  ADDSCOPE_THROW_IF(i < 0 || i >= std::int64_t(v.extent(0)),
                    "index = " << i << " is out of range; allowed: 0.."
                               << std::int64_t(v.extent(0)) - 1);
  return Kokkos::subview(v, std::make_pair(std::size_t(i), std::size_t(i + 1)));
}

/// Copies src into dst after fencing `exec`, so that the copy is the only
/// thing that runs (earlier work is not charged to the transfer). Extents
/// must match.
template <class ExecSpace, class Dst, class Src>
void fenced_copy(const ExecSpace& exec, const Dst& dst, const Src& src) {
  static_assert(Dst::rank == 1 && Src::rank == 1,
                "addscope::fenced_copy: rank-1 Views expected");
  ADDSCOPE_THROW_IF(dst.extent(0) != src.extent(0),
                    "extents differ: dst.extent(0) = "
                        << dst.extent(0) << ", src.extent(0) = "
                        << src.extent(0) << "; allowed: equal");
  exec.fence();
  Kokkos::deep_copy(dst, src);
}

}  // namespace addscope

#endif
