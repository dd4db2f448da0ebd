// addscope — where the analyzer sends the run's timeline as it replays it,
// as facts: host calls and regions, the calls that waited and what for, the
// kernels the device ran, the device's idle intervals, and the arrows from
// a kernel to the call that waited for it. The analyzer emits into this
// interface and never formats or writes anything itself; how each fact is
// drawn is the implementation's (output/addscope_ChromeTrace.hpp: a Chrome
// trace-event file). Not thread-safe: the analyzer's thread alone calls it.
#ifndef ADDSCOPE_WAITS_MODEL_TRACESINK_HPP
#define ADDSCOPE_WAITS_MODEL_TRACESINK_HPP

#include <cstdint>
#include <string>

#include "addscope/waits/model/addscope_DeviceCapacity.hpp"
#include "addscope/waits/model/addscope_IdleSummary.hpp"
#include "addscope/waits/model/addscope_WaitRecords.hpp"

namespace addscope {
namespace Impl {

/// A kernel as the device ran it, once nothing can change what it cost.
struct TraceKernel {
  std::uint32_t device = 0;
  std::uint32_t stream = 0;       ///< the device's stream id
  std::uint32_t instance = 0;     ///< the Kokkos instance its stream served
                                  ///< (0: none known)
  std::string name;               ///< readable (the report's)
  std::string name_raw;           ///< as Kokkos or the device gave it
  std::uint32_t correlation = 0;  ///< the runtime's launch correlation id
  double start_s = 0, end_s = 0;  ///< on the tracker's clock
  double waited_s = 0;            ///< host time spent waiting for it
  double overlap_s = 0;           ///< time it ran after its launch returned
                                  ///< while its launching thread worked
  LaunchShape shape;
  /// Its device's capacity where the driver reported it (else nullptr).
  const DeviceCapacity* capacity = nullptr;
  /// Where its name was first launched (the program's line, where a stack
  /// was taken); unknown otherwise.
  CodeSite launched_at;
};

class TraceSink {
 public:
  virtual ~TraceSink() = default;

  /// Where the timeline goes, for the report ("" if nowhere named).
  virtual const std::string& path() const = 0;
  /// Events not kept (past the sink's cap).
  virtual std::uint64_t dropped() const = 0;
  /// Writing failed (a full disk): what was kept is incomplete.
  virtual bool write_failed() const = 0;

  /// A host call or region on thread `thread` that waited for nothing,
  /// [begin_s, end_s] on the tracker clock; `category` says which
  /// ("region", "runtime", call_kind_name()).
  virtual void host_slice(std::uint32_t thread, const std::string& name,
                          const char* category, double begin_s,
                          double end_s) = 0;
  /// A host call that waited for device work (c.wait_s > 0, c.waited_for
  /// longest first, not empty).
  virtual void waiting_call(const CallRecord& c) = 0;
  /// A kernel on its device stream's track.
  virtual void kernel(const TraceKernel& k) = 0;
  /// One idle interval of a device, charged to its causes.
  virtual void idle(const IdleInterval& gap) = 0;
  /// An arrow from a kernel (at `device_t_s`, inside it) to the call that
  /// waited for it (at `host_t_s`, inside that call).
  virtual void flow(std::uint32_t device, std::uint32_t stream,
                    double device_t_s, std::uint32_t thread,
                    double host_t_s) = 0;
  /// Passes on what is buffered, whole events only.
  virtual void flush() = 0;
  /// The end of the timeline; further events are dropped.
  virtual void close() = 0;
  /// In a child after fork(): lets go of the parent's without writing.
  virtual void abandon() = 0;
};

}  // namespace Impl
}  // namespace addscope

#endif
