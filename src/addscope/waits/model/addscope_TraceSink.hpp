// addscope — where the analyzer sends the run's timeline as it replays it:
// host calls, device slices and the arrows from a kernel to the call that
// waited for it. The analyzer emits into this interface and never writes a
// file itself; output/addscope_ChromeTrace.hpp implements it (a Chrome
// trace-event file). Not thread-safe: the analyzer's thread alone calls it.
#ifndef ADDSCOPE_WAITS_MODEL_TRACESINK_HPP
#define ADDSCOPE_WAITS_MODEL_TRACESINK_HPP

#include <cstdint>
#include <string>

namespace addscope {
namespace Impl {

class TraceSink {
 public:
  virtual ~TraceSink() = default;

  /// Where the timeline goes, for the report ("" if nowhere named).
  virtual const std::string& path() const = 0;
  /// Events not kept (past the sink's cap).
  virtual std::uint64_t dropped() const = 0;
  /// Writing failed (a full disk): what was kept is incomplete.
  virtual bool write_failed() const = 0;

  /// A host call on thread `thread`, [begin_s, end_s] on the tracker clock.
  /// `args_json` is a JSON object ("{}" for none).
  virtual void host_slice(std::uint32_t thread, const std::string& name,
                          const char* category, double begin_s, double end_s,
                          const std::string& args_json) = 0;
  /// A slice on a device stream's track (a kernel: category "kernel").
  virtual void device_slice(std::uint32_t device, std::uint32_t stream,
                            const std::string& stream_name,
                            const std::string& name, double begin_s,
                            double end_s, const std::string& args_json,
                            const char* category = "kernel") = 0;
  /// An arrow from a point inside a device slice to a point inside a host
  /// slice (both times inside their slices).
  virtual void flow(std::uint32_t device, std::uint32_t stream,
                    double device_t_s, std::uint32_t thread, double host_t_s,
                    const char* name = "waited for") = 0;
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
