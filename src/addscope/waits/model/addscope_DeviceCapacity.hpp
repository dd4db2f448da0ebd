// addscope — what one CUDA device can hold, as its driver reports it: the
// limits the occupancy rules (attribution/addscope_Occupancy.hpp) work
// from. Plain data; Kokkos-free, CUDA-free.
#ifndef ADDSCOPE_WAITS_MODEL_DEVICECAPACITY_HPP
#define ADDSCOPE_WAITS_MODEL_DEVICECAPACITY_HPP

#include <cstdint>
#include <string>

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

}  // namespace addscope

#endif
