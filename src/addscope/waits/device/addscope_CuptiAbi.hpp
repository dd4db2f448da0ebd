// addscope — the part of CUPTI's C ABI the CUPTI device source uses,
// declared here so that the source compiles without CUDA or CUPTI headers
// (and libaddscope_waits.so loads into any Kokkos program: libcupti is
// opened at run time). Values and layouts are those of cupti.h and
// generated_cuda_runtime_api_meta.h, which keep them across releases;
// where those headers are found, addscope_CuptiSource.cpp checks every one
// of them at compile time.
//
// Kernel records: CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL delivers the newest
// CUpti_ActivityKernelN of the loaded CUPTI (N = 8 for CUDA 11.8; later
// versions append fields); every version since CUpti_ActivityKernel4 starts
// with the prefix below, which is all that is read.
#ifndef ADDSCOPE_WAITS_DEVICE_CUPTIABI_HPP
#define ADDSCOPE_WAITS_DEVICE_CUPTIABI_HPP

#include <cstddef>
#include <cstdint>

namespace addscope {
namespace Impl {
namespace cupti {

using Result = int;  // CUptiResult
constexpr Result kSuccess = 0;
using Context = void*;     // CUcontext
using Stream = void*;      // CUstream / cudaStream_t
using Subscriber = void*;  // CUpti_SubscriberHandle
using CallbackId = std::uint32_t;

constexpr int kDomainRuntimeApi = 2;  // CUPTI_CB_DOMAIN_RUNTIME_API
constexpr int kDomainResource = 3;    // CUPTI_CB_DOMAIN_RESOURCE
constexpr CallbackId kContextDestroyStarting = 2;  // CUPTI_CBID_RESOURCE_...
constexpr CallbackId kStreamDestroyStarting = 4;   // CUPTI_CBID_RESOURCE_...
constexpr int kApiEnter = 0;                       // CUPTI_API_ENTER
constexpr int kApiExit = 1;                        // CUPTI_API_EXIT
constexpr int kActivityConcurrentKernel = 10;      // CUPTI_ACTIVITY_KIND_...
constexpr int kActivityRuntime = 5;                // ..._RUNTIME
constexpr int kActivityMemcpy = 1;                 // ..._MEMCPY
constexpr int kActivityMemset = 2;                 // ..._MEMSET
constexpr int kActivityExternalCorrelation = 39;   // ..._EXTERNAL_CORRELATION
constexpr int kExternalKindCustom0 = 3;  // CUPTI_EXTERNAL_CORRELATION_KIND_...
constexpr std::uint32_t kFlushForced = 1;  // CUPTI_ACTIVITY_FLAG_FLUSH_FORCED

// CUpti_CallbackData
struct CallbackData {
  int callbackSite;
  const char* functionName;
  const void* functionParams;
  void* functionReturnValue;
  const char* symbolName;
  Context context;
  std::uint32_t contextUid;
  std::uint64_t* correlationData;
  std::uint32_t correlationId;
};

// CUpti_Activity: every record starts with its kind.
struct Activity {
  int kind;
};

// The common prefix of CUpti_ActivityKernel4 ... 8 (and later).
struct KernelRecordPrefix {
  int kind;
  std::uint8_t cacheConfig;
  std::uint8_t sharedMemoryConfig;
  std::uint16_t registersPerThread;
  int partitionedGlobalCacheRequested;
  int partitionedGlobalCacheExecuted;
  std::uint64_t start;
  std::uint64_t end;
  std::uint64_t completed;
  std::uint32_t deviceId;
  std::uint32_t contextId;
  std::uint32_t streamId;
  std::int32_t gridX, gridY, gridZ;
  std::int32_t blockX, blockY, blockZ;
  std::int32_t staticSharedMemory;
  std::int32_t dynamicSharedMemory;
  std::uint32_t localMemoryPerThread;
  std::uint32_t localMemoryTotal;
  std::uint32_t correlationId;
  std::int64_t gridId;
  const char* name;
};

// The common prefix of CUpti_ActivityMemcpyN and CUpti_ActivityMemsetN
// (every version): a memset's `value` lies where a copy's four kinds do.
struct CopyRecordPrefix {
  int kind;
  std::uint8_t copyKind;  // CUpti_ActivityMemcpyKind (memcpy only)
  std::uint8_t srcKind, dstKind, flags;
  std::uint64_t bytes;
  std::uint64_t start;
  std::uint64_t end;
  std::uint32_t deviceId;
  std::uint32_t contextId;
  std::uint32_t streamId;
  std::uint32_t correlationId;
};

// CUpti_ActivityExternalCorrelation: a runtime call made while the
// tracker's id was pushed (cuptiActivityPushExternalCorrelationId).
struct ExternalCorrelationRecord {
  int kind;
  int externalKind;
  std::uint64_t externalId;
  std::uint32_t correlationId;
  std::uint32_t reserved;
};

// Runtime API callback ids (cupti_runtime_cbid.h).
enum RuntimeCbid : CallbackId {
  kLaunch_v3020 = 13,
  kFree_v3020 = 22,
  kFreeHost_v3020 = 26,
  kMemcpy_v3020 = 31,
  kMemcpy2D_v3020 = 32,
  kMemcpyToSymbol_v3020 = 39,
  kMemcpyFromSymbol_v3020 = 40,
  kMemcpyAsync_v3020 = 41,
  kThreadSynchronize_v3020 = 126,
  kStreamSynchronize_v3020 = 131,
  kEventRecord_v3020 = 135,
  kEventSynchronize_v3020 = 137,
  kMemcpy3D_v3020 = 144,
  kMemcpyPeer_v4000 = 160,
  kDeviceSynchronize_v3020 = 165,
  kLaunchKernel_v7000 = 211,
  kLaunch_ptsz_v7000 = 213,
  kLaunchKernel_ptsz_v7000 = 214,
  kMemcpy_ptds_v7000 = 215,
  kMemcpy2D_ptds_v7000 = 216,
  kMemcpyToSymbol_ptds_v7000 = 223,
  kMemcpyFromSymbol_ptds_v7000 = 224,
  kMemcpyAsync_ptsz_v7000 = 225,
  kStreamSynchronize_ptsz_v7000 = 239,
  kEventRecord_ptsz_v7000 = 242,
  kMemcpy3D_ptds_v7000 = 245,
  kLaunchCooperativeKernel_v9000 = 269,
  kLaunchCooperativeKernel_ptsz_v9000 = 270,
  kEventRecordWithFlags_v11010 = 370,
  kEventRecordWithFlags_ptsz_v11010 = 371,
  kLaunchKernelExC_v11060 = 430,
  kLaunchKernelExC_ptsz_v11060 = 431,
};

// Parameter structs (generated_cuda_runtime_api_meta.h).
struct StreamParams {  // cudaStreamSynchronize
  Stream stream;
};
struct EventParams {  // cudaEventSynchronize
  void* event;
};
struct EventRecordParams {  // cudaEventRecord(WithFlags)
  void* event;
  Stream stream;
};
struct MemcpyParams {  // cudaMemcpy
  void* dst;
  const void* src;
  std::size_t count;
  int kind;  // cudaMemcpyKind: 0 H2H, 1 H2D, 2 D2H, 3 D2D, 4 default
};
struct Dim3 {
  std::uint32_t x, y, z;
};
// cudaLaunchKernel(_ptsz), cudaLaunchCooperativeKernel(_ptsz)
struct LaunchKernelParams {
  const void* func;
  Dim3 gridDim;
  Dim3 blockDim;
  void** args;
  std::size_t sharedMem;
  Stream stream;
};
struct LaunchConfig {  // cudaLaunchConfig_t (its first fields)
  Dim3 gridDim;
  Dim3 blockDim;
  std::size_t dynamicSmemBytes;
  Stream stream;
};
struct LaunchKernelExCParams {  // cudaLaunchKernelExC(_ptsz)
  const LaunchConfig* config;
  const void* func;
  void** args;
};
struct MemcpyAsyncParams {  // cudaMemcpyAsync
  void* dst;
  const void* src;
  std::size_t count;
  int kind;
  Stream stream;
};

using CallbackFunc = void (*)(void* userdata, int domain, CallbackId cbid,
                              const void* cbdata);
using BufferRequestFunc = void (*)(std::uint8_t** buffer, std::size_t* size,
                                   std::size_t* max_records);
using BufferCompleteFunc = void (*)(Context ctx, std::uint32_t stream,
                                    std::uint8_t* buffer, std::size_t size,
                                    std::size_t valid);

}  // namespace cupti
}  // namespace Impl
}  // namespace addscope

#endif
