#include "common/addscope_apps_Files.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "addscope/core/addscope_Error.hpp"
#include "addscope/core/addscope_OutputFile.hpp"

namespace addscope {
namespace apps {

void write_file_atomic(const std::string& path, const std::string& content) {
  std::string error;
  if (!write_file_atomically(path, content, &error))
    ADDSCOPE_RUNTIME_ERROR(error);
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
  const std::string problem = output_path_problem(path);
  ADDSCOPE_THROW_IF(!problem.empty(), flag << " = " << problem
                                           << "; allowed: a regular file path");
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
