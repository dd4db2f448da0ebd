#include "addscope/waits/output/addscope_AttributionText.hpp"

namespace addscope {

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
