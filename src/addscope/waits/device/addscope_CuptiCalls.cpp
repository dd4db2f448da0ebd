#include "addscope/waits/device/addscope_CuptiCalls.hpp"

#include <array>
#include <cstddef>
#include <limits>


namespace addscope {
namespace Impl {


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

// Memsets: bytes set, and the stream (a synchronous memset runs on the
// default stream, as a synchronous copy).
template <bool Async>
void rt_memset(const void* v, bool pt, ApiCall* c) {
  const auto* p = as<MemsetParams>(v);
  c->bytes = p->count;
  set_stream(c, Async ? p->stream : nullptr, pt);
}
template <bool Async>
void rt_memset_2d(const void* v, bool pt, ApiCall* c) {
  const auto* p = as<Memset2DParams>(v);
  c->bytes = times(p->width, p->height);
  set_stream(c, Async ? p->stream : nullptr, pt);
}
template <bool Async>
void rt_memset_3d(const void* v, bool pt, ApiCall* c) {
  const auto* p = as<Memset3DParams>(v);
  c->bytes = times(times(p->extent.width, p->extent.height), p->extent.depth);
  set_stream(c, Async ? p->stream : nullptr, pt);
}
template <bool Async, int Width>
void cu_memset(const void* v, bool pt, ApiCall* c) {
  const auto* p = as<CuMemsetParams>(v);
  c->bytes = times(p->N, Width);
  set_stream(c, Async ? p->hStream : nullptr, pt);
}
template <bool Async, int Width>
void cu_memset_2d(const void* v, bool pt, ApiCall* c) {
  const auto* p = as<CuMemsetD2DParams>(v);
  c->bytes = times(times(p->Width, p->Height), Width);
  set_stream(c, Async ? p->hStream : nullptr, pt);
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
  Memset,       // a memset (asynchronous but for host memory)
  MemsetAsync,  // an asynchronous memset
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
    // memsets: followed for their thread (a memset's record names none)
    {kMemset_v3020, "cudaMemset", Shape::Memset, false, rt_memset<false>},
    {kMemset_ptds_v7000, "cudaMemset", Shape::Memset, true, rt_memset<false>},
    {kMemset2D_v3020, "cudaMemset2D", Shape::Memset, false,
     rt_memset_2d<false>},
    {kMemset2D_ptds_v7000, "cudaMemset2D", Shape::Memset, true,
     rt_memset_2d<false>},
    {kMemset3D_v3020, "cudaMemset3D", Shape::Memset, false,
     rt_memset_3d<false>},
    {kMemset3D_ptds_v7000, "cudaMemset3D", Shape::Memset, true,
     rt_memset_3d<false>},
    {kMemsetAsync_v3020, "cudaMemsetAsync", Shape::MemsetAsync, false,
     rt_memset<true>},
    {kMemsetAsync_ptsz_v7000, "cudaMemsetAsync", Shape::MemsetAsync, true,
     rt_memset<true>},
    {kMemset2DAsync_v3020, "cudaMemset2DAsync", Shape::MemsetAsync, false,
     rt_memset_2d<true>},
    {kMemset2DAsync_ptsz_v7000, "cudaMemset2DAsync", Shape::MemsetAsync, true,
     rt_memset_2d<true>},
    {kMemset3DAsync_v3020, "cudaMemset3DAsync", Shape::MemsetAsync, false,
     rt_memset_3d<true>},
    {kMemset3DAsync_ptsz_v7000, "cudaMemset3DAsync", Shape::MemsetAsync, true,
     rt_memset_3d<true>},
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
    // memsets: followed for their thread (a memset's record names none)
    {kCuMemsetD8_v2, "cuMemsetD8", Shape::Memset, false,
     cu_memset<false, 1>},
    {kCuMemsetD8_v2_ptds, "cuMemsetD8", Shape::Memset, true,
     cu_memset<false, 1>},
    {kCuMemsetD8Async, "cuMemsetD8Async", Shape::MemsetAsync, false,
     cu_memset<true, 1>},
    {kCuMemsetD8Async_ptsz, "cuMemsetD8Async", Shape::MemsetAsync, true,
     cu_memset<true, 1>},
    {kCuMemsetD2D8_v2, "cuMemsetD2D8", Shape::Memset, false,
     cu_memset_2d<false, 1>},
    {kCuMemsetD2D8_v2_ptds, "cuMemsetD2D8", Shape::Memset, true,
     cu_memset_2d<false, 1>},
    {kCuMemsetD2D8Async, "cuMemsetD2D8Async", Shape::MemsetAsync,
     false, cu_memset_2d<true, 1>},
    {kCuMemsetD2D8Async_ptsz, "cuMemsetD2D8Async", Shape::MemsetAsync,
     true, cu_memset_2d<true, 1>},
    {kCuMemsetD16_v2, "cuMemsetD16", Shape::Memset, false,
     cu_memset<false, 2>},
    {kCuMemsetD16_v2_ptds, "cuMemsetD16", Shape::Memset, true,
     cu_memset<false, 2>},
    {kCuMemsetD16Async, "cuMemsetD16Async", Shape::MemsetAsync, false,
     cu_memset<true, 2>},
    {kCuMemsetD16Async_ptsz, "cuMemsetD16Async", Shape::MemsetAsync, true,
     cu_memset<true, 2>},
    {kCuMemsetD2D16_v2, "cuMemsetD2D16", Shape::Memset, false,
     cu_memset_2d<false, 2>},
    {kCuMemsetD2D16_v2_ptds, "cuMemsetD2D16", Shape::Memset, true,
     cu_memset_2d<false, 2>},
    {kCuMemsetD2D16Async, "cuMemsetD2D16Async", Shape::MemsetAsync,
     false, cu_memset_2d<true, 2>},
    {kCuMemsetD2D16Async_ptsz, "cuMemsetD2D16Async", Shape::MemsetAsync,
     true, cu_memset_2d<true, 2>},
    {kCuMemsetD32_v2, "cuMemsetD32", Shape::Memset, false,
     cu_memset<false, 4>},
    {kCuMemsetD32_v2_ptds, "cuMemsetD32", Shape::Memset, true,
     cu_memset<false, 4>},
    {kCuMemsetD32Async, "cuMemsetD32Async", Shape::MemsetAsync, false,
     cu_memset<true, 4>},
    {kCuMemsetD32Async_ptsz, "cuMemsetD32Async", Shape::MemsetAsync, true,
     cu_memset<true, 4>},
    {kCuMemsetD2D32_v2, "cuMemsetD2D32", Shape::Memset, false,
     cu_memset_2d<false, 4>},
    {kCuMemsetD2D32_v2_ptds, "cuMemsetD2D32", Shape::Memset, true,
     cu_memset_2d<false, 4>},
    {kCuMemsetD2D32Async, "cuMemsetD2D32Async", Shape::MemsetAsync,
     false, cu_memset_2d<true, 4>},
    {kCuMemsetD2D32Async_ptsz, "cuMemsetD2D32Async", Shape::MemsetAsync,
     true, cu_memset_2d<true, 4>},
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
    case Shape::Memset:
    case Shape::MemsetAsync:
      c.kind = ApiCallKind::Blocking;
      c.api = SyncApi::Memset;
      c.async = e->shape == Shape::MemsetAsync;  // its stream: the parameters'
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
