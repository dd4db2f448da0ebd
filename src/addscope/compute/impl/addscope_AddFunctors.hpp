// addscope — the functors behind add(); one per policy. Internal.
#ifndef ADDSCOPE_COMPUTE_IMPL_ADDFUNCTORS_HPP
#define ADDSCOPE_COMPUTE_IMPL_ADDFUNCTORS_HPP

#include <Kokkos_Core.hpp>
#include <cstdint>

namespace addscope {
namespace Impl {

/// RangePolicy body: work item j adds K elements. Interleaved (GPUs):
/// j, j+m, ..., j+(K-1)m (m = ceil(n/K)), so neighbouring work items touch
/// neighbouring elements (coalesced) and each has K independent loads in
/// flight. Blocked (CPUs): jK .. jK+K-1, so each core streams its own lines.
template <int K, bool Interleaved, class XView, class YView, class OutView>
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
        const std::int64_t i = Interleaved ? j + k * m : j * K + k;
        if (i < n) out(i) = x(i) + y(i);
      }
    }
  }
};

/// 16 bytes of T: one vector load/store on GPUs (float4, double2, ...).
template <class T>
struct alignas(16) Pack16 {
  static constexpr int width = 16 / sizeof(T);
  T v[width];
};

/// RangePolicy body over 16-byte packs: work item j adds packs j, j+m, ...
/// (K of them); item 0 also adds the tail that does not fill a pack.
template <int K, class T>
struct AddPackFunctor {
  const Pack16<T>* x;
  const Pack16<T>* y;
  Pack16<T>* out;
  const T* xs;
  const T* ys;
  T* outs;
  std::int64_t packs;  // whole packs
  std::int64_t m;      // work items
  std::int64_t n;      // elements

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t j) const {
#ifdef KOKKOS_ENABLE_CUDA
#pragma unroll
#endif
    for (int k = 0; k < K; ++k) {
      const std::int64_t p = j + k * m;
      if (p < packs) {
        const Pack16<T> a = x[p], b = y[p];
        Pack16<T> c;
        for (int e = 0; e < Pack16<T>::width; ++e) c.v[e] = a.v[e] + b.v[e];
        out[p] = c;
      }
    }
    if (j == 0)
      for (std::int64_t i = packs * Pack16<T>::width; i < n; ++i)
        outs[i] = xs[i] + ys[i];
  }
};

/// TeamPolicy body, correct for any league and team size (team:1x1 is one
/// thread adding everything). The L*T threads split the n elements:
/// - Interleaved (GPUs): a grid-stride loop, so that neighbouring threads
///   touch neighbouring elements (coalesced).
/// - Blocked (CPUs): each thread takes one contiguous block, so that every
///   core streams through its own cache lines.
template <class XView, class YView, class OutView, class Member,
          bool Interleaved>
struct AddTeamFunctor {
  XView x;
  YView y;
  OutView out;
  std::int64_t n;

  KOKKOS_INLINE_FUNCTION void operator()(const Member& member) const {
    const std::int64_t threads =
        std::int64_t(member.league_size()) * member.team_size();
    const std::int64_t me =
        std::int64_t(member.league_rank()) * member.team_size() +
        member.team_rank();
    if (Interleaved) {
      for (std::int64_t i = me; i < n; i += threads) out(i) = x(i) + y(i);
    } else {
      const std::int64_t block = (n + threads - 1) / threads;
      const std::int64_t end = (me + 1) * block < n ? (me + 1) * block : n;
      for (std::int64_t i = me * block; i < end; ++i) out(i) = x(i) + y(i);
    }
  }
};

}  // namespace Impl
}  // namespace addscope

#endif
