#include "addscope/mpi/impl/addscope_Gather.hpp"

#include "addscope/core/addscope_Error.hpp"
#include "addscope/mpi/impl/addscope_MpiCheck.hpp"

namespace addscope {
namespace mpi {
namespace Impl {

namespace {
int size_of(MPI_Comm comm) {
  int s = 0;
  ADDSCOPE_MPI_CHECK(MPI_Comm_size(comm, &s));
  return s;
}
}  // namespace

std::vector<std::vector<double>> allgather(MPI_Comm comm,
                                           const std::vector<double>& mine) {
  const int ranks = size_of(comm);
  const int k = int(mine.size());
  int kmin = k, kmax = k;
  ADDSCOPE_MPI_CHECK(MPI_Allreduce(&k, &kmin, 1, MPI_INT, MPI_MIN, comm));
  ADDSCOPE_MPI_CHECK(MPI_Allreduce(&k, &kmax, 1, MPI_INT, MPI_MAX, comm));
  ADDSCOPE_THROW_IF(kmin != kmax, "allgather: ranks hold " << kmin << " to "
                                                           << kmax
                                                           << " values; "
                                                              "allowed: the "
                                                              "same count");
  std::vector<double> all(std::size_t(ranks) * std::size_t(k));
  ADDSCOPE_MPI_CHECK(MPI_Allgather(mine.data(), k, MPI_DOUBLE, all.data(), k,
                                   MPI_DOUBLE, comm));
  std::vector<std::vector<double>> out(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r)
    out[std::size_t(r)].assign(all.begin() + std::ptrdiff_t(r) * k,
                               all.begin() + std::ptrdiff_t(r + 1) * k);
  return out;
}

std::vector<std::string> allgather(MPI_Comm comm, const std::string& mine) {
  const int ranks = size_of(comm);
  const int len = int(mine.size());
  std::vector<int> lens(static_cast<std::size_t>(ranks)),
      displs(static_cast<std::size_t>(ranks));
  ADDSCOPE_MPI_CHECK(
      MPI_Allgather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, comm));
  int total = 0;
  for (int r = 0; r < ranks; ++r) {
    displs[std::size_t(r)] = total;
    total += lens[std::size_t(r)];
  }
  std::vector<char> all(std::size_t(total) + 1);
  ADDSCOPE_MPI_CHECK(MPI_Allgatherv(mine.data(), len, MPI_CHAR, all.data(),
                                    lens.data(), displs.data(), MPI_CHAR,
                                    comm));
  std::vector<std::string> out;
  for (int r = 0; r < ranks; ++r)
    out.emplace_back(all.data() + displs[std::size_t(r)],
                     std::size_t(lens[std::size_t(r)]));
  return out;
}

std::string broadcast(MPI_Comm comm, std::string mine, int root) {
  int len = int(mine.size());
  ADDSCOPE_MPI_CHECK(MPI_Bcast(&len, 1, MPI_INT, root, comm));
  mine.resize(std::size_t(len));
  if (len > 0)
    ADDSCOPE_MPI_CHECK(MPI_Bcast(&mine[0], len, MPI_CHAR, root, comm));
  return mine;
}

}  // namespace Impl
}  // namespace mpi
}  // namespace addscope
