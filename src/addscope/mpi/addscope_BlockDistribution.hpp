// addscope — a block distribution of N elements over R ranks: rank r owns
// one contiguous block, the first N % R ranks one element more than the
// others (N / R). Any N >= 0 and R >= 1, N < R included (the last ranks then
// own nothing). Plain arithmetic: no MPI, no Kokkos.
#ifndef ADDSCOPE_MPI_BLOCKDISTRIBUTION_HPP
#define ADDSCOPE_MPI_BLOCKDISTRIBUTION_HPP

#include <cstdint>
#include <string>

namespace addscope {
namespace mpi {

class BlockDistribution {
 public:
  /// Throws InvalidArgument unless global_n >= 0 and ranks >= 1.
  BlockDistribution(std::int64_t global_n, int ranks);

  std::int64_t global_extent() const { return n_; }
  int ranks() const { return ranks_; }
  /// Elements rank `r` owns: N / R, plus one for r < N % R.
  std::int64_t count(int r) const;
  /// The global index of rank `r`'s first element (its block's start; for
  /// an empty block, where it would start: offset(r) + count(r) is the next
  /// rank's offset, offset(R) = N).
  std::int64_t offset(int r) const;
  /// The rank that owns global index i (0 <= i < N).
  int owner(std::int64_t i) const;
  /// "N = 10 over 4 ranks: 3 3 2 2".
  std::string describe() const;

  bool operator==(const BlockDistribution& o) const {
    return n_ == o.n_ && ranks_ == o.ranks_;
  }
  bool operator!=(const BlockDistribution& o) const { return !(*this == o); }

 private:
  void check_rank(const char* what, int r, int hi) const;
  std::int64_t n_;
  int ranks_;
};

}  // namespace mpi
}  // namespace addscope

#endif
