#include "addscope/waits/output/addscope_ChromeTrace.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "addscope/core/addscope_OutputFile.hpp"
#include "addscope/waits/attribution/addscope_Occupancy.hpp"
#include "addscope/waits/model/addscope_CodeSite.hpp"
#include "addscope/waits/output/addscope_IdleTrace.hpp"

namespace addscope {
namespace Impl {

namespace {
// Process ids: host threads live in process 1, device d in 100 + d.
constexpr int kHostPid = 1;
int device_pid(std::uint32_t device) { return 100 + int(device); }
std::string us(double s) {
  char b[48];
  std::snprintf(b, sizeof b, "%.3f", s * 1e6);
  return b;
}
}  // namespace

ChromeTrace::ChromeTrace(int fd, std::string path, std::uint64_t max_events)
    : fd_(fd), path_(std::move(path)), max_events_(max_events) {
  buf_ = "[";
  begin_event();
  buf_ += R"({"ph":"M","pid":1,"name":"process_name","args":{"name":"host"}})";
  begin_event();
  buf_ +=
      R"({"ph":"M","pid":1,"name":"process_sort_index","args":{"sort_index":0}})";
  flush();
}

ChromeTrace::~ChromeTrace() { close(); }

namespace {
// The length of the valid UTF-8 sequence at s[i], 0 if there is none.
std::size_t utf8_length(const std::string& s, std::size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  std::size_t n = 0;
  unsigned min = 0;
  if (c < 0x80) return 1;
  if ((c & 0xe0) == 0xc0) {
    n = 2;
    min = 0x80;
  } else if ((c & 0xf0) == 0xe0) {
    n = 3;
    min = 0x800;
  } else if ((c & 0xf8) == 0xf0) {
    n = 4;
    min = 0x10000;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  unsigned cp = c & (0x7f >> n);
  for (std::size_t k = 1; k < n; ++k) {
    const auto d = static_cast<unsigned char>(s[i + k]);
    if ((d & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (d & 0x3f);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  return n;
}
}  // namespace

std::string ChromeTrace::escape(const std::string& s) {
  std::string o;
  o.reserve(s.size() + 2);
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    const std::size_t n = utf8_length(s, i);
    if (n == 0) {  // not UTF-8: the replacement character
      o += "\\ufffd";
      ++i;
      continue;
    }
    if (n > 1) {
      o.append(s, i, n);
      i += n;
      continue;
    }
    ++i;
    switch (c) {
      case '"':
        o += "\\\"";
        break;
      case '\\':
        o += "\\\\";
        break;
      case '\n':
        o += "\\n";
        break;
      case '\t':
        o += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char b[8];
          std::snprintf(b, sizeof b, "\\u%04x", c);
          o += b;
        } else {
          o += c;
        }
    }
  }
  return o;
}

void ChromeTrace::begin_event() {
  if (!first_) buf_ += ",";
  buf_ += "\n";
  first_ = false;
  ++events_;
}

bool ChromeTrace::room(std::uint64_t n) {
  if (closed_) return false;
  if (events_ + n > max_events_) {
    dropped_ += n;
    return false;
  }
  return true;
}

void ChromeTrace::name_thread(std::uint32_t thread) {
  if (!threads_named_.insert(thread).second) return;
  begin_event();
  buf_ += R"({"ph":"M","pid":1,"tid":)" + std::to_string(thread) +
          R"(,"name":"thread_name","args":{"name":"host thread )" +
          std::to_string(thread) + R"("}})";
}

void ChromeTrace::raw_host_slice(std::uint32_t thread, const std::string& name,
                                 const char* category, double begin_s,
                                 double end_s, const std::string& args_json) {
  if (!room(1)) return;
  name_thread(thread);
  begin_event();
  buf_ += R"({"ph":"X","pid":)" + std::to_string(kHostPid) + R"(,"tid":)" +
          std::to_string(thread) + R"(,"name":")" + escape(name) +
          R"(","cat":")" + category + R"(","ts":)" + us(begin_s) +
          R"(,"dur":)" + us(end_s - begin_s) + R"(,"args":)" + args_json + "}";
}

void ChromeTrace::raw_device_slice(std::uint32_t device, std::uint32_t stream,
                                   const std::string& stream_name,
                                   const std::string& name, double begin_s,
                                   double end_s, const std::string& args_json,
                                   const char* category) {
  if (!room(1)) return;
  const std::uint64_t key = (std::uint64_t(device) << 32) | stream;
  const std::string pid = std::to_string(device_pid(device));
  if (streams_named_.insert(key).second) {
    if (devices_named_.insert(device).second) {
      begin_event();
      buf_ += R"({"ph":"M","pid":)" + pid +
              R"(,"name":"process_name","args":{"name":"device )" +
              std::to_string(device) + R"("}})";
    }
    begin_event();
    buf_ += R"({"ph":"M","pid":)" + pid + R"(,"tid":)" +
            std::to_string(stream) +
            R"(,"name":"thread_name","args":{"name":")" + escape(stream_name) +
            R"("}})";
  }
  begin_event();
  buf_ += R"({"ph":"X","pid":)" + pid + R"(,"tid":)" + std::to_string(stream) +
          R"(,"name":")" + escape(name) + R"(","cat":")" + category +
          R"(","ts":)" + us(begin_s) + R"(,"dur":)" + us(end_s - begin_s) +
          R"(,"args":)" + args_json + "}";
}

void ChromeTrace::raw_flow(std::uint32_t device, std::uint32_t stream,
                           double device_t_s, std::uint32_t thread,
                           double host_t_s, const char* name) {
  if (!room(2)) return;
  const std::string id = std::to_string(next_flow_++);
  begin_event();
  buf_ += R"({"ph":"s","pid":)" + std::to_string(device_pid(device)) +
          R"(,"tid":)" + std::to_string(stream) + R"(,"name":")" + name +
          R"(","cat":"wait","id":)" + id + R"(,"ts":)" + us(device_t_s) + "}";
  begin_event();
  buf_ += R"({"ph":"f","bp":"e","pid":)" + std::to_string(kHostPid) +
          R"(,"tid":)" + std::to_string(thread) + R"(,"name":")" + name +
          R"(","cat":"wait","id":)" + id + R"(,"ts":)" + us(host_t_s) + "}";
}

namespace {
std::string json_text(const nlohmann::json& a) {
  return a.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// The idle interval's slices on the device's idle track.
class IdleOnTrace final : public IdleTraceSink {
 public:
  explicit IdleOnTrace(ChromeTrace& t) : t_(t) {}
  void idle_slice(std::uint32_t device, std::int64_t stream,
                  const std::string& name, double begin_s, double end_s,
                  const std::string& args_json) override {
    t_.raw_device_slice(device, track(stream), "idle", name, begin_s, end_s,
                        args_json, "idle");
  }
  void host_slice(std::uint32_t thread, const std::string& name, double begin_s,
                  double end_s, const std::string& args_json) override {
    t_.raw_host_slice(thread, name, "idle", begin_s, end_s, args_json);
  }
  void flow(std::uint32_t device, std::int64_t stream, double idle_t_s,
            std::uint32_t thread, double host_t_s,
            const std::string& name) override {
    t_.raw_flow(device, track(stream), idle_t_s, thread, host_t_s,
                name.c_str());
  }

 private:
  // The device's idle track: a stream id no stream has.
  static std::uint32_t track(std::int64_t stream) {
    return stream < 0 ? 0xfffffff0u : std::uint32_t(stream);
  }
  ChromeTrace& t_;
};
}  // namespace

void ChromeTrace::host_slice(std::uint32_t thread, const std::string& name,
                             const char* category, double begin_s,
                             double end_s) {
  raw_host_slice(thread, name, category, begin_s, end_s, "{}");
}

void ChromeTrace::waiting_call(const CallRecord& c) {
  nlohmann::json a = {{"wait_us", c.wait_s * 1e6},
                      {"class", wait_class_name(c.wait_class)}};
  if (!c.waited_for.empty()) a["waited_for"] = c.waited_for.front().kernel;
  if (!c.via.empty()) a["via"] = c.via;
  if (!c.regions.empty()) a["regions"] = c.regions;
  if (c.code.known()) a["code"] = site_text(c.code, 0);
  raw_host_slice(c.thread, c.what, call_kind_name(c.kind), c.begin_s, c.end_s,
                 json_text(a));
}

void ChromeTrace::kernel(const TraceKernel& k) {
  std::string sname = "stream " + std::to_string(k.stream);
  if (k.instance != 0)
    sname += " (Kokkos instance " + std::to_string(k.instance) + ")";
  nlohmann::json a = {{"kernel", k.name_raw},
                      {"correlation", k.correlation},
                      {"waited_us", k.waited_s * 1e6},
                      {"overlap_us", k.overlap_s * 1e6}};
  if (k.shape.known()) {
    a["grid"] = {k.shape.grid[0], k.shape.grid[1], k.shape.grid[2]};
    a["block"] = {k.shape.block[0], k.shape.block[1], k.shape.block[2]};
    a["shape"] = shape_short(k.shape);
    a["registers"] = k.shape.registers;
    a["shared_bytes"] = k.shape.shared_static + k.shape.shared_dynamic;
    if (k.capacity && k.capacity->known()) {
      const Occupancy o = occupancy(*k.capacity, k.shape);
      a["threads_in_flight"] = o.threads_in_flight;
      a["resident_threads"] = o.resident_threads;
      a["blocks_per_sm"] = o.blocks_per_sm;
      a["occupancy"] = o.theoretical;
    }
  }
  if (k.launched_at.known()) a["launched_at"] = site_text(k.launched_at, 0);
  raw_device_slice(k.device, k.stream, sname, k.name, k.start_s, k.end_s,
                   json_text(a), "kernel");
}

void ChromeTrace::idle(const IdleInterval& gap) {
  IdleOnTrace sink(*this);
  emit_idle_trace(gap, sink);
}

void ChromeTrace::flow(std::uint32_t device, std::uint32_t stream,
                       double device_t_s, std::uint32_t thread,
                       double host_t_s) {
  raw_flow(device, stream, device_t_s, thread, host_t_s, "waited for");
}

void ChromeTrace::flush() {
  if (fd_ < 0 || buf_.empty()) return;
  if (!write_all(fd_, buf_)) write_failed_ = true;
  buf_.clear();
}

void ChromeTrace::close() {
  if (closed_) return;
  closed_ = true;
  buf_ += "\n]\n";
  flush();
  if (fd_ >= 0) {
    if (::fsync(fd_) != 0 && errno != EINVAL) write_failed_ = true;
    if (::close(fd_) != 0) write_failed_ = true;
    fd_ = -1;
  }
}

void ChromeTrace::abandon() {
  buf_.clear();
  closed_ = true;
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

}  // namespace Impl
}  // namespace addscope
