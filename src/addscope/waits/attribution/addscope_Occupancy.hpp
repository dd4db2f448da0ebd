// addscope — how much of a CUDA device (model/addscope_DeviceCapacity.hpp)
// one launch shape keeps busy: the CUDA occupancy rules (how many blocks of a shape fit on one SM, limited by
// warps, blocks, registers and shared memory — the rules of NVIDIA's
// occupancy calculator and cuda_occupancy.h), and the threads a launch keeps
// in flight. Pure functions; Kokkos-free, CUDA-free.
#ifndef ADDSCOPE_WAITS_ATTRIBUTION_OCCUPANCY_HPP
#define ADDSCOPE_WAITS_ATTRIBUTION_OCCUPANCY_HPP

#include <cstdint>
#include <string>

#include "addscope/core/addscope_Format.hpp"  // thousands
#include "addscope/waits/model/addscope_DeviceCapacity.hpp"
#include "addscope/waits/model/addscope_WaitRecords.hpp"

namespace addscope {

/// How many blocks of one launch shape fit on an SM, and why no more.
struct Occupancy {
  int blocks_per_sm = 0;  ///< the least of the four limits below
  int limit_warps = 0;    ///< from max resident threads (warps) per SM
  int limit_blocks = 0;   ///< from max resident blocks per SM
  int limit_registers = 0;
  int limit_shared = 0;
  const char* limited_by = "";  ///< "warps", "blocks", "registers", "shared
                                ///< memory" (the first of those that binds)
  /// Resident warps of this shape per SM / the most an SM holds (what
  /// NVIDIA calls theoretical occupancy).
  double theoretical = 0;
  /// Threads this launch keeps on the device at once: min(its blocks,
  /// SMs x blocks_per_sm) x threads per block.
  long long threads_in_flight = 0;
  long long resident_threads = 0;  ///< what the device can hold
  double in_flight_fraction() const {
    return resident_threads > 0 ? double(threads_in_flight) / resident_threads
                                : 0;
  }
};

/// The occupancy of `shape` on `d` (d.known() and shape.known() required;
/// otherwise all zero). Registers are allocated per warp in units of 256,
/// 255 at most per thread, over 4 sub-partitions; shared memory in units of
/// 128 bytes (256 before compute capability 8.0) plus what the driver
/// reserves per block, out of the SM's full shared memory (the carveout the
/// driver can choose). A shape that ran counts at least one block per SM.
Occupancy occupancy(const DeviceCapacity& d, const LaunchShape& shape);

/// "1 block x 1 thread", "78,125 blocks x 128 threads".
std::string shape_words(const LaunchShape& s);
/// "1 x 1", "78,125 x 128" (blocks x threads per block).
std::string shape_short(const LaunchShape& s);

}  // namespace addscope

#endif
