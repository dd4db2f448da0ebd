#include "addscope/waits/device/addscope_CudaDevices.hpp"

#include <dlfcn.h>

#if defined(__has_include)
#if __has_include(<cuda.h>)
#define ADDSCOPE_CHECK_CUDA_ABI 1
#include <cuda.h>
#endif
#endif

namespace addscope {
namespace Impl {

namespace {

// The part of the driver API used here (cuda.h; stable since CUDA 2.x).
using Result = int;     // CUresult
using Device = int;     // CUdevice
enum Attribute : int {  // CUdevice_attribute
  kMaxThreadsPerBlock = 1,
  kWarpSize = 10,
  kMaxRegistersPerBlock = 12,
  kMultiprocessorCount = 16,
  kMaxThreadsPerMultiprocessor = 39,
  kComputeCapabilityMajor = 75,
  kComputeCapabilityMinor = 76,
  kMaxSharedMemoryPerMultiprocessor = 81,
  kMaxRegistersPerMultiprocessor = 82,
  kMaxSharedMemoryPerBlockOptin = 97,
  kMaxBlocksPerMultiprocessor = 106,
  kReservedSharedMemoryPerBlock = 111,
};

#ifdef ADDSCOPE_CHECK_CUDA_ABI
#define ADDSCOPE_SAME_ATTR(ours, theirs) \
  static_assert(int(ours) == int(theirs), #theirs)
ADDSCOPE_SAME_ATTR(kMaxThreadsPerBlock,
                   CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
ADDSCOPE_SAME_ATTR(kWarpSize, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
ADDSCOPE_SAME_ATTR(kMaxRegistersPerBlock,
                   CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
ADDSCOPE_SAME_ATTR(kMultiprocessorCount,
                   CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
ADDSCOPE_SAME_ATTR(kMaxThreadsPerMultiprocessor,
                   CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
ADDSCOPE_SAME_ATTR(kComputeCapabilityMajor,
                   CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
ADDSCOPE_SAME_ATTR(kComputeCapabilityMinor,
                   CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
ADDSCOPE_SAME_ATTR(kMaxSharedMemoryPerMultiprocessor,
                   CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
ADDSCOPE_SAME_ATTR(kMaxRegistersPerMultiprocessor,
                   CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
ADDSCOPE_SAME_ATTR(kMaxSharedMemoryPerBlockOptin,
                   CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
ADDSCOPE_SAME_ATTR(kMaxBlocksPerMultiprocessor,
                   CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR);
ADDSCOPE_SAME_ATTR(kReservedSharedMemoryPerBlock,
                   CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK);
static_assert(sizeof(CUdevice) == sizeof(Device), "CUdevice");
#undef ADDSCOPE_SAME_ATTR
#endif

struct Driver {
  Result (*Init)(unsigned) = nullptr;
  Result (*DeviceGetCount)(int*) = nullptr;
  Result (*DeviceGet)(Device*, int) = nullptr;
  Result (*DeviceGetName)(char*, int, Device) = nullptr;
  Result (*DeviceGetAttribute)(int*, int, Device) = nullptr;
};

template <class F>
bool find(void* lib, const char* name, F& f) {
  f = reinterpret_cast<F>(dlsym(lib, name));
  return f != nullptr;
}

}  // namespace

std::vector<DeviceCapacity> query_cuda_devices(std::string* why) {
  std::vector<DeviceCapacity> out;
  auto fail = [&](const std::string& w) {
    if (why) *why = w;
    return out;
  };
  // The program's CUDA runtime has loaded the driver already; the handle is
  // kept (unloading a driver is never worth it).
  static void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return fail("no CUDA driver (libcuda.so.1)");
  Driver d;
  if (!(find(lib, "cuInit", d.Init) &&
        find(lib, "cuDeviceGetCount", d.DeviceGetCount) &&
        find(lib, "cuDeviceGet", d.DeviceGet) &&
        find(lib, "cuDeviceGetName", d.DeviceGetName) &&
        find(lib, "cuDeviceGetAttribute", d.DeviceGetAttribute)))
    return fail("libcuda.so.1 lacks a driver entry point");
  if (d.Init(0) != 0) return fail("cuInit failed");
  int count = 0;
  if (d.DeviceGetCount(&count) != 0 || count <= 0)
    return fail("no CUDA device");
  for (int i = 0; i < count; ++i) {
    Device dev = 0;
    if (d.DeviceGet(&dev, i) != 0) continue;
    DeviceCapacity c;
    c.device = std::uint32_t(i);
    char name[256] = {};
    if (d.DeviceGetName(name, int(sizeof name) - 1, dev) == 0) c.name = name;
    auto attr = [&](int a) {
      int v = 0;
      return d.DeviceGetAttribute(&v, a, dev) == 0 ? v : 0;
    };
    c.cc_major = attr(kComputeCapabilityMajor);
    c.cc_minor = attr(kComputeCapabilityMinor);
    c.sms = attr(kMultiprocessorCount);
    c.warp_size = attr(kWarpSize);
    c.max_threads_per_sm = attr(kMaxThreadsPerMultiprocessor);
    c.max_threads_per_block = attr(kMaxThreadsPerBlock);
    c.max_blocks_per_sm = attr(kMaxBlocksPerMultiprocessor);
    c.registers_per_sm = attr(kMaxRegistersPerMultiprocessor);
    c.registers_per_block = attr(kMaxRegistersPerBlock);
    c.shared_per_sm = attr(kMaxSharedMemoryPerMultiprocessor);
    c.shared_per_block_optin = attr(kMaxSharedMemoryPerBlockOptin);
    c.reserved_shared_per_block = attr(kReservedSharedMemoryPerBlock);
    if (c.warp_size <= 0) c.warp_size = 32;
    out.push_back(c);
  }
  if (out.empty()) return fail("no CUDA device answered");
  return out;
}

}  // namespace Impl
}  // namespace addscope
