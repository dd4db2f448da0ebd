// addscope apps — the apps under mpirun: MPI and Kokkos brought up through
// addscope::mpi::ScopeGuard with the command line's --kokkos-* arguments,
// every rank's placement known everywhere, rank 0 speaking for all (the MPI
// results' JSON: addscope/mpi/addscope_MpiJson.hpp). Built only with the MPI
// component.
#ifndef ADDSCOPE_APPS_COMMON_MPI_HPP
#define ADDSCOPE_APPS_COMMON_MPI_HPP

#include <mpi.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "addscope/mpi/addscope_Mpi.hpp"
#include "common/addscope_apps_Cli.hpp"

namespace addscope {
namespace apps {

using nlohmann::json;

class MpiRun {
 public:
  /// Initialises MPI and Kokkos (each rank on its GPU); rank 0 warns about
  /// --kokkos-* arguments Kokkos did not take.
  explicit MpiRun(CommandLine& cl);
  MPI_Comm comm() const { return MPI_COMM_WORLD; }
  int rank() const { return guard_.placement().rank; }
  int ranks() const { return guard_.placement().ranks; }
  bool root() const { return rank() == 0; }
  const std::vector<mpi::RankPlacement>& placements() const { return all_; }
  /// rank | host | node | node-local rank | GPU (Kokkos) | how chosen.
  std::string placement_table() const;
  json placements_json() const;
  /// The largest of every rank's `rc` (collective): what each returns.
  int agree(int rc) const;
  /// Prints "<program> (rank R): <what>" on stderr and ends every rank
  /// (MPI_Abort with `rc`): other ranks may be inside a collective.
  [[noreturn]] void abort(const std::string& program, const std::exception& e,
                          int rc) const;

 private:
  mpi::ScopeGuard guard_;
  std::vector<mpi::RankPlacement> all_;
};

}  // namespace apps
}  // namespace addscope

#endif
