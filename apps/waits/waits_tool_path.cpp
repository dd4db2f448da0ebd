#include "waits_tool_path.hpp"

#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#ifndef ADDSCOPE_WAITS_TOOL_NAME
#define ADDSCOPE_WAITS_TOOL_NAME "libaddscope_waits.so"
#endif
#ifndef ADDSCOPE_WAITS_INSTALL_RELATIVE
#define ADDSCOPE_WAITS_INSTALL_RELATIVE "../lib"
#endif
#ifndef ADDSCOPE_WAITS_DOC_RELATIVE
#define ADDSCOPE_WAITS_DOC_RELATIVE "../share/doc/addscope"
#endif
#ifndef ADDSCOPE_WAITS_SOURCE_DOCS
#define ADDSCOPE_WAITS_SOURCE_DOCS ""
#endif
#ifndef ADDSCOPE_WAITS_BUILD_RELATIVE
#define ADDSCOPE_WAITS_BUILD_RELATIVE "../../src"
#endif

namespace addscope {
namespace apps {

namespace {
std::string folder_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}
}  // namespace

std::string absolute_path(const std::string& path) {
  char buf[PATH_MAX];
  if (::realpath(path.c_str(), buf)) return buf;
  if (!path.empty() && path[0] == '/') return path;
  if (::getcwd(buf, sizeof buf)) return std::string(buf) + "/" + path;
  return path;
}

std::string launcher_folder(const char* argv0) {
  char buf[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n > 0) {
    buf[n] = '\0';
    return folder_of(buf);
  }
  if (argv0 && std::strchr(argv0, '/')) return folder_of(absolute_path(argv0));
  return "";
}

std::string docs_folder(const std::string& launcher_folder) {
  struct stat st {};
  for (const std::string& d :
       {launcher_folder.empty()
            ? std::string()
            : launcher_folder + "/" + ADDSCOPE_WAITS_DOC_RELATIVE,
        std::string(ADDSCOPE_WAITS_SOURCE_DOCS)}) {
    if (d.empty()) continue;
    if (::stat((d + "/waits-report.md").c_str(), &st) == 0)
      return absolute_path(d);
  }
  return "";
}

std::vector<std::string> tool_candidates(const std::string& folder) {
  std::vector<std::string> c;
  if (folder.empty()) return c;
  const std::string name = ADDSCOPE_WAITS_TOOL_NAME;
  for (const std::string rel :
       {std::string(ADDSCOPE_WAITS_INSTALL_RELATIVE), std::string("../lib"),
        std::string("../lib64"), std::string(ADDSCOPE_WAITS_BUILD_RELATIVE),
        std::string(".")}) {
    const std::string p = folder + "/" + rel + "/" + name;
    bool seen = false;
    for (const auto& q : c) seen = seen || q == p;
    if (!seen) c.push_back(p);
  }
  return c;
}

std::string tool_problem(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    return std::strerror(errno);  // "No such file or directory", ...
  if (!S_ISREG(st.st_mode)) return "not a regular file";
  if (::access(path.c_str(), R_OK) != 0) return std::strerror(errno);
  return "";
}

std::string find_tool(const std::vector<std::string>& candidates) {
  for (const auto& p : candidates)
    if (tool_problem(p).empty()) return absolute_path(p);
  return "";
}

}  // namespace apps
}  // namespace addscope
