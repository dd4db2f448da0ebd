#include "addscope/waits/tool/addscope_ToolStart.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "addscope/waits/addscope_WaitsSettings.hpp"
#include "addscope/waits/tool/addscope_StartedLine.hpp"

namespace addscope {
namespace Impl {

namespace {

// The process that announced (0: none). A forked child sees its parent's
// pid here, not its own: it announces again.
std::atomic<long> g_announced_pid{0};

void write_all(int fd, const char* s, std::size_t n) noexcept {
  while (n > 0) {
    const ssize_t w = ::write(fd, s, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;
    s += w;
    n -= std::size_t(w);
  }
}

// detail without control characters (one line stays one line).
void copy_clean(char* out, std::size_t cap, const char* in) noexcept {
  std::size_t i = 0;
  for (; in && in[i] && i + 1 < cap; ++i)
    out[i] = (unsigned char)in[i] < 0x20 || in[i] == 0x7f ? ' ' : in[i];
  out[i] = '\0';
}

void append_started_line(const char* path, const char* line,
                         std::size_t n) noexcept {
  // Never created here, never through a link: the launcher made the file.
  // O_NONBLOCK: a FIFO without a reader fails at once instead of hanging.
  const int fd =
      ::open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return;
  struct stat st;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    // One write: with O_APPEND, lines of processes writing at once do not
    // interleave (a line is far below PIPE_BUF).
    (void)::write(fd, line, n);
  }
  ::close(fd);
}

bool verbose() noexcept {
  const char* v = waits_setting("ADDSCOPE_WAITS_VERBOSE");
  if (!v || !*v || std::strcmp(v, "0") == 0) return false;
  if (std::strcmp(v, "1") == 0) return true;
  char msg[256];
  char shown[64];
  copy_clean(shown, sizeof shown, v);
  const int n = std::snprintf(msg, sizeof msg,
                              "addscope waits: ADDSCOPE_WAITS_VERBOSE='%s' is "
                              "invalid; allowed: 0, 1 (using 0)\n",
                              shown);
  if (n > 0)
    write_all(STDERR_FILENO, msg,
              std::size_t(n) < sizeof msg ? std::size_t(n) : sizeof msg - 1);
  return false;
}

}  // namespace

const char* front_door_word(FrontDoor door) noexcept {
  switch (door) {
    case FrontDoor::KokkosTools:
      return "kokkos";
    case FrontDoor::CudaInjection:
      return "cuda-injection";
  }
  return "unknown";
}

bool announce_tool_start(FrontDoor door, const char* detail) noexcept {
  const long pid = long(::getpid());
  long seen = g_announced_pid.load();
  do {
    if (seen == pid) return false;  // this process announced already
  } while (!g_announced_pid.compare_exchange_weak(seen, pid));

  char clean[128];
  copy_clean(clean, sizeof clean, detail);
  const char* path = waits_setting("ADDSCOPE_WAITS_STARTED");
  if (path && *path) {
    char line[256];
    const int n = format_started_line(line, sizeof line, front_door_word(door),
                                      pid, clean);
    if (n > 0) append_started_line(path, line, std::size_t(n));
  }
  if (verbose()) {
    char msg[320];
    int n = 0;
    if (door == FrontDoor::KokkosTools)
      n = std::snprintf(msg, sizeof msg,
                        "addscope waits: loaded into PID %ld via Kokkos Tools"
                        "%s%s%s\n",
                        pid, clean[0] ? " (interface " : "", clean,
                        clean[0] ? ")" : "");
    else
      n = std::snprintf(msg, sizeof msg,
                        "addscope waits: loaded into PID %ld via CUDA "
                        "injection (CUDA_INJECTION64_PATH%s%s)\n",
                        pid, clean[0] ? "; " : "", clean);
    if (n > 0)
      write_all(STDERR_FILENO, msg,
                std::size_t(n) < sizeof msg ? std::size_t(n) : sizeof msg - 1);
  }
  return true;
}

bool first_to_start_in_run() noexcept {
  const char* path = waits_setting("ADDSCOPE_WAITS_STARTED");
  if (!path || !*path) return true;
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return true;
  char buf[256];
  std::size_t n = 0;
  struct stat st;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    while (n < sizeof buf - 1) {
      const ssize_t r = ::read(fd, buf + n, sizeof buf - 1 - n);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) break;
      n += std::size_t(r);
      if (std::memchr(buf, '\n', n)) break;
    }
  }
  ::close(fd);
  const char* end = static_cast<const char*>(std::memchr(buf, '\n', n));
  if (!end) return true;  // no whole line: not ours to judge
  try {
    StartedLine first;
    if (!parse_started_line(std::string(buf, std::size_t(end - buf)), &first))
      return true;
    return first.pid == long(::getpid());
  } catch (...) {
    return true;
  }
}

void reset_tool_start_for_testing() noexcept { g_announced_pid = 0; }

}  // namespace Impl
}  // namespace addscope
