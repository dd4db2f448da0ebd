#include "addscope/core/addscope_OutputFile.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "addscope/core/addscope_OutputPath.hpp"

namespace addscope {

namespace {

std::string errno_text(int e) { return std::strerror(e); }

// What a file type is, in words.
const char* kind_of(mode_t m) {
  if (S_ISLNK(m)) return "a symbolic link";
  if (S_ISDIR(m)) return "a folder";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISSOCK(m)) return "a socket";
  return "not a regular file";
}

std::string folder_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

std::string resolve_output_path(const std::string& pattern) {
  if (pattern == "-" || pattern.empty()) return pattern;
  std::string p = expand_output_path(pattern);
  if (p[0] == '/') return p;
  char buf[4096];
  if (!::getcwd(buf, sizeof buf)) return p;  // kept relative
  std::string cwd(buf);
  if (cwd != "/") cwd += '/';
  return cwd + p;
}

std::string output_path_problem(const std::string& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) return "";  // absent: can be made
  if (S_ISREG(st.st_mode)) return "";
  return std::string("'") + path + "' is " + kind_of(st.st_mode) +
         "; only regular files are written";
}

bool write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data.remove_prefix(std::size_t(n));
  }
  return true;
}

bool write_file_atomically(const std::string& path, std::string_view text,
                           std::string* error) {
  auto fail = [&](const std::string& why) {
    if (error) *error = "cannot write '" + path + "': " + why;
    return false;
  };
  if (path.empty()) return fail("no path");
  const std::string problem = output_path_problem(path);
  if (!problem.empty()) {
    if (error) *error = problem;
    return false;
  }
  // A unique name next to the target (same file system, so rename is
  // atomic): pid, a counter and the time, created exclusively.
  static std::atomic<unsigned> counter{0};
  const std::string dir = folder_of(path);
  const auto slash = path.find_last_of('/');
  const std::string prefix =
      slash == std::string::npos ? "" : path.substr(0, slash + 1);
  const std::string base =
      slash == std::string::npos ? path : path.substr(slash + 1);
  std::string tmp;
  int fd = -1;
  for (int attempt = 0; attempt < 16 && fd < 0; ++attempt) {
    tmp = prefix + "." + base + ".addscope-" + std::to_string(::getpid()) + "-" +
          std::to_string(counter.fetch_add(1)) + ".tmp";
    fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                0666);
    if (fd < 0 && errno != EEXIST) return fail(errno_text(errno));
  }
  if (fd < 0) return fail("no unique temporary name next to it");
  bool ok = write_all(fd, text);
  int e = ok ? 0 : errno;
  if (ok && ::fsync(fd) != 0 && errno != EINVAL) {
    ok = false;
    e = errno;
  }
  if (::close(fd) != 0 && ok) {
    ok = false;
    e = errno;
  }
  if (ok && ::rename(tmp.c_str(), path.c_str()) != 0) {
    ok = false;
    e = errno;
  }
  if (!ok) {
    ::unlink(tmp.c_str());
    return fail(errno_text(e));
  }
  // The rename itself, on disk.
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return true;
}

int open_output_stream(const std::string& path, std::string* error) {
  auto fail = [&](const std::string& why) {
    if (error) *error = why;
    return -1;
  };
  if (path.empty()) return fail("cannot write '': no path");
  const std::string problem = output_path_problem(path);
  if (!problem.empty()) return fail(problem);
  // O_NOFOLLOW: a link planted since the check is not followed; O_NONBLOCK:
  // a FIFO planted since does not block the open (then refused below).
  const int fd = ::open(path.c_str(),
                        O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
                        0666);
  if (fd < 0)
    return fail("cannot write '" + path + "': " + errno_text(errno));
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return fail("'" + path + "' is " + kind_of(st.st_mode) +
                "; only regular files are written");
  }
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  if (::ftruncate(fd, 0) != 0) {
    const int e = errno;
    ::close(fd);
    return fail("cannot write '" + path + "': " + errno_text(e));
  }
  return fd;
}

}  // namespace addscope
