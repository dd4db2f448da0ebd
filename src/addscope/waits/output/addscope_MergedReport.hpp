// addscope — the waits report across MPI ranks, as rank 0 writes it: each
// rank's account (what it sends to rank 0) and, from the cross-rank
// analysis (analyze/addscope_CrossRankWaits.hpp), the merged text and JSON.
// Pure: no MPI, no files (the exchange and the writing of files:
// mpi/addscope_MpiEventSource.cpp).
#ifndef ADDSCOPE_WAITS_OUTPUT_MERGEDREPORT_HPP
#define ADDSCOPE_WAITS_OUTPUT_MERGEDREPORT_HPP

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "addscope/waits/addscope_WaitsSnapshot.hpp"
#include "addscope/waits/analyze/addscope_CrossRankWaits.hpp"

namespace addscope {
namespace waits_mpi {

/// What one rank counted of its MPI calls, beside its tracker's snapshot.
struct RankCounters {
  int rank = 0;
  std::uint64_t mpi_calls = 0;
  double mpi_s = 0;
  std::size_t collectives_kept = 0;
  std::uint64_t collectives_dropped = 0;
  double offset_s = 0;         ///< its clock's offset to rank 0's
  std::size_t max_waits = 64;  ///< its longest waits sent, at most
};

/// One rank's account, sent to rank 0: its mode, totals and longest waits
/// (times on rank 0's clock).
nlohmann::json rank_account(const WaitsSnapshot& snap, const RankCounters& c);

/// Everything rank 0 reports.
struct MergedReport {
  int ranks = 0;
  bool one_node = true;
  double min_wait_s = 0;
  std::vector<nlohmann::json> accounts;       ///< rank_account of each rank
  std::vector<CollectiveInstance> instances;  ///< the collectives examined
  std::vector<CrossRankWait> waits;           ///< every cross-rank wait
  std::vector<CrossRankWait> top;             ///< the longest, for the text
};

/// The text: a header line, a line per rank, the cross-rank waits.
std::string merged_report_text(const MergedReport& m);

/// The merged JSON (schema addscope-waits-mpi/1), without its "trace".
nlohmann::json merged_report_json(const MergedReport& m);

}  // namespace waits_mpi
}  // namespace addscope

#endif
