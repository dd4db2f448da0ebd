// addscope — the records the attribution works on: kernels as the device ran
// them, blocking runtime calls as the host made them, and host calls with
// the waits charged to them. Plain data; Kokkos-free.
#ifndef ADDSCOPE_WAITS_MODEL_WAITRECORDS_HPP
#define ADDSCOPE_WAITS_MODEL_WAITRECORDS_HPP

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "addscope/waits/model/addscope_CallKind.hpp"
#include "addscope/waits/model/addscope_CodeSite.hpp"
#include "addscope/waits/model/addscope_ExecId.hpp"

namespace addscope {

/// How a kernel was launched, as the device reports it (CUPTI kernel
/// records). grid[0] == 0: unknown (host backends, no device records).
struct LaunchShape {
  std::int32_t grid[3] = {0, 0, 0};
  std::int32_t block[3] = {0, 0, 0};
  std::uint32_t registers = 0;      ///< per thread
  std::int32_t shared_static = 0;   ///< bytes per block
  std::int32_t shared_dynamic = 0;  ///< bytes per block
  bool known() const { return grid[0] > 0; }
  long long blocks() const { return (long long)grid[0] * grid[1] * grid[2]; }
  long long threads_per_block() const {
    return (long long)block[0] * block[1] * block[2];
  }
};

/// Two launches of one configuration (grid, block, registers, shared
/// memory).
inline bool same_shape(const LaunchShape& a, const LaunchShape& b) {
  return std::memcmp(a.grid, b.grid, sizeof a.grid) == 0 &&
         std::memcmp(a.block, b.block, sizeof a.block) == 0 &&
         a.registers == b.registers && a.shared_static == b.shared_static &&
         a.shared_dynamic == b.shared_dynamic;
}

/// One kernel as the device ran it. Times are seconds on the tracker's host
/// clock (device timestamps mapped onto it).
struct DeviceKernel {
  std::uint64_t launch = 0;      ///< tracker id of the Kokkos kernel (0: none)
  std::uint64_t owner_call = 0;  ///< outermost host call open at its launch:
                                 ///< waiting for it there is that call's work
  std::uint32_t name = 0;  ///< name id (the Kokkos label, else the device's)
  std::uint32_t correlation = 0;  ///< the runtime's launch correlation id
  std::uint32_t device = 0;
  std::uint32_t stream = 0;        ///< the device's stream id
  std::uint32_t thread = 0;        ///< host thread that launched it
  ExecId exec;                     ///< the Kokkos instance it was launched on
  double launch_s = 0;             ///< the launch call began
  double launch_end_s = 0;         ///< the launch returned to the program
  std::uint32_t launch_stack = 0;  ///< the analyzer's stack id taken at its
                                   ///< launch (0: none)
  double start_s = 0, end_s = 0;   ///< on the device
  LaunchShape shape;
  // Filled by attribution:
  double waited_s = 0;   ///< host time spent waiting for it
  double blocked_s = 0;  ///< time its launching thread sat in blocking calls
                         ///< while it ran (waiting for it or not)
  double device_s() const { return end_s - start_s; }
};

/// A runtime call that blocked the host (or may have): the host-side
/// interval, and which device work it waits for.
struct BlockingCall {
  std::uint64_t call = 0;  ///< the host call it is charged to
  std::uint32_t thread = 0;
  SyncApi api = SyncApi::Other;
  double begin_s = 0, end_s = 0;
  bool all_streams = true;  ///< waits for every stream of `device`
  std::uint32_t device = 0;
  std::uint32_t stream = 0;  ///< when !all_streams
  std::uint64_t bytes = 0;   ///< copies: bytes moved
  int copy_kind = 0;         ///< copies: 1 H2H, 2 H2D, 3 D2H, 4 D2D, 0 other
  /// The runtime call's correlation id (0: unknown): a launch's own kernel
  /// is never what it waited for.
  std::uint32_t correlation = 0;
};

/// What a kernel cost a call that waited for it.
struct WaitShare {
  std::string kernel;  ///< readable name
  double wait_s = 0;
  std::string kernel_raw;  ///< the name as Kokkos or the device gave it
  std::uint32_t stream = 0;
  /// The launch it waited for (the longest, when it waited for several of
  /// one name): its shape (unknown without device records) and where it
  /// was launched, when a stack was taken at that launch (the analyzer's
  /// stack id, resolved into `launched_at`).
  LaunchShape shape;
  std::uint32_t launch_stack = 0;
  CodeSite launched_at;
};

/// A host call and the waits charged to it.
struct CallRecord {
  std::uint64_t id = 0;  ///< tracker id: later calls begin with larger ids
  std::string what;      ///< "deep_copy out_mirror<-out (Host<-Cuda, 4 B)"
  std::string site;      ///< what groups it: "deep_copy out_mirror<-out
                         ///< (Host<-Cuda)" (the ledger's SiteStats::site)
  CallKind kind = CallKind::Step;
  WaitClass wait_class = WaitClass::None;
  std::uint32_t thread = 0;  ///< host thread (0: the first to call)
  std::string regions;       ///< enclosing profiling regions, "outer > inner"
  std::string context;       ///< runtime calls: "after 'launch of K'"
  std::string via;           ///< where inside it blocked: "cudaMemcpy D2H 4 B"
  double begin_s = 0, end_s = 0;
  double duration_s() const { return end_s - begin_s; }
  double wait_s = 0;           ///< time spent waiting for earlier device work
  bool wait_is_bound = false;  ///< no device times: the wait is at most this
  double own_s() const {
    const double o = duration_s() - wait_s;
    return o > 0 ? o : 0;
  }
  std::vector<WaitShare> waited_for;  ///< longest first
  /// Where in the program's own code it happened: the analyzer's stack id
  /// (0: none captured), resolved into `code` before a report is made.
  std::uint32_t stack = 0;
  CodeSite code;
};

}  // namespace addscope

#endif
