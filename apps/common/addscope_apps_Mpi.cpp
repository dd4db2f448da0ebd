#include "common/addscope_apps_Mpi.hpp"

#include <cstdlib>
#include <iostream>

#include "addscope/mpi/addscope_MpiJson.hpp"
#include "common/addscope_apps_Table.hpp"

namespace addscope {
namespace apps {

MpiRun::MpiRun(CommandLine& cl) : guard_(cl.kokkos_argc(), cl.kokkos_argv()) {
  if (root()) cl.warn_unused_kokkos_args();
  all_ = mpi::gather_placements(comm(), guard_.placement());
}

std::string MpiRun::placement_table() const {
  Table t({"rank", "host", "node", "node-local rank", "GPU", "how"});
  for (const auto& p : all_)
    t.add(
        {std::to_string(p.rank), p.host, std::to_string(p.node),
         std::to_string(p.local_rank) + " of " + std::to_string(p.local_ranks),
         p.device_in_use >= 0 ? std::to_string(p.device_in_use) : "-", p.how});
  return t.text();
}

json MpiRun::placements_json() const {
  json j = json::array();
  for (const auto& p : all_) j.push_back(mpi::to_json(p));
  return j;
}

int MpiRun::agree(int rc) const {
  int all = rc;
  MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MAX, comm());
  return all;
}

void MpiRun::abort(const std::string& program, const std::exception& e,
                   int rc) const {
  print_error(program + " (rank " + std::to_string(rank()) + ")", e);
  std::cerr.flush();
  MPI_Abort(comm(), rc);
  std::abort();
}

}  // namespace apps
}  // namespace addscope
