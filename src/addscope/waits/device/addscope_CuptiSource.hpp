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

/// Where libcupti is looked for, in order: ADDSCOPE_CUPTI_LIB, then the
/// one for `runtime_version` (e.g. 11080 -> libcupti.so.11.8), then the
/// other sonames (that major's first, then unversioned), then the CUDA
/// toolkit's usual folders.
std::vector<std::string> cupti_library_candidates(int runtime_version);

/// The CUDA runtime version a libcudart file name says ("libcudart.so.11.0"
/// -> 11000, ".../libcudart.so.11.8.89" -> 11080, "libcudart.so.13" ->
/// 13000); 0 for any other name.
int cuda_runtime_version_from_name(const char* path);

/// The program's CUDA runtime version (e.g. 11080), 0 when unknown: `ask`,
/// by its cudaRuntimeGetVersion, else only by the name of the libcudart
/// loaded (CUDA injection: inside the program's cuInit, where the runtime
/// may hold its initialization lock).
int cuda_runtime_version(bool ask);

}  // namespace Impl
}  // namespace addscope

#endif
