// addscope — idle intervals in the Chrome/Perfetto trace: an idle slice per
// charged part on the device's idle track, and an arrow from it to the host
// slice blamed (the call the launching thread was in when the device went
// idle). The trace writer is the owner's (addscope_ChromeTrace); this file
// only says what to draw, through IdleTraceSink, so that it can be tested
// without a file. Kokkos-free.
#ifndef ADDSCOPE_WAITS_OUTPUT_IDLETRACE_HPP
#define ADDSCOPE_WAITS_OUTPUT_IDLETRACE_HPP

#include <cstdint>
#include <string>

#include "addscope/waits/model/addscope_IdleSummary.hpp"

namespace addscope {

/// What the trace writer must offer (ChromeTrace can implement it in a few
/// lines: idle_slice as a device_slice on a track named "idle" with the
/// category "idle", host_slice as its host_slice, flow as its flow).
class IdleTraceSink {
 public:
  virtual ~IdleTraceSink() = default;
  /// A slice on device `device`'s idle track (`stream` -1: the device as a
  /// whole, which is what a gap is); `args_json` a JSON object.
  virtual void idle_slice(std::uint32_t device, std::int64_t stream,
                          const std::string& name, double begin_s, double end_s,
                          const std::string& args_json) = 0;
  /// A slice on host thread `thread`'s track, for the stretch of the
  /// program's code blamed (the trace has no slice there otherwise).
  virtual void host_slice(std::uint32_t thread, const std::string& name,
                          double begin_s, double end_s,
                          const std::string& args_json) = 0;
  /// An arrow from `idle_t_s` (inside an idle slice of `device`, `stream`)
  /// to `host_t_s` (inside a host slice of `thread`).
  virtual void flow(std::uint32_t device, std::int64_t stream, double idle_t_s,
                    std::uint32_t thread, double host_t_s,
                    const std::string& name) = 0;
};

/// Draws one charged gap: one idle slice per part ("idle: synchronization
/// round trip", args: cause, next, site, region, before, after, thread,
/// gap_us); when the blame is a host thread's (round trip, MPI, launch
/// latency, host code: not submitted, not unknown) an arrow from the first
/// part's slice to the middle of the blamed host interval's part inside the
/// gap — and, for host code, the program-code slice itself ("host code").
/// Returns the number of events drawn.
std::size_t emit_idle_trace(const IdleInterval& gap, IdleTraceSink& sink);

}  // namespace addscope

#endif
