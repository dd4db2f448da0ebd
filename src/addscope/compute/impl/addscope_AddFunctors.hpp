// addscope — the functors behind add(); one per policy. Internal.
#ifndef ADDSCOPE_COMPUTE_IMPL_ADDFUNCTORS_HPP
#define ADDSCOPE_COMPUTE_IMPL_ADDFUNCTORS_HPP

#include <Kokkos_Core.hpp>
#include <cstdint>

namespace addscope {
namespace Impl {

/// RangePolicy body: work item j adds elements j, j+m, ..., j+(K-1)m
/// (m = ceil(n/K)), so neighbouring work items touch neighbouring elements
/// and each item has K independent loads in flight.
template <int K, class XView, class YView, class OutView>
struct AddRangeFunctor {
  XView x;
  YView y;
  OutView out;
  std::int64_t n;
  std::int64_t m;  // number of work items

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t j) const {
    if (K == 1) {
      out(j) = x(j) + y(j);
    } else {
#ifdef KOKKOS_ENABLE_CUDA
#pragma unroll
#endif
      for (int k = 0; k < K; ++k) {
        const std::int64_t i = j + k * m;
        if (i < n) out(i) = x(i) + y(i);
      }
    }
  }
};

/// TeamPolicy body: a grid-stride loop over all n elements, correct for any
/// league and team size (team:1x1 is one thread adding everything).
template <class XView, class YView, class OutView, class Member>
struct AddTeamFunctor {
  XView x;
  YView y;
  OutView out;
  std::int64_t n;

  KOKKOS_INLINE_FUNCTION void operator()(const Member& member) const {
    const std::int64_t stride =
        std::int64_t(member.league_size()) * member.team_size();
    for (std::int64_t i =
             std::int64_t(member.league_rank()) * member.team_size() +
             member.team_rank();
         i < n; i += stride) {
      out(i) = x(i) + y(i);
    }
  }
};

}  // namespace Impl
}  // namespace addscope

#endif
