// addscope — gathering values from every rank onto every rank. Internal.
#ifndef ADDSCOPE_MPI_IMPL_GATHER_HPP
#define ADDSCOPE_MPI_IMPL_GATHER_HPP

#include <mpi.h>

#include <string>
#include <vector>

namespace addscope {
namespace mpi {
namespace Impl {

/// Every rank's `mine` (the same length on every rank), by rank.
std::vector<std::vector<double>> allgather(MPI_Comm comm,
                                           const std::vector<double>& mine);
/// Every rank's string, by rank (any lengths).
std::vector<std::string> allgather(MPI_Comm comm, const std::string& mine);
/// The string `mine` of rank `root`, on every rank.
std::string broadcast(MPI_Comm comm, std::string mine, int root);

}  // namespace Impl
}  // namespace mpi
}  // namespace addscope

#endif
