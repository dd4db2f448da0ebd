// Block distribution: the arithmetic for every N and R around the
// boundaries (pure), and DistributedVector on the ranks of this run.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "addscope/core/addscope_Error.hpp"
#include "addscope/mpi/addscope_BlockDistribution.hpp"
#include "addscope/mpi/addscope_DistributedVector.hpp"

using addscope::mpi::BlockDistribution;

TEST(BlockDistribution, EveryElementOwnedOnceInContiguousNearEqualBlocks) {
  for (int ranks : {1, 2, 3, 4, 7, 8, 64}) {
    for (std::int64_t n : {0, 1, 2, 3, 5, 6, 7, 8, 9, 63, 64, 65, 100, 1001}) {
      SCOPED_TRACE(testing::Message() << "N = " << n << ", R = " << ranks);
      const BlockDistribution d(n, ranks);
      EXPECT_EQ(d.global_extent(), n);
      EXPECT_EQ(d.ranks(), ranks);
      EXPECT_EQ(d.offset(0), 0);
      EXPECT_EQ(d.offset(ranks), n);
      std::int64_t lo = n, hi = 0;
      for (int r = 0; r < ranks; ++r) {
        const std::int64_t c = d.count(r);
        // Contiguous: each block starts where the previous one ended.
        EXPECT_EQ(d.offset(r) + c, d.offset(r + 1)) << "rank " << r;
        // The remainder goes to the first N % R ranks, one element each.
        EXPECT_EQ(c, n / ranks + (r < n % ranks ? 1 : 0)) << "rank " << r;
        lo = std::min(lo, c);
        hi = std::max(hi, c);
        for (std::int64_t i = d.offset(r); i < d.offset(r + 1); ++i)
          ASSERT_EQ(d.owner(i), r) << "index " << i;
      }
      EXPECT_LE(hi - lo, 1);
    }
  }
}

TEST(BlockDistribution, FewerElementsThanRanksLeavesTheLastRanksEmpty) {
  const BlockDistribution d(3, 5);
  EXPECT_EQ(d.count(0), 1);
  EXPECT_EQ(d.count(2), 1);
  EXPECT_EQ(d.count(3), 0);
  EXPECT_EQ(d.count(4), 0);
  EXPECT_EQ(d.offset(3), 3);
  EXPECT_EQ(d.offset(4), 3);
  EXPECT_EQ(d.owner(2), 2);
  EXPECT_EQ(d.describe(), "N = 3 over 5 ranks: 1 1 1 0 0");
}

TEST(BlockDistribution, LargeSizesDoNotOverflow) {
  const std::int64_t n = (std::int64_t(1) << 40) + 7;
  const BlockDistribution d(n, 3);
  EXPECT_EQ(d.offset(3), n);
  EXPECT_EQ(d.owner(n - 1), 2);
  EXPECT_EQ(d.owner(d.offset(1)), 1);
  EXPECT_EQ(d.owner(d.offset(1) - 1), 0);
}

TEST(BlockDistribution, BadArgumentsNameTheParameter) {
  auto msg = [](auto&& f) -> std::string {
    try {
      f();
    } catch (const addscope::InvalidArgument& e) {
      return e.what();
    }
    return "(no exception)";
  };
  EXPECT_EQ(msg([] { BlockDistribution(-1, 2); }),
            "global_n = -1 is invalid; allowed: >= 0");
  EXPECT_EQ(msg([] { BlockDistribution(5, 0); }),
            "ranks = 0 is invalid; allowed: >= 1");
  const BlockDistribution d(5, 2);
  EXPECT_EQ(msg([&] { d.count(2); }),
            "rank = 2 is out of range; allowed: 0..1");
  EXPECT_EQ(msg([&] { d.owner(5); }),
            "index = 5 is out of range; allowed: 0..4");
}

TEST(DistributedVector, EachRankHoldsItsBlockOfTheWhole) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  for (std::int64_t n :
       {std::int64_t(0), std::int64_t(1), std::int64_t(ranks - 1),
        std::int64_t(ranks), std::int64_t(ranks + 1), std::int64_t(1000003)}) {
    SCOPED_TRACE(testing::Message() << "N = " << n);
    addscope::mpi::DistributedVector<double, Kokkos::HostSpace> v(
        "v", n, MPI_COMM_WORLD);
    EXPECT_EQ(v.global_extent(), n);
    EXPECT_EQ(v.rank(), rank);
    EXPECT_EQ(v.ranks(), ranks);
    EXPECT_EQ(std::string(v.local().label()), "v");
    // Gathered over the ranks, the blocks tile [0, N) in rank order.
    const std::int64_t mine[2] = {v.offset(), v.local_extent()};
    std::vector<std::int64_t> all(2 * std::size_t(ranks));
    MPI_Allgather(mine, 2, MPI_INT64_T, all.data(), 2, MPI_INT64_T,
                  MPI_COMM_WORLD);
    std::int64_t next = 0;
    for (int r = 0; r < ranks; ++r) {
      EXPECT_EQ(all[2 * std::size_t(r)], next) << "rank " << r;
      next += all[2 * std::size_t(r) + 1];
    }
    EXPECT_EQ(next, n);
    EXPECT_EQ(v.local_extent(), n / ranks + (rank < n % ranks ? 1 : 0));
  }
}
