#include "addscope/core/addscope_Format.hpp"

#include <cstdio>
#include <string>

namespace addscope {

std::string thousands(long long n) {
  std::string digits = std::to_string(n < 0 ? -n : n);
  std::string out;
  const int len = int(digits.size());
  for (int i = 0; i < len; ++i) {
    if (i > 0 && (len - i) % 3 == 0) out += ',';
    out += digits[std::size_t(i)];
  }
  return n < 0 ? "-" + out : out;
}

std::string format_share(double fraction) {
  char b[32];
  const double p = 100 * fraction;
  std::snprintf(b, sizeof b, p > 0 && p < 0.1 ? "%.2f%%" : "%.1f%%", p);
  return b;
}

std::string format_count(std::uint64_t n, const char* one, const char* many) {
  return thousands((long long)n) + " " + (n == 1 ? one : many);
}

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
    std::snprintf(buf, sizeof buf, "%.1f GiB", double(b) / double(1ull << 30));
  else if (b >= (1ull << 20))
    std::snprintf(buf, sizeof buf, "%.1f MiB", double(b) / double(1ull << 20));
  else if (b >= 1024)
    std::snprintf(buf, sizeof buf, "%.1f KiB", double(b) / 1024);
  else
    std::snprintf(buf, sizeof buf, "%llu B", (unsigned long long)b);
  return buf;
}

std::string format_gbps(double g) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f", g);
  return buf;
}

std::string format_pct(double p, bool known) {
  if (!known) return "n/a";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0f%%", p);
  return buf;
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
  return std::to_string(v / 10000) + "." + std::to_string((v / 100) % 100) +
         "." + std::to_string(v % 100);
}

}  // namespace addscope
