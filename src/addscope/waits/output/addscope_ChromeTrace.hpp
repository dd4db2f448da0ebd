// addscope — a Chrome trace-event file (the JSON array format that Perfetto
// and chrome://tracing open), written while the program runs by the
// analyzer: a track per host thread, a track per device stream with kernels
// at device times, and flow arrows from each kernel to the call that waited
// for it — what the analyzer emits (model/addscope_TraceSink.hpp), drawn. Events are buffered and written whole at each flush() (the
// analyzer flushes after every drain), one per line, so the file on disk
// always ends at an event boundary: after abort() or SIGKILL it lacks only
// the closing "]", which the format allows. Past `max_events` the rest are
// counted, not written. Kokkos-free; not thread-safe (the analyzer's).
#ifndef ADDSCOPE_WAITS_OUTPUT_CHROMETRACE_HPP
#define ADDSCOPE_WAITS_OUTPUT_CHROMETRACE_HPP

#include <cstdint>
#include <set>
#include <string>

#include "addscope/waits/model/addscope_TraceSink.hpp"

namespace addscope {
namespace Impl {

class ChromeTrace final : public TraceSink {
 public:
  /// Writes to `fd` (opened by core/addscope_OutputFile's
  /// open_output_stream; owned from now on), named `path` in the report.
  ChromeTrace(int fd, std::string path, std::uint64_t max_events);
  ~ChromeTrace() override;  // close()
  ChromeTrace(const ChromeTrace&) = delete;
  ChromeTrace& operator=(const ChromeTrace&) = delete;

  const std::string& path() const override { return path_; }
  std::uint64_t dropped() const override { return dropped_; }
  /// Writing failed (a full disk): the file is incomplete.
  bool write_failed() const override { return write_failed_; }

  // The facts (model/addscope_TraceSink.hpp), drawn: a call that waited
  // carries its wait, class, kernel, via and regions as arguments; a kernel
  // its correlation, wait, overlap, shape and occupancy on a track named
  // after its stream (and Kokkos instance); an idle interval as
  // output/addscope_IdleTrace.hpp draws it.
  void host_slice(std::uint32_t thread, const std::string& name,
                  const char* category, double begin_s, double end_s) override;
  void waiting_call(const CallRecord& c) override;
  void kernel(const TraceKernel& k) override;
  void idle(const IdleInterval& gap) override;
  void flow(std::uint32_t device, std::uint32_t stream, double device_t_s,
            std::uint32_t thread, double host_t_s) override;

  /// A slice on host thread `thread`'s track; `args_json` a JSON object.
  void raw_host_slice(std::uint32_t thread, const std::string& name,
                      const char* category, double begin_s, double end_s,
                      const std::string& args_json);
  /// A slice on a device stream's track, named `stream_name`.
  void raw_device_slice(std::uint32_t device, std::uint32_t stream,
                        const std::string& stream_name,
                        const std::string& name, double begin_s, double end_s,
                        const std::string& args_json, const char* category);
  /// An arrow from a point inside a device slice to a point inside a host
  /// slice (both times inside their slices).
  void raw_flow(std::uint32_t device, std::uint32_t stream, double device_t_s,
                std::uint32_t thread, double host_t_s, const char* name);
  /// Writes what is buffered, whole events only.
  void flush() override;
  /// Flushes, writes the closing bracket, syncs and closes; further events
  /// are dropped.
  void close() override;
  /// In a child after fork(): closes the parent's file without writing.
  void abandon() override;

  static std::string escape(const std::string& s);

 private:
  void begin_event();
  void name_thread(std::uint32_t thread);
  bool room(std::uint64_t n);
  int fd_;
  std::string path_, buf_;
  bool first_ = true, closed_ = false, write_failed_ = false;
  std::uint64_t max_events_, events_ = 0, dropped_ = 0, next_flow_ = 1;
  std::set<std::uint32_t> threads_named_;
  std::set<std::uint64_t> streams_named_;
  std::set<std::uint32_t> devices_named_;
};

}  // namespace Impl
}  // namespace addscope

#endif
