// The MPI tests: one binary started on every rank (mpirun -np R). MPI and
// Kokkos come up through addscope::mpi::ScopeGuard (settings path); rank 0
// prints GoogleTest's report, the other ranks only their failures (marked
// with the rank); every rank exits non-zero if a test failed on any rank.
#include <gtest/gtest.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <iostream>

#include "addscope/mpi/addscope_ScopeGuard.hpp"

namespace {
/// Prints failed assertions only, each marked with the rank.
class RankFailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit RankFailurePrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& r) override {
    if (!r.failed()) return;
    std::cerr << "[rank " << rank_ << "] "
              << (r.file_name() ? r.file_name() : "unknown file") << ":"
              << r.line_number() << ": Failure\n"
              << r.summary() << "\n";
  }
  void OnTestEnd(const ::testing::TestInfo& t) override {
    if (t.result()->Failed())
      std::cerr << "[rank " << rank_ << "] FAILED " << t.test_suite_name()
                << "." << t.name() << "\n";
  }

 private:
  int rank_;
};
}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  int failed_anywhere = 0;
  {
    addscope::mpi::ScopeGuard guard;
    const auto& p = guard.placement();
    if (p.rank != 0) {
      auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
      delete listeners.Release(listeners.default_result_printer());
      listeners.Append(new RankFailurePrinter(p.rank));
    } else {
      std::cout << "addscope MPI tests on " << p.ranks << " rank(s), Kokkos "
                << KOKKOS_VERSION << ", default execution space "
                << Kokkos::DefaultExecutionSpace::name() << "\n"
                << addscope::mpi::describe(p) << "\n";
    }
    const int failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
    MPI_Allreduce(&failed, &failed_anywhere, 1, MPI_INT, MPI_MAX,
                  MPI_COMM_WORLD);
    if (p.rank == 0 && failed_anywhere)
      std::cout << "MPI tests: a test failed on at least one rank (the "
                   "other ranks' failures are marked [rank R] on stderr)\n";
  }
  return failed_anywhere;
}
