// addscope — a vector of N elements block-distributed over the ranks of a
// communicator (BlockDistribution): each rank holds its block as a Kokkos
// View in `MemorySpace` (extent 0 where it owns nothing), and knows where
// the block sits in the whole.
#ifndef ADDSCOPE_MPI_DISTRIBUTEDVECTOR_HPP
#define ADDSCOPE_MPI_DISTRIBUTEDVECTOR_HPP

#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>

#include "addscope/mpi/addscope_BlockDistribution.hpp"
#include "addscope/mpi/impl/addscope_MpiCheck.hpp"

namespace addscope {
namespace mpi {

template <class T,
          class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
class DistributedVector {
 public:
  using value_type = T;
  using memory_space = MemorySpace;
  using view_type = Kokkos::View<T*, Kokkos::LayoutRight, MemorySpace>;

  /// This rank's block of `global_n` elements over `comm`'s ranks,
  /// allocated uninitialised (not collective: every rank computes the same
  /// distribution from global_n and the communicator's size). Throws
  /// InvalidArgument for global_n < 0.
  DistributedVector(const std::string& label, std::int64_t global_n,
                    MPI_Comm comm)
      : comm_(comm),
        dist_(global_n, comm_size(comm)),
        rank_(comm_rank(comm)),
        local_(Kokkos::view_alloc(Kokkos::WithoutInitializing, label),
               std::size_t(dist_.count(rank_))) {}

  /// The local block (a View: asynchronous Kokkos work on it as usual).
  const view_type& local() const { return local_; }
  std::int64_t local_extent() const { return std::int64_t(local_.extent(0)); }
  std::int64_t global_extent() const { return dist_.global_extent(); }
  /// Global index of local element 0.
  std::int64_t offset() const { return dist_.offset(rank_); }
  const BlockDistribution& distribution() const { return dist_; }
  MPI_Comm comm() const { return comm_; }
  int rank() const { return rank_; }
  int ranks() const { return dist_.ranks(); }

 private:
  static int comm_size(MPI_Comm c) {
    int s = 0;
    ADDSCOPE_MPI_CHECK(MPI_Comm_size(c, &s));
    return s;
  }
  static int comm_rank(MPI_Comm c) {
    int r = 0;
    ADDSCOPE_MPI_CHECK(MPI_Comm_rank(c, &r));
    return r;
  }
  MPI_Comm comm_;
  BlockDistribution dist_;
  int rank_;
  view_type local_;
};

}  // namespace mpi
}  // namespace addscope

#endif
