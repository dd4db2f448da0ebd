// addscope — where an MPI rank runs and which GPU it takes: one GPU per
// rank, chosen by the rank's index among the ranks on its node
// (MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)), round robin when a node has
// more ranks than GPUs; and the Kokkos initialisation that selects it —
// Kokkos 3.x InitArguments::device_id, 4.x InitializationSettings::
// set_device_id, or --kokkos-device-id for programs that pass their command
// line to Kokkos (both versions take it). The same sources for both.
#ifndef ADDSCOPE_MPI_RANKPLACEMENT_HPP
#define ADDSCOPE_MPI_RANKPLACEMENT_HPP

#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <string>
#include <vector>

namespace addscope {
namespace mpi {

/// Was this process started by an MPI launcher (mpirun, mpiexec, srun)?
/// Asked of the launcher's environment: OMPI_COMM_WORLD_SIZE (Open MPI),
/// PMIX_RANK (PMIx), PMI_RANK or PMI_SIZE (MPICH's Hydra, Slurm's PMI),
/// MV2_COMM_WORLD_SIZE (MVAPICH2). Programs that run both with and without
/// MPI (addscope-demo, addscope-bench) initialise MPI only then.
bool launched_by_mpi();

/// Where one rank runs.
struct RankPlacement {
  int rank = 0, ranks = 1;              ///< in the communicator placed
  int local_rank = 0, local_ranks = 1;  ///< among the ranks on this node
  int node = 0, nodes = 1;  ///< node index (ordered by lowest rank), count
  std::string host;         ///< MPI_Get_processor_name
  /// GPUs this rank can see: 0 on a host backend, -1 where addscope cannot
  /// count them (a GPU backend other than CUDA: Kokkos chooses).
  int devices = 0;
  int device_id = -1;        ///< the GPU chosen: local_rank % devices; -1 none
  bool user_device = false;  ///< the command line or environment chose it
  /// The GPU Kokkos runs on (kokkos_device_in_use(), set by ScopeGuard once
  /// Kokkos is up); -1 on host backends or before.
  int device_in_use = -1;
  std::string how;  ///< one line: how the device was chosen
  /// More ranks on this node than GPUs: some ranks share a GPU.
  bool shares_device() const { return devices > 0 && local_ranks > devices; }
};

/// Collective over `comm`: this rank's node, node-local rank and GPU. Call
/// before Kokkos::initialize (GPUs are counted through the backend's
/// runtime, not Kokkos).
RankPlacement place_rank(MPI_Comm comm);

/// Kokkos' settings type for initialize(settings): InitializationSettings
/// (Kokkos 3.7 and later), InitArguments before.
#if KOKKOS_VERSION >= 30700
using KokkosSettings = Kokkos::InitializationSettings;
#else
using KokkosSettings = Kokkos::InitArguments;
#endif

/// `settings` with p's device selected (unchanged where p has none).
KokkosSettings kokkos_settings(const RankPlacement& p,
                               KokkosSettings settings = KokkosSettings());

/// Does this command line (or KOKKOS_DEVICE_ID / KOKKOS_MAP_DEVICE_ID_BY in
/// the environment) choose the device itself? Then that choice stands.
bool user_chooses_device(const std::vector<std::string>& args);

/// The arguments for Kokkos::initialize(argc, argv) that select p's
/// device: `args` (argv[0] first) with --kokkos-device-id=K added, unless p
/// has no device or user_chooses_device(args).
std::vector<std::string> kokkos_args_with_device(std::vector<std::string> args,
                                                 const RankPlacement& p);

/// The device Kokkos runs on, after Kokkos::initialize: the CUDA device id,
/// or -1 on a host backend (and on GPU backends other than CUDA).
int kokkos_device_in_use();

/// Every rank's placement, by rank, on every rank (collective).
std::vector<RankPlacement> gather_placements(MPI_Comm comm,
                                             const RankPlacement& mine);

/// "rank 1 of 2 on node0 (node 0 of 1), node-local rank 1 of 2: GPU 1 of 2"
std::string describe(const RankPlacement& p);

}  // namespace mpi
}  // namespace addscope

#endif
