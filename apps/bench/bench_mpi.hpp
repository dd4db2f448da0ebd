// addscope-bench under mpirun: weak scaling of the add (and of staging
// device data through host mirrors) over the ranks, one GPU each.
#ifndef ADDSCOPE_APPS_BENCH_BENCH_MPI_HPP_
#define ADDSCOPE_APPS_BENCH_BENCH_MPI_HPP_

#include "bench_types.hpp"
#include "common/addscope_apps_Cli.hpp"

namespace addscope {
namespace bench {

/// Brings up MPI and Kokkos, measures, and returns the exit status (the
/// same on every rank).
int run_mpi(apps::CommandLine& cl, const Options& o);

}  // namespace bench
}  // namespace addscope

#endif  // ADDSCOPE_APPS_BENCH_BENCH_MPI_HPP_
