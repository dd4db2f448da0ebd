// addscope — what a CUDA device can hold and how much of it one launch
// shape keeps busy: the device's capacity (as the device reports it), the
// CUDA occupancy rules (how many blocks of a shape fit on one SM, limited by
// warps, blocks, registers and shared memory — the rules of NVIDIA's
// occupancy calculator and cuda_occupancy.h), and the threads a launch keeps
// in flight. Pure functions; Kokkos-free, CUDA-free.
#ifndef ADDSCOPE_WAITS_ATTRIBUTION_OCCUPANCY_HPP
#define ADDSCOPE_WAITS_ATTRIBUTION_OCCUPANCY_HPP

#include <cstdint>
#include <string>

#include "addscope/core/addscope_Format.hpp"  // thousands
#include "addscope/waits/attribution/addscope_WaitRecords.hpp"

namespace addscope {

/// One device, as its driver describes it (cuDeviceGetAttribute).
/// sms == 0: unknown.
struct DeviceCapacity {
  std::uint32_t device = 0;  ///< the device id kernel records carry
  std::string name;          ///< "NVIDIA H200"
  int cc_major = 0, cc_minor = 0;
  int sms = 0;  ///< multiprocessors
  int warp_size = 32;
  int max_threads_per_sm = 0;
  int max_threads_per_block = 0;
  int max_blocks_per_sm = 0;
  int registers_per_sm = 0;
  int registers_per_block = 0;
  int shared_per_sm = 0;              ///< bytes, the most a kernel can get
  int shared_per_block_optin = 0;     ///< bytes
  int reserved_shared_per_block = 0;  ///< bytes the driver keeps per block
  bool known() const { return sms > 0 && max_threads_per_sm > 0; }
  /// Threads the device can hold at once: SMs x max resident threads per SM.
  long long resident_threads() const {
    return (long long)sms * max_threads_per_sm;
  }
};

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
