// addscope — how a wait reads as text: the one-line attribution of a call
// (durations and byte counts: core/addscope_Format.hpp).
#ifndef ADDSCOPE_WAITS_OUTPUT_ATTRIBUTIONTEXT_HPP
#define ADDSCOPE_WAITS_OUTPUT_ATTRIBUTIONTEXT_HPP

#include <cstdint>
#include <string>

#include "addscope/core/addscope_Format.hpp"
#include "addscope/waits/model/addscope_WaitRecords.hpp"

namespace addscope {

/// One line: "deep_copy out[2]  640.1 ms = 640.0 ms waiting for
/// addscope::add[team:1x1] + 6.2 us own" ("(no earlier device work waited
/// for)" when nothing was; "up to" when the wait is only bounded).
std::string format_attribution(const CallRecord& c);

}  // namespace addscope

#endif
