// addscope — the part of CUPTI's C ABI the CUPTI device source uses,
// declared here so that the source compiles without CUDA or CUPTI headers
// (and libaddscope_waits.so loads into any Kokkos program: libcupti is
// opened at run time). Values and layouts are those of cupti.h,
// generated_cuda_runtime_api_meta.h and generated_cuda_meta.h, which keep
// them across releases; addscope_CuptiAbiCheck.cpp checks every one of them
// against a CUDA toolkit's headers wherever CMake finds one.
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

// The entry points looked up with dlsym, as this code calls them (each
// checked against cupti.h's declaration: addscope_CuptiAbiCheck.cpp).
using GetVersionFn = Result (*)(std::uint32_t*);
using GetResultStringFn = Result (*)(Result, const char**);
using SubscribeFn = Result (*)(Subscriber*, CallbackFunc, void*);
using UnsubscribeFn = Result (*)(Subscriber);
using EnableCallbackFn = Result (*)(std::uint32_t, Subscriber, int, CallbackId);
using ActivityEnableFn = Result (*)(int);
using ActivityRegisterCallbacksFn = Result (*)(BufferRequestFunc,
                                               BufferCompleteFunc);
using ActivityGetNextRecordFn = Result (*)(std::uint8_t*, std::size_t,
                                           Activity**);
using ActivityFlushAllFn = Result (*)(std::uint32_t);
using GetTimestampFn = Result (*)(std::uint64_t*);
using GetStreamIdExFn = Result (*)(Context, Stream, std::uint8_t,
                                   std::uint32_t*);
using GetStreamIdFn = Result (*)(Context, Stream, std::uint32_t*);
using GetDeviceIdFn = Result (*)(Context, std::uint32_t*);
using ActivityGetNumDroppedRecordsFn = Result (*)(Context, std::uint32_t,
                                                  std::size_t*);
using PushExternalCorrelationIdFn = Result (*)(int, std::uint64_t);
using PopExternalCorrelationIdFn = Result (*)(int, std::uint64_t*);
using ActivityEnableRuntimeApiFn = Result (*)(CallbackId, std::uint8_t);

// ---- the driver API's side (cupti_driver_cbid.h, generated_cuda_meta.h) --
// The callback ids of the driver domain and the parameter structs of the
// calls the waits tool decodes — every kernel launch entry, every call that
// can block the host, event records — plus the runtime ids the part above
// lacks (the asynchronous copies, array copies, graph launches). Ids and
// layouts are stable across releases: CUPTI appends, never renumbers.

constexpr int kDomainDriverApi = 1;  // CUPTI_CB_DOMAIN_DRIVER_API

using DevicePtr = std::uint64_t;    // CUdeviceptr (v2: 64-bit)
using DevicePtrV1 = std::uint32_t;  // CUdeviceptr_v1 (the pre-_v2 calls)
using Event = void*;                // CUevent / cudaEvent_t

// CU_STREAM_LEGACY, CU_STREAM_PER_THREAD (cuda.h): handles that name the
// default streams explicitly.
constexpr std::uintptr_t kStreamLegacy = 0x1;
constexpr std::uintptr_t kStreamPerThread = 0x2;

// CUmemorytype (cuda.h).
constexpr int kMemoryHost = 1, kMemoryDevice = 2, kMemoryArray = 3,
              kMemoryUnified = 4;

// Driver API callback ids (cupti_driver_cbid.h).
enum DriverCbid : CallbackId {
  kCuCtxSynchronize = 17,
  kCuMemFree = 33,
  kCuMemFreeHost = 38,
  kCuMemcpyHtoD = 43,
  kCuMemcpyDtoH = 45,
  kCuMemcpyDtoD = 47,
  kCuMemcpyDtoA = 49,
  kCuMemcpyAtoD = 51,
  kCuMemcpyHtoA = 53,
  kCuMemcpyAtoH = 54,
  kCuMemcpyAtoA = 55,
  kCuMemcpy2D = 56,
  kCuMemcpy2DUnaligned = 57,
  kCuMemcpy3D = 58,
  kCuMemcpyHtoDAsync = 60,
  kCuMemcpyDtoHAsync = 62,
  kCuMemcpyDtoDAsync = 64,
  kCuMemcpyHtoAAsync = 66,
  kCuMemcpyAtoHAsync = 67,
  kCuMemcpy2DAsync = 68,
  kCuMemcpy3DAsync = 69,
  kCuLaunch = 115,
  kCuLaunchGrid = 116,
  kCuLaunchGridAsync = 117,
  kCuEventRecord = 119,
  kCuEventSynchronize = 121,
  kCuStreamSynchronize = 126,
  kCuMemsetD8Async = 216,
  kCuMemsetD16Async = 218,
  kCuMemsetD32Async = 220,
  kCuMemsetD2D8Async = 222,
  kCuMemsetD2D16Async = 224,
  kCuMemsetD2D32Async = 226,
  kCuMemFree_v2 = 245,
  kCuMemsetD8_v2 = 249,
  kCuMemsetD16_v2 = 250,
  kCuMemsetD32_v2 = 251,
  kCuMemsetD2D8_v2 = 252,
  kCuMemsetD2D16_v2 = 253,
  kCuMemsetD2D32_v2 = 254,
  kCuMemcpyHtoD_v2 = 276,
  kCuMemcpyHtoDAsync_v2 = 277,
  kCuMemcpyDtoH_v2 = 278,
  kCuMemcpyDtoHAsync_v2 = 279,
  kCuMemcpyDtoD_v2 = 280,
  kCuMemcpyDtoDAsync_v2 = 281,
  kCuMemcpyAtoH_v2 = 282,
  kCuMemcpyAtoHAsync_v2 = 283,
  kCuMemcpyAtoD_v2 = 284,
  kCuMemcpyDtoA_v2 = 285,
  kCuMemcpyAtoA_v2 = 286,
  kCuMemcpy2D_v2 = 287,
  kCuMemcpy2DUnaligned_v2 = 288,
  kCuMemcpy2DAsync_v2 = 289,
  kCuMemcpy3D_v2 = 290,
  kCuMemcpy3DAsync_v2 = 291,
  kCuMemcpyHtoA_v2 = 292,
  kCuMemcpyHtoAAsync_v2 = 293,
  kCuMemcpy = 305,
  kCuMemcpyAsync = 306,
  kCuLaunchKernel = 307,
  kCuMemcpyPeer = 318,
  kCuMemcpyPeerAsync = 319,
  kCuMemcpy3DPeer = 320,
  kCuMemcpy3DPeerAsync = 321,
  kCuMemcpyHtoD_v2_ptds = 397,
  kCuMemcpyDtoH_v2_ptds = 398,
  kCuMemcpyDtoD_v2_ptds = 399,
  kCuMemcpyDtoA_v2_ptds = 400,
  kCuMemcpyAtoD_v2_ptds = 401,
  kCuMemcpyHtoA_v2_ptds = 402,
  kCuMemcpyAtoH_v2_ptds = 403,
  kCuMemcpyAtoA_v2_ptds = 404,
  kCuMemcpy2D_v2_ptds = 405,
  kCuMemcpy2DUnaligned_v2_ptds = 406,
  kCuMemcpy3D_v2_ptds = 407,
  kCuMemcpy_ptds = 408,
  kCuMemcpyPeer_ptds = 409,
  kCuMemcpy3DPeer_ptds = 410,
  kCuMemsetD8_v2_ptds = 411,
  kCuMemsetD16_v2_ptds = 412,
  kCuMemsetD32_v2_ptds = 413,
  kCuMemsetD2D8_v2_ptds = 414,
  kCuMemsetD2D16_v2_ptds = 415,
  kCuMemsetD2D32_v2_ptds = 416,
  kCuMemcpyAsync_ptsz = 418,
  kCuMemcpyHtoAAsync_v2_ptsz = 419,
  kCuMemcpyAtoHAsync_v2_ptsz = 420,
  kCuMemcpyHtoDAsync_v2_ptsz = 421,
  kCuMemcpyDtoHAsync_v2_ptsz = 422,
  kCuMemcpyDtoDAsync_v2_ptsz = 423,
  kCuMemcpy2DAsync_v2_ptsz = 424,
  kCuMemcpy3DAsync_v2_ptsz = 425,
  kCuMemcpyPeerAsync_ptsz = 426,
  kCuMemcpy3DPeerAsync_ptsz = 427,
  kCuMemsetD8Async_ptsz = 428,
  kCuMemsetD16Async_ptsz = 429,
  kCuMemsetD32Async_ptsz = 430,
  kCuMemsetD2D8Async_ptsz = 431,
  kCuMemsetD2D16Async_ptsz = 432,
  kCuMemsetD2D32Async_ptsz = 433,
  kCuStreamSynchronize_ptsz = 440,
  kCuEventRecord_ptsz = 441,
  kCuLaunchKernel_ptsz = 442,
  kCuLaunchCooperativeKernel = 477,
  kCuLaunchCooperativeKernel_ptsz = 478,
  kCuLaunchCooperativeKernelMultiDevice = 480,
  kCuGraphLaunch = 514,
  kCuGraphLaunch_ptsz = 515,
  kCuEventRecordWithFlags = 587,
  kCuEventRecordWithFlags_ptsz = 588,
  kCuLaunchKernelEx = 652,
  kCuLaunchKernelEx_ptsz = 653,
  kCuCtxSynchronize_v2 = 800,  // CUDA 13 (cuCtxSynchronize(ctx))
};

// Runtime API callback ids beyond addscope_CuptiAbi.hpp's
// (cupti_runtime_cbid.h).
enum RuntimeCbidMore : CallbackId {
  kFreeArray_v3020 = 24,
  kMemcpyToArray_v3020 = 33,
  kMemcpy2DToArray_v3020 = 34,
  kMemcpyFromArray_v3020 = 35,
  kMemcpy2DFromArray_v3020 = 36,
  kMemcpyArrayToArray_v3020 = 37,
  kMemcpy2DArrayToArray_v3020 = 38,
  kMemcpyToArrayAsync_v3020 = 42,
  kMemcpyFromArrayAsync_v3020 = 43,
  kMemcpy2DAsync_v3020 = 44,
  kMemcpy2DToArrayAsync_v3020 = 45,
  kMemcpy2DFromArrayAsync_v3020 = 46,
  kMemcpyToSymbolAsync_v3020 = 47,
  kMemcpyFromSymbolAsync_v3020 = 48,
  kMemcpy3DAsync_v3020 = 145,
  kMemcpyPeerAsync_v4000 = 161,
  kMemcpy3DPeer_v4000 = 162,
  kMemcpy3DPeerAsync_v4000 = 163,
  kMemcpyToArray_ptds_v7000 = 217,
  kMemcpy2DToArray_ptds_v7000 = 218,
  kMemcpyFromArray_ptds_v7000 = 219,
  kMemcpy2DFromArray_ptds_v7000 = 220,
  kMemcpyArrayToArray_ptds_v7000 = 221,
  kMemcpy2DArrayToArray_ptds_v7000 = 222,
  kMemcpyToArrayAsync_ptsz_v7000 = 226,
  kMemcpyFromArrayAsync_ptsz_v7000 = 227,
  kMemcpy2DAsync_ptsz_v7000 = 228,
  kMemcpy2DToArrayAsync_ptsz_v7000 = 229,
  kMemcpy2DFromArrayAsync_ptsz_v7000 = 230,
  kMemcpyToSymbolAsync_ptsz_v7000 = 231,
  kMemcpyFromSymbolAsync_ptsz_v7000 = 232,
  kMemcpy3DAsync_ptsz_v7000 = 246,
  kMemcpy3DPeer_ptds_v7000 = 249,
  kMemcpy3DPeerAsync_ptsz_v7000 = 250,
  kLaunchCooperativeKernelMultiDevice_v9000 = 272,
  kGraphLaunch_v10000 = 311,
  kGraphLaunch_ptsz_v10000 = 312,
  kMemset_v3020 = 49,
  kMemset2D_v3020 = 50,
  kMemsetAsync_v3020 = 51,
  kMemset2DAsync_v3020 = 52,
  kMemset3D_v3020 = 142,
  kMemset3DAsync_v3020 = 143,
  kMemset_ptds_v7000 = 233,
  kMemset2D_ptds_v7000 = 234,
  kMemsetAsync_ptsz_v7000 = 235,
  kMemset2DAsync_ptsz_v7000 = 236,
  kMemset3D_ptds_v7000 = 243,
  kMemset3DAsync_ptsz_v7000 = 244,
  // CUDA 13's __cudaLaunchKernel(_ptsz): what nvcc's <<<...>>> calls
  // (parameters not published: decoded without its stream or shape).
  kInternalLaunchKernel_v13000 = 505,
  kInternalLaunchKernel_ptsz_v13000 = 506,
};

// ---- driver parameter structs (generated_cuda_meta.h) ----------------------

// cuLaunchKernel(_ptsz), cuLaunchCooperativeKernel(_ptsz) (the latter ends
// before `extra`).
struct CuLaunchKernelParams {
  void* f;
  std::uint32_t gridDimX, gridDimY, gridDimZ;
  std::uint32_t blockDimX, blockDimY, blockDimZ;
  std::uint32_t sharedMemBytes;
  Stream hStream;
  void** kernelParams;
  void** extra;
};
struct CuLaunchConfig {  // CUlaunchConfig
  std::uint32_t gridDimX, gridDimY, gridDimZ;
  std::uint32_t blockDimX, blockDimY, blockDimZ;
  std::uint32_t sharedMemBytes;
  Stream hStream;
  void* attrs;
  std::uint32_t numAttrs;
};
struct CuLaunchKernelExParams {  // cuLaunchKernelEx(_ptsz)
  const CuLaunchConfig* config;
  void* f;
  void** kernelParams;
  void** extra;
};
struct CuLaunchGridParams {  // cuLaunchGrid (block shape set before)
  void* f;
  int grid_width, grid_height;
};
struct CuLaunchGridAsyncParams {  // cuLaunchGridAsync
  void* f;
  int grid_width, grid_height;
  Stream hStream;
};
struct CuGraphLaunchParams {  // cuGraphLaunch(_ptsz)
  void* hGraph;
  Stream hStream;
};

struct CuStreamParams {  // cuStreamSynchronize(_ptsz)
  Stream hStream;
};
struct CuEventParams {  // cuEventSynchronize
  Event hEvent;
};
struct CuEventRecordParams {  // cuEventRecord(_ptsz), ...WithFlags(_ptsz)
  Event hEvent;
  Stream hStream;
};

// The 1-D copies: each has its own field order.
struct CuMemcpyHtoDParams {  // cuMemcpyHtoD_v2(_ptds)
  DevicePtr dstDevice;
  const void* srcHost;
  std::size_t ByteCount;
};
struct CuMemcpyHtoDAsyncParams {  // cuMemcpyHtoDAsync_v2(_ptsz)
  DevicePtr dstDevice;
  const void* srcHost;
  std::size_t ByteCount;
  Stream hStream;
};
struct CuMemcpyDtoHParams {  // cuMemcpyDtoH_v2(_ptds)
  void* dstHost;
  DevicePtr srcDevice;
  std::size_t ByteCount;
};
struct CuMemcpyDtoHAsyncParams {  // cuMemcpyDtoHAsync_v2(_ptsz)
  void* dstHost;
  DevicePtr srcDevice;
  std::size_t ByteCount;
  Stream hStream;
};
struct CuMemcpyDtoDParams {  // cuMemcpyDtoD_v2(_ptds), cuMemcpy(_ptds)
  DevicePtr dst;
  DevicePtr src;
  std::size_t ByteCount;
};
struct CuMemcpyDtoDAsyncParams {  // cuMemcpyDtoDAsync_v2, cuMemcpyAsync
  DevicePtr dst;
  DevicePtr src;
  std::size_t ByteCount;
  Stream hStream;
};
// The pre-_v2 calls (32-bit device pointers and counts).
struct CuMemcpyHtoDV1Params {  // cuMemcpyHtoD
  DevicePtrV1 dstDevice;
  const void* srcHost;
  std::uint32_t ByteCount;
};
struct CuMemcpyHtoDAsyncV1Params {  // cuMemcpyHtoDAsync
  DevicePtrV1 dstDevice;
  const void* srcHost;
  std::uint32_t ByteCount;
  Stream hStream;
};
struct CuMemcpyDtoHV1Params {  // cuMemcpyDtoH
  void* dstHost;
  DevicePtrV1 srcDevice;
  std::uint32_t ByteCount;
};
struct CuMemcpyDtoHAsyncV1Params {  // cuMemcpyDtoHAsync
  void* dstHost;
  DevicePtrV1 srcDevice;
  std::uint32_t ByteCount;
  Stream hStream;
};
struct CuMemcpyDtoDV1Params {  // cuMemcpyDtoD
  DevicePtrV1 dstDevice;
  DevicePtrV1 srcDevice;
  std::uint32_t ByteCount;
};
struct CuMemcpyDtoDAsyncV1Params {  // cuMemcpyDtoDAsync
  DevicePtrV1 dstDevice;
  DevicePtrV1 srcDevice;
  std::uint32_t ByteCount;
  Stream hStream;
};
struct CuMemcpyPeerParams {  // cuMemcpyPeer(_ptds)
  DevicePtr dstDevice;
  Context dstContext;
  DevicePtr srcDevice;
  Context srcContext;
  std::size_t ByteCount;
};
struct CuMemcpyPeerAsyncParams {  // cuMemcpyPeerAsync(_ptsz)
  DevicePtr dstDevice;
  Context dstContext;
  DevicePtr srcDevice;
  Context srcContext;
  std::size_t ByteCount;
  Stream hStream;
};
// Copies to and from CUDA arrays (_v2).
struct CuMemcpyAtoHParams {  // cuMemcpyAtoH_v2(_ptds)
  void* dstHost;
  void* srcArray;
  std::size_t srcOffset;
  std::size_t ByteCount;
};
struct CuMemcpyAtoHAsyncParams {  // cuMemcpyAtoHAsync_v2(_ptsz)
  void* dstHost;
  void* srcArray;
  std::size_t srcOffset;
  std::size_t ByteCount;
  Stream hStream;
};
struct CuMemcpyHtoAParams {  // cuMemcpyHtoA_v2(_ptds)
  void* dstArray;
  std::size_t dstOffset;
  const void* srcHost;
  std::size_t ByteCount;
};
struct CuMemcpyHtoAAsyncParams {  // cuMemcpyHtoAAsync_v2(_ptsz)
  void* dstArray;
  std::size_t dstOffset;
  const void* srcHost;
  std::size_t ByteCount;
  Stream hStream;
};
struct CuMemcpyDtoAParams {  // cuMemcpyDtoA_v2(_ptds)
  void* dstArray;
  std::size_t dstOffset;
  DevicePtr srcDevice;
  std::size_t ByteCount;
};
struct CuMemcpyAtoDParams {  // cuMemcpyAtoD_v2(_ptds)
  DevicePtr dstDevice;
  void* srcArray;
  std::size_t srcOffset;
  std::size_t ByteCount;
};
struct CuMemcpyAtoAParams {  // cuMemcpyAtoA_v2(_ptds)
  void* dstArray;
  std::size_t dstOffset;
  void* srcArray;
  std::size_t srcOffset;
  std::size_t ByteCount;
};
// CUDA_MEMCPY2D (the _v2 layout).
struct CuMemcpy2DDesc {
  std::size_t srcXInBytes, srcY;
  int srcMemoryType;
  const void* srcHost;
  DevicePtr srcDevice;
  void* srcArray;
  std::size_t srcPitch;
  std::size_t dstXInBytes, dstY;
  int dstMemoryType;
  void* dstHost;
  DevicePtr dstDevice;
  void* dstArray;
  std::size_t dstPitch;
  std::size_t WidthInBytes, Height;
};
// CUDA_MEMCPY3D and CUDA_MEMCPY3D_PEER: the same layout (the peer's
// contexts stand where the plain one has reserved pointers).
struct CuMemcpy3DDesc {
  std::size_t srcXInBytes, srcY, srcZ, srcLOD;
  int srcMemoryType;
  const void* srcHost;
  DevicePtr srcDevice;
  void* srcArray;
  void* srcContext;  // reserved0 in CUDA_MEMCPY3D
  std::size_t srcPitch, srcHeight;
  std::size_t dstXInBytes, dstY, dstZ, dstLOD;
  int dstMemoryType;
  void* dstHost;
  DevicePtr dstDevice;
  void* dstArray;
  void* dstContext;  // reserved1 in CUDA_MEMCPY3D
  std::size_t dstPitch, dstHeight;
  std::size_t WidthInBytes, Height, Depth;
};
struct CuMemcpy2DParams {  // cuMemcpy2D(Unaligned)_v2(_ptds)
  const CuMemcpy2DDesc* pCopy;
};
struct CuMemcpy2DAsyncParams {  // cuMemcpy2DAsync_v2(_ptsz)
  const CuMemcpy2DDesc* pCopy;
  Stream hStream;
};
struct CuMemcpy3DParams {  // cuMemcpy3D_v2(_ptds), cuMemcpy3DPeer(_ptds)
  const CuMemcpy3DDesc* pCopy;
};
struct CuMemcpy3DAsyncParams {  // cuMemcpy3DAsync_v2, cuMemcpy3DPeerAsync
  const CuMemcpy3DDesc* pCopy;
  Stream hStream;
};

// ---- runtime parameter structs beyond addscope_CuptiAbi.hpp's --------------
// (generated_cuda_runtime_api_meta.h)

struct Memcpy2DParams {  // cudaMemcpy2D(_ptds)
  void* dst;
  std::size_t dpitch;
  const void* src;
  std::size_t spitch;
  std::size_t width, height;
  int kind;
};
struct Memcpy2DAsyncParams {  // cudaMemcpy2DAsync(_ptsz)
  void* dst;
  std::size_t dpitch;
  const void* src;
  std::size_t spitch;
  std::size_t width, height;
  int kind;
  Stream stream;
};
struct MemcpyToSymbolParams {  // cudaMemcpyToSymbol(_ptds), + Async
  const void* symbol;
  const void* src;
  std::size_t count, offset;
  int kind;
  Stream stream;  // the Async variants only
};
struct MemcpyFromSymbolParams {  // cudaMemcpyFromSymbol(_ptds), + Async
  void* dst;
  const void* symbol;
  std::size_t count, offset;
  int kind;
  Stream stream;  // the Async variants only
};
struct MemcpyPeerParams {  // cudaMemcpyPeer, + Async
  void* dst;
  int dstDevice;
  const void* src;
  int srcDevice;
  std::size_t count;
  Stream stream;  // cudaMemcpyPeerAsync only
};
struct MemcpyToArrayParams {  // cudaMemcpyToArray(_ptds), + Async
  void* dst;
  std::size_t wOffset, hOffset;
  const void* src;
  std::size_t count;
  int kind;
  Stream stream;  // the Async variants only
};
struct MemcpyFromArrayParams {  // cudaMemcpyFromArray(_ptds), + Async
  void* dst;
  const void* src;
  std::size_t wOffset, hOffset;
  std::size_t count;
  int kind;
  Stream stream;  // the Async variants only
};
struct Memcpy2DToArrayParams {  // cudaMemcpy2DToArray(_ptds), + Async
  void* dst;
  std::size_t wOffset, hOffset;
  const void* src;
  std::size_t spitch, width, height;
  int kind;
  Stream stream;  // the Async variants only
};
struct Memcpy2DFromArrayParams {  // cudaMemcpy2DFromArray(_ptds), + Async
  void* dst;
  std::size_t dpitch;
  const void* src;
  std::size_t wOffset, hOffset, width, height;
  int kind;
  Stream stream;  // the Async variants only
};
struct MemcpyArrayToArrayParams {  // cudaMemcpyArrayToArray(_ptds)
  void* dst;
  std::size_t wOffsetDst, hOffsetDst;
  const void* src;
  std::size_t wOffsetSrc, hOffsetSrc, count;
  int kind;
};
struct Memcpy2DArrayToArrayParams {  // cudaMemcpy2DArrayToArray(_ptds)
  void* dst;
  std::size_t wOffsetDst, hOffsetDst;
  const void* src;
  std::size_t wOffsetSrc, hOffsetSrc, width, height;
  int kind;
};
struct PitchedPtr {  // cudaPitchedPtr
  void* ptr;
  std::size_t pitch, xsize, ysize;
};
struct Extent {  // cudaExtent
  std::size_t width, height, depth;
};
struct Pos {  // cudaPos
  std::size_t x, y, z;
};
struct Memcpy3DParms {  // struct cudaMemcpy3DParms
  void* srcArray;
  Pos srcPos;
  PitchedPtr srcPtr;
  void* dstArray;
  Pos dstPos;
  PitchedPtr dstPtr;
  Extent extent;
  int kind;
};
struct Memcpy3DPeerParms {  // struct cudaMemcpy3DPeerParms
  void* srcArray;
  Pos srcPos;
  PitchedPtr srcPtr;
  int srcDevice;
  void* dstArray;
  Pos dstPos;
  PitchedPtr dstPtr;
  int dstDevice;
  Extent extent;
};
struct Memcpy3DParams {  // cudaMemcpy3D(_ptds), + Async (stream)
  const Memcpy3DParms* p;
  Stream stream;  // the Async variants only
};
struct Memcpy3DPeerParams {  // cudaMemcpy3DPeer(_ptds), + Async (stream)
  const Memcpy3DPeerParms* p;
  Stream stream;  // the Async variant only
};
// Memsets: the runtime's (generated_cuda_runtime_api_meta.h), the
// driver's (generated_cuda_meta.h: cuMemsetD8/D16/D32 differ only in the
// value's width, which ends before N's 8-byte alignment).
struct MemsetParams {  // cudaMemset(_ptds), + Async(_ptsz) (stream)
  void* devPtr;
  int value;
  std::size_t count;
  Stream stream;  // the Async variants only
};
struct Memset2DParams {  // cudaMemset2D(_ptds), + Async(_ptsz) (stream)
  void* devPtr;
  std::size_t pitch;
  int value;
  std::size_t width, height;
  Stream stream;  // the Async variants only
};
struct Memset3DParams {  // cudaMemset3D(_ptds), + Async(_ptsz) (stream)
  PitchedPtr pitchedDevPtr;
  int value;
  Extent extent;
  Stream stream;  // the Async variants only
};
struct CuMemsetParams {  // cuMemsetD8/16/32_v2(_ptds), + Async(_ptsz)
  DevicePtr dstDevice;
  std::uint32_t value;  // unsigned char / short / int
  std::size_t N;        // elements
  Stream hStream;       // the Async variants only
};
struct CuMemsetD2DParams {  // cuMemsetD2D8/16/32_v2(_ptds), + Async(_ptsz)
  DevicePtr dstDevice;
  std::size_t dstPitch;
  std::uint32_t value;
  std::size_t Width, Height;  // elements per row, rows
  Stream hStream;             // the Async variants only
};
struct GraphLaunchParams {  // cudaGraphLaunch(_ptsz)
  void* graphExec;
  Stream stream;
};

}  // namespace cupti
}  // namespace Impl
}  // namespace addscope

#endif
