// addscope-demo under mpirun: the seed experiment across ranks.
#ifndef ADDSCOPE_APPS_DEMO_DEMO_MPI_HPP
#define ADDSCOPE_APPS_DEMO_DEMO_MPI_HPP

#include "common/addscope_apps_Cli.hpp"
#include "demo_options.hpp"

namespace addscope {
namespace demo {

/// Brings up MPI and Kokkos, runs the story for every type, and returns
/// the exit status (the same on every rank).
int run_mpi(apps::CommandLine& cl, const DemoOptions& o);

}  // namespace demo
}  // namespace addscope

#endif
