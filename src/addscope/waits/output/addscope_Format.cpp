#include "addscope/waits/output/addscope_Format.hpp"

#include <cstdio>

namespace addscope {

std::string format_seconds(double s) {
  char buf[64];
  const double a = s < 0 ? -s : s;
  if (a >= 1.0)
    std::snprintf(buf, sizeof buf, "%.3f s", s);
  else if (a >= 1e-3)
    std::snprintf(buf, sizeof buf, "%.1f ms", s * 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.1f us", s * 1e6);
  return buf;
}

std::string format_bytes(std::uint64_t b) {
  char buf[32];
  if (b >= (1ull << 30))
    std::snprintf(buf, sizeof buf, "%.1f GiB", double(b) / (1ull << 30));
  else if (b >= (1ull << 20))
    std::snprintf(buf, sizeof buf, "%.1f MiB", double(b) / (1ull << 20));
  else if (b >= 1024)
    std::snprintf(buf, sizeof buf, "%.1f KiB", double(b) / 1024);
  else
    std::snprintf(buf, sizeof buf, "%llu B", (unsigned long long)b);
  return buf;
}

std::string format_attribution(const CallRecord& c) {
  std::string line = c.what + "  " + format_seconds(c.duration_s());
  if (c.waited_for.empty() || c.wait_s <= 0)
    return line + " (no earlier device work waited for)";
  line += " = " + std::string(c.wait_is_bound ? "up to " : "") +
          format_seconds(c.wait_s) + " waiting for ";
  for (std::size_t i = 0; i < c.waited_for.size(); ++i) {
    if (i) line += ", ";
    line += c.waited_for[i].kernel;
    if (c.waited_for.size() > 1)
      line += " (" + format_seconds(c.waited_for[i].wait_s) + ")";
  }
  line += " + " + format_seconds(c.own_s()) + " own";
  return line;
}

}  // namespace addscope
