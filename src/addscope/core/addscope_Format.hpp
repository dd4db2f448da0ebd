// addscope — numbers as addscope prints them, the one formatter of the
// library, the waits tool and the apps. Kokkos-free.
//
//  * durations: three significant forms by size — "1.250 s" (>= 1 s),
//    "640.1 ms" (>= 1 ms), "6.2 us" (below); negative durations keep their
//    sign;
//  * byte counts: binary units, exact below 1 KiB — "512 B", "1.5 KiB",
//    "38.1 MiB", "1.5 GiB" (one decimal from KiB up);
//  * rates: GB/s (10^9 bytes) with one decimal — "3650.2";
//  * shares: whole percent — "88%", or "n/a" where the reference is unknown;
//  * sizes: "2^20" for powers of two, else the number — "1000000".
#ifndef ADDSCOPE_CORE_FORMAT_HPP
#define ADDSCOPE_CORE_FORMAT_HPP

#include <cstdint>
#include <string>

namespace addscope {

/// Human duration: "640.1 ms", "6.2 us", "1.250 s".
std::string format_seconds(double s);
/// Human byte count: "4 B", "512.0 KiB", "38.1 MiB", "1.5 GiB".
std::string format_bytes(std::uint64_t b);
/// A rate in GB/s with one decimal: "3650.2".
std::string format_gbps(double gbps);
/// 270336 -> "270,336".
std::string thousands(long long n);
/// A share of a whole, from a fraction: "1.3%", and two decimals below
/// 0.1% ("0.02%") so that a small share never reads as none.
std::string format_share(double fraction);
/// A count and its noun: "1 call", "1,024 calls".
std::string format_count(std::uint64_t n, const char* one, const char* many);
/// "88%" (no decimals) from a percentage; "n/a" if `known` is false.
std::string format_pct(double percent, bool known = true);
/// log2(n) if n is a power of two (n >= 1), else -1.
int exact_log2(std::int64_t n);
/// "2^24" for powers of two, else the number.
std::string size_name(std::int64_t n);
/// "3.4.1" from a KOKKOS_VERSION-style number (30401; 40699 -> "4.6.99").
std::string version_text(int version);

}  // namespace addscope

#endif
