#include "common/addscope_apps_Files.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "addscope/core/addscope_Error.hpp"

namespace addscope {
namespace apps {

void write_file_atomic(const std::string& path, const std::string& content) {
  const std::string tmp = path + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream f(tmp, std::ios::binary);
    if (!f)
      ADDSCOPE_RUNTIME_ERROR("cannot write '" << path << "' (cannot create "
                                              << tmp << ")");
    f << content;
    f.flush();
    if (!f) {
      std::remove(tmp.c_str());
      ADDSCOPE_RUNTIME_ERROR("cannot write '" << path << "' (write failed)");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    ADDSCOPE_RUNTIME_ERROR("cannot write '" << path << "' (rename failed)");
  }
}

void check_writable(const std::string& flag, const std::string& path) {
  ADDSCOPE_THROW_IF(path.empty(), flag << " = '' is invalid; allowed: a file "
                                          "path in a writable folder");
  const auto slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "."
                          : slash == 0               ? "/"
                                                     : path.substr(0, slash);
  ADDSCOPE_THROW_IF(::access(dir.c_str(), W_OK | X_OK) != 0,
                    flag << " = '" << path << "' is not writable (folder '"
                         << dir
                         << "' missing or read-only); allowed: a file "
                            "path in a writable folder");
  ADDSCOPE_THROW_IF(
      ::access(path.c_str(), F_OK) == 0 && ::access(path.c_str(), W_OK) != 0,
      flag << " = '" << path
           << "' exists and is read-only; allowed: a writable file path");
}

void make_output_dir(const std::string& flag, const std::string& dir) {
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0) {
    ADDSCOPE_THROW_IF(::mkdir(dir.c_str(), 0777) != 0,
                      flag << " = '" << dir << "' cannot be created ("
                           << std::strerror(errno)
                           << "); allowed: a writable folder");
  } else {
    ADDSCOPE_THROW_IF(!S_ISDIR(st.st_mode),
                      flag << " = '" << dir
                           << "' is not a folder; allowed: a writable folder");
  }
  check_writable(flag, dir + "/plots.gp");
}

std::string find_program(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (!path) return "";
  std::istringstream is(path);
  std::string dir;
  while (std::getline(is, dir, ':')) {
    if (dir.empty()) dir = ".";
    const std::string p = dir + "/" + program;
    if (::access(p.c_str(), X_OK) == 0) return p;
  }
  return "";
}

}  // namespace apps
}  // namespace addscope
