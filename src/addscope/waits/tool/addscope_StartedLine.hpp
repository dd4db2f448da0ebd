// addscope — one line of the ADDSCOPE_WAITS_STARTED file, the one format
// the tool writes (tool/addscope_ToolStart.cpp, in each process in which it
// starts) and addscope-waits reads (apps/waits/waits_started.cpp):
//   "<front door> <pid>[ <detail>]\n"   front door: kokkos | cuda-injection
// Header-only and dependency-free: the launcher compiles it in.
#ifndef ADDSCOPE_WAITS_TOOL_STARTEDLINE_HPP
#define ADDSCOPE_WAITS_TOOL_STARTEDLINE_HPP

#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>

namespace addscope {

/// The front doors a line may name.
inline constexpr const char* kStartedFrontDoors[] = {"kokkos",
                                                     "cuda-injection"};

/// Writes the line into `buf` (no allocation: called as the tool starts);
/// its length, or -1 if it does not fit.
inline int format_started_line(char* buf, std::size_t size,
                               const char* front_door, long pid,
                               const char* detail) noexcept {
  const int n = std::snprintf(buf, size, "%s %ld%s%s\n", front_door, pid,
                              detail && *detail ? " " : "",
                              detail ? detail : "");
  return n > 0 && std::size_t(n) < size ? n : -1;
}

/// One parsed line.
struct StartedLine {
  std::string front_door;
  long pid = 0;
  std::string detail;
};

/// Parses one line (without its '\n'); false for anything else.
inline bool parse_started_line(const std::string& line, StartedLine* out) {
  std::istringstream l(line);
  StartedLine s;
  if (!(l >> s.front_door >> s.pid) || s.pid <= 0) return false;
  bool known = false;
  for (const char* d : kStartedFrontDoors) known = known || s.front_door == d;
  if (!known) return false;
  std::getline(l >> std::ws, s.detail);
  *out = s;
  return true;
}

}  // namespace addscope

#endif
