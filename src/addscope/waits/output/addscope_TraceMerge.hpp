// addscope — per-rank Chrome traces into one: each rank's processes (host,
// device d) get their own process ids and names ("rank 1 host"), its
// timestamps move onto the shared time base, flow ids stay unique; arrows
// can join a waiting rank's collective to the rank it waited for. Plain
// JSON; no MPI.
#ifndef ADDSCOPE_WAITS_OUTPUT_TRACEMERGE_HPP
#define ADDSCOPE_WAITS_OUTPUT_TRACEMERGE_HPP

#include <nlohmann/json.hpp>
#include <string>

namespace addscope {
namespace waits_mpi {

/// The process id rank `rank`'s process `pid` gets in the merged trace.
int merged_pid(int rank, int pid);

/// Appends the events of one rank's trace (the JSON array the waits tool
/// writes) to `out`, moved onto the shared time base by `offset_us`.
/// Throws nlohmann::json::exception if `text` is not a trace.
void merge_rank_trace(const std::string& text, int rank, int ranks,
                      double offset_us, nlohmann::json& out);

/// An arrow from rank `from`'s main thread at `from_s` to rank `to`'s main
/// thread at `to_s` (seconds on the shared base), named `name`.
void add_rank_flow(nlohmann::json& out, std::uint64_t id,
                   const std::string& name, int from, double from_s, int to,
                   double to_s);

}  // namespace waits_mpi
}  // namespace addscope

#endif
