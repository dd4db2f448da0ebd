#include "addscope/mpi/addscope_ScopeGuard.hpp"

#include <string>
#include <vector>

#include "addscope/mpi/impl/addscope_MpiCheck.hpp"

namespace addscope {
namespace mpi {

void ScopeGuard::init_mpi() {
  int initialized = 0;
  ADDSCOPE_MPI_CHECK(MPI_Initialized(&initialized));
  if (initialized) return;
  int provided = 0;
  ADDSCOPE_MPI_CHECK(
      MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided));
  finalize_mpi_ = true;
}

void ScopeGuard::after_kokkos() {
  device_in_use_ = kokkos_device_in_use();
  placement_.device_in_use = device_in_use_;
  if (placement_.user_device)
    placement_.how =
        "node-local rank " + std::to_string(placement_.local_rank) + " of " +
        std::to_string(placement_.local_ranks) +
        ": the device was chosen on the command line or in the "
        "environment; Kokkos runs on " +
        (device_in_use_ >= 0 ? "GPU " + std::to_string(device_in_use_)
                             : std::string("no GPU"));
}

ScopeGuard::ScopeGuard(int& argc, char* argv[], MPI_Comm comm) {
  init_mpi();
  placement_ = place_rank(comm);
  std::vector<std::string> given(argv, argv + argc);
  placement_.user_device =
      placement_.device_id >= 0 && user_chooses_device(given);
  const std::vector<std::string> args =
      kokkos_args_with_device(given, placement_);
  // Kokkos removes the arguments it takes from a copy; those left are
  // handed back through the caller's argv (the added one is never left:
  // Kokkos takes it).
  std::vector<std::string> storage = args;
  std::vector<char*> ptrs;
  for (auto& s : storage) ptrs.push_back(&s[0]);
  ptrs.push_back(nullptr);
  int n = int(storage.size());
  Kokkos::initialize(n, ptrs.data());
  int kept = 0;
  for (int i = 0; i < n; ++i) {
    for (std::size_t k = 0; k < storage.size(); ++k) {
      if (ptrs[std::size_t(i)] == &storage[k][0] && int(k) < argc) {
        argv[kept++] = argv[k];
        break;
      }
    }
  }
  argc = kept;
  if (kept < int(given.size())) argv[kept] = nullptr;
  after_kokkos();
}

ScopeGuard::ScopeGuard(MPI_Comm comm, KokkosSettings settings) {
  init_mpi();
  placement_ = place_rank(comm);
  Kokkos::initialize(kokkos_settings(placement_, settings));
  after_kokkos();
}

ScopeGuard::~ScopeGuard() {
  Kokkos::finalize();
  if (finalize_mpi_) MPI_Finalize();
}

}  // namespace mpi
}  // namespace addscope
