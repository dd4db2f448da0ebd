// addscope — what each CUDA device can hold (SMs, resident threads, blocks,
// registers and shared memory per SM), asked of the CUDA driver
// (cuDeviceGetAttribute) opened at run time: no CUDA is needed to build or
// load the waits tool, and nothing is asked of a program that does not use
// CUDA.
#ifndef ADDSCOPE_WAITS_DEVICE_CUDADEVICES_HPP
#define ADDSCOPE_WAITS_DEVICE_CUDADEVICES_HPP

#include <string>
#include <vector>

#include "addscope/waits/model/addscope_DeviceCapacity.hpp"

namespace addscope {
namespace Impl {

/// Every CUDA device the driver (libcuda.so.1) sees, in device order (the
/// ids CUPTI's kernel records carry); empty, and why in `why`, when there is
/// no driver or no device.
std::vector<DeviceCapacity> query_cuda_devices(std::string* why = nullptr);

}  // namespace Impl
}  // namespace addscope

#endif
