// addscope — the report's first lines: at most five, what matters most and
// what to change, each from the numbers the sections below show. How busy
// the device was over its run (first work to last); each starved launch
// with the launch that keeps the whole device busy (from its SM count and
// the kernel's occupancy: attribution/addscope_Occupancy.hpp); the longest
// wait and what it waited for — and when the call spent nearly all its time
// waiting, that the call is not what is slow; the largest cause of idle
// time when the device sat idle for a tenth of its run or more. Pure;
// Kokkos-free.
#ifndef ADDSCOPE_WAITS_OUTPUT_HEADLINE_HPP
#define ADDSCOPE_WAITS_OUTPUT_HEADLINE_HPP

#include <string>
#include <vector>

#include "addscope/waits/addscope_WaitsSnapshot.hpp"
#include "addscope/waits/attribution/addscope_Starvation.hpp"

namespace addscope {

/// The launch that keeps every resident thread of `d` busy with the kernel
/// that ran as `ran`: blocks of its threads per block (256 when that was
/// under a warp), as many as fit on the device at once (SMs x blocks per
/// SM, with its registers and shared memory). Unknown (grid 0) when `d` is.
LaunchShape filling_launch(const DeviceCapacity& d, const LaunchShape& ran);

/// The headline, at most five lines (none without device times).
std::vector<std::string> headline_lines(const WaitsSnapshot& w,
                                        const StarvationRule& rule);

}  // namespace addscope

#endif
