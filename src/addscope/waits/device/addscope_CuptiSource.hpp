// addscope — the CUPTI device source (CUDA): kernel records from the
// activity API (CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, which keeps kernels
// concurrent), launch correlation and blocking calls from the callback API
// enabled for a few runtime calls only (kernel launches, synchronizations,
// synchronous copies, cudaFree). No event, no work is added to the
// program's streams. libcupti is opened at run time.
#ifndef ADDSCOPE_WAITS_DEVICE_CUPTISOURCE_HPP
#define ADDSCOPE_WAITS_DEVICE_CUPTISOURCE_HPP

#include <cstdint>
#include <string>
#include <vector>

#include "addscope/waits/device/addscope_DeviceSource.hpp"

namespace addscope {
namespace Impl {

/// Reads a CUPTI concurrent-kernel record; times are mapped onto `sink`'s
/// clock (`cupti_minus_steady_ns`: CUPTI's clock minus the steady clock).
/// False if it is no kernel record or incomplete.
bool decode_kernel_record(const void* record,
                          std::int64_t cupti_minus_steady_ns,
                          const DeviceSink& sink, DeviceKernelRecord* out);

/// Reads a CUPTI memcpy or memset record (times mapped as above); false if
/// it is neither or incomplete.
bool decode_copy_record(const void* record, std::int64_t cupti_minus_steady_ns,
                        const DeviceSink& sink, DeviceCopyRecord* out);

}  // namespace Impl
}  // namespace addscope

#endif
