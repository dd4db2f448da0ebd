#include "addscope/waits/output/addscope_ChromeTrace.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "addscope/core/addscope_OutputFile.hpp"

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

void ChromeTrace::host_slice(std::uint32_t thread, const std::string& name,
                             const char* category, double begin_s, double end_s,
                             const std::string& args_json) {
  if (!room(1)) return;
  name_thread(thread);
  begin_event();
  buf_ += R"({"ph":"X","pid":)" + std::to_string(kHostPid) + R"(,"tid":)" +
          std::to_string(thread) + R"(,"name":")" + escape(name) +
          R"(","cat":")" + category + R"(","ts":)" + us(begin_s) +
          R"(,"dur":)" + us(end_s - begin_s) + R"(,"args":)" + args_json + "}";
}

void ChromeTrace::device_slice(std::uint32_t device, std::uint32_t stream,
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

void ChromeTrace::flow(std::uint32_t device, std::uint32_t stream,
                       double device_t_s, std::uint32_t thread, double host_t_s,
                       const char* name) {
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
