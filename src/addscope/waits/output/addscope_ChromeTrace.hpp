// addscope — a Chrome trace-event file (the JSON array format that Perfetto
// and chrome://tracing open), written while the program runs: a track per
// host thread, a track per device stream with kernels at device times, and
// flow arrows from each kernel to the call that waited for it. Events are
// written as they are attributed, so memory stays flat; past `max_events`
// the rest are counted, not written. Kokkos-free; not thread-safe.
#ifndef ADDSCOPE_WAITS_OUTPUT_CHROMETRACE_HPP
#define ADDSCOPE_WAITS_OUTPUT_CHROMETRACE_HPP

#include <cstdint>
#include <fstream>
#include <set>
#include <string>

namespace addscope {
namespace Impl {

class ChromeTrace {
 public:
  /// Opens `path` for writing; ok() says whether it worked.
  ChromeTrace(const std::string& path, std::uint64_t max_events);
  ~ChromeTrace();
  ChromeTrace(const ChromeTrace&) = delete;
  ChromeTrace& operator=(const ChromeTrace&) = delete;

  bool ok() const { return ok_; }
  const std::string& path() const { return path_; }
  std::uint64_t dropped() const { return dropped_; }
  /// Writing failed (a full disk): the file is incomplete.
  bool write_failed() const {
    return write_failed_ || (ok_ && !f_.good() && !closed_);
  }

  /// A host call on thread `thread`, [begin_s, end_s] on the tracker clock.
  /// `args_json` is a JSON object ("{}" for none).
  void host_slice(std::uint32_t thread, const std::string& name,
                  const char* category, double begin_s, double end_s,
                  const std::string& args_json);
  /// A kernel on a device stream.
  void device_slice(std::uint32_t device, std::uint32_t stream,
                    const std::string& stream_name, const std::string& name,
                    double begin_s, double end_s, const std::string& args_json);
  /// An arrow from a point inside a kernel's slice to a point inside the
  /// host slice that waited for it (both times inside their slices).
  void flow(std::uint32_t device, std::uint32_t stream, double kernel_t_s,
            std::uint32_t thread, double call_t_s);
  /// Writes the closing bracket; further events are dropped.
  void close();

  static std::string escape(const std::string& s);

 private:
  void begin_event();
  void name_thread(std::uint32_t thread);
  std::string path_;
  std::ofstream f_;
  bool ok_ = false, first_ = true, closed_ = false, write_failed_ = false;
  std::uint64_t max_events_, events_ = 0, dropped_ = 0, next_flow_ = 1;
  std::set<std::uint32_t> threads_named_;
  std::set<std::uint64_t> streams_named_;
  std::set<std::uint32_t> devices_named_;
};

}  // namespace Impl
}  // namespace addscope

#endif
