// addscope — MPI as an event source of the waits tracker: every MPI call the
// PMPI wrappers see (tool/addscope_WaitsMpi.cpp) becomes a host call of kind
// `mpi` ("MPI_Allreduce (MPI_COMM_WORLD, 8 B)"), so that the per-rank report
// and trace show time spent in MPI beside deep_copies and fences. Blocking
// collectives are also kept (bounded: the latest 2^18) with their
// communicator and number on it, and at MPI_Finalize the ranks' records
// come together on rank 0: the merged report names the cross-rank waits
// (rank 0's MPI_Allreduce waited for rank 1, which was blocked in its
// deep_copy on its kernel), and the per-rank traces merge into one file with
// one process per rank.
//
// One time base: at MPI_Init every rank leaves a barrier. Where all ranks
// run on one node their steady clocks agree, and each rank's times move onto
// rank 0's tracker clock exactly (the difference of the tracker epochs).
// Across nodes clocks are not compared: each rank's clock is aligned to
// rank 0's at the moment the ranks left that barrier, which is as good as
// the barrier's exit skew (microseconds on a fast network, more otherwise)
// and drifts over a long run; cross-rank waits are then reported from
// 100 us up.
#ifndef ADDSCOPE_WAITS_MPI_MPIEVENTSOURCE_HPP
#define ADDSCOPE_WAITS_MPI_MPIEVENTSOURCE_HPP

#include <mpi.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "addscope/waits/addscope_WaitsSnapshot.hpp"
#include "addscope/waits/analyze/addscope_CrossRankWaits.hpp"

namespace addscope {
namespace waits_mpi {

class MpiEventSource {
 public:
  static MpiEventSource& global();

  /// After PMPI_Init: this rank, the time base (collective over
  /// MPI_COMM_WORLD).
  void after_init();
  /// An MPI call begins / ends. `collective`: a blocking collective on
  /// `comm` (matched across ranks); `bytes`: what this rank sends (or
  /// receives), 0 if unknown.
  std::uint64_t begin(const char* name, MPI_Comm comm, bool collective,
                      std::uint64_t bytes);
  void end(std::uint64_t token);
  /// Before PMPI_Finalize: the merged report on rank 0 (collective).
  void before_finalize();

  /// Seconds to add to this rank's tracker times to get the shared base.
  double offset_s() const { return offset_s_; }

 private:
  struct Record {
    std::uint32_t comm = 0;  ///< index into comm_names_
    std::uint32_t name = 0;  ///< index into call_names_
    std::uint64_t seq = 0;
    double enter_s = 0, exit_s = 0;
  };
  struct Open {
    std::uint64_t call = 0;  ///< tracker call id
    bool collective = false;
    std::uint32_t comm = 0, name = 0;
    std::uint64_t seq = 0;
    double enter_s = 0;
    bool main_thread = false;
  };
  std::uint32_t comm_index(MPI_Comm comm);
  std::uint32_t name_index(const char* name);
  // The steps of before_finalize's exchange (each collective).
  std::vector<CollectiveInstance> agree_on_instances(double min_wait);
  std::vector<double> gather_instance_times(
      const std::vector<CollectiveInstance>& inst);
  std::vector<std::string> gather_traces(const WaitsSnapshot& snap,
                                         bool want_trace, bool tool_done,
                                         std::string* trace_note, bool* all_ok);

  std::mutex mu_;
  bool initialized_ = false, finalized_ = false;
  int rank_ = 0, ranks_ = 1;
  bool one_node_ = true;
  double offset_s_ = 0;
  std::map<MPI_Comm, std::uint32_t> comm_of_handle_;
  std::vector<std::string> comm_names_;  ///< key shared by all ranks
  std::vector<std::string> comm_text_;   ///< for people
  std::map<std::string, int> same_group_count_;
  std::vector<std::uint64_t> comm_seq_;
  std::vector<std::string> call_names_;
  std::vector<Record> ring_;
  std::size_t ring_next_ = 0;
  bool ring_full_ = false;
  std::uint64_t next_token_ = 1;
  std::map<std::uint64_t, Open> open_;
  std::uint64_t calls_ = 0;
  double mpi_s_ = 0;
};

}  // namespace waits_mpi
}  // namespace addscope

#endif
