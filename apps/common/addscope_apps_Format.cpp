#include "common/addscope_apps_Format.hpp"

#include <fmt/format.h>

namespace addscope {
namespace apps {

std::string format_gbps(double g) { return fmt::format("{:.1f}", g); }

std::string format_pct(double p, bool known) {
  return known ? fmt::format("{:.0f}%", p) : std::string("n/a");
}

std::string format_bytes(std::uint64_t b) {
  if (b >= (std::uint64_t(1) << 30))
    return fmt::format("{:.1f} GiB", double(b) / double(1 << 30));
  if (b >= (std::uint64_t(1) << 20))
    return fmt::format("{:.1f} MiB", double(b) / double(1 << 20));
  return fmt::format("{} KiB", b >> 10);
}

int exact_log2(std::int64_t n) {
  if (n < 1 || (n & (n - 1)) != 0) return -1;
  int k = 0;
  while ((std::int64_t(1) << k) < n) ++k;
  return k;
}

std::string size_name(std::int64_t n) {
  const int k = exact_log2(n);
  return k >= 0 ? "2^" + std::to_string(k) : std::to_string(n);
}

std::string version_text(int v) {
  return fmt::format("{}.{}.{}", v / 10000, (v / 100) % 100, v % 100);
}

}  // namespace apps
}  // namespace addscope
