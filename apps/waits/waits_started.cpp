#include "waits_started.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "addscope/waits/tool/addscope_StartedLine.hpp"

namespace addscope {
namespace apps {

std::vector<ToolStart> parse_started(const std::string& text) {
  std::vector<ToolStart> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    StartedLine s;
    if (parse_started_line(line, &s))
      out.push_back({s.front_door, s.pid, s.detail});
  }
  return out;
}

StartedFile::StartedFile() {
  const char* tmp = std::getenv("TMPDIR");
  std::string dir = tmp && *tmp ? tmp : "/tmp";
  std::string pattern = dir + "/addscope-waits-started-XXXXXX";
  int fd = ::mkstemp(&pattern[0]);
  if (fd < 0 && dir != "/tmp") {
    pattern = "/tmp/addscope-waits-started-XXXXXX";
    fd = ::mkstemp(&pattern[0]);
  }
  if (fd < 0) {
    why_ = "cannot create a file in " + dir + " (" + std::strerror(errno) + ")";
    return;
  }
  ::close(fd);
  path_ = pattern;
}

StartedFile::~StartedFile() {
  if (!path_.empty()) ::unlink(path_.c_str());
}

std::string StartedFile::text() const {
  if (path_.empty()) return "";
  const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return "";
  std::string s;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    s.append(buf, std::size_t(n));
    if (s.size() > (std::size_t(16) << 20)) break;  // 16 MiB of lines: enough
  }
  ::close(fd);
  return s;
}

std::vector<ToolStart> StartedFile::read() const {
  return parse_started(text());
}

void append_to_existing(const std::string& path, const std::string& text) {
  if (path.empty() || text.empty()) return;
  const int fd = ::open(
      path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return;
  struct stat st;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    const char* p = text.data();
    std::size_t n = text.size();
    while (n > 0) {
      const ssize_t w = ::write(fd, p, n);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) break;
      p += w;
      n -= std::size_t(w);
    }
  }
  ::close(fd);
}

}  // namespace apps
}  // namespace addscope
