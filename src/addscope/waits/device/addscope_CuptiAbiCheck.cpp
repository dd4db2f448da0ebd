// addscope — the hand-written CUPTI and CUDA ABI of the CUPTI source
// (addscope_CuptiAbi.hpp: libaddscope_waits.so
// builds with no CUDA headers and opens libcupti at run time) checked
// against the toolkit's own headers: every value, every field offset, every
// record version the toolkit declares (kernel records through
// CUpti_ActivityKernel10 of CUDA 13), and the type of every entry point
// looked up with dlsym. Compiled, never linked, wherever CMake finds a CUDA
// toolkit; a toolkit without cupti.h fails the build (src/CMakeLists.txt).
#include <cuda.h>
#include <cupti.h>

#include <cstddef>
#include <type_traits>

#include "addscope/waits/device/addscope_CuptiAbi.hpp"
#include "addscope/waits/device/addscope_CuptiCalls.hpp"

namespace addscope {
namespace Impl {
namespace cupti {

#define ADDSCOPE_SAME_OFFSET(ours, theirs, field) \
  static_assert(offsetof(ours, field) == offsetof(theirs, field), #field)
#define ADDSCOPE_SAME_SIZE(ours, theirs) \
  static_assert(sizeof(ours) == sizeof(theirs), #ours)
#define ADDSCOPE_SAME_DRIVER_CBID(ours, fn) \
  static_assert(                            \
      CallbackId(k##ours) == CallbackId(CUPTI_DRIVER_TRACE_CBID_##fn), #fn)
#define ADDSCOPE_SAME_RUNTIME_CBID(name)                                      \
  static_assert(                                                              \
      CallbackId(k##name) == CallbackId(CUPTI_RUNTIME_TRACE_CBID_cuda##name), \
      #name)

// ---- the runtime callbacks, records and values (the CUPTI source) --------
ADDSCOPE_SAME_OFFSET(CallbackData, CUpti_CallbackData, callbackSite);
ADDSCOPE_SAME_OFFSET(CallbackData, CUpti_CallbackData, functionParams);
ADDSCOPE_SAME_OFFSET(CallbackData, CUpti_CallbackData, functionReturnValue);
ADDSCOPE_SAME_OFFSET(CallbackData, CUpti_CallbackData, context);
ADDSCOPE_SAME_OFFSET(CallbackData, CUpti_CallbackData, correlationId);
#define ADDSCOPE_KERNEL_PREFIX(K)                                   \
  ADDSCOPE_SAME_OFFSET(KernelRecordPrefix, K, registersPerThread);  \
  ADDSCOPE_SAME_OFFSET(KernelRecordPrefix, K, start);               \
  ADDSCOPE_SAME_OFFSET(KernelRecordPrefix, K, end);                 \
  ADDSCOPE_SAME_OFFSET(KernelRecordPrefix, K, deviceId);            \
  ADDSCOPE_SAME_OFFSET(KernelRecordPrefix, K, streamId);            \
  ADDSCOPE_SAME_OFFSET(KernelRecordPrefix, K, gridX);               \
  ADDSCOPE_SAME_OFFSET(KernelRecordPrefix, K, blockZ);              \
  ADDSCOPE_SAME_OFFSET(KernelRecordPrefix, K, staticSharedMemory);  \
  ADDSCOPE_SAME_OFFSET(KernelRecordPrefix, K, dynamicSharedMemory); \
  ADDSCOPE_SAME_OFFSET(KernelRecordPrefix, K, correlationId);       \
  ADDSCOPE_SAME_OFFSET(KernelRecordPrefix, K, name)
ADDSCOPE_SAME_OFFSET(ExternalCorrelationRecord,
                     CUpti_ActivityExternalCorrelation, externalKind);
ADDSCOPE_SAME_OFFSET(ExternalCorrelationRecord,
                     CUpti_ActivityExternalCorrelation, externalId);
ADDSCOPE_SAME_OFFSET(ExternalCorrelationRecord,
                     CUpti_ActivityExternalCorrelation, correlationId);
static_assert(kActivityRuntime == CUPTI_ACTIVITY_KIND_RUNTIME, "");
static_assert(kActivityMemcpy == CUPTI_ACTIVITY_KIND_MEMCPY, "");
static_assert(kActivityMemset == CUPTI_ACTIVITY_KIND_MEMSET, "");
#define ADDSCOPE_COPY_PREFIX(K)                        \
  ADDSCOPE_SAME_OFFSET(CopyRecordPrefix, K, bytes);    \
  ADDSCOPE_SAME_OFFSET(CopyRecordPrefix, K, start);    \
  ADDSCOPE_SAME_OFFSET(CopyRecordPrefix, K, end);      \
  ADDSCOPE_SAME_OFFSET(CopyRecordPrefix, K, deviceId); \
  ADDSCOPE_SAME_OFFSET(CopyRecordPrefix, K, streamId); \
  ADDSCOPE_SAME_OFFSET(CopyRecordPrefix, K, correlationId)
ADDSCOPE_COPY_PREFIX(CUpti_ActivityMemcpy5);
ADDSCOPE_COPY_PREFIX(CUpti_ActivityMemset4);
ADDSCOPE_SAME_OFFSET(CopyRecordPrefix, CUpti_ActivityMemcpy5, copyKind);
#if CUPTI_API_VERSION >= 130000
ADDSCOPE_COPY_PREFIX(CUpti_ActivityMemcpy6);
#endif
#undef ADDSCOPE_COPY_PREFIX
static_assert(kActivityExternalCorrelation ==
                  CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION,
              "");
static_assert(kExternalKindCustom0 == CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0,
              "");
ADDSCOPE_KERNEL_PREFIX(CUpti_ActivityKernel4);
ADDSCOPE_KERNEL_PREFIX(CUpti_ActivityKernel5);
ADDSCOPE_KERNEL_PREFIX(CUpti_ActivityKernel6);
ADDSCOPE_KERNEL_PREFIX(CUpti_ActivityKernel7);
#if CUPTI_API_VERSION >= 17  // CUDA 11.8
ADDSCOPE_KERNEL_PREFIX(CUpti_ActivityKernel8);
#endif
#if CUPTI_API_VERSION >= 18  // CUDA 12
ADDSCOPE_KERNEL_PREFIX(CUpti_ActivityKernel9);
#endif
#if CUPTI_API_VERSION >= 130000  // CUDA 13
ADDSCOPE_KERNEL_PREFIX(CUpti_ActivityKernel10);
#endif
static_assert(kDomainRuntimeApi == CUPTI_CB_DOMAIN_RUNTIME_API, "");
static_assert(kApiEnter == CUPTI_API_ENTER && kApiExit == CUPTI_API_EXIT, "");
static_assert(kDomainResource == CUPTI_CB_DOMAIN_RESOURCE, "");
static_assert(kContextDestroyStarting ==
                  CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING,
              "");
static_assert(kStreamDestroyStarting ==
                  CUPTI_CBID_RESOURCE_STREAM_DESTROY_STARTING,
              "");
static_assert(kActivityConcurrentKernel ==
                  CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
              "");
static_assert(kFlushForced == CUPTI_ACTIVITY_FLAG_FLUSH_FORCED, "");
ADDSCOPE_SAME_RUNTIME_CBID(Launch_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(Free_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(FreeHost_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(Memcpy_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(Memcpy2D_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(MemcpyToSymbol_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(MemcpyFromSymbol_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(MemcpyAsync_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(ThreadSynchronize_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(StreamSynchronize_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(EventRecord_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(EventSynchronize_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(Memcpy3D_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(MemcpyPeer_v4000);
ADDSCOPE_SAME_RUNTIME_CBID(DeviceSynchronize_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(LaunchKernel_v7000);
ADDSCOPE_SAME_RUNTIME_CBID(Launch_ptsz_v7000);
ADDSCOPE_SAME_RUNTIME_CBID(LaunchKernel_ptsz_v7000);
ADDSCOPE_SAME_RUNTIME_CBID(Memcpy_ptds_v7000);
ADDSCOPE_SAME_RUNTIME_CBID(Memcpy2D_ptds_v7000);
ADDSCOPE_SAME_RUNTIME_CBID(MemcpyToSymbol_ptds_v7000);
ADDSCOPE_SAME_RUNTIME_CBID(MemcpyFromSymbol_ptds_v7000);
ADDSCOPE_SAME_RUNTIME_CBID(MemcpyAsync_ptsz_v7000);
ADDSCOPE_SAME_RUNTIME_CBID(StreamSynchronize_ptsz_v7000);
ADDSCOPE_SAME_RUNTIME_CBID(EventRecord_ptsz_v7000);
ADDSCOPE_SAME_RUNTIME_CBID(Memcpy3D_ptds_v7000);
ADDSCOPE_SAME_RUNTIME_CBID(LaunchCooperativeKernel_v9000);
ADDSCOPE_SAME_RUNTIME_CBID(LaunchCooperativeKernel_ptsz_v9000);
ADDSCOPE_SAME_RUNTIME_CBID(EventRecordWithFlags_v11010);
ADDSCOPE_SAME_RUNTIME_CBID(EventRecordWithFlags_ptsz_v11010);
ADDSCOPE_SAME_RUNTIME_CBID(LaunchKernelExC_v11060);
ADDSCOPE_SAME_RUNTIME_CBID(LaunchKernelExC_ptsz_v11060);
ADDSCOPE_SAME_OFFSET(MemcpyParams, cudaMemcpy_v3020_params, count);
ADDSCOPE_SAME_OFFSET(MemcpyParams, cudaMemcpy_v3020_params, kind);
ADDSCOPE_SAME_OFFSET(MemcpyAsyncParams, cudaMemcpyAsync_v3020_params, stream);
ADDSCOPE_SAME_OFFSET(MemcpyAsyncParams, cudaMemcpyAsync_ptsz_v7000_params,
                     stream);
ADDSCOPE_SAME_OFFSET(StreamParams, cudaStreamSynchronize_v3020_params, stream);
ADDSCOPE_SAME_OFFSET(EventRecordParams, cudaEventRecord_v3020_params, stream);
ADDSCOPE_SAME_OFFSET(EventParams, cudaEventSynchronize_v3020_params, event);
ADDSCOPE_SAME_OFFSET(LaunchKernelParams, cudaLaunchKernel_v7000_params, stream);
ADDSCOPE_SAME_OFFSET(LaunchKernelParams, cudaLaunchKernel_ptsz_v7000_params,
                     stream);
ADDSCOPE_SAME_OFFSET(LaunchKernelParams,
                     cudaLaunchCooperativeKernel_v9000_params, stream);
ADDSCOPE_SAME_OFFSET(LaunchKernelParams,
                     cudaLaunchCooperativeKernel_ptsz_v9000_params, stream);
ADDSCOPE_SAME_OFFSET(LaunchKernelExCParams, cudaLaunchKernelExC_v11060_params,
                     config);
ADDSCOPE_SAME_OFFSET(LaunchConfig, cudaLaunchConfig_t, stream);
static_assert(sizeof(Dim3) == sizeof(dim3), "");
#undef ADDSCOPE_KERNEL_PREFIX

// ---- the driver calls and their parameters (addscope_CuptiCalls) ---------
static_assert(kDomainDriverApi == CUPTI_CB_DOMAIN_DRIVER_API, "");
static_assert(kMemoryHost == CU_MEMORYTYPE_HOST &&
                  kMemoryDevice == CU_MEMORYTYPE_DEVICE &&
                  kMemoryArray == CU_MEMORYTYPE_ARRAY &&
                  kMemoryUnified == CU_MEMORYTYPE_UNIFIED,
              "");
static_assert(sizeof(DevicePtr) == sizeof(CUdeviceptr), "");
static_assert(sizeof(DevicePtrV1) == sizeof(CUdeviceptr_v1), "");

ADDSCOPE_SAME_DRIVER_CBID(CuCtxSynchronize, cuCtxSynchronize);
ADDSCOPE_SAME_DRIVER_CBID(CuMemFree, cuMemFree);
ADDSCOPE_SAME_DRIVER_CBID(CuMemFreeHost, cuMemFreeHost);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyHtoD, cuMemcpyHtoD);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyDtoH, cuMemcpyDtoH);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyDtoD, cuMemcpyDtoD);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyDtoA, cuMemcpyDtoA);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyAtoD, cuMemcpyAtoD);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyHtoA, cuMemcpyHtoA);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyAtoH, cuMemcpyAtoH);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyAtoA, cuMemcpyAtoA);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpy2D, cuMemcpy2D);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpy2DUnaligned, cuMemcpy2DUnaligned);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpy3D, cuMemcpy3D);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyHtoDAsync, cuMemcpyHtoDAsync);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyDtoHAsync, cuMemcpyDtoHAsync);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyDtoDAsync, cuMemcpyDtoDAsync);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyHtoAAsync, cuMemcpyHtoAAsync);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyAtoHAsync, cuMemcpyAtoHAsync);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpy2DAsync, cuMemcpy2DAsync);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpy3DAsync, cuMemcpy3DAsync);
ADDSCOPE_SAME_DRIVER_CBID(CuLaunch, cuLaunch);
ADDSCOPE_SAME_DRIVER_CBID(CuLaunchGrid, cuLaunchGrid);
ADDSCOPE_SAME_DRIVER_CBID(CuLaunchGridAsync, cuLaunchGridAsync);
ADDSCOPE_SAME_DRIVER_CBID(CuEventRecord, cuEventRecord);
ADDSCOPE_SAME_DRIVER_CBID(CuEventSynchronize, cuEventSynchronize);
ADDSCOPE_SAME_DRIVER_CBID(CuStreamSynchronize, cuStreamSynchronize);
ADDSCOPE_SAME_DRIVER_CBID(CuMemFree_v2, cuMemFree_v2);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyHtoD_v2, cuMemcpyHtoD_v2);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyHtoDAsync_v2, cuMemcpyHtoDAsync_v2);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyDtoH_v2, cuMemcpyDtoH_v2);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyDtoHAsync_v2, cuMemcpyDtoHAsync_v2);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyDtoD_v2, cuMemcpyDtoD_v2);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyDtoDAsync_v2, cuMemcpyDtoDAsync_v2);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyAtoH_v2, cuMemcpyAtoH_v2);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyAtoHAsync_v2, cuMemcpyAtoHAsync_v2);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyAtoD_v2, cuMemcpyAtoD_v2);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyDtoA_v2, cuMemcpyDtoA_v2);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyAtoA_v2, cuMemcpyAtoA_v2);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpy2D_v2, cuMemcpy2D_v2);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpy2DUnaligned_v2, cuMemcpy2DUnaligned_v2);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpy2DAsync_v2, cuMemcpy2DAsync_v2);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpy3D_v2, cuMemcpy3D_v2);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpy3DAsync_v2, cuMemcpy3DAsync_v2);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyHtoA_v2, cuMemcpyHtoA_v2);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyHtoAAsync_v2, cuMemcpyHtoAAsync_v2);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpy, cuMemcpy);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyAsync, cuMemcpyAsync);
ADDSCOPE_SAME_DRIVER_CBID(CuLaunchKernel, cuLaunchKernel);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyPeer, cuMemcpyPeer);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyPeerAsync, cuMemcpyPeerAsync);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpy3DPeer, cuMemcpy3DPeer);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpy3DPeerAsync, cuMemcpy3DPeerAsync);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyHtoD_v2_ptds, cuMemcpyHtoD_v2_ptds);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyDtoH_v2_ptds, cuMemcpyDtoH_v2_ptds);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyDtoD_v2_ptds, cuMemcpyDtoD_v2_ptds);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyDtoA_v2_ptds, cuMemcpyDtoA_v2_ptds);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyAtoD_v2_ptds, cuMemcpyAtoD_v2_ptds);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyHtoA_v2_ptds, cuMemcpyHtoA_v2_ptds);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyAtoH_v2_ptds, cuMemcpyAtoH_v2_ptds);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyAtoA_v2_ptds, cuMemcpyAtoA_v2_ptds);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpy2D_v2_ptds, cuMemcpy2D_v2_ptds);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpy2DUnaligned_v2_ptds,
                          cuMemcpy2DUnaligned_v2_ptds);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpy3D_v2_ptds, cuMemcpy3D_v2_ptds);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpy_ptds, cuMemcpy_ptds);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyPeer_ptds, cuMemcpyPeer_ptds);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpy3DPeer_ptds, cuMemcpy3DPeer_ptds);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyAsync_ptsz, cuMemcpyAsync_ptsz);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyHtoAAsync_v2_ptsz, cuMemcpyHtoAAsync_v2_ptsz);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyAtoHAsync_v2_ptsz, cuMemcpyAtoHAsync_v2_ptsz);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyHtoDAsync_v2_ptsz, cuMemcpyHtoDAsync_v2_ptsz);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyDtoHAsync_v2_ptsz, cuMemcpyDtoHAsync_v2_ptsz);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyDtoDAsync_v2_ptsz, cuMemcpyDtoDAsync_v2_ptsz);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpy2DAsync_v2_ptsz, cuMemcpy2DAsync_v2_ptsz);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpy3DAsync_v2_ptsz, cuMemcpy3DAsync_v2_ptsz);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpyPeerAsync_ptsz, cuMemcpyPeerAsync_ptsz);
ADDSCOPE_SAME_DRIVER_CBID(CuMemcpy3DPeerAsync_ptsz, cuMemcpy3DPeerAsync_ptsz);
ADDSCOPE_SAME_DRIVER_CBID(CuStreamSynchronize_ptsz, cuStreamSynchronize_ptsz);
ADDSCOPE_SAME_DRIVER_CBID(CuEventRecord_ptsz, cuEventRecord_ptsz);
ADDSCOPE_SAME_DRIVER_CBID(CuLaunchKernel_ptsz, cuLaunchKernel_ptsz);
ADDSCOPE_SAME_DRIVER_CBID(CuLaunchCooperativeKernel, cuLaunchCooperativeKernel);
ADDSCOPE_SAME_DRIVER_CBID(CuLaunchCooperativeKernel_ptsz,
                          cuLaunchCooperativeKernel_ptsz);
ADDSCOPE_SAME_DRIVER_CBID(CuLaunchCooperativeKernelMultiDevice,
                          cuLaunchCooperativeKernelMultiDevice);
ADDSCOPE_SAME_DRIVER_CBID(CuGraphLaunch, cuGraphLaunch);
ADDSCOPE_SAME_DRIVER_CBID(CuGraphLaunch_ptsz, cuGraphLaunch_ptsz);
ADDSCOPE_SAME_DRIVER_CBID(CuEventRecordWithFlags, cuEventRecordWithFlags);
ADDSCOPE_SAME_DRIVER_CBID(CuEventRecordWithFlags_ptsz,
                          cuEventRecordWithFlags_ptsz);
ADDSCOPE_SAME_DRIVER_CBID(CuLaunchKernelEx, cuLaunchKernelEx);
ADDSCOPE_SAME_DRIVER_CBID(CuLaunchKernelEx_ptsz, cuLaunchKernelEx_ptsz);
#if CUPTI_API_VERSION >= 130000
ADDSCOPE_SAME_DRIVER_CBID(CuCtxSynchronize_v2, cuCtxSynchronize_v2);
static_assert(
    CallbackId(kInternalLaunchKernel_v13000) ==
        CallbackId(CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000),
    "");
static_assert(
    CallbackId(kInternalLaunchKernel_ptsz_v13000) ==
        CallbackId(CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000),
    "");
#endif

ADDSCOPE_SAME_RUNTIME_CBID(FreeArray_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(MemcpyToArray_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(Memcpy2DToArray_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(MemcpyFromArray_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(Memcpy2DFromArray_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(MemcpyArrayToArray_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(Memcpy2DArrayToArray_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(MemcpyToArrayAsync_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(MemcpyFromArrayAsync_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(Memcpy2DAsync_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(Memcpy2DToArrayAsync_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(Memcpy2DFromArrayAsync_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(MemcpyToSymbolAsync_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(MemcpyFromSymbolAsync_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(Memcpy3DAsync_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(MemcpyPeerAsync_v4000);
ADDSCOPE_SAME_RUNTIME_CBID(Memcpy3DPeer_v4000);
ADDSCOPE_SAME_RUNTIME_CBID(Memcpy3DPeerAsync_v4000);
ADDSCOPE_SAME_RUNTIME_CBID(MemcpyToArray_ptds_v7000);
ADDSCOPE_SAME_RUNTIME_CBID(Memcpy2DToArray_ptds_v7000);
ADDSCOPE_SAME_RUNTIME_CBID(MemcpyFromArray_ptds_v7000);
ADDSCOPE_SAME_RUNTIME_CBID(Memcpy2DFromArray_ptds_v7000);
ADDSCOPE_SAME_RUNTIME_CBID(MemcpyArrayToArray_ptds_v7000);
ADDSCOPE_SAME_RUNTIME_CBID(Memcpy2DArrayToArray_ptds_v7000);
ADDSCOPE_SAME_RUNTIME_CBID(MemcpyToArrayAsync_ptsz_v7000);
ADDSCOPE_SAME_RUNTIME_CBID(MemcpyFromArrayAsync_ptsz_v7000);
ADDSCOPE_SAME_RUNTIME_CBID(Memcpy2DAsync_ptsz_v7000);
ADDSCOPE_SAME_RUNTIME_CBID(Memcpy2DToArrayAsync_ptsz_v7000);
ADDSCOPE_SAME_RUNTIME_CBID(Memcpy2DFromArrayAsync_ptsz_v7000);
ADDSCOPE_SAME_RUNTIME_CBID(MemcpyToSymbolAsync_ptsz_v7000);
ADDSCOPE_SAME_RUNTIME_CBID(MemcpyFromSymbolAsync_ptsz_v7000);
ADDSCOPE_SAME_RUNTIME_CBID(Memcpy3DAsync_ptsz_v7000);
ADDSCOPE_SAME_RUNTIME_CBID(Memcpy3DPeer_ptds_v7000);
ADDSCOPE_SAME_RUNTIME_CBID(Memcpy3DPeerAsync_ptsz_v7000);
ADDSCOPE_SAME_RUNTIME_CBID(LaunchCooperativeKernelMultiDevice_v9000);
ADDSCOPE_SAME_RUNTIME_CBID(GraphLaunch_v10000);
ADDSCOPE_SAME_RUNTIME_CBID(GraphLaunch_ptsz_v10000);

// Driver parameters.
#define ADDSCOPE_LAUNCH_FIELDS(T)                                \
  ADDSCOPE_SAME_OFFSET(CuLaunchKernelParams, T, gridDimX);       \
  ADDSCOPE_SAME_OFFSET(CuLaunchKernelParams, T, gridDimZ);       \
  ADDSCOPE_SAME_OFFSET(CuLaunchKernelParams, T, blockDimX);      \
  ADDSCOPE_SAME_OFFSET(CuLaunchKernelParams, T, blockDimZ);      \
  ADDSCOPE_SAME_OFFSET(CuLaunchKernelParams, T, sharedMemBytes); \
  ADDSCOPE_SAME_OFFSET(CuLaunchKernelParams, T, hStream)
ADDSCOPE_LAUNCH_FIELDS(cuLaunchKernel_params);
ADDSCOPE_LAUNCH_FIELDS(cuLaunchKernel_ptsz_params);
ADDSCOPE_LAUNCH_FIELDS(cuLaunchCooperativeKernel_params);
ADDSCOPE_LAUNCH_FIELDS(cuLaunchCooperativeKernel_ptsz_params);
ADDSCOPE_SAME_SIZE(CuLaunchKernelParams, cuLaunchKernel_params);
ADDSCOPE_SAME_OFFSET(CuLaunchConfig, CUlaunchConfig, gridDimX);
ADDSCOPE_SAME_OFFSET(CuLaunchConfig, CUlaunchConfig, gridDimZ);
ADDSCOPE_SAME_OFFSET(CuLaunchConfig, CUlaunchConfig, blockDimX);
ADDSCOPE_SAME_OFFSET(CuLaunchConfig, CUlaunchConfig, blockDimZ);
ADDSCOPE_SAME_OFFSET(CuLaunchConfig, CUlaunchConfig, sharedMemBytes);
ADDSCOPE_SAME_OFFSET(CuLaunchConfig, CUlaunchConfig, hStream);
ADDSCOPE_SAME_OFFSET(CuLaunchKernelExParams, cuLaunchKernelEx_params, config);
ADDSCOPE_SAME_OFFSET(CuLaunchKernelExParams, cuLaunchKernelEx_ptsz_params,
                     config);
ADDSCOPE_SAME_OFFSET(CuLaunchGridParams, cuLaunchGrid_params, grid_width);
ADDSCOPE_SAME_OFFSET(CuLaunchGridParams, cuLaunchGrid_params, grid_height);
ADDSCOPE_SAME_OFFSET(CuLaunchGridAsyncParams, cuLaunchGridAsync_params,
                     grid_height);
ADDSCOPE_SAME_OFFSET(CuLaunchGridAsyncParams, cuLaunchGridAsync_params,
                     hStream);
ADDSCOPE_SAME_OFFSET(CuGraphLaunchParams, cuGraphLaunch_params, hStream);
ADDSCOPE_SAME_OFFSET(CuGraphLaunchParams, cuGraphLaunch_ptsz_params, hStream);
ADDSCOPE_SAME_OFFSET(CuStreamParams, cuStreamSynchronize_params, hStream);
ADDSCOPE_SAME_OFFSET(CuStreamParams, cuStreamSynchronize_ptsz_params, hStream);
ADDSCOPE_SAME_OFFSET(CuEventParams, cuEventSynchronize_params, hEvent);
ADDSCOPE_SAME_OFFSET(CuEventRecordParams, cuEventRecord_params, hEvent);
ADDSCOPE_SAME_OFFSET(CuEventRecordParams, cuEventRecord_params, hStream);
ADDSCOPE_SAME_OFFSET(CuEventRecordParams, cuEventRecord_ptsz_params, hStream);
ADDSCOPE_SAME_OFFSET(CuEventRecordParams, cuEventRecordWithFlags_params,
                     hStream);
ADDSCOPE_SAME_OFFSET(CuEventRecordParams, cuEventRecordWithFlags_ptsz_params,
                     hStream);
#define ADDSCOPE_COPY_FIELDS(ours, T, a, b) \
  ADDSCOPE_SAME_OFFSET(ours, T, a);         \
  ADDSCOPE_SAME_OFFSET(ours, T, b);         \
  ADDSCOPE_SAME_OFFSET(ours, T, ByteCount)
ADDSCOPE_COPY_FIELDS(CuMemcpyHtoDParams, cuMemcpyHtoD_v2_params, dstDevice,
                     srcHost);
ADDSCOPE_COPY_FIELDS(CuMemcpyHtoDParams, cuMemcpyHtoD_v2_ptds_params, dstDevice,
                     srcHost);
ADDSCOPE_COPY_FIELDS(CuMemcpyHtoDAsyncParams, cuMemcpyHtoDAsync_v2_params,
                     srcHost, hStream);
ADDSCOPE_COPY_FIELDS(CuMemcpyHtoDAsyncParams, cuMemcpyHtoDAsync_v2_ptsz_params,
                     srcHost, hStream);
ADDSCOPE_COPY_FIELDS(CuMemcpyDtoHParams, cuMemcpyDtoH_v2_params, dstHost,
                     srcDevice);
ADDSCOPE_COPY_FIELDS(CuMemcpyDtoHParams, cuMemcpyDtoH_v2_ptds_params, dstHost,
                     srcDevice);
ADDSCOPE_COPY_FIELDS(CuMemcpyDtoHAsyncParams, cuMemcpyDtoHAsync_v2_params,
                     srcDevice, hStream);
ADDSCOPE_COPY_FIELDS(CuMemcpyDtoHAsyncParams, cuMemcpyDtoHAsync_v2_ptsz_params,
                     srcDevice, hStream);
ADDSCOPE_SAME_OFFSET(CuMemcpyDtoDParams, cuMemcpyDtoD_v2_params, ByteCount);
ADDSCOPE_SAME_OFFSET(CuMemcpyDtoDParams, cuMemcpyDtoD_v2_ptds_params,
                     ByteCount);
ADDSCOPE_SAME_OFFSET(CuMemcpyDtoDParams, cuMemcpy_params, ByteCount);
ADDSCOPE_SAME_OFFSET(CuMemcpyDtoDParams, cuMemcpy_ptds_params, ByteCount);
ADDSCOPE_SAME_OFFSET(CuMemcpyDtoDAsyncParams, cuMemcpyDtoDAsync_v2_params,
                     ByteCount);
ADDSCOPE_SAME_OFFSET(CuMemcpyDtoDAsyncParams, cuMemcpyDtoDAsync_v2_params,
                     hStream);
ADDSCOPE_SAME_OFFSET(CuMemcpyDtoDAsyncParams, cuMemcpyDtoDAsync_v2_ptsz_params,
                     hStream);
ADDSCOPE_SAME_OFFSET(CuMemcpyDtoDAsyncParams, cuMemcpyAsync_params, ByteCount);
ADDSCOPE_SAME_OFFSET(CuMemcpyDtoDAsyncParams, cuMemcpyAsync_params, hStream);
ADDSCOPE_SAME_OFFSET(CuMemcpyDtoDAsyncParams, cuMemcpyAsync_ptsz_params,
                     hStream);
ADDSCOPE_COPY_FIELDS(CuMemcpyHtoDV1Params, cuMemcpyHtoD_params, dstDevice,
                     srcHost);
ADDSCOPE_COPY_FIELDS(CuMemcpyHtoDAsyncV1Params, cuMemcpyHtoDAsync_params,
                     srcHost, hStream);
ADDSCOPE_COPY_FIELDS(CuMemcpyDtoHV1Params, cuMemcpyDtoH_params, dstHost,
                     srcDevice);
ADDSCOPE_COPY_FIELDS(CuMemcpyDtoHAsyncV1Params, cuMemcpyDtoHAsync_params,
                     srcDevice, hStream);
ADDSCOPE_COPY_FIELDS(CuMemcpyDtoDV1Params, cuMemcpyDtoD_params, dstDevice,
                     srcDevice);
ADDSCOPE_COPY_FIELDS(CuMemcpyDtoDAsyncV1Params, cuMemcpyDtoDAsync_params,
                     srcDevice, hStream);
ADDSCOPE_COPY_FIELDS(CuMemcpyPeerParams, cuMemcpyPeer_params, dstContext,
                     srcContext);
ADDSCOPE_COPY_FIELDS(CuMemcpyPeerParams, cuMemcpyPeer_ptds_params, dstContext,
                     srcContext);
ADDSCOPE_COPY_FIELDS(CuMemcpyPeerAsyncParams, cuMemcpyPeerAsync_params,
                     srcContext, hStream);
ADDSCOPE_COPY_FIELDS(CuMemcpyPeerAsyncParams, cuMemcpyPeerAsync_ptsz_params,
                     srcContext, hStream);
ADDSCOPE_COPY_FIELDS(CuMemcpyAtoHParams, cuMemcpyAtoH_v2_params, srcArray,
                     srcOffset);
ADDSCOPE_COPY_FIELDS(CuMemcpyAtoHParams, cuMemcpyAtoH_v2_ptds_params, srcArray,
                     srcOffset);
ADDSCOPE_COPY_FIELDS(CuMemcpyAtoHAsyncParams, cuMemcpyAtoHAsync_v2_params,
                     srcOffset, hStream);
ADDSCOPE_COPY_FIELDS(CuMemcpyAtoHAsyncParams, cuMemcpyAtoHAsync_v2_ptsz_params,
                     srcOffset, hStream);
ADDSCOPE_COPY_FIELDS(CuMemcpyHtoAParams, cuMemcpyHtoA_v2_params, dstOffset,
                     srcHost);
ADDSCOPE_COPY_FIELDS(CuMemcpyHtoAParams, cuMemcpyHtoA_v2_ptds_params, dstOffset,
                     srcHost);
ADDSCOPE_COPY_FIELDS(CuMemcpyHtoAAsyncParams, cuMemcpyHtoAAsync_v2_params,
                     srcHost, hStream);
ADDSCOPE_COPY_FIELDS(CuMemcpyHtoAAsyncParams, cuMemcpyHtoAAsync_v2_ptsz_params,
                     srcHost, hStream);
ADDSCOPE_COPY_FIELDS(CuMemcpyDtoAParams, cuMemcpyDtoA_v2_params, dstOffset,
                     srcDevice);
ADDSCOPE_COPY_FIELDS(CuMemcpyDtoAParams, cuMemcpyDtoA_v2_ptds_params, dstOffset,
                     srcDevice);
ADDSCOPE_COPY_FIELDS(CuMemcpyAtoDParams, cuMemcpyAtoD_v2_params, srcArray,
                     srcOffset);
ADDSCOPE_COPY_FIELDS(CuMemcpyAtoDParams, cuMemcpyAtoD_v2_ptds_params, srcArray,
                     srcOffset);
ADDSCOPE_COPY_FIELDS(CuMemcpyAtoAParams, cuMemcpyAtoA_v2_params, dstOffset,
                     srcOffset);
ADDSCOPE_COPY_FIELDS(CuMemcpyAtoAParams, cuMemcpyAtoA_v2_ptds_params, dstOffset,
                     srcOffset);
#define ADDSCOPE_2D_FIELDS(T)                             \
  ADDSCOPE_SAME_OFFSET(CuMemcpy2DDesc, T, srcMemoryType); \
  ADDSCOPE_SAME_OFFSET(CuMemcpy2DDesc, T, srcArray);      \
  ADDSCOPE_SAME_OFFSET(CuMemcpy2DDesc, T, dstMemoryType); \
  ADDSCOPE_SAME_OFFSET(CuMemcpy2DDesc, T, dstArray);      \
  ADDSCOPE_SAME_OFFSET(CuMemcpy2DDesc, T, WidthInBytes);  \
  ADDSCOPE_SAME_OFFSET(CuMemcpy2DDesc, T, Height)
ADDSCOPE_2D_FIELDS(CUDA_MEMCPY2D);
#define ADDSCOPE_3D_FIELDS(T)                             \
  ADDSCOPE_SAME_OFFSET(CuMemcpy3DDesc, T, srcMemoryType); \
  ADDSCOPE_SAME_OFFSET(CuMemcpy3DDesc, T, srcArray);      \
  ADDSCOPE_SAME_OFFSET(CuMemcpy3DDesc, T, dstMemoryType); \
  ADDSCOPE_SAME_OFFSET(CuMemcpy3DDesc, T, dstArray);      \
  ADDSCOPE_SAME_OFFSET(CuMemcpy3DDesc, T, WidthInBytes);  \
  ADDSCOPE_SAME_OFFSET(CuMemcpy3DDesc, T, Height);        \
  ADDSCOPE_SAME_OFFSET(CuMemcpy3DDesc, T, Depth)
ADDSCOPE_3D_FIELDS(CUDA_MEMCPY3D);
ADDSCOPE_3D_FIELDS(CUDA_MEMCPY3D_PEER);
ADDSCOPE_SAME_OFFSET(CuMemcpy3DDesc, CUDA_MEMCPY3D_PEER, srcContext);
ADDSCOPE_SAME_OFFSET(CuMemcpy3DDesc, CUDA_MEMCPY3D_PEER, dstContext);
ADDSCOPE_SAME_OFFSET(CuMemcpy2DAsyncParams, cuMemcpy2DAsync_v2_params, hStream);
ADDSCOPE_SAME_OFFSET(CuMemcpy2DAsyncParams, cuMemcpy2DAsync_v2_ptsz_params,
                     hStream);
ADDSCOPE_SAME_OFFSET(CuMemcpy3DAsyncParams, cuMemcpy3DAsync_v2_params, hStream);
ADDSCOPE_SAME_OFFSET(CuMemcpy3DAsyncParams, cuMemcpy3DAsync_v2_ptsz_params,
                     hStream);
ADDSCOPE_SAME_OFFSET(CuMemcpy3DAsyncParams, cuMemcpy3DPeerAsync_params,
                     hStream);
ADDSCOPE_SAME_OFFSET(CuMemcpy3DAsyncParams, cuMemcpy3DPeerAsync_ptsz_params,
                     hStream);

// Runtime parameters.
ADDSCOPE_SAME_OFFSET(Memcpy2DParams, cudaMemcpy2D_v3020_params, width);
ADDSCOPE_SAME_OFFSET(Memcpy2DParams, cudaMemcpy2D_v3020_params, height);
ADDSCOPE_SAME_OFFSET(Memcpy2DParams, cudaMemcpy2D_v3020_params, kind);
ADDSCOPE_SAME_OFFSET(Memcpy2DParams, cudaMemcpy2D_ptds_v7000_params, kind);
ADDSCOPE_SAME_OFFSET(Memcpy2DAsyncParams, cudaMemcpy2DAsync_v3020_params, kind);
ADDSCOPE_SAME_OFFSET(Memcpy2DAsyncParams, cudaMemcpy2DAsync_v3020_params,
                     stream);
ADDSCOPE_SAME_OFFSET(Memcpy2DAsyncParams, cudaMemcpy2DAsync_ptsz_v7000_params,
                     stream);
ADDSCOPE_SAME_OFFSET(MemcpyToSymbolParams, cudaMemcpyToSymbol_v3020_params,
                     count);
ADDSCOPE_SAME_OFFSET(MemcpyToSymbolParams, cudaMemcpyToSymbol_v3020_params,
                     kind);
ADDSCOPE_SAME_OFFSET(MemcpyToSymbolParams, cudaMemcpyToSymbolAsync_v3020_params,
                     stream);
ADDSCOPE_SAME_OFFSET(MemcpyToSymbolParams,
                     cudaMemcpyToSymbolAsync_ptsz_v7000_params, stream);
ADDSCOPE_SAME_OFFSET(MemcpyFromSymbolParams, cudaMemcpyFromSymbol_v3020_params,
                     count);
ADDSCOPE_SAME_OFFSET(MemcpyFromSymbolParams, cudaMemcpyFromSymbol_v3020_params,
                     kind);
ADDSCOPE_SAME_OFFSET(MemcpyFromSymbolParams,
                     cudaMemcpyFromSymbolAsync_v3020_params, stream);
ADDSCOPE_SAME_OFFSET(MemcpyFromSymbolParams,
                     cudaMemcpyFromSymbolAsync_ptsz_v7000_params, stream);
ADDSCOPE_SAME_OFFSET(MemcpyPeerParams, cudaMemcpyPeer_v4000_params, count);
ADDSCOPE_SAME_OFFSET(MemcpyPeerParams, cudaMemcpyPeerAsync_v4000_params,
                     stream);
ADDSCOPE_SAME_OFFSET(MemcpyToArrayParams, cudaMemcpyToArray_v3020_params,
                     count);
ADDSCOPE_SAME_OFFSET(MemcpyToArrayParams, cudaMemcpyToArray_v3020_params, kind);
ADDSCOPE_SAME_OFFSET(MemcpyToArrayParams, cudaMemcpyToArrayAsync_v3020_params,
                     stream);
ADDSCOPE_SAME_OFFSET(MemcpyFromArrayParams, cudaMemcpyFromArray_v3020_params,
                     count);
ADDSCOPE_SAME_OFFSET(MemcpyFromArrayParams, cudaMemcpyFromArray_v3020_params,
                     kind);
ADDSCOPE_SAME_OFFSET(MemcpyFromArrayParams,
                     cudaMemcpyFromArrayAsync_v3020_params, stream);
ADDSCOPE_SAME_OFFSET(Memcpy2DToArrayParams, cudaMemcpy2DToArray_v3020_params,
                     width);
ADDSCOPE_SAME_OFFSET(Memcpy2DToArrayParams, cudaMemcpy2DToArray_v3020_params,
                     height);
ADDSCOPE_SAME_OFFSET(Memcpy2DToArrayParams, cudaMemcpy2DToArray_v3020_params,
                     kind);
ADDSCOPE_SAME_OFFSET(Memcpy2DToArrayParams,
                     cudaMemcpy2DToArrayAsync_v3020_params, stream);
ADDSCOPE_SAME_OFFSET(Memcpy2DFromArrayParams,
                     cudaMemcpy2DFromArray_v3020_params, width);
ADDSCOPE_SAME_OFFSET(Memcpy2DFromArrayParams,
                     cudaMemcpy2DFromArray_v3020_params, height);
ADDSCOPE_SAME_OFFSET(Memcpy2DFromArrayParams,
                     cudaMemcpy2DFromArray_v3020_params, kind);
ADDSCOPE_SAME_OFFSET(Memcpy2DFromArrayParams,
                     cudaMemcpy2DFromArrayAsync_v3020_params, stream);
ADDSCOPE_SAME_OFFSET(MemcpyArrayToArrayParams,
                     cudaMemcpyArrayToArray_v3020_params, count);
ADDSCOPE_SAME_OFFSET(MemcpyArrayToArrayParams,
                     cudaMemcpyArrayToArray_v3020_params, kind);
ADDSCOPE_SAME_OFFSET(Memcpy2DArrayToArrayParams,
                     cudaMemcpy2DArrayToArray_v3020_params, width);
ADDSCOPE_SAME_OFFSET(Memcpy2DArrayToArrayParams,
                     cudaMemcpy2DArrayToArray_v3020_params, height);
ADDSCOPE_SAME_OFFSET(Memcpy2DArrayToArrayParams,
                     cudaMemcpy2DArrayToArray_v3020_params, kind);
ADDSCOPE_SAME_OFFSET(Memcpy3DParms, cudaMemcpy3DParms, srcArray);
ADDSCOPE_SAME_OFFSET(Memcpy3DParms, cudaMemcpy3DParms, dstArray);
ADDSCOPE_SAME_OFFSET(Memcpy3DParms, cudaMemcpy3DParms, extent);
ADDSCOPE_SAME_OFFSET(Memcpy3DParms, cudaMemcpy3DParms, kind);
ADDSCOPE_SAME_OFFSET(Memcpy3DPeerParms, cudaMemcpy3DPeerParms, srcArray);
ADDSCOPE_SAME_OFFSET(Memcpy3DPeerParms, cudaMemcpy3DPeerParms, dstArray);
ADDSCOPE_SAME_OFFSET(Memcpy3DPeerParms, cudaMemcpy3DPeerParms, extent);
ADDSCOPE_SAME_OFFSET(Extent, cudaExtent, depth);
ADDSCOPE_SAME_OFFSET(Memcpy3DParams, cudaMemcpy3DAsync_v3020_params, stream);
ADDSCOPE_SAME_OFFSET(Memcpy3DParams, cudaMemcpy3DAsync_ptsz_v7000_params,
                     stream);
ADDSCOPE_SAME_OFFSET(Memcpy3DPeerParams, cudaMemcpy3DPeerAsync_v4000_params,
                     stream);
ADDSCOPE_SAME_OFFSET(GraphLaunchParams, cudaGraphLaunch_v10000_params, stream);
ADDSCOPE_SAME_OFFSET(GraphLaunchParams, cudaGraphLaunch_ptsz_v10000_params,
                     stream);
ADDSCOPE_SAME_OFFSET(EventParams, cudaEventSynchronize_v3020_params, event);
ADDSCOPE_SAME_OFFSET(EventRecordParams, cudaEventRecord_ptsz_v7000_params,
                     stream);
ADDSCOPE_SAME_OFFSET(EventRecordParams, cudaEventRecordWithFlags_v11010_params,
                     stream);
ADDSCOPE_SAME_OFFSET(EventRecordParams,
                     cudaEventRecordWithFlags_ptsz_v11010_params, stream);
ADDSCOPE_SAME_OFFSET(StreamParams, cudaStreamSynchronize_ptsz_v7000_params,
                     stream);
ADDSCOPE_SAME_OFFSET(MemcpyParams, cudaMemcpy_ptds_v7000_params, kind);
ADDSCOPE_SAME_OFFSET(LaunchConfig, cudaLaunchConfig_t, dynamicSmemBytes);
ADDSCOPE_SAME_OFFSET(LaunchKernelParams, cudaLaunchKernel_v7000_params,
                     gridDim);
ADDSCOPE_SAME_OFFSET(LaunchKernelParams, cudaLaunchKernel_v7000_params,
                     blockDim);
ADDSCOPE_SAME_OFFSET(LaunchKernelParams, cudaLaunchKernel_v7000_params,
                     sharedMem);
ADDSCOPE_SAME_OFFSET(LaunchKernelExCParams,
                     cudaLaunchKernelExC_ptsz_v11060_params, config);
#undef ADDSCOPE_3D_FIELDS
#undef ADDSCOPE_2D_FIELDS
#undef ADDSCOPE_COPY_FIELDS
#undef ADDSCOPE_LAUNCH_FIELDS

// ---- the entry points looked up with dlsym --------------------------------
// Same arity, and each parameter and the result of the same size and kind
// (a pointer, an integer or enum, or else): what a call through our
// declaration passes is what CUPTI's function takes.
template <class A, class B>
constexpr bool same_abi() {
  if constexpr (std::is_void_v<A> || std::is_void_v<B>) {
    return std::is_void_v<A> && std::is_void_v<B>;
  } else {
    return sizeof(A) == sizeof(B) &&
           std::is_pointer_v<A> == std::is_pointer_v<B> &&
           (std::is_integral_v<A> || std::is_enum_v<A>) ==
               (std::is_integral_v<B> || std::is_enum_v<B>);
  }
}
template <class F, class G>
struct SameCall : std::false_type {};
template <class R1, class... A1, class R2, class... A2>
struct SameCall<R1 (*)(A1...), R2 (*)(A2...)>
    : std::bool_constant<sizeof...(A1) == sizeof...(A2) && same_abi<R1, R2>() &&
                         (same_abi<A1, A2>() && ...)> {};
#define ADDSCOPE_SAME_CALL(ours, theirs) \
  static_assert(SameCall<ours, decltype(&theirs)>::value, #theirs)
ADDSCOPE_SAME_CALL(GetVersionFn, cuptiGetVersion);
ADDSCOPE_SAME_CALL(GetResultStringFn, cuptiGetResultString);
ADDSCOPE_SAME_CALL(SubscribeFn, cuptiSubscribe);
ADDSCOPE_SAME_CALL(UnsubscribeFn, cuptiUnsubscribe);
ADDSCOPE_SAME_CALL(EnableCallbackFn, cuptiEnableCallback);
ADDSCOPE_SAME_CALL(ActivityEnableFn, cuptiActivityEnable);
ADDSCOPE_SAME_CALL(ActivityEnableFn, cuptiActivityDisable);
ADDSCOPE_SAME_CALL(ActivityRegisterCallbacksFn, cuptiActivityRegisterCallbacks);
ADDSCOPE_SAME_CALL(ActivityGetNextRecordFn, cuptiActivityGetNextRecord);
ADDSCOPE_SAME_CALL(ActivityFlushAllFn, cuptiActivityFlushAll);
ADDSCOPE_SAME_CALL(GetTimestampFn, cuptiGetTimestamp);
ADDSCOPE_SAME_CALL(GetStreamIdExFn, cuptiGetStreamIdEx);
ADDSCOPE_SAME_CALL(GetStreamIdFn, cuptiGetStreamId);
ADDSCOPE_SAME_CALL(GetDeviceIdFn, cuptiGetDeviceId);
ADDSCOPE_SAME_CALL(ActivityGetNumDroppedRecordsFn,
                   cuptiActivityGetNumDroppedRecords);
ADDSCOPE_SAME_CALL(PushExternalCorrelationIdFn,
                   cuptiActivityPushExternalCorrelationId);
ADDSCOPE_SAME_CALL(PopExternalCorrelationIdFn,
                   cuptiActivityPopExternalCorrelationId);
#if CUPTI_API_VERSION >= 18
ADDSCOPE_SAME_CALL(ActivityEnableRuntimeApiFn, cuptiActivityEnableRuntimeApi);
#endif
// ---- memsets (followed for their thread) ---------------------------------
ADDSCOPE_SAME_RUNTIME_CBID(Memset_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(Memset2D_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(MemsetAsync_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(Memset2DAsync_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(Memset3D_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(Memset3DAsync_v3020);
ADDSCOPE_SAME_RUNTIME_CBID(Memset_ptds_v7000);
ADDSCOPE_SAME_RUNTIME_CBID(Memset2D_ptds_v7000);
ADDSCOPE_SAME_RUNTIME_CBID(MemsetAsync_ptsz_v7000);
ADDSCOPE_SAME_RUNTIME_CBID(Memset2DAsync_ptsz_v7000);
ADDSCOPE_SAME_RUNTIME_CBID(Memset3D_ptds_v7000);
ADDSCOPE_SAME_RUNTIME_CBID(Memset3DAsync_ptsz_v7000);
ADDSCOPE_SAME_DRIVER_CBID(CuMemsetD8_v2, cuMemsetD8_v2);
ADDSCOPE_SAME_DRIVER_CBID(CuMemsetD8_v2_ptds, cuMemsetD8_v2_ptds);
ADDSCOPE_SAME_DRIVER_CBID(CuMemsetD8Async, cuMemsetD8Async);
ADDSCOPE_SAME_DRIVER_CBID(CuMemsetD8Async_ptsz, cuMemsetD8Async_ptsz);
ADDSCOPE_SAME_DRIVER_CBID(CuMemsetD2D8_v2, cuMemsetD2D8_v2);
ADDSCOPE_SAME_DRIVER_CBID(CuMemsetD2D8_v2_ptds, cuMemsetD2D8_v2_ptds);
ADDSCOPE_SAME_DRIVER_CBID(CuMemsetD2D8Async, cuMemsetD2D8Async);
ADDSCOPE_SAME_DRIVER_CBID(CuMemsetD2D8Async_ptsz, cuMemsetD2D8Async_ptsz);
ADDSCOPE_SAME_DRIVER_CBID(CuMemsetD16_v2, cuMemsetD16_v2);
ADDSCOPE_SAME_DRIVER_CBID(CuMemsetD16_v2_ptds, cuMemsetD16_v2_ptds);
ADDSCOPE_SAME_DRIVER_CBID(CuMemsetD16Async, cuMemsetD16Async);
ADDSCOPE_SAME_DRIVER_CBID(CuMemsetD16Async_ptsz, cuMemsetD16Async_ptsz);
ADDSCOPE_SAME_DRIVER_CBID(CuMemsetD2D16_v2, cuMemsetD2D16_v2);
ADDSCOPE_SAME_DRIVER_CBID(CuMemsetD2D16_v2_ptds, cuMemsetD2D16_v2_ptds);
ADDSCOPE_SAME_DRIVER_CBID(CuMemsetD2D16Async, cuMemsetD2D16Async);
ADDSCOPE_SAME_DRIVER_CBID(CuMemsetD2D16Async_ptsz, cuMemsetD2D16Async_ptsz);
ADDSCOPE_SAME_DRIVER_CBID(CuMemsetD32_v2, cuMemsetD32_v2);
ADDSCOPE_SAME_DRIVER_CBID(CuMemsetD32_v2_ptds, cuMemsetD32_v2_ptds);
ADDSCOPE_SAME_DRIVER_CBID(CuMemsetD32Async, cuMemsetD32Async);
ADDSCOPE_SAME_DRIVER_CBID(CuMemsetD32Async_ptsz, cuMemsetD32Async_ptsz);
ADDSCOPE_SAME_DRIVER_CBID(CuMemsetD2D32_v2, cuMemsetD2D32_v2);
ADDSCOPE_SAME_DRIVER_CBID(CuMemsetD2D32_v2_ptds, cuMemsetD2D32_v2_ptds);
ADDSCOPE_SAME_DRIVER_CBID(CuMemsetD2D32Async, cuMemsetD2D32Async);
ADDSCOPE_SAME_DRIVER_CBID(CuMemsetD2D32Async_ptsz, cuMemsetD2D32Async_ptsz);
ADDSCOPE_SAME_OFFSET(MemsetParams, cudaMemset_v3020_params, devPtr);
ADDSCOPE_SAME_OFFSET(MemsetParams, cudaMemset_v3020_params, value);
ADDSCOPE_SAME_OFFSET(MemsetParams, cudaMemset_v3020_params, count);
ADDSCOPE_SAME_OFFSET(MemsetParams, cudaMemset_ptds_v7000_params, devPtr);
ADDSCOPE_SAME_OFFSET(MemsetParams, cudaMemset_ptds_v7000_params, value);
ADDSCOPE_SAME_OFFSET(MemsetParams, cudaMemset_ptds_v7000_params, count);
ADDSCOPE_SAME_OFFSET(MemsetParams, cudaMemsetAsync_v3020_params, count);
ADDSCOPE_SAME_OFFSET(MemsetParams, cudaMemsetAsync_v3020_params, stream);
ADDSCOPE_SAME_OFFSET(MemsetParams, cudaMemsetAsync_ptsz_v7000_params, count);
ADDSCOPE_SAME_OFFSET(MemsetParams, cudaMemsetAsync_ptsz_v7000_params, stream);
ADDSCOPE_SAME_OFFSET(Memset2DParams, cudaMemset2D_v3020_params, width);
ADDSCOPE_SAME_OFFSET(Memset2DParams, cudaMemset2D_v3020_params, height);
ADDSCOPE_SAME_OFFSET(Memset2DParams, cudaMemset2D_ptds_v7000_params, width);
ADDSCOPE_SAME_OFFSET(Memset2DParams, cudaMemset2D_ptds_v7000_params, height);
ADDSCOPE_SAME_OFFSET(Memset2DParams, cudaMemset2DAsync_v3020_params, width);
ADDSCOPE_SAME_OFFSET(Memset2DParams, cudaMemset2DAsync_v3020_params, height);
ADDSCOPE_SAME_OFFSET(Memset2DParams, cudaMemset2DAsync_v3020_params, stream);
ADDSCOPE_SAME_OFFSET(Memset2DParams, cudaMemset2DAsync_ptsz_v7000_params, width);
ADDSCOPE_SAME_OFFSET(Memset2DParams, cudaMemset2DAsync_ptsz_v7000_params, height);
ADDSCOPE_SAME_OFFSET(Memset2DParams, cudaMemset2DAsync_ptsz_v7000_params, stream);
ADDSCOPE_SAME_OFFSET(Memset3DParams, cudaMemset3D_v3020_params, extent);
ADDSCOPE_SAME_OFFSET(Memset3DParams, cudaMemset3D_ptds_v7000_params, extent);
ADDSCOPE_SAME_OFFSET(Memset3DParams, cudaMemset3DAsync_v3020_params, extent);
ADDSCOPE_SAME_OFFSET(Memset3DParams, cudaMemset3DAsync_v3020_params, stream);
ADDSCOPE_SAME_OFFSET(Memset3DParams, cudaMemset3DAsync_ptsz_v7000_params, extent);
ADDSCOPE_SAME_OFFSET(Memset3DParams, cudaMemset3DAsync_ptsz_v7000_params, stream);
static_assert(sizeof(Extent) == sizeof(cudaExtent), "cudaExtent");
ADDSCOPE_SAME_OFFSET(CuMemsetParams, cuMemsetD8_v2_params, N);
ADDSCOPE_SAME_OFFSET(CuMemsetParams, cuMemsetD8_v2_ptds_params, N);
ADDSCOPE_SAME_OFFSET(CuMemsetParams, cuMemsetD8Async_params, N);
ADDSCOPE_SAME_OFFSET(CuMemsetParams, cuMemsetD8Async_params, hStream);
ADDSCOPE_SAME_OFFSET(CuMemsetParams, cuMemsetD8Async_ptsz_params, N);
ADDSCOPE_SAME_OFFSET(CuMemsetParams, cuMemsetD8Async_ptsz_params, hStream);
ADDSCOPE_SAME_OFFSET(CuMemsetD2DParams, cuMemsetD2D8_v2_params, Width);
ADDSCOPE_SAME_OFFSET(CuMemsetD2DParams, cuMemsetD2D8_v2_params, Height);
ADDSCOPE_SAME_OFFSET(CuMemsetD2DParams, cuMemsetD2D8_v2_ptds_params, Width);
ADDSCOPE_SAME_OFFSET(CuMemsetD2DParams, cuMemsetD2D8_v2_ptds_params, Height);
ADDSCOPE_SAME_OFFSET(CuMemsetD2DParams, cuMemsetD2D8Async_params, Width);
ADDSCOPE_SAME_OFFSET(CuMemsetD2DParams, cuMemsetD2D8Async_params, Height);
ADDSCOPE_SAME_OFFSET(CuMemsetD2DParams, cuMemsetD2D8Async_params, hStream);
ADDSCOPE_SAME_OFFSET(CuMemsetD2DParams, cuMemsetD2D8Async_ptsz_params, Width);
ADDSCOPE_SAME_OFFSET(CuMemsetD2DParams, cuMemsetD2D8Async_ptsz_params, Height);
ADDSCOPE_SAME_OFFSET(CuMemsetD2DParams, cuMemsetD2D8Async_ptsz_params, hStream);
ADDSCOPE_SAME_OFFSET(CuMemsetParams, cuMemsetD16_v2_params, N);
ADDSCOPE_SAME_OFFSET(CuMemsetParams, cuMemsetD16_v2_ptds_params, N);
ADDSCOPE_SAME_OFFSET(CuMemsetParams, cuMemsetD16Async_params, N);
ADDSCOPE_SAME_OFFSET(CuMemsetParams, cuMemsetD16Async_params, hStream);
ADDSCOPE_SAME_OFFSET(CuMemsetParams, cuMemsetD16Async_ptsz_params, N);
ADDSCOPE_SAME_OFFSET(CuMemsetParams, cuMemsetD16Async_ptsz_params, hStream);
ADDSCOPE_SAME_OFFSET(CuMemsetD2DParams, cuMemsetD2D16_v2_params, Width);
ADDSCOPE_SAME_OFFSET(CuMemsetD2DParams, cuMemsetD2D16_v2_params, Height);
ADDSCOPE_SAME_OFFSET(CuMemsetD2DParams, cuMemsetD2D16_v2_ptds_params, Width);
ADDSCOPE_SAME_OFFSET(CuMemsetD2DParams, cuMemsetD2D16_v2_ptds_params, Height);
ADDSCOPE_SAME_OFFSET(CuMemsetD2DParams, cuMemsetD2D16Async_params, Width);
ADDSCOPE_SAME_OFFSET(CuMemsetD2DParams, cuMemsetD2D16Async_params, Height);
ADDSCOPE_SAME_OFFSET(CuMemsetD2DParams, cuMemsetD2D16Async_params, hStream);
ADDSCOPE_SAME_OFFSET(CuMemsetD2DParams, cuMemsetD2D16Async_ptsz_params, Width);
ADDSCOPE_SAME_OFFSET(CuMemsetD2DParams, cuMemsetD2D16Async_ptsz_params, Height);
ADDSCOPE_SAME_OFFSET(CuMemsetD2DParams, cuMemsetD2D16Async_ptsz_params, hStream);
ADDSCOPE_SAME_OFFSET(CuMemsetParams, cuMemsetD32_v2_params, N);
ADDSCOPE_SAME_OFFSET(CuMemsetParams, cuMemsetD32_v2_ptds_params, N);
ADDSCOPE_SAME_OFFSET(CuMemsetParams, cuMemsetD32Async_params, N);
ADDSCOPE_SAME_OFFSET(CuMemsetParams, cuMemsetD32Async_params, hStream);
ADDSCOPE_SAME_OFFSET(CuMemsetParams, cuMemsetD32Async_ptsz_params, N);
ADDSCOPE_SAME_OFFSET(CuMemsetParams, cuMemsetD32Async_ptsz_params, hStream);
ADDSCOPE_SAME_OFFSET(CuMemsetD2DParams, cuMemsetD2D32_v2_params, Width);
ADDSCOPE_SAME_OFFSET(CuMemsetD2DParams, cuMemsetD2D32_v2_params, Height);
ADDSCOPE_SAME_OFFSET(CuMemsetD2DParams, cuMemsetD2D32_v2_ptds_params, Width);
ADDSCOPE_SAME_OFFSET(CuMemsetD2DParams, cuMemsetD2D32_v2_ptds_params, Height);
ADDSCOPE_SAME_OFFSET(CuMemsetD2DParams, cuMemsetD2D32Async_params, Width);
ADDSCOPE_SAME_OFFSET(CuMemsetD2DParams, cuMemsetD2D32Async_params, Height);
ADDSCOPE_SAME_OFFSET(CuMemsetD2DParams, cuMemsetD2D32Async_params, hStream);
ADDSCOPE_SAME_OFFSET(CuMemsetD2DParams, cuMemsetD2D32Async_ptsz_params, Width);
ADDSCOPE_SAME_OFFSET(CuMemsetD2DParams, cuMemsetD2D32Async_ptsz_params, Height);
ADDSCOPE_SAME_OFFSET(CuMemsetD2DParams, cuMemsetD2D32Async_ptsz_params, hStream);

// The callbacks CUPTI calls: ours take what CUPTI passes.
static_assert(SameCall<CallbackFunc, CUpti_CallbackFunc>::value, "callback");
static_assert(
    SameCall<BufferRequestFunc, CUpti_BuffersCallbackRequestFunc>::value,
    "buffer request");
static_assert(
    SameCall<BufferCompleteFunc, CUpti_BuffersCallbackCompleteFunc>::value,
    "buffer complete");

#undef ADDSCOPE_SAME_CALL
#undef ADDSCOPE_SAME_RUNTIME_CBID
#undef ADDSCOPE_SAME_DRIVER_CBID
#undef ADDSCOPE_SAME_SIZE
#undef ADDSCOPE_SAME_OFFSET

}  // namespace cupti
}  // namespace Impl
}  // namespace addscope
