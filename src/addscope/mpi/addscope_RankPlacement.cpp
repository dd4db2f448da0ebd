#include "addscope/mpi/addscope_RankPlacement.hpp"

#include <cstdlib>
#include <cstring>
#include <sstream>
#include <type_traits>

#include "addscope/core/addscope_SpaceKind.hpp"
#include "addscope/mpi/impl/addscope_Gather.hpp"
#include "addscope/mpi/impl/addscope_MpiCheck.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include "addscope/core/impl/addscope_CudaCheck.hpp"
#endif

namespace addscope {
namespace mpi {

namespace {
bool env_set(const char* name) {
  const char* v = std::getenv(name);
  return v && *v;
}

bool starts_with(const std::string& s, const char* prefix) {
  return s.rfind(prefix, 0) == 0;
}

/// GPUs this process can see through the default execution space's
/// runtime: 0 for a host space, -1 where addscope cannot count them.
int count_devices() {
  if (!is_gpu_space<Kokkos::DefaultExecutionSpace>()) return 0;
#if defined(KOKKOS_ENABLE_CUDA)
  int n = 0;
  ADDSCOPE_CUDA_CHECK(cudaGetDeviceCount(&n));
  return n;
#else
  return -1;
#endif
}
}  // namespace

bool launched_by_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK",
                        "PMI_SIZE", "MV2_COMM_WORLD_SIZE"})
    if (env_set(v)) return true;
  return false;
}

RankPlacement place_rank(MPI_Comm comm) {
  RankPlacement p;
  ADDSCOPE_MPI_CHECK(MPI_Comm_rank(comm, &p.rank));
  ADDSCOPE_MPI_CHECK(MPI_Comm_size(comm, &p.ranks));
  MPI_Comm node_comm;
  ADDSCOPE_MPI_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, p.rank,
                                         MPI_INFO_NULL, &node_comm));
  ADDSCOPE_MPI_CHECK(MPI_Comm_rank(node_comm, &p.local_rank));
  ADDSCOPE_MPI_CHECK(MPI_Comm_size(node_comm, &p.local_ranks));
  // Nodes in the order of their lowest rank: a node's leader (its local
  // rank 0, the node's lowest rank) counts the leaders before it; the other
  // ranks of the node take their leader's index.
  const int leader = p.local_rank == 0 ? 1 : 0;
  int node = 0;
  ADDSCOPE_MPI_CHECK(MPI_Exscan(&leader, &node, 1, MPI_INT, MPI_SUM, comm));
  if (p.rank == 0) node = 0;  // MPI_Exscan leaves rank 0's undefined
  ADDSCOPE_MPI_CHECK(MPI_Bcast(&node, 1, MPI_INT, 0, node_comm));
  ADDSCOPE_MPI_CHECK(
      MPI_Allreduce(&leader, &p.nodes, 1, MPI_INT, MPI_SUM, comm));
  ADDSCOPE_MPI_CHECK(MPI_Comm_free(&node_comm));
  p.node = node;
  char name[MPI_MAX_PROCESSOR_NAME];
  int len = 0;
  ADDSCOPE_MPI_CHECK(MPI_Get_processor_name(name, &len));
  p.host.assign(name, std::size_t(len));

  p.devices = count_devices();
  std::ostringstream how;
  how << "node-local rank " << p.local_rank << " of " << p.local_ranks;
  if (p.devices > 0) {
    p.device_id = p.local_rank % p.devices;
    how << " -> GPU " << p.device_id << " of " << p.devices
        << " (node-local rank mod GPUs)";
    if (p.shares_device())
      how << "; " << p.local_ranks << " ranks share " << p.devices
          << " GPU(s) on this node";
  } else if (p.devices == 0) {
    how << ": host backend " << Kokkos::DefaultExecutionSpace::name()
        << ", no GPU to choose";
  } else {
    how << ": " << Kokkos::DefaultExecutionSpace::name()
        << " GPUs are chosen by Kokkos (addscope counts CUDA devices only)";
  }
  p.how = how.str();
  return p;
}

KokkosSettings kokkos_settings(const RankPlacement& p,
                               KokkosSettings settings) {
  if (p.device_id < 0) return settings;
#if KOKKOS_VERSION >= 30700
  settings.set_device_id(p.device_id);
#else
  settings.device_id = p.device_id;
#endif
  return settings;
}

bool user_chooses_device(const std::vector<std::string>& args) {
  if (env_set("KOKKOS_DEVICE_ID") || env_set("KOKKOS_MAP_DEVICE_ID_BY"))
    return true;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    for (const char* f : {"--kokkos-device-id", "--kokkos-device",
                          "--kokkos-map-device-id-by", "--device-id"})
      if (a == f || starts_with(a, (std::string(f) + "=").c_str())) return true;
  }
  return false;
}

std::vector<std::string> kokkos_args_with_device(std::vector<std::string> args,
                                                 const RankPlacement& p) {
  if (p.device_id < 0 || user_chooses_device(args)) return args;
  if (args.empty()) args.push_back("addscope");
  args.push_back("--kokkos-device-id=" + std::to_string(p.device_id));
  return args;
}

int kokkos_device_in_use() {
#if defined(KOKKOS_ENABLE_CUDA)
  if (std::is_same<Kokkos::DefaultExecutionSpace, Kokkos::Cuda>::value)
    return Kokkos::Cuda().cuda_device();
#endif
  return -1;
}

std::vector<RankPlacement> gather_placements(MPI_Comm comm,
                                             const RankPlacement& mine) {
  const auto nums = Impl::allgather(
      comm, std::vector<double>{
                double(mine.rank), double(mine.ranks), double(mine.local_rank),
                double(mine.local_ranks), double(mine.node), double(mine.nodes),
                double(mine.devices), double(mine.device_id),
                double(mine.user_device ? 1 : 0), double(mine.device_in_use)});
  const auto hosts = Impl::allgather(comm, mine.host);
  const auto hows = Impl::allgather(comm, mine.how);
  std::vector<RankPlacement> all;
  for (std::size_t r = 0; r < nums.size(); ++r) {
    const auto& v = nums[r];
    RankPlacement p;
    p.rank = int(v[0]);
    p.ranks = int(v[1]);
    p.local_rank = int(v[2]);
    p.local_ranks = int(v[3]);
    p.node = int(v[4]);
    p.nodes = int(v[5]);
    p.devices = int(v[6]);
    p.device_id = int(v[7]);
    p.user_device = v[8] != 0;
    p.device_in_use = int(v[9]);
    p.host = hosts[r];
    p.how = hows[r];
    all.push_back(p);
  }
  return all;
}

std::string describe(const RankPlacement& p) {
  std::ostringstream os;
  os << "rank " << p.rank << " of " << p.ranks << " on " << p.host << " (node "
     << p.node << " of " << p.nodes << "), " << p.how;
  return os.str();
}

}  // namespace mpi
}  // namespace addscope
