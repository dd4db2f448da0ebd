// addscope — out = x + y on distributed vectors: every rank adds its own
// block (no communication: an add needs none), asynchronously like any
// Kokkos launch; the verification and a checksum combine all ranks.
#ifndef ADDSCOPE_MPI_DISTRIBUTEDADD_HPP
#define ADDSCOPE_MPI_DISTRIBUTEDADD_HPP

#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "addscope/compute/addscope_Add.hpp"
#include "addscope/core/addscope_Error.hpp"
#include "addscope/mpi/addscope_DistributedVector.hpp"
#include "addscope/mpi/impl/addscope_Gather.hpp"
#include "addscope/mpi/impl/addscope_MpiCheck.hpp"
#include "addscope/timing/addscope_Verify.hpp"

namespace addscope {
namespace mpi {

namespace Impl {
template <class A, class B>
void check_same_layout(const char* a_name, const A& a, const char* b_name,
                       const B& b) {
  ADDSCOPE_THROW_IF(a.distribution() != b.distribution(),
                    "distributions differ: " << a_name << " is "
                                             << a.distribution().describe()
                                             << ", " << b_name << " is "
                                             << b.distribution().describe()
                                             << "; allowed: the same N over "
                                                "the same ranks");
  int same = MPI_UNEQUAL;
  ADDSCOPE_MPI_CHECK(MPI_Comm_compare(a.comm(), b.comm(), &same));
  ADDSCOPE_THROW_IF(same != MPI_IDENT && same != MPI_CONGRUENT,
                    a_name << " and " << b_name
                           << " live on different communicators; allowed: "
                              "the same group of ranks in the same order");
}
}  // namespace Impl

/// out = x + y on this rank's blocks, launched on `exec` as `config` says
/// (addscope::add on the local Views: the same configurations, labels and
/// errors). Not collective; asynchronous. Ranks that own nothing launch
/// nothing. Throws InvalidArgument if the three vectors are not distributed
/// alike.
template <class ExecSpace, class T, class M>
AddLaunch add(const ExecSpace& exec, const DistributedVector<T, M>& x,
              const DistributedVector<T, M>& y,
              const DistributedVector<T, M>& out,
              const LaunchConfig& config = LaunchConfig()) {
  Impl::check_same_layout("x", x, "out", out);
  Impl::check_same_layout("y", y, "out", out);
  return addscope::add(exec, x.local(), y.local(), out.local(), config);
}

/// Every element of out compared with x + y on its rank (verify_add), the
/// counts summed over the ranks; first_bad is a global index and `detail`
/// comes from the rank that owns it. Collective; fences `exec`.
template <class ExecSpace, class T, class M>
Verification verify_add(const ExecSpace& exec, const DistributedVector<T, M>& x,
                        const DistributedVector<T, M>& y,
                        const DistributedVector<T, M>& out) {
  Impl::check_same_layout("x", x, "out", out);
  Impl::check_same_layout("y", y, "out", out);
  const Verification mine =
      addscope::verify_add(exec, x.local(), y.local(), out.local());
  const MPI_Comm comm = out.comm();
  std::int64_t counts[2] = {mine.checked, mine.mismatches}, sums[2] = {0, 0};
  ADDSCOPE_MPI_CHECK(
      MPI_Allreduce(counts, sums, 2, MPI_INT64_T, MPI_SUM, comm));
  const std::int64_t none = std::numeric_limits<std::int64_t>::max();
  std::int64_t first =
                   mine.first_bad >= 0 ? out.offset() + mine.first_bad : none,
               global_first = none;
  ADDSCOPE_MPI_CHECK(
      MPI_Allreduce(&first, &global_first, 1, MPI_INT64_T, MPI_MIN, comm));
  Verification v;
  v.checked = sums[0];
  v.mismatches = sums[1];
  if (global_first != none) {
    v.first_bad = global_first;
    const int owner = out.distribution().owner(global_first);
    std::string detail;
    if (out.rank() == owner)
      detail = "out[" + std::to_string(global_first) + "] is rank " +
               std::to_string(owner) + "'s out[" +
               std::to_string(mine.first_bad) + "]: " + mine.detail + "; " +
               std::to_string(v.mismatches) + " of " +
               std::to_string(v.checked) + " elements wrong on all ranks";
    v.detail = Impl::broadcast(comm, detail, owner);
  }
  return v;
}

namespace Impl {
/// splitmix64's finaliser: a bijection of 64-bit words that spreads every
/// input bit over the output.
KOKKOS_INLINE_FUNCTION std::uint64_t mix64(std::uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// The bits of an arithmetic value as a 64-bit word (zero-extended).
template <class T>
KOKKOS_INLINE_FUNCTION std::uint64_t bits_of(const T v) {
  static_assert(sizeof(T) <= 8,
                "addscope::mpi::checksum: values of 8 bytes "
                "or less");
  union {
    T value;
    unsigned char bytes[sizeof(T)];
  } u;
  u.value = v;
  std::uint64_t w = 0;
  for (std::size_t b = 0; b < sizeof(T); ++b)
    w |= std::uint64_t(u.bytes[b]) << (8 * b);
  return w;
}

template <class View>
struct ChecksumFunctor {
  View v;
  std::int64_t offset;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i,
                                         std::uint64_t& sum) const {
    sum += mix64(bits_of(v(i)) ^
                 (std::uint64_t(offset + i) * 0xD6E8FEB86659FD93ull));
  }
};
}  // namespace Impl

/// Launches (asynchronously, on `exec`) the checksum of this rank's block
/// into `result`, a one-element (rank-0) View in exec's memory: the sum,
/// modulo 2^64, over the local elements of a mix (splitmix64's finaliser)
/// of each element's bits and its global index. Exact and independent of the
/// order of summation: the ranks' checksums add up (MPI_SUM on MPI_UINT64_T) to
/// the same value however N is distributed, and any change of a value or of its
/// place changes it (with probability 1 - 2^-64).
template <class ExecSpace, class T, class M, class Result>
void checksum_async(const ExecSpace& exec, const DistributedVector<T, M>& v,
                    const Result& result) {
  static_assert(
      Result::rank == 0 &&
          std::is_same<typename Result::value_type, std::uint64_t>::value,
      "addscope::mpi::checksum_async: result must be a rank-0 "
      "View of std::uint64_t");
  using Policy =
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using F = Impl::ChecksumFunctor<typename DistributedVector<T, M>::view_type>;
  Kokkos::parallel_reduce("addscope::mpi::checksum",
                          Policy(exec, 0, v.local_extent()),
                          F{v.local(), v.offset()}, result);
}

/// The checksum of the whole vector (checksum_async on every rank, fenced,
/// summed over the ranks): collective; on every rank.
template <class ExecSpace, class T, class M>
std::uint64_t checksum(const ExecSpace& exec,
                       const DistributedVector<T, M>& v) {
  using Policy =
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using F = Impl::ChecksumFunctor<typename DistributedVector<T, M>::view_type>;
  std::uint64_t mine = 0, all = 0;
  Kokkos::parallel_reduce("addscope::mpi::checksum",
                          Policy(exec, 0, v.local_extent()),
                          F{v.local(), v.offset()}, mine);
  exec.fence();
  ADDSCOPE_MPI_CHECK(
      MPI_Allreduce(&mine, &all, 1, MPI_UINT64_T, MPI_SUM, v.comm()));
  return all;
}

}  // namespace mpi
}  // namespace addscope

#endif
