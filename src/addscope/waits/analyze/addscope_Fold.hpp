// addscope — what the replay can no longer change, folded into the run's
// results: each host call with the waits charged to it (merged per kernel,
// classified explicit or hidden), each kernel the device ran, each launch
// and host kernel — into the bounded ledger the report reads, and onto the
// trace sink (model/addscope_TraceSink.hpp). Owned by the replay
// (analyze/addscope_Replay.hpp): the analyzer's thread alone, no lock.
#ifndef ADDSCOPE_WAITS_ANALYZE_FOLD_HPP
#define ADDSCOPE_WAITS_ANALYZE_FOLD_HPP

#include <cstdint>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include "addscope/waits/addscope_TrackerOptions.hpp"
#include "addscope/waits/addscope_WaitsSnapshot.hpp"
#include "addscope/waits/analyze/addscope_HostThreads.hpp"
#include "addscope/waits/analyze/addscope_NameTable.hpp"
#include "addscope/waits/analyze/addscope_StackTable.hpp"
#include "addscope/waits/analyze/addscope_SyncAsker.hpp"
#include "addscope/waits/attribution/addscope_Ledger.hpp"
#include "addscope/waits/model/addscope_DeviceCapacity.hpp"

namespace addscope {
namespace Impl {

class TraceSink;

class Fold {
 public:
  Fold(const TrackerOptions& opt, NameTable& names, const StackTable& stacks);
  ~Fold();
  Fold(const Fold&) = delete;
  Fold& operator=(const Fold&) = delete;

  int keep_recent = 0;  // the library's front door reads recent waits
  std::vector<DeviceCapacity> devices;  // what each device can hold

  /// A launch call returned (`what`: the kernel's name id).
  void launch(std::uint32_t what, DeviceKind kind);
  /// A kernel ran on a host space, `seconds` long.
  void host_kernel(std::uint32_t what, double seconds, DeviceKind kind);
  /// A call whose waits are all known. Its shares are consumed.
  void call(LiveCall& c);
  /// A kernel whose waits are all known (waited_s and blocked_s filled).
  /// `launch_stack`: the stack of its name's first launch (0: none): the
  /// trace names its line.
  void kernel(const DeviceKernel& k, std::uint32_t launch_stack = 0);

  const Ledger& ledger() const { return ledger_; }
  /// The results as the snapshot reads them: the devices, the ledger's
  /// totals and tables (each stream with the Kokkos instance it served),
  /// what the ledger dropped, the trace's file.
  void fill(WaitsSnapshot& w) const;

  /// How a native address's module is found (tests: synthetic modules).
  void set_module_of(ModuleOf m) { module_of_ = std::move(m); }

  void set_trace(std::unique_ptr<TraceSink> t);
  TraceSink* trace() { return trace_.get(); }
  /// How the trace names a stack's line (the tracker's site resolver: native
  /// frames symbolized as the trace is written). Unset: Python lines only.
  using LineOf = std::function<CodeSite(const std::vector<std::uint64_t>&)>;
  void set_line_of(LineOf f) { line_of_ = std::move(f); }
  /// The line of stack `id` the trace names: line_of_'s, else the Python
  /// line it ends in (a Python line needs no symbols).
  CodeSite trace_line(std::uint32_t id) const;

 private:
  WaitClass classify(const LiveCall& c);
  /// Who asked for the synchronization of a call at stack `id` (cached).
  SyncAsker asker(std::uint32_t id);
  void trace_kernel(const DeviceKernel& k, double overlap_s,
                    std::uint32_t launch_stack);

  NameTable& names_;
  const StackTable& stacks_;
  ModuleOf module_of_ = loaded_module_of;
  std::vector<std::uint8_t> askers_;  // by stack id: 1 + SyncAsker, 0: not yet
  std::size_t streams_cap_;
  Ledger ledger_;
  std::unique_ptr<TraceSink> trace_;
  LineOf line_of_;
  std::unordered_map<std::uint64_t, ExecId> stream_exec_;  // dev<<32|stream
};

}  // namespace Impl
}  // namespace addscope

#endif
