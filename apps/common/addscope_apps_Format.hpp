// addscope apps — numbers as the apps print them. Durations use the one
// formatter the waits tool uses too (addscope::format_seconds).
#ifndef ADDSCOPE_APPS_COMMON_FORMAT_HPP
#define ADDSCOPE_APPS_COMMON_FORMAT_HPP

#include <cstdint>
#include <string>

#include "addscope/waits/output/addscope_Format.hpp"  // format_seconds

namespace addscope {
namespace apps {

using addscope::format_seconds;
/// "3650.2" (GB/s, one decimal).
std::string format_gbps(double gbps);
/// "88%" (no decimals) from a fraction or percentage; "n/a" if `known` is
/// false.
std::string format_pct(double percent, bool known = true);
/// "1.5 GiB", "12.0 MiB", "512 KiB".
std::string format_bytes(std::uint64_t bytes);
/// "2^24" for powers of two, else the number.
std::string size_name(std::int64_t n);
/// log2(n) if n is a power of two, else -1.
int exact_log2(std::int64_t n);
/// "3.4.1" from KOKKOS_VERSION-style 30401 (also 4.x: 40699 -> "4.6.99").
std::string version_text(int version);

}  // namespace apps
}  // namespace addscope

#endif
