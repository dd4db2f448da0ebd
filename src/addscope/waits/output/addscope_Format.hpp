// addscope — how waits read as text: durations, byte counts, and the
// one-line attribution of a call.
#ifndef ADDSCOPE_WAITS_OUTPUT_FORMAT_HPP
#define ADDSCOPE_WAITS_OUTPUT_FORMAT_HPP

#include <cstdint>
#include <string>

#include "addscope/waits/attribution/addscope_WaitRecords.hpp"

namespace addscope {

/// Human duration: "640.1 ms", "6.2 us", "1.250 s".
std::string format_seconds(double s);
/// Human byte count: "4 B", "38.1 MiB".
std::string format_bytes(std::uint64_t b);
/// One line: "deep_copy out[2]  640.1 ms = 640.0 ms waiting for
/// addscope::add[team:1x1] + 6.2 us own" ("(no earlier device work waited
/// for)" when nothing was; "up to" when the wait is only bounded).
std::string format_attribution(const CallRecord& c);

}  // namespace addscope

#endif
