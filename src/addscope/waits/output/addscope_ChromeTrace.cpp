#include "addscope/waits/output/addscope_ChromeTrace.hpp"

#include <cstdio>

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

ChromeTrace::ChromeTrace(const std::string& path, std::uint64_t max_events)
    : path_(path),
      f_(path, std::ios::out | std::ios::trunc),
      max_events_(max_events) {
  ok_ = bool(f_);
  if (!ok_) return;
  f_ << "[";
  begin_event();
  f_ << R"({"ph":"M","pid":1,"name":"process_name","args":{"name":"host"}})";
  begin_event();
  f_ << R"({"ph":"M","pid":1,"name":"process_sort_index","args":{"sort_index":0}})";
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
  if (!first_) f_ << ",";
  f_ << "\n";
  first_ = false;
  ++events_;
}

void ChromeTrace::name_thread(std::uint32_t thread) {
  if (!threads_named_.insert(thread).second) return;
  begin_event();
  f_ << R"({"ph":"M","pid":1,"tid":)" << thread
     << R"(,"name":"thread_name","args":{"name":"host thread )" << thread
     << R"("}})";
}

void ChromeTrace::host_slice(std::uint32_t thread, const std::string& name,
                             const char* category, double begin_s, double end_s,
                             const std::string& args_json) {
  if (!ok_ || closed_) return;
  if (events_ >= max_events_) {
    ++dropped_;
    return;
  }
  name_thread(thread);
  begin_event();
  f_ << R"({"ph":"X","pid":)" << kHostPid << R"(,"tid":)" << thread
     << R"(,"name":")" << escape(name) << R"(","cat":")" << category
     << R"(","ts":)" << us(begin_s) << R"(,"dur":)" << us(end_s - begin_s)
     << R"(,"args":)" << args_json << "}";
}

void ChromeTrace::device_slice(std::uint32_t device, std::uint32_t stream,
                               const std::string& stream_name,
                               const std::string& name, double begin_s,
                               double end_s, const std::string& args_json) {
  if (!ok_ || closed_) return;
  if (events_ >= max_events_) {
    ++dropped_;
    return;
  }
  const std::uint64_t key = (std::uint64_t(device) << 32) | stream;
  if (streams_named_.insert(key).second) {
    if (devices_named_.insert(device).second) {
      begin_event();
      f_ << R"({"ph":"M","pid":)" << device_pid(device)
         << R"(,"name":"process_name","args":{"name":"device )" << device
         << R"("}})";
    }
    begin_event();
    f_ << R"({"ph":"M","pid":)" << device_pid(device) << R"(,"tid":)" << stream
       << R"(,"name":"thread_name","args":{"name":")" << escape(stream_name)
       << R"("}})";
  }
  begin_event();
  f_ << R"({"ph":"X","pid":)" << device_pid(device) << R"(,"tid":)" << stream
     << R"(,"name":")" << escape(name) << R"(","cat":"kernel","ts":)"
     << us(begin_s) << R"(,"dur":)" << us(end_s - begin_s) << R"(,"args":)"
     << args_json << "}";
}

void ChromeTrace::flow(std::uint32_t device, std::uint32_t stream,
                       double kernel_t_s, std::uint32_t thread,
                       double call_t_s) {
  if (!ok_ || closed_) return;
  if (events_ + 2 > max_events_) {
    dropped_ += 2;
    return;
  }
  const std::uint64_t id = next_flow_++;
  begin_event();
  f_ << R"({"ph":"s","pid":)" << device_pid(device) << R"(,"tid":)" << stream
     << R"(,"name":"waited for","cat":"wait","id":)" << id << R"(,"ts":)"
     << us(kernel_t_s) << "}";
  begin_event();
  f_ << R"({"ph":"f","bp":"e","pid":)" << kHostPid << R"(,"tid":)" << thread
     << R"(,"name":"waited for","cat":"wait","id":)" << id << R"(,"ts":)"
     << us(call_t_s) << "}";
}

void ChromeTrace::close() {
  if (!ok_ || closed_) return;
  closed_ = true;
  f_ << "\n]\n";
  f_.flush();
  write_failed_ = !f_;
  f_.close();
}

}  // namespace Impl
}  // namespace addscope
