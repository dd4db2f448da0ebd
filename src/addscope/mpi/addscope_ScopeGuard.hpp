// addscope — MPI and Kokkos for the length of a scope, in the right order:
// MPI first (unless already initialised), then this rank's placement, then
// Kokkos on the GPU chosen for it; at the end Kokkos first, then MPI (if
// this guard initialised it).
#ifndef ADDSCOPE_MPI_SCOPEGUARD_HPP
#define ADDSCOPE_MPI_SCOPEGUARD_HPP

#include <mpi.h>

#include "addscope/mpi/addscope_RankPlacement.hpp"

namespace addscope {
namespace mpi {

class ScopeGuard {
 public:
  /// MPI_Init_thread(MPI_THREAD_FUNNELED) unless MPI is initialised, then
  /// place_rank(comm) and Kokkos::initialize(argc, argv) with the chosen
  /// device added (kokkos_args_with_device): --kokkos-* arguments work as
  /// without MPI, and argc/argv lose what Kokkos took, as with
  /// Kokkos::initialize.
  ScopeGuard(int& argc, char* argv[], MPI_Comm comm = MPI_COMM_WORLD);
  /// The same from settings (kokkos_settings): no command line.
  explicit ScopeGuard(MPI_Comm comm = MPI_COMM_WORLD,
                      KokkosSettings settings = KokkosSettings());
  ~ScopeGuard();
  ScopeGuard(const ScopeGuard&) = delete;
  ScopeGuard& operator=(const ScopeGuard&) = delete;

  const RankPlacement& placement() const { return placement_; }
  /// The device Kokkos runs on (kokkos_device_in_use()).
  int device_in_use() const { return device_in_use_; }

 private:
  void init_mpi();
  void after_kokkos();
  RankPlacement placement_;
  bool finalize_mpi_ = false;
  int device_in_use_ = -1;
};

}  // namespace mpi
}  // namespace addscope

#endif
