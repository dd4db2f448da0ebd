// addscope::mpi — a sweep (bench/SweepPlan) across the ranks, weak scaling:
// every rank holds N elements (the sizes are per rank) and adds them on its
// own GPU. For each size and configuration: each rank alone while the others
// wait at a barrier, then all ranks at once from an aligned start
// (measure_weak_scaling); the same for staging each rank's block to a host
// mirror (fence + deep_copy: MPI need not be GPU-aware). Every add verified
// on every rank.
#ifndef ADDSCOPE_MPI_WEAKSCALINGSWEEP_HPP
#define ADDSCOPE_MPI_WEAKSCALINGSWEEP_HPP

#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "addscope/compute/addscope_Inputs.hpp"
#include "addscope/bench/addscope_SweepPlan.hpp"
#include "addscope/mpi/addscope_CrossRankTiming.hpp"
#include "addscope/mpi/addscope_DistributedAdd.hpp"
#include "addscope/mpi/addscope_DistributedVector.hpp"
#include "addscope/timing/addscope_Verify.hpp"
#include "addscope/transfer/addscope_Transfer.hpp"

namespace addscope {
namespace mpi {

/// One row of a weak-scaling sweep: an add, or staging to the host.
struct WeakScalingRow {
  std::string type;           ///< the value type's name
  std::size_t elem_size = 0;  ///< sizeof(T)
  std::int64_t n = 0;         ///< per rank
  std::string what;           ///< "add" | "stage D2H"
  std::string label;          ///< rank 0's kernel label, or the copy
  WeakScaling w;
  bool checked = false;  ///< an add, verified
  Verification check;
  /// What each rank moves: add_bytes or transfer_bytes of n.
  std::uint64_t bytes_per_rank() const {
    return what == "add" ? add_bytes(n, elem_size)
                         : transfer_bytes(n, elem_size);
  }
};

/// Hears of every row measured; `size_done` on a size's last row.
using WeakScalingObserver =
    std::function<void(const WeakScalingRow& row, bool size_done)>;

/// The plan's sizes (per rank) x candidates for T on every rank of `comm`
/// (collective: every rank calls it with the same plan), staging too where
/// plan.transfers (to a pinned mirror if `pinned`). Appends the rows.
template <class T, class ExecSpace = Kokkos::DefaultExecutionSpace>
void sweep_weak_scaling(MPI_Comm comm, const SweepPlan& plan,
                        const std::string& type, bool pinned,
                        std::vector<WeakScalingRow>& rows,
                        const WeakScalingObserver& observe = {}) {
  using Mem = typename ExecSpace::memory_space;
  const ExecSpace exec;
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  const std::int64_t nmax = plan.sizes.back();
  auto host = make_host_array<T, PinnedHostSpace>("addscope-bench::stage",
                                                  plan.transfers ? nmax : 0);
  MeasureOptions opt = plan.advisor.measure;
  opt.device_time = false;
  auto tell = [&](const WeakScalingRow& row, bool done) {
    rows.push_back(row);
    if (observe) observe(row, done);
  };
  for (const std::int64_t n : plan.sizes) {
    // N per rank: a distributed vector of ranks x N (allocated per size,
    // so that only three arrays live at a time).
    const std::int64_t tn = n * ranks;
    DistributedVector<T, Mem> xs("x", tn, comm), ys("y", tn, comm),
        os("out", tn, comm);
    fill_inputs(exec, xs.local(), ys.local(),
                plan.seed + 1000003 * std::uint64_t(rank) + std::uint64_t(n));
    WeakScalingRow row;
    row.type = type;
    row.elem_size = sizeof(T);
    row.n = n;
    for (std::size_t i = 0; i < plan.candidates.size(); ++i) {
      const LaunchConfig& c = plan.candidates[i];
      row.what = "add";
      Kokkos::deep_copy(os.local(), T(0));
      exec.fence();
      row.label = c.kernel_label(
          resolve_launch_config(exec, xs.local(), ys.local(), os.local(), c));
      row.w = measure_weak_scaling(
          comm, exec, row.label, n, add_bytes(n, sizeof(T)),
          [&] { mpi::add(exec, xs, ys, os, c); }, opt);
      row.checked = true;
      row.check = mpi::verify_add(exec, xs, ys, os);
      tell(row, !plan.transfers && i + 1 == plan.candidates.size());
    }
    if (plan.transfers) {
      row.what = "stage D2H";
      const auto h = Kokkos::subview(host, std::make_pair(std::int64_t(0), n));
      row.label = std::string("fence + deep_copy to a ") +
                  (pinned ? "pinned" : "host") + " mirror";
      row.w = measure_weak_scaling(
          comm, exec, row.label, n, transfer_bytes(n, sizeof(T)),
          [&] { fenced_copy(exec, h, os.local()); }, opt);
      row.checked = false;
      row.check = Verification();
      tell(row, true);
    }
  }
}

}  // namespace mpi
}  // namespace addscope

#endif  // ADDSCOPE_MPI_WEAKSCALINGSWEEP_HPP
