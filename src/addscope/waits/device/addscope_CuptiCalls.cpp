#include "addscope/waits/device/addscope_CuptiCalls.hpp"

#include <array>
#include <cstddef>
#include <limits>

#if defined(__has_include)
#if __has_include(<cupti.h>) && __has_include(<cuda.h>)
#define ADDSCOPE_CHECK_CUPTI_DRIVER_ABI 1
#include <cupti.h>
#endif
#endif

namespace addscope {
namespace Impl {

#ifdef ADDSCOPE_CHECK_CUPTI_DRIVER_ABI
// Our declarations against CUPTI's and CUDA's own (compiled where the
// headers are: Debian's CUDA 11.8 here, CUDA 13.0 with
// -I/usr/local/cuda/include).
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
#undef ADDSCOPE_SAME_RUNTIME_CBID
#undef ADDSCOPE_SAME_DRIVER_CBID
#undef ADDSCOPE_SAME_SIZE
#undef ADDSCOPE_SAME_OFFSET
}  // namespace cupti
#endif

namespace {

using namespace cupti;

// ---- helpers ------------------------------------------------------------

std::uint64_t times(std::uint64_t a, std::uint64_t b) {
  // Saturating: parameters are the program's, not ours to trust.
  if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a)
    return std::numeric_limits<std::uint64_t>::max();
  return a * b;
}

// How a call names its stream. `per_thread`: a _ptsz / _ptds call, whose
// null handle is the per-thread default stream.
void set_stream(ApiCall* c, Stream s, bool per_thread) {
  const auto v = reinterpret_cast<std::uintptr_t>(s);
  if (v == 0)
    c->stream_ref =
        per_thread ? StreamRef::PerThreadDefault : StreamRef::Legacy;
  else if (v == kStreamLegacy)
    c->stream_ref = StreamRef::Legacy;
  else if (v == kStreamPerThread)
    c->stream_ref = StreamRef::PerThreadDefault;
  else {
    c->stream_ref = StreamRef::Handle;
    c->stream = s;
  }
}

// A synchronous copy: on the (legacy or per-thread) default stream.
void sync_copy(ApiCall* c, bool per_thread) {
  c->api = SyncApi::Memcpy;
  set_stream(c, nullptr, per_thread);
}

void set_shape(ApiCall* c, std::uint32_t gx, std::uint32_t gy, std::uint32_t gz,
               std::uint32_t bx, std::uint32_t by, std::uint32_t bz,
               std::uint32_t shared) {
  c->shape_known = true;
  c->grid[0] = gx;
  c->grid[1] = gy;
  c->grid[2] = gz;
  c->block[0] = bx;
  c->block[1] = by;
  c->block[2] = bz;
  c->shared_dynamic = shared;
}

template <class P>
const P* as(const void* params) {
  return static_cast<const P*>(params);
}

// ---- decoders: params is never null here ----------------------------------
// Each takes (params, per_thread, call).
using Decoder = void (*)(const void*, bool, ApiCall*);

// Runtime launches.
void rt_launch_kernel(const void* v, bool pt, ApiCall* c) {
  const auto* p = as<LaunchKernelParams>(v);
  set_shape(c, p->gridDim.x, p->gridDim.y, p->gridDim.z, p->blockDim.x,
            p->blockDim.y, p->blockDim.z, std::uint32_t(p->sharedMem));
  set_stream(c, p->stream, pt);
}
void rt_launch_kernel_exc(const void* v, bool pt, ApiCall* c) {
  const auto* p = as<LaunchKernelExCParams>(v);
  if (!p->config) return;
  const LaunchConfig& k = *p->config;
  set_shape(c, k.gridDim.x, k.gridDim.y, k.gridDim.z, k.blockDim.x,
            k.blockDim.y, k.blockDim.z, std::uint32_t(k.dynamicSmemBytes));
  set_stream(c, k.stream, pt);
}
void rt_graph_launch(const void* v, bool pt, ApiCall* c) {
  set_stream(c, as<GraphLaunchParams>(v)->stream, pt);
}

// Driver launches.
void cu_launch_kernel(const void* v, bool pt, ApiCall* c) {
  const auto* p = as<CuLaunchKernelParams>(v);
  set_shape(c, p->gridDimX, p->gridDimY, p->gridDimZ, p->blockDimX,
            p->blockDimY, p->blockDimZ, p->sharedMemBytes);
  set_stream(c, p->hStream, pt);
}
void cu_launch_kernel_ex(const void* v, bool pt, ApiCall* c) {
  const auto* p = as<CuLaunchKernelExParams>(v);
  if (!p->config) return;
  const CuLaunchConfig& k = *p->config;
  set_shape(c, k.gridDimX, k.gridDimY, k.gridDimZ, k.blockDimX, k.blockDimY,
            k.blockDimZ, k.sharedMemBytes);
  set_stream(c, k.hStream, pt);
}
void cu_launch_grid_async(const void* v, bool pt, ApiCall* c) {
  set_stream(c, as<CuLaunchGridAsyncParams>(v)->hStream, pt);
}
void cu_graph_launch(const void* v, bool pt, ApiCall* c) {
  set_stream(c, as<CuGraphLaunchParams>(v)->hStream, pt);
}

// Synchronizations.
void rt_stream_sync(const void* v, bool pt, ApiCall* c) {
  set_stream(c, as<StreamParams>(v)->stream, pt);
}
void cu_stream_sync(const void* v, bool pt, ApiCall* c) {
  set_stream(c, as<CuStreamParams>(v)->hStream, pt);
}
void rt_event(const void* v, bool, ApiCall* c) {
  c->event = as<EventParams>(v)->event;
}
void cu_event(const void* v, bool, ApiCall* c) {
  c->event = as<CuEventParams>(v)->hEvent;
}
void rt_event_record(const void* v, bool pt, ApiCall* c) {
  const auto* p = as<EventRecordParams>(v);
  c->event = p->event;
  set_stream(c, p->stream, pt);
}
void cu_event_record(const void* v, bool pt, ApiCall* c) {
  const auto* p = as<CuEventRecordParams>(v);
  c->event = p->hEvent;
  set_stream(c, p->hStream, pt);
}

// Runtime copies.
void rt_memcpy(const void* v, bool, ApiCall* c) {
  const auto* p = as<MemcpyParams>(v);
  c->bytes = p->count;
  c->copy_kind = copy_kind_from_runtime(p->kind);
}
void rt_memcpy_async(const void* v, bool pt, ApiCall* c) {
  const auto* p = as<MemcpyAsyncParams>(v);
  c->bytes = p->count;
  c->copy_kind = copy_kind_from_runtime(p->kind);
  set_stream(c, p->stream, pt);
}
void rt_memcpy_2d(const void* v, bool, ApiCall* c) {
  const auto* p = as<Memcpy2DParams>(v);
  c->bytes = times(p->width, p->height);
  c->copy_kind = copy_kind_from_runtime(p->kind);
}
void rt_memcpy_2d_async(const void* v, bool pt, ApiCall* c) {
  const auto* p = as<Memcpy2DAsyncParams>(v);
  c->bytes = times(p->width, p->height);
  c->copy_kind = copy_kind_from_runtime(p->kind);
  set_stream(c, p->stream, pt);
}
template <bool Async>
void rt_memcpy_to_symbol(const void* v, bool pt, ApiCall* c) {
  const auto* p = as<MemcpyToSymbolParams>(v);
  c->bytes = p->count;
  c->copy_kind = copy_kind_from_runtime(p->kind);
  if (Async) set_stream(c, p->stream, pt);
}
template <bool Async>
void rt_memcpy_from_symbol(const void* v, bool pt, ApiCall* c) {
  const auto* p = as<MemcpyFromSymbolParams>(v);
  c->bytes = p->count;
  c->copy_kind = copy_kind_from_runtime(p->kind);
  if (Async) set_stream(c, p->stream, pt);
}
template <bool Async>
void rt_memcpy_peer(const void* v, bool pt, ApiCall* c) {
  const auto* p = as<MemcpyPeerParams>(v);
  c->bytes = p->count;
  c->copy_kind = 4;
  if (Async) set_stream(c, p->stream, pt);
}
template <bool Async>
void rt_memcpy_to_array(const void* v, bool pt, ApiCall* c) {
  const auto* p = as<MemcpyToArrayParams>(v);
  c->bytes = p->count;
  c->copy_kind = copy_kind_from_runtime(p->kind);
  if (Async) set_stream(c, p->stream, pt);
}
template <bool Async>
void rt_memcpy_from_array(const void* v, bool pt, ApiCall* c) {
  const auto* p = as<MemcpyFromArrayParams>(v);
  c->bytes = p->count;
  c->copy_kind = copy_kind_from_runtime(p->kind);
  if (Async) set_stream(c, p->stream, pt);
}
template <bool Async>
void rt_memcpy_2d_to_array(const void* v, bool pt, ApiCall* c) {
  const auto* p = as<Memcpy2DToArrayParams>(v);
  c->bytes = times(p->width, p->height);
  c->copy_kind = copy_kind_from_runtime(p->kind);
  if (Async) set_stream(c, p->stream, pt);
}
template <bool Async>
void rt_memcpy_2d_from_array(const void* v, bool pt, ApiCall* c) {
  const auto* p = as<Memcpy2DFromArrayParams>(v);
  c->bytes = times(p->width, p->height);
  c->copy_kind = copy_kind_from_runtime(p->kind);
  if (Async) set_stream(c, p->stream, pt);
}
void rt_memcpy_array_to_array(const void* v, bool, ApiCall* c) {
  const auto* p = as<MemcpyArrayToArrayParams>(v);
  c->bytes = p->count;
  c->copy_kind = copy_kind_from_runtime(p->kind);
}
void rt_memcpy_2d_array_to_array(const void* v, bool, ApiCall* c) {
  const auto* p = as<Memcpy2DArrayToArrayParams>(v);
  c->bytes = times(p->width, p->height);
  c->copy_kind = copy_kind_from_runtime(p->kind);
}
// A 3-D extent is in bytes for linear memory, in elements (of a size the
// call does not say) when an array is involved: bytes unknown then.
std::uint64_t extent_bytes(const Extent& e, bool array) {
  return array ? 0 : times(times(e.width, e.height), e.depth);
}
template <bool Async>
void rt_memcpy_3d(const void* v, bool pt, ApiCall* c) {
  const auto* p = as<Memcpy3DParams>(v);
  if (p->p) {
    c->bytes = extent_bytes(p->p->extent, p->p->srcArray || p->p->dstArray);
    c->copy_kind = copy_kind_from_runtime(p->p->kind);
  }
  if (Async) set_stream(c, p->stream, pt);
}
template <bool Async>
void rt_memcpy_3d_peer(const void* v, bool pt, ApiCall* c) {
  const auto* p = as<Memcpy3DPeerParams>(v);
  if (p->p)
    c->bytes = extent_bytes(p->p->extent, p->p->srcArray || p->p->dstArray);
  c->copy_kind = 4;
  if (Async) set_stream(c, p->stream, pt);
}

// Driver copies. Each template reads the byte count and, for the Async
// ones, the stream; the direction is the call's.
template <class P, int Kind>
void cu_copy(const void* v, bool, ApiCall* c) {
  c->bytes = as<P>(v)->ByteCount;
  c->copy_kind = Kind;
}
template <class P, int Kind>
void cu_copy_async(const void* v, bool pt, ApiCall* c) {
  const auto* p = as<P>(v);
  c->bytes = p->ByteCount;
  c->copy_kind = Kind;
  set_stream(c, p->hStream, pt);
}
void cu_2d_desc(const CuMemcpy2DDesc* d, ApiCall* c) {
  if (!d) return;
  c->bytes = times(d->WidthInBytes, d->Height);
  c->copy_kind =
      copy_kind_from_memory_types(d->srcMemoryType, d->dstMemoryType);
}
void cu_3d_desc(const CuMemcpy3DDesc* d, ApiCall* c, int kind) {
  if (!d) return;
  c->bytes = times(times(d->WidthInBytes, d->Height), d->Depth);
  c->copy_kind =
      kind ? kind
           : copy_kind_from_memory_types(d->srcMemoryType, d->dstMemoryType);
}
void cu_memcpy_2d(const void* v, bool, ApiCall* c) {
  cu_2d_desc(as<CuMemcpy2DParams>(v)->pCopy, c);
}
void cu_memcpy_2d_async(const void* v, bool pt, ApiCall* c) {
  const auto* p = as<CuMemcpy2DAsyncParams>(v);
  cu_2d_desc(p->pCopy, c);
  set_stream(c, p->hStream, pt);
}
template <int Kind>
void cu_memcpy_3d(const void* v, bool, ApiCall* c) {
  cu_3d_desc(as<CuMemcpy3DParams>(v)->pCopy, c, Kind);
}
template <int Kind>
void cu_memcpy_3d_async(const void* v, bool pt, ApiCall* c) {
  const auto* p = as<CuMemcpy3DAsyncParams>(v);
  cu_3d_desc(p->pCopy, c, Kind);
  set_stream(c, p->hStream, pt);
}

// ---- the table --------------------------------------------------------------

// How a call is decoded.
enum class Shape : std::uint8_t {
  Launch,       // a kernel launch
  GraphLaunch,  // a graph launch
  CoopLaunch,   // a cooperative launch
  MultiLaunch,  // a cooperative launch on several devices (no one stream)
  DeviceSync,   // waits for the whole device / context
  StreamSync,
  EventSync,
  Copy,       // a synchronous copy
  CopyAsync,  // an asynchronous copy
  Free,
  FreeHost,
  EventRecord,
};

struct Entry {
  CallbackId id;
  const char* name;
  Shape shape;
  bool per_thread;  // a _ptsz / _ptds variant
  Decoder decode;   // null: nothing to read in the parameters
};

// The runtime calls (CUPTI_CB_DOMAIN_RUNTIME_API).
constexpr Entry kRuntime[] = {
    // launches
    {kLaunch_v3020, "cudaLaunch", Shape::Launch, false, nullptr},
    {kLaunch_ptsz_v7000, "cudaLaunch", Shape::Launch, true, nullptr},
    {kLaunchKernel_v7000, "cudaLaunchKernel", Shape::Launch, false,
     rt_launch_kernel},
    {kLaunchKernel_ptsz_v7000, "cudaLaunchKernel", Shape::Launch, true,
     rt_launch_kernel},
    {kInternalLaunchKernel_v13000, "cudaLaunchKernel", Shape::Launch, false,
     nullptr},
    {kInternalLaunchKernel_ptsz_v13000, "cudaLaunchKernel", Shape::Launch, true,
     nullptr},
    {kLaunchCooperativeKernel_v9000, "cudaLaunchCooperativeKernel",
     Shape::CoopLaunch, false, rt_launch_kernel},
    {kLaunchCooperativeKernel_ptsz_v9000, "cudaLaunchCooperativeKernel",
     Shape::CoopLaunch, true, rt_launch_kernel},
    {kLaunchCooperativeKernelMultiDevice_v9000,
     "cudaLaunchCooperativeKernelMultiDevice", Shape::MultiLaunch, false,
     nullptr},
    {kLaunchKernelExC_v11060, "cudaLaunchKernelExC", Shape::Launch, false,
     rt_launch_kernel_exc},
    {kLaunchKernelExC_ptsz_v11060, "cudaLaunchKernelExC", Shape::Launch, true,
     rt_launch_kernel_exc},
    {kGraphLaunch_v10000, "cudaGraphLaunch", Shape::GraphLaunch, false,
     rt_graph_launch},
    {kGraphLaunch_ptsz_v10000, "cudaGraphLaunch", Shape::GraphLaunch, true,
     rt_graph_launch},
    // synchronizations
    {kDeviceSynchronize_v3020, "cudaDeviceSynchronize", Shape::DeviceSync,
     false, nullptr},
    {kThreadSynchronize_v3020, "cudaThreadSynchronize", Shape::DeviceSync,
     false, nullptr},
    {kStreamSynchronize_v3020, "cudaStreamSynchronize", Shape::StreamSync,
     false, rt_stream_sync},
    {kStreamSynchronize_ptsz_v7000, "cudaStreamSynchronize", Shape::StreamSync,
     true, rt_stream_sync},
    {kEventSynchronize_v3020, "cudaEventSynchronize", Shape::EventSync, false,
     rt_event},
    // synchronous copies
    {kMemcpy_v3020, "cudaMemcpy", Shape::Copy, false, rt_memcpy},
    {kMemcpy_ptds_v7000, "cudaMemcpy", Shape::Copy, true, rt_memcpy},
    {kMemcpy2D_v3020, "cudaMemcpy2D", Shape::Copy, false, rt_memcpy_2d},
    {kMemcpy2D_ptds_v7000, "cudaMemcpy2D", Shape::Copy, true, rt_memcpy_2d},
    {kMemcpy3D_v3020, "cudaMemcpy3D", Shape::Copy, false, rt_memcpy_3d<false>},
    {kMemcpy3D_ptds_v7000, "cudaMemcpy3D", Shape::Copy, true,
     rt_memcpy_3d<false>},
    {kMemcpyPeer_v4000, "cudaMemcpyPeer", Shape::Copy, false,
     rt_memcpy_peer<false>},
    {kMemcpy3DPeer_v4000, "cudaMemcpy3DPeer", Shape::Copy, false,
     rt_memcpy_3d_peer<false>},
    {kMemcpy3DPeer_ptds_v7000, "cudaMemcpy3DPeer", Shape::Copy, true,
     rt_memcpy_3d_peer<false>},
    {kMemcpyToSymbol_v3020, "cudaMemcpyToSymbol", Shape::Copy, false,
     rt_memcpy_to_symbol<false>},
    {kMemcpyToSymbol_ptds_v7000, "cudaMemcpyToSymbol", Shape::Copy, true,
     rt_memcpy_to_symbol<false>},
    {kMemcpyFromSymbol_v3020, "cudaMemcpyFromSymbol", Shape::Copy, false,
     rt_memcpy_from_symbol<false>},
    {kMemcpyFromSymbol_ptds_v7000, "cudaMemcpyFromSymbol", Shape::Copy, true,
     rt_memcpy_from_symbol<false>},
    {kMemcpyToArray_v3020, "cudaMemcpyToArray", Shape::Copy, false,
     rt_memcpy_to_array<false>},
    {kMemcpyToArray_ptds_v7000, "cudaMemcpyToArray", Shape::Copy, true,
     rt_memcpy_to_array<false>},
    {kMemcpyFromArray_v3020, "cudaMemcpyFromArray", Shape::Copy, false,
     rt_memcpy_from_array<false>},
    {kMemcpyFromArray_ptds_v7000, "cudaMemcpyFromArray", Shape::Copy, true,
     rt_memcpy_from_array<false>},
    {kMemcpy2DToArray_v3020, "cudaMemcpy2DToArray", Shape::Copy, false,
     rt_memcpy_2d_to_array<false>},
    {kMemcpy2DToArray_ptds_v7000, "cudaMemcpy2DToArray", Shape::Copy, true,
     rt_memcpy_2d_to_array<false>},
    {kMemcpy2DFromArray_v3020, "cudaMemcpy2DFromArray", Shape::Copy, false,
     rt_memcpy_2d_from_array<false>},
    {kMemcpy2DFromArray_ptds_v7000, "cudaMemcpy2DFromArray", Shape::Copy, true,
     rt_memcpy_2d_from_array<false>},
    {kMemcpyArrayToArray_v3020, "cudaMemcpyArrayToArray", Shape::Copy, false,
     rt_memcpy_array_to_array},
    {kMemcpyArrayToArray_ptds_v7000, "cudaMemcpyArrayToArray", Shape::Copy,
     true, rt_memcpy_array_to_array},
    {kMemcpy2DArrayToArray_v3020, "cudaMemcpy2DArrayToArray", Shape::Copy,
     false, rt_memcpy_2d_array_to_array},
    {kMemcpy2DArrayToArray_ptds_v7000, "cudaMemcpy2DArrayToArray", Shape::Copy,
     true, rt_memcpy_2d_array_to_array},
    // asynchronous copies
    {kMemcpyAsync_v3020, "cudaMemcpyAsync", Shape::CopyAsync, false,
     rt_memcpy_async},
    {kMemcpyAsync_ptsz_v7000, "cudaMemcpyAsync", Shape::CopyAsync, true,
     rt_memcpy_async},
    {kMemcpy2DAsync_v3020, "cudaMemcpy2DAsync", Shape::CopyAsync, false,
     rt_memcpy_2d_async},
    {kMemcpy2DAsync_ptsz_v7000, "cudaMemcpy2DAsync", Shape::CopyAsync, true,
     rt_memcpy_2d_async},
    {kMemcpy3DAsync_v3020, "cudaMemcpy3DAsync", Shape::CopyAsync, false,
     rt_memcpy_3d<true>},
    {kMemcpy3DAsync_ptsz_v7000, "cudaMemcpy3DAsync", Shape::CopyAsync, true,
     rt_memcpy_3d<true>},
    {kMemcpyPeerAsync_v4000, "cudaMemcpyPeerAsync", Shape::CopyAsync, false,
     rt_memcpy_peer<true>},
    {kMemcpy3DPeerAsync_v4000, "cudaMemcpy3DPeerAsync", Shape::CopyAsync, false,
     rt_memcpy_3d_peer<true>},
    {kMemcpy3DPeerAsync_ptsz_v7000, "cudaMemcpy3DPeerAsync", Shape::CopyAsync,
     true, rt_memcpy_3d_peer<true>},
    {kMemcpyToSymbolAsync_v3020, "cudaMemcpyToSymbolAsync", Shape::CopyAsync,
     false, rt_memcpy_to_symbol<true>},
    {kMemcpyToSymbolAsync_ptsz_v7000, "cudaMemcpyToSymbolAsync",
     Shape::CopyAsync, true, rt_memcpy_to_symbol<true>},
    {kMemcpyFromSymbolAsync_v3020, "cudaMemcpyFromSymbolAsync",
     Shape::CopyAsync, false, rt_memcpy_from_symbol<true>},
    {kMemcpyFromSymbolAsync_ptsz_v7000, "cudaMemcpyFromSymbolAsync",
     Shape::CopyAsync, true, rt_memcpy_from_symbol<true>},
    {kMemcpyToArrayAsync_v3020, "cudaMemcpyToArrayAsync", Shape::CopyAsync,
     false, rt_memcpy_to_array<true>},
    {kMemcpyToArrayAsync_ptsz_v7000, "cudaMemcpyToArrayAsync", Shape::CopyAsync,
     true, rt_memcpy_to_array<true>},
    {kMemcpyFromArrayAsync_v3020, "cudaMemcpyFromArrayAsync", Shape::CopyAsync,
     false, rt_memcpy_from_array<true>},
    {kMemcpyFromArrayAsync_ptsz_v7000, "cudaMemcpyFromArrayAsync",
     Shape::CopyAsync, true, rt_memcpy_from_array<true>},
    {kMemcpy2DToArrayAsync_v3020, "cudaMemcpy2DToArrayAsync", Shape::CopyAsync,
     false, rt_memcpy_2d_to_array<true>},
    {kMemcpy2DToArrayAsync_ptsz_v7000, "cudaMemcpy2DToArrayAsync",
     Shape::CopyAsync, true, rt_memcpy_2d_to_array<true>},
    {kMemcpy2DFromArrayAsync_v3020, "cudaMemcpy2DFromArrayAsync",
     Shape::CopyAsync, false, rt_memcpy_2d_from_array<true>},
    {kMemcpy2DFromArrayAsync_ptsz_v7000, "cudaMemcpy2DFromArrayAsync",
     Shape::CopyAsync, true, rt_memcpy_2d_from_array<true>},
    // frees (cudaFree synchronizes the device)
    {kFree_v3020, "cudaFree", Shape::Free, false, nullptr},
    {kFreeArray_v3020, "cudaFreeArray", Shape::Free, false, nullptr},
    {kFreeHost_v3020, "cudaFreeHost", Shape::FreeHost, false, nullptr},
    // which stream an event was recorded on
    {kEventRecord_v3020, "cudaEventRecord", Shape::EventRecord, false,
     rt_event_record},
    {kEventRecord_ptsz_v7000, "cudaEventRecord", Shape::EventRecord, true,
     rt_event_record},
    {kEventRecordWithFlags_v11010, "cudaEventRecordWithFlags",
     Shape::EventRecord, false, rt_event_record},
    {kEventRecordWithFlags_ptsz_v11010, "cudaEventRecordWithFlags",
     Shape::EventRecord, true, rt_event_record},
};

// The driver calls (CUPTI_CB_DOMAIN_DRIVER_API).
constexpr Entry kDriver[] = {
    // launches
    {kCuLaunch, "cuLaunch", Shape::Launch, false, nullptr},
    {kCuLaunchGrid, "cuLaunchGrid", Shape::Launch, false, nullptr},
    {kCuLaunchGridAsync, "cuLaunchGridAsync", Shape::Launch, false,
     cu_launch_grid_async},
    {kCuLaunchKernel, "cuLaunchKernel", Shape::Launch, false, cu_launch_kernel},
    {kCuLaunchKernel_ptsz, "cuLaunchKernel", Shape::Launch, true,
     cu_launch_kernel},
    {kCuLaunchKernelEx, "cuLaunchKernelEx", Shape::Launch, false,
     cu_launch_kernel_ex},
    {kCuLaunchKernelEx_ptsz, "cuLaunchKernelEx", Shape::Launch, true,
     cu_launch_kernel_ex},
    {kCuLaunchCooperativeKernel, "cuLaunchCooperativeKernel", Shape::CoopLaunch,
     false, cu_launch_kernel},
    {kCuLaunchCooperativeKernel_ptsz, "cuLaunchCooperativeKernel",
     Shape::CoopLaunch, true, cu_launch_kernel},
    {kCuLaunchCooperativeKernelMultiDevice,
     "cuLaunchCooperativeKernelMultiDevice", Shape::MultiLaunch, false,
     nullptr},
    {kCuGraphLaunch, "cuGraphLaunch", Shape::GraphLaunch, false,
     cu_graph_launch},
    {kCuGraphLaunch_ptsz, "cuGraphLaunch", Shape::GraphLaunch, true,
     cu_graph_launch},
    // synchronizations
    {kCuCtxSynchronize, "cuCtxSynchronize", Shape::DeviceSync, false, nullptr},
    {kCuCtxSynchronize_v2, "cuCtxSynchronize", Shape::DeviceSync, false,
     nullptr},
    {kCuStreamSynchronize, "cuStreamSynchronize", Shape::StreamSync, false,
     cu_stream_sync},
    {kCuStreamSynchronize_ptsz, "cuStreamSynchronize", Shape::StreamSync, true,
     cu_stream_sync},
    {kCuEventSynchronize, "cuEventSynchronize", Shape::EventSync, false,
     cu_event},
    // synchronous copies
    {kCuMemcpyHtoD, "cuMemcpyHtoD", Shape::Copy, false,
     cu_copy<CuMemcpyHtoDV1Params, 2>},
    {kCuMemcpyHtoD_v2, "cuMemcpyHtoD", Shape::Copy, false,
     cu_copy<CuMemcpyHtoDParams, 2>},
    {kCuMemcpyHtoD_v2_ptds, "cuMemcpyHtoD", Shape::Copy, true,
     cu_copy<CuMemcpyHtoDParams, 2>},
    {kCuMemcpyDtoH, "cuMemcpyDtoH", Shape::Copy, false,
     cu_copy<CuMemcpyDtoHV1Params, 3>},
    {kCuMemcpyDtoH_v2, "cuMemcpyDtoH", Shape::Copy, false,
     cu_copy<CuMemcpyDtoHParams, 3>},
    {kCuMemcpyDtoH_v2_ptds, "cuMemcpyDtoH", Shape::Copy, true,
     cu_copy<CuMemcpyDtoHParams, 3>},
    {kCuMemcpyDtoD, "cuMemcpyDtoD", Shape::Copy, false,
     cu_copy<CuMemcpyDtoDV1Params, 4>},
    {kCuMemcpyDtoD_v2, "cuMemcpyDtoD", Shape::Copy, false,
     cu_copy<CuMemcpyDtoDParams, 4>},
    {kCuMemcpyDtoD_v2_ptds, "cuMemcpyDtoD", Shape::Copy, true,
     cu_copy<CuMemcpyDtoDParams, 4>},
    // unified addressing: either side may be host memory
    {kCuMemcpy, "cuMemcpy", Shape::Copy, false, cu_copy<CuMemcpyDtoDParams, 0>},
    {kCuMemcpy_ptds, "cuMemcpy", Shape::Copy, true,
     cu_copy<CuMemcpyDtoDParams, 0>},
    {kCuMemcpyPeer, "cuMemcpyPeer", Shape::Copy, false,
     cu_copy<CuMemcpyPeerParams, 4>},
    {kCuMemcpyPeer_ptds, "cuMemcpyPeer", Shape::Copy, true,
     cu_copy<CuMemcpyPeerParams, 4>},
    {kCuMemcpyAtoH_v2, "cuMemcpyAtoH", Shape::Copy, false,
     cu_copy<CuMemcpyAtoHParams, 3>},
    {kCuMemcpyAtoH_v2_ptds, "cuMemcpyAtoH", Shape::Copy, true,
     cu_copy<CuMemcpyAtoHParams, 3>},
    {kCuMemcpyHtoA_v2, "cuMemcpyHtoA", Shape::Copy, false,
     cu_copy<CuMemcpyHtoAParams, 2>},
    {kCuMemcpyHtoA_v2_ptds, "cuMemcpyHtoA", Shape::Copy, true,
     cu_copy<CuMemcpyHtoAParams, 2>},
    {kCuMemcpyDtoA_v2, "cuMemcpyDtoA", Shape::Copy, false,
     cu_copy<CuMemcpyDtoAParams, 4>},
    {kCuMemcpyDtoA_v2_ptds, "cuMemcpyDtoA", Shape::Copy, true,
     cu_copy<CuMemcpyDtoAParams, 4>},
    {kCuMemcpyAtoD_v2, "cuMemcpyAtoD", Shape::Copy, false,
     cu_copy<CuMemcpyAtoDParams, 4>},
    {kCuMemcpyAtoD_v2_ptds, "cuMemcpyAtoD", Shape::Copy, true,
     cu_copy<CuMemcpyAtoDParams, 4>},
    {kCuMemcpyAtoA_v2, "cuMemcpyAtoA", Shape::Copy, false,
     cu_copy<CuMemcpyAtoAParams, 4>},
    {kCuMemcpyAtoA_v2_ptds, "cuMemcpyAtoA", Shape::Copy, true,
     cu_copy<CuMemcpyAtoAParams, 4>},
    {kCuMemcpy2D_v2, "cuMemcpy2D", Shape::Copy, false, cu_memcpy_2d},
    {kCuMemcpy2D_v2_ptds, "cuMemcpy2D", Shape::Copy, true, cu_memcpy_2d},
    {kCuMemcpy2DUnaligned_v2, "cuMemcpy2DUnaligned", Shape::Copy, false,
     cu_memcpy_2d},
    {kCuMemcpy2DUnaligned_v2_ptds, "cuMemcpy2DUnaligned", Shape::Copy, true,
     cu_memcpy_2d},
    {kCuMemcpy3D_v2, "cuMemcpy3D", Shape::Copy, false, cu_memcpy_3d<0>},
    {kCuMemcpy3D_v2_ptds, "cuMemcpy3D", Shape::Copy, true, cu_memcpy_3d<0>},
    {kCuMemcpy3DPeer, "cuMemcpy3DPeer", Shape::Copy, false, cu_memcpy_3d<4>},
    {kCuMemcpy3DPeer_ptds, "cuMemcpy3DPeer", Shape::Copy, true,
     cu_memcpy_3d<4>},
    // asynchronous copies
    {kCuMemcpyHtoDAsync, "cuMemcpyHtoDAsync", Shape::CopyAsync, false,
     cu_copy_async<CuMemcpyHtoDAsyncV1Params, 2>},
    {kCuMemcpyHtoDAsync_v2, "cuMemcpyHtoDAsync", Shape::CopyAsync, false,
     cu_copy_async<CuMemcpyHtoDAsyncParams, 2>},
    {kCuMemcpyHtoDAsync_v2_ptsz, "cuMemcpyHtoDAsync", Shape::CopyAsync, true,
     cu_copy_async<CuMemcpyHtoDAsyncParams, 2>},
    {kCuMemcpyDtoHAsync, "cuMemcpyDtoHAsync", Shape::CopyAsync, false,
     cu_copy_async<CuMemcpyDtoHAsyncV1Params, 3>},
    {kCuMemcpyDtoHAsync_v2, "cuMemcpyDtoHAsync", Shape::CopyAsync, false,
     cu_copy_async<CuMemcpyDtoHAsyncParams, 3>},
    {kCuMemcpyDtoHAsync_v2_ptsz, "cuMemcpyDtoHAsync", Shape::CopyAsync, true,
     cu_copy_async<CuMemcpyDtoHAsyncParams, 3>},
    {kCuMemcpyDtoDAsync, "cuMemcpyDtoDAsync", Shape::CopyAsync, false,
     cu_copy_async<CuMemcpyDtoDAsyncV1Params, 4>},
    {kCuMemcpyDtoDAsync_v2, "cuMemcpyDtoDAsync", Shape::CopyAsync, false,
     cu_copy_async<CuMemcpyDtoDAsyncParams, 4>},
    {kCuMemcpyDtoDAsync_v2_ptsz, "cuMemcpyDtoDAsync", Shape::CopyAsync, true,
     cu_copy_async<CuMemcpyDtoDAsyncParams, 4>},
    {kCuMemcpyAsync, "cuMemcpyAsync", Shape::CopyAsync, false,
     cu_copy_async<CuMemcpyDtoDAsyncParams, 0>},
    {kCuMemcpyAsync_ptsz, "cuMemcpyAsync", Shape::CopyAsync, true,
     cu_copy_async<CuMemcpyDtoDAsyncParams, 0>},
    {kCuMemcpyPeerAsync, "cuMemcpyPeerAsync", Shape::CopyAsync, false,
     cu_copy_async<CuMemcpyPeerAsyncParams, 4>},
    {kCuMemcpyPeerAsync_ptsz, "cuMemcpyPeerAsync", Shape::CopyAsync, true,
     cu_copy_async<CuMemcpyPeerAsyncParams, 4>},
    {kCuMemcpyAtoHAsync_v2, "cuMemcpyAtoHAsync", Shape::CopyAsync, false,
     cu_copy_async<CuMemcpyAtoHAsyncParams, 3>},
    {kCuMemcpyAtoHAsync_v2_ptsz, "cuMemcpyAtoHAsync", Shape::CopyAsync, true,
     cu_copy_async<CuMemcpyAtoHAsyncParams, 3>},
    {kCuMemcpyHtoAAsync_v2, "cuMemcpyHtoAAsync", Shape::CopyAsync, false,
     cu_copy_async<CuMemcpyHtoAAsyncParams, 2>},
    {kCuMemcpyHtoAAsync_v2_ptsz, "cuMemcpyHtoAAsync", Shape::CopyAsync, true,
     cu_copy_async<CuMemcpyHtoAAsyncParams, 2>},
    {kCuMemcpy2DAsync_v2, "cuMemcpy2DAsync", Shape::CopyAsync, false,
     cu_memcpy_2d_async},
    {kCuMemcpy2DAsync_v2_ptsz, "cuMemcpy2DAsync", Shape::CopyAsync, true,
     cu_memcpy_2d_async},
    {kCuMemcpy3DAsync_v2, "cuMemcpy3DAsync", Shape::CopyAsync, false,
     cu_memcpy_3d_async<0>},
    {kCuMemcpy3DAsync_v2_ptsz, "cuMemcpy3DAsync", Shape::CopyAsync, true,
     cu_memcpy_3d_async<0>},
    {kCuMemcpy3DPeerAsync, "cuMemcpy3DPeerAsync", Shape::CopyAsync, false,
     cu_memcpy_3d_async<4>},
    {kCuMemcpy3DPeerAsync_ptsz, "cuMemcpy3DPeerAsync", Shape::CopyAsync, true,
     cu_memcpy_3d_async<4>},
    // frees (cuMemFree synchronizes the context)
    {kCuMemFree, "cuMemFree", Shape::Free, false, nullptr},
    {kCuMemFree_v2, "cuMemFree", Shape::Free, false, nullptr},
    {kCuMemFreeHost, "cuMemFreeHost", Shape::FreeHost, false, nullptr},
    // which stream an event was recorded on
    {kCuEventRecord, "cuEventRecord", Shape::EventRecord, false,
     cu_event_record},
    {kCuEventRecord_ptsz, "cuEventRecord", Shape::EventRecord, true,
     cu_event_record},
    {kCuEventRecordWithFlags, "cuEventRecordWithFlags", Shape::EventRecord,
     false, cu_event_record},
    {kCuEventRecordWithFlags_ptsz, "cuEventRecordWithFlags", Shape::EventRecord,
     true, cu_event_record},
};

// Ids below this are looked up directly; every id of the tables is, and
// none is listed twice (checked at compile time).
constexpr std::size_t kMaxId = 1024;
template <std::size_t N>
constexpr bool ids_fit_and_unique(const Entry (&t)[N]) {
  for (std::size_t i = 0; i < N; ++i) {
    if (t[i].id >= kMaxId) return false;
    for (std::size_t j = i + 1; j < N; ++j)
      if (t[i].id == t[j].id) return false;
  }
  return true;
}
static_assert(ids_fit_and_unique(kRuntime), "runtime table");
static_assert(ids_fit_and_unique(kDriver), "driver table");

struct Index {
  std::array<const Entry*, kMaxId> runtime{}, driver{};
  std::vector<CallbackId> runtime_ids, driver_ids;
  Index() {
    for (const Entry& e : kRuntime) {
      runtime[e.id] = &e;
      runtime_ids.push_back(e.id);
    }
    for (const Entry& e : kDriver) {
      driver[e.id] = &e;
      driver_ids.push_back(e.id);
    }
  }
};
const Index& index() {
  static const Index* i = new Index;  // used until the process ends
  return *i;
}

}  // namespace

const char* api_call_kind_name(ApiCallKind k) {
  switch (k) {
    case ApiCallKind::None:
      return "none";
    case ApiCallKind::Launch:
      return "launch";
    case ApiCallKind::Blocking:
      return "blocking";
    case ApiCallKind::EventRecord:
      return "event record";
  }
  return "unknown";
}

const char* stream_ref_name(StreamRef s) {
  switch (s) {
    case StreamRef::None:
      return "none";
    case StreamRef::Legacy:
      return "legacy default stream";
    case StreamRef::PerThreadDefault:
      return "per-thread default stream";
    case StreamRef::Handle:
      return "stream";
  }
  return "unknown";
}

int copy_kind_from_runtime(int k) { return k >= 0 && k <= 3 ? k + 1 : 0; }

int copy_kind_from_memory_types(int src, int dst) {
  auto side = [](int t) {  // 0 host, 1 device, -1 unknown
    if (t == kMemoryHost) return 0;
    if (t == kMemoryDevice || t == kMemoryArray) return 1;
    return -1;
  };
  const int s = side(src), d = side(dst);
  if (s < 0 || d < 0) return 0;
  return 1 + 2 * s + d;  // H2H 1, H2D 2, D2H 3, D2D 4
}

ApiCall decode_cupti_call(int domain, CallbackId cbid, const void* params) {
  ApiCall c;
  if (cbid >= kMaxId) return c;
  const Entry* e = nullptr;
  if (domain == kDomainRuntimeApi)
    e = index().runtime[cbid];
  else if (domain == kDomainDriverApi)
    e = index().driver[cbid];
  if (!e) return c;
  c.domain = domain;
  c.name = e->name;
  switch (e->shape) {
    case Shape::Launch:
      c.kind = ApiCallKind::Launch;
      break;
    case Shape::GraphLaunch:
      c.kind = ApiCallKind::Launch;
      c.graph = true;
      break;
    case Shape::CoopLaunch:
      c.kind = ApiCallKind::Launch;
      c.cooperative = true;
      break;
    case Shape::MultiLaunch:
      c.kind = ApiCallKind::Launch;
      c.cooperative = c.multi_device = true;
      break;
    case Shape::DeviceSync:
      c.kind = ApiCallKind::Blocking;
      c.api = SyncApi::DeviceSynchronize;
      break;
    case Shape::StreamSync:
      c.kind = ApiCallKind::Blocking;
      c.api = SyncApi::StreamSynchronize;
      // Without parameters: the stream is unknown, every stream counts.
      break;
    case Shape::EventSync:
      c.kind = ApiCallKind::Blocking;
      c.api = SyncApi::EventSynchronize;
      break;
    case Shape::Copy:
      c.kind = ApiCallKind::Blocking;
      sync_copy(&c, e->per_thread);
      break;
    case Shape::CopyAsync:
      c.kind = ApiCallKind::Blocking;
      c.api = SyncApi::MemcpyAsync;
      c.async = true;  // its stream: from the parameters
      break;
    case Shape::Free:
      c.kind = ApiCallKind::Blocking;
      c.api = SyncApi::Free;
      break;
    case Shape::FreeHost:
      c.kind = ApiCallKind::Blocking;
      c.api = SyncApi::FreeHost;
      break;
    case Shape::EventRecord:
      c.kind = ApiCallKind::EventRecord;
      break;
  }
  // cuLaunch / cuLaunchGrid launch on the legacy default stream.
  if (domain == kDomainDriverApi &&
      (cbid == kCuLaunch || cbid == kCuLaunchGrid))
    c.stream_ref = StreamRef::Legacy;
  if (params && e->decode) e->decode(params, e->per_thread, &c);
  return c;
}

const std::vector<CallbackId>& cupti_enabled_callbacks(int domain) {
  static const std::vector<CallbackId> none;
  if (domain == kDomainRuntimeApi) return index().runtime_ids;
  if (domain == kDomainDriverApi) return index().driver_ids;
  return none;
}

}  // namespace Impl
}  // namespace addscope
