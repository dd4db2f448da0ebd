// CUDA API calls as the waits tool decodes them (device/addscope_CuptiCalls):
// synthetic parameter structs, laid out as CUPTI hands them over (checked
// against cupti.h where it is found), for every kind of call — launches of
// both APIs, blocking calls, event records — and ids the tool does not
// follow. No CUDA, no device.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "addscope/waits/device/addscope_CuptiCalls.hpp"
#include "addscope/waits/device/addscope_StreamIdCache.hpp"

using addscope::SyncApi;
using addscope::Impl::ApiCall;
using addscope::Impl::ApiCallKind;
using addscope::Impl::ApiCallNesting;
using addscope::Impl::cupti_enabled_callbacks;
using addscope::Impl::decode_cupti_call;
using addscope::Impl::StreamIdCache;
using addscope::Impl::StreamRef;
namespace cupti = addscope::Impl::cupti;

namespace {

constexpr int kRuntime = cupti::kDomainRuntimeApi;
constexpr int kDriver = cupti::kDomainDriverApi;

cupti::Stream handle(std::uintptr_t v) {
  return reinterpret_cast<cupti::Stream>(v);
}
cupti::Event event(std::uintptr_t v) {
  return reinterpret_cast<cupti::Event>(v);
}

// A parameter struct inside a buffer full of 0xff: a decoder that reads
// past the struct, or a field of the wrong width, reads poison.
template <class P>
struct Poisoned {
  alignas(16) unsigned char bytes[sizeof(P) + 64];
  P* p;
  Poisoned() {
    std::memset(bytes, 0xff, sizeof bytes);
    p = reinterpret_cast<P*>(bytes);
  }
  P* operator->() { return p; }
  const void* get() const { return p; }
};

ApiCall drv(cupti::CallbackId id, const void* params) {
  return decode_cupti_call(kDriver, id, params);
}
ApiCall rt(cupti::CallbackId id, const void* params) {
  return decode_cupti_call(kRuntime, id, params);
}

void expect_shape(const ApiCall& c, std::uint32_t gx, std::uint32_t gy,
                  std::uint32_t gz, std::uint32_t bx, std::uint32_t by,
                  std::uint32_t bz) {
  ASSERT_TRUE(c.shape_known);
  EXPECT_EQ(c.grid[0], gx);
  EXPECT_EQ(c.grid[1], gy);
  EXPECT_EQ(c.grid[2], gz);
  EXPECT_EQ(c.block[0], bx);
  EXPECT_EQ(c.block[1], by);
  EXPECT_EQ(c.block[2], bz);
}

}  // namespace

// ---- driver launches -----------------------------------------------------

TEST(WaitsCuptiCalls, DriverLaunchKernelGivesShapeAndStream) {
  Poisoned<cupti::CuLaunchKernelParams> p;
  p->f = nullptr;
  p->gridDimX = 1, p->gridDimY = 1, p->gridDimZ = 1;
  p->blockDimX = 1, p->blockDimY = 1, p->blockDimZ = 1;
  p->sharedMemBytes = 48;
  p->hStream = handle(0x5000);
  const ApiCall c = drv(cupti::kCuLaunchKernel, p.get());
  EXPECT_EQ(c.kind, ApiCallKind::Launch);
  EXPECT_EQ(c.domain, kDriver);
  EXPECT_STREQ(c.name, "cuLaunchKernel");
  expect_shape(c, 1, 1, 1, 1, 1, 1);
  EXPECT_EQ(c.shared_dynamic, 48u);
  EXPECT_EQ(c.stream_ref, StreamRef::Handle);
  EXPECT_EQ(c.stream, handle(0x5000));
  EXPECT_FALSE(c.graph || c.cooperative || c.multi_device);

  p->gridDimX = 78125, p->gridDimY = 2, p->gridDimZ = 3;
  p->blockDimX = 128, p->blockDimY = 4, p->blockDimZ = 2;
  expect_shape(drv(cupti::kCuLaunchKernel_ptsz, p.get()), 78125, 2, 3, 128, 4,
               2);
}

TEST(WaitsCuptiCalls, NullAndSpecialStreamHandlesNameTheDefaultStreams) {
  Poisoned<cupti::CuLaunchKernelParams> p;
  p->hStream = nullptr;
  // The null stream: the legacy one, except in a _ptsz call.
  EXPECT_EQ(drv(cupti::kCuLaunchKernel, p.get()).stream_ref, StreamRef::Legacy);
  EXPECT_EQ(drv(cupti::kCuLaunchKernel_ptsz, p.get()).stream_ref,
            StreamRef::PerThreadDefault);
  // CU_STREAM_LEGACY / CU_STREAM_PER_THREAD name them in any call.
  p->hStream = handle(cupti::kStreamLegacy);
  EXPECT_EQ(drv(cupti::kCuLaunchKernel_ptsz, p.get()).stream_ref,
            StreamRef::Legacy);
  p->hStream = handle(cupti::kStreamPerThread);
  const ApiCall c = drv(cupti::kCuLaunchKernel, p.get());
  EXPECT_EQ(c.stream_ref, StreamRef::PerThreadDefault);
  EXPECT_EQ(c.stream, nullptr);
}

TEST(WaitsCuptiCalls, DriverLaunchKernelExReadsItsConfig) {
  cupti::CuLaunchConfig cfg;
  std::memset(&cfg, 0xff, sizeof cfg);
  cfg.gridDimX = 8, cfg.gridDimY = 1, cfg.gridDimZ = 1;
  cfg.blockDimX = 256, cfg.blockDimY = 1, cfg.blockDimZ = 1;
  cfg.sharedMemBytes = 1024;
  cfg.hStream = handle(0x77);
  Poisoned<cupti::CuLaunchKernelExParams> p;
  p->config = &cfg;
  for (auto id : {cupti::kCuLaunchKernelEx, cupti::kCuLaunchKernelEx_ptsz}) {
    const ApiCall c = drv(id, p.get());
    EXPECT_EQ(c.kind, ApiCallKind::Launch);
    EXPECT_STREQ(c.name, "cuLaunchKernelEx");
    expect_shape(c, 8, 1, 1, 256, 1, 1);
    EXPECT_EQ(c.shared_dynamic, 1024u);
    EXPECT_EQ(c.stream, handle(0x77));
  }
  // No config: still a launch, shape and stream unknown.
  p->config = nullptr;
  const ApiCall c = drv(cupti::kCuLaunchKernelEx, p.get());
  EXPECT_EQ(c.kind, ApiCallKind::Launch);
  EXPECT_FALSE(c.shape_known);
  EXPECT_EQ(c.stream_ref, StreamRef::None);
}

TEST(WaitsCuptiCalls, EveryDriverLaunchEntryIsALaunch) {
  Poisoned<cupti::CuLaunchKernelParams> k;
  k->gridDimX = 2, k->gridDimY = 1, k->gridDimZ = 1;
  k->blockDimX = 32, k->blockDimY = 1, k->blockDimZ = 1;
  k->hStream = handle(0x99);
  for (auto id : {cupti::kCuLaunchCooperativeKernel,
                  cupti::kCuLaunchCooperativeKernel_ptsz}) {
    const ApiCall c = drv(id, k.get());
    EXPECT_EQ(c.kind, ApiCallKind::Launch);
    EXPECT_TRUE(c.cooperative);
    expect_shape(c, 2, 1, 1, 32, 1, 1);
    EXPECT_EQ(c.stream, handle(0x99));
  }
  // Several devices, several streams: no one stream.
  const ApiCall m = drv(cupti::kCuLaunchCooperativeKernelMultiDevice, k.get());
  EXPECT_EQ(m.kind, ApiCallKind::Launch);
  EXPECT_TRUE(m.multi_device);
  EXPECT_EQ(m.stream_ref, StreamRef::None);
  // The old entries: the block shape was set before the call; cuLaunch and
  // cuLaunchGrid go to the legacy stream.
  Poisoned<cupti::CuLaunchGridParams> g;
  g->grid_width = 4;
  g->grid_height = 5;
  for (auto id : {cupti::kCuLaunch, cupti::kCuLaunchGrid}) {
    const ApiCall c = drv(id, g.get());
    EXPECT_EQ(c.kind, ApiCallKind::Launch);
    EXPECT_FALSE(c.shape_known);
    EXPECT_EQ(c.stream_ref, StreamRef::Legacy);
  }
  Poisoned<cupti::CuLaunchGridAsyncParams> ga;
  ga->hStream = handle(0x1234);
  EXPECT_EQ(drv(cupti::kCuLaunchGridAsync, ga.get()).stream, handle(0x1234));
  // A graph: its kernels come under the launch's correlation id.
  Poisoned<cupti::CuGraphLaunchParams> gr;
  gr->hGraph = nullptr;
  gr->hStream = handle(0x4242);
  const ApiCall c = drv(cupti::kCuGraphLaunch, gr.get());
  EXPECT_EQ(c.kind, ApiCallKind::Launch);
  EXPECT_TRUE(c.graph);
  EXPECT_EQ(c.stream, handle(0x4242));
  EXPECT_FALSE(c.shape_known);
}

// ---- driver blocking calls ---------------------------------------------

// numba's read of out[2]: cuMemcpyDtoHAsync_v2 of 4 bytes on its stream.
TEST(WaitsCuptiCalls, DriverDeviceToHostCopies) {
  Poisoned<cupti::CuMemcpyDtoHAsyncParams> a;
  a->dstHost = nullptr;
  a->srcDevice = 0xdead0000;
  a->ByteCount = 4;
  a->hStream = handle(0xabc);
  for (auto id :
       {cupti::kCuMemcpyDtoHAsync_v2, cupti::kCuMemcpyDtoHAsync_v2_ptsz}) {
    const ApiCall c = drv(id, a.get());
    EXPECT_EQ(c.kind, ApiCallKind::Blocking);
    EXPECT_STREQ(c.name, "cuMemcpyDtoHAsync");
    EXPECT_EQ(c.api, SyncApi::MemcpyAsync);
    EXPECT_TRUE(c.async);
    EXPECT_EQ(c.bytes, 4u);
    EXPECT_EQ(c.copy_kind, 3);  // D2H
    EXPECT_EQ(c.stream_ref, StreamRef::Handle);
    EXPECT_EQ(c.stream, handle(0xabc));
    EXPECT_FALSE(c.all_streams());
  }
  a->hStream = nullptr;
  EXPECT_TRUE(drv(cupti::kCuMemcpyDtoHAsync_v2, a.get()).all_streams());
  EXPECT_EQ(drv(cupti::kCuMemcpyDtoHAsync_v2_ptsz, a.get()).stream_ref,
            StreamRef::PerThreadDefault);

  // The synchronous copy: on the default stream, waiting for the device.
  Poisoned<cupti::CuMemcpyDtoHParams> s;
  s->srcDevice = 1;
  s->ByteCount = std::size_t(1) << 33;  // 8 GiB: no 32-bit truncation
  ApiCall c = drv(cupti::kCuMemcpyDtoH_v2, s.get());
  EXPECT_EQ(c.api, SyncApi::Memcpy);
  EXPECT_FALSE(c.async);
  EXPECT_EQ(c.bytes, std::uint64_t(1) << 33);
  EXPECT_EQ(c.copy_kind, 3);
  EXPECT_EQ(c.stream_ref, StreamRef::Legacy);
  EXPECT_TRUE(c.all_streams());
  c = drv(cupti::kCuMemcpyDtoH_v2_ptds, s.get());
  EXPECT_EQ(c.stream_ref, StreamRef::PerThreadDefault);
  EXPECT_FALSE(c.all_streams());

  // The pre-_v2 call: 32-bit device pointer and count, then poison.
  Poisoned<cupti::CuMemcpyDtoHV1Params> v1;
  v1->srcDevice = 7;
  v1->ByteCount = 8;
  c = drv(cupti::kCuMemcpyDtoH, v1.get());
  EXPECT_EQ(c.bytes, 8u);
  EXPECT_EQ(c.copy_kind, 3);
  Poisoned<cupti::CuMemcpyDtoHAsyncV1Params> v1a;
  v1a->ByteCount = 16;
  v1a->hStream = handle(0x10);
  c = drv(cupti::kCuMemcpyDtoHAsync, v1a.get());
  EXPECT_EQ(c.bytes, 16u);
  EXPECT_EQ(c.stream, handle(0x10));
}

TEST(WaitsCuptiCalls, DriverCopiesKnowTheirDirection) {
  Poisoned<cupti::CuMemcpyHtoDParams> h2d;
  h2d->ByteCount = 100;
  EXPECT_EQ(drv(cupti::kCuMemcpyHtoD_v2, h2d.get()).copy_kind, 2);
  EXPECT_EQ(drv(cupti::kCuMemcpyHtoD_v2, h2d.get()).bytes, 100u);
  Poisoned<cupti::CuMemcpyHtoDAsyncParams> h2da;
  h2da->ByteCount = 101;
  h2da->hStream = handle(0x21);
  ApiCall c = drv(cupti::kCuMemcpyHtoDAsync_v2, h2da.get());
  EXPECT_EQ(c.copy_kind, 2);
  EXPECT_EQ(c.bytes, 101u);
  EXPECT_EQ(c.stream, handle(0x21));
  Poisoned<cupti::CuMemcpyDtoDParams> d2d;
  d2d->ByteCount = 102;
  EXPECT_EQ(drv(cupti::kCuMemcpyDtoD_v2, d2d.get()).copy_kind, 4);
  // cuMemcpy: unified addressing, either side may be the host's.
  c = drv(cupti::kCuMemcpy, d2d.get());
  EXPECT_EQ(c.copy_kind, 0);
  EXPECT_EQ(c.bytes, 102u);
  EXPECT_STREQ(c.name, "cuMemcpy");
  Poisoned<cupti::CuMemcpyDtoDAsyncParams> any;
  any->ByteCount = 103;
  any->hStream = handle(0x22);
  c = drv(cupti::kCuMemcpyAsync_ptsz, any.get());
  EXPECT_EQ(c.api, SyncApi::MemcpyAsync);
  EXPECT_EQ(c.bytes, 103u);
  EXPECT_EQ(c.stream, handle(0x22));
  Poisoned<cupti::CuMemcpyPeerAsyncParams> peer;
  peer->ByteCount = 104;
  peer->hStream = handle(0x23);
  c = drv(cupti::kCuMemcpyPeerAsync, peer.get());
  EXPECT_EQ(c.copy_kind, 4);
  EXPECT_EQ(c.bytes, 104u);
  EXPECT_EQ(c.stream, handle(0x23));
  Poisoned<cupti::CuMemcpyAtoHParams> a2h;
  a2h->ByteCount = 105;
  c = drv(cupti::kCuMemcpyAtoH_v2, a2h.get());
  EXPECT_EQ(c.copy_kind, 3);
  EXPECT_EQ(c.bytes, 105u);
  Poisoned<cupti::CuMemcpyHtoAAsyncParams> h2a;
  h2a->ByteCount = 106;
  h2a->hStream = handle(0x24);
  c = drv(cupti::kCuMemcpyHtoAAsync_v2, h2a.get());
  EXPECT_EQ(c.copy_kind, 2);
  EXPECT_EQ(c.bytes, 106u);
  EXPECT_EQ(c.stream, handle(0x24));
}

TEST(WaitsCuptiCalls, DriverTwoAndThreeDimensionalCopiesReadTheirDescriptor) {
  cupti::CuMemcpy2DDesc d2;
  std::memset(&d2, 0xff, sizeof d2);
  d2.srcMemoryType = cupti::kMemoryDevice;
  d2.dstMemoryType = cupti::kMemoryHost;
  d2.WidthInBytes = 640;
  d2.Height = 480;
  Poisoned<cupti::CuMemcpy2DParams> p2;
  p2->pCopy = &d2;
  ApiCall c = drv(cupti::kCuMemcpy2D_v2, p2.get());
  EXPECT_EQ(c.api, SyncApi::Memcpy);
  EXPECT_EQ(c.bytes, 640u * 480u);
  EXPECT_EQ(c.copy_kind, 3);
  d2.srcMemoryType = cupti::kMemoryHost;
  d2.dstMemoryType = cupti::kMemoryArray;  // an array is device memory
  EXPECT_EQ(drv(cupti::kCuMemcpy2DUnaligned_v2, p2.get()).copy_kind, 2);
  d2.srcMemoryType = cupti::kMemoryUnified;
  EXPECT_EQ(drv(cupti::kCuMemcpy2D_v2, p2.get()).copy_kind, 0);
  Poisoned<cupti::CuMemcpy2DAsyncParams> p2a;
  p2a->pCopy = &d2;
  p2a->hStream = handle(0x31);
  c = drv(cupti::kCuMemcpy2DAsync_v2_ptsz, p2a.get());
  EXPECT_EQ(c.api, SyncApi::MemcpyAsync);
  EXPECT_EQ(c.stream, handle(0x31));

  cupti::CuMemcpy3DDesc d3;
  std::memset(&d3, 0xff, sizeof d3);
  d3.srcMemoryType = cupti::kMemoryHost;
  d3.dstMemoryType = cupti::kMemoryDevice;
  d3.WidthInBytes = 4;
  d3.Height = 5;
  d3.Depth = 6;
  Poisoned<cupti::CuMemcpy3DParams> p3;
  p3->pCopy = &d3;
  c = drv(cupti::kCuMemcpy3D_v2, p3.get());
  EXPECT_EQ(c.bytes, 120u);
  EXPECT_EQ(c.copy_kind, 2);
  // Peer copies go device to device, whatever the memory types say.
  c = drv(cupti::kCuMemcpy3DPeer, p3.get());
  EXPECT_EQ(c.copy_kind, 4);
  EXPECT_EQ(c.bytes, 120u);
  Poisoned<cupti::CuMemcpy3DAsyncParams> p3a;
  p3a->pCopy = &d3;
  p3a->hStream = handle(0x32);
  c = drv(cupti::kCuMemcpy3DAsync_v2, p3a.get());
  EXPECT_EQ(c.stream, handle(0x32));
  EXPECT_EQ(c.bytes, 120u);
  // Sizes past 2^64 saturate instead of wrapping around.
  d3.WidthInBytes = d3.Height = d3.Depth = std::size_t(1) << 40;
  EXPECT_EQ(drv(cupti::kCuMemcpy3D_v2, p3.get()).bytes, UINT64_MAX);
  // No descriptor: a copy of unknown size.
  p3->pCopy = nullptr;
  c = drv(cupti::kCuMemcpy3D_v2, p3.get());
  EXPECT_EQ(c.kind, ApiCallKind::Blocking);
  EXPECT_EQ(c.bytes, 0u);
  EXPECT_EQ(c.copy_kind, 0);
}

TEST(WaitsCuptiCalls, DriverSynchronizationsAndFrees) {
  // cuCtxSynchronize has no parameters: the whole context.
  for (auto id : {cupti::kCuCtxSynchronize, cupti::kCuCtxSynchronize_v2}) {
    const ApiCall c = drv(id, nullptr);
    EXPECT_EQ(c.kind, ApiCallKind::Blocking);
    EXPECT_EQ(c.api, SyncApi::DeviceSynchronize);
    EXPECT_STREQ(c.name, "cuCtxSynchronize");
    EXPECT_TRUE(c.all_streams());
  }
  Poisoned<cupti::CuStreamParams> s;
  s->hStream = handle(0x41);
  ApiCall c = drv(cupti::kCuStreamSynchronize, s.get());
  EXPECT_EQ(c.api, SyncApi::StreamSynchronize);
  EXPECT_EQ(c.stream, handle(0x41));
  EXPECT_FALSE(c.all_streams());
  s->hStream = nullptr;
  EXPECT_TRUE(drv(cupti::kCuStreamSynchronize, s.get()).all_streams());
  c = drv(cupti::kCuStreamSynchronize_ptsz, s.get());
  EXPECT_EQ(c.stream_ref, StreamRef::PerThreadDefault);
  EXPECT_FALSE(c.all_streams());

  Poisoned<cupti::CuEventParams> e;
  e->hEvent = event(0x51);
  c = drv(cupti::kCuEventSynchronize, e.get());
  EXPECT_EQ(c.api, SyncApi::EventSynchronize);
  EXPECT_EQ(c.event, event(0x51));

  for (auto id : {cupti::kCuMemFree, cupti::kCuMemFree_v2}) {
    c = drv(id, nullptr);
    EXPECT_EQ(c.api, SyncApi::Free);
    EXPECT_STREQ(c.name, "cuMemFree");
    EXPECT_TRUE(c.all_streams());
  }
  EXPECT_EQ(drv(cupti::kCuMemFreeHost, nullptr).api, SyncApi::FreeHost);
}

TEST(WaitsCuptiCalls, DriverEventRecordsTieAnEventToAStream) {
  Poisoned<cupti::CuEventRecordParams> p;
  p->hEvent = event(0x61);
  p->hStream = handle(0x62);
  for (auto id :
       {cupti::kCuEventRecord, cupti::kCuEventRecord_ptsz,
        cupti::kCuEventRecordWithFlags, cupti::kCuEventRecordWithFlags_ptsz}) {
    const ApiCall c = drv(id, p.get());
    EXPECT_EQ(c.kind, ApiCallKind::EventRecord);
    EXPECT_EQ(c.event, event(0x61));
    EXPECT_EQ(c.stream, handle(0x62));
  }
  p->hStream = nullptr;
  EXPECT_EQ(drv(cupti::kCuEventRecord, p.get()).stream_ref, StreamRef::Legacy);
  EXPECT_EQ(drv(cupti::kCuEventRecord_ptsz, p.get()).stream_ref,
            StreamRef::PerThreadDefault);
}

// ---- runtime calls ------------------------------------------------------

TEST(WaitsCuptiCalls, RuntimeLaunches) {
  Poisoned<cupti::LaunchKernelParams> p;
  p->gridDim = {1, 1, 1};
  p->blockDim = {1, 1, 1};
  p->sharedMem = 0;
  p->stream = nullptr;
  ApiCall c = rt(cupti::kLaunchKernel_v7000, p.get());
  EXPECT_EQ(c.kind, ApiCallKind::Launch);
  EXPECT_EQ(c.domain, kRuntime);
  EXPECT_STREQ(c.name, "cudaLaunchKernel");
  expect_shape(c, 1, 1, 1, 1, 1, 1);
  EXPECT_EQ(c.stream_ref, StreamRef::Legacy);
  EXPECT_EQ(rt(cupti::kLaunchKernel_ptsz_v7000, p.get()).stream_ref,
            StreamRef::PerThreadDefault);
  p->stream = handle(0x71);
  EXPECT_TRUE(rt(cupti::kLaunchCooperativeKernel_v9000, p.get()).cooperative);

  cupti::LaunchConfig cfg;
  std::memset(&cfg, 0xff, sizeof cfg);
  cfg.gridDim = {3, 2, 1};
  cfg.blockDim = {64, 1, 1};
  cfg.dynamicSmemBytes = 256;
  cfg.stream = handle(0x72);
  Poisoned<cupti::LaunchKernelExCParams> x;
  x->config = &cfg;
  c = rt(cupti::kLaunchKernelExC_v11060, x.get());
  expect_shape(c, 3, 2, 1, 64, 1, 1);
  EXPECT_EQ(c.shared_dynamic, 256u);
  EXPECT_EQ(c.stream, handle(0x72));

  // cudaLaunch (configured before) and CUDA 13's __cudaLaunchKernel
  // (parameters not published): launches of unknown stream and shape.
  for (auto id :
       {cupti::CallbackId(cupti::kLaunch_v3020),
        cupti::CallbackId(cupti::kInternalLaunchKernel_v13000),
        cupti::CallbackId(cupti::kInternalLaunchKernel_ptsz_v13000)}) {
    c = rt(id, p.get());
    EXPECT_EQ(c.kind, ApiCallKind::Launch) << id;
    EXPECT_FALSE(c.shape_known) << id;
    EXPECT_EQ(c.stream_ref, StreamRef::None) << id;
  }
  Poisoned<cupti::GraphLaunchParams> g;
  g->stream = handle(0x73);
  c = rt(cupti::kGraphLaunch_v10000, g.get());
  EXPECT_TRUE(c.graph);
  EXPECT_EQ(c.stream, handle(0x73));
}

// CuPy's read of out[2]: cudaMemcpyAsync D2H of 4 bytes; a plain CUDA
// program's: cudaMemcpy.
TEST(WaitsCuptiCalls, RuntimeCopies) {
  Poisoned<cupti::MemcpyParams> m;
  m->count = 4;
  m->kind = 2;  // cudaMemcpyDeviceToHost
  ApiCall c = rt(cupti::kMemcpy_v3020, m.get());
  EXPECT_EQ(c.kind, ApiCallKind::Blocking);
  EXPECT_STREQ(c.name, "cudaMemcpy");
  EXPECT_EQ(c.api, SyncApi::Memcpy);
  EXPECT_EQ(c.bytes, 4u);
  EXPECT_EQ(c.copy_kind, 3);
  EXPECT_TRUE(c.all_streams());
  m->kind = 4;  // cudaMemcpyDefault: the direction is not said
  EXPECT_EQ(rt(cupti::kMemcpy_v3020, m.get()).copy_kind, 0);
  m->kind = 1;
  EXPECT_EQ(rt(cupti::kMemcpy_ptds_v7000, m.get()).copy_kind, 2);
  EXPECT_EQ(rt(cupti::kMemcpy_ptds_v7000, m.get()).stream_ref,
            StreamRef::PerThreadDefault);

  Poisoned<cupti::MemcpyAsyncParams> a;
  a->count = 4;
  a->kind = 2;
  a->stream = handle(0x81);
  c = rt(cupti::kMemcpyAsync_v3020, a.get());
  EXPECT_STREQ(c.name, "cudaMemcpyAsync");
  EXPECT_EQ(c.api, SyncApi::MemcpyAsync);
  EXPECT_TRUE(c.async);
  EXPECT_EQ(c.copy_kind, 3);
  EXPECT_EQ(c.stream, handle(0x81));
  a->stream = nullptr;
  EXPECT_EQ(rt(cupti::kMemcpyAsync_ptsz_v7000, a.get()).stream_ref,
            StreamRef::PerThreadDefault);

  Poisoned<cupti::Memcpy2DAsyncParams> m2;
  m2->width = 16;
  m2->height = 3;
  m2->kind = 1;
  m2->stream = handle(0x82);
  c = rt(cupti::kMemcpy2DAsync_v3020, m2.get());
  EXPECT_EQ(c.bytes, 48u);
  EXPECT_EQ(c.copy_kind, 2);
  EXPECT_EQ(c.stream, handle(0x82));
  EXPECT_EQ(rt(cupti::kMemcpy2D_v3020, m2.get()).bytes, 48u);

  cupti::Memcpy3DParms d;
  std::memset(&d, 0, sizeof d);
  d.extent = {8, 4, 2};
  d.kind = 3;
  Poisoned<cupti::Memcpy3DParams> m3;
  m3->p = &d;
  m3->stream = handle(0x83);
  c = rt(cupti::kMemcpy3DAsync_v3020, m3.get());
  EXPECT_EQ(c.bytes, 64u);
  EXPECT_EQ(c.copy_kind, 4);
  EXPECT_EQ(c.stream, handle(0x83));
  // With an array the extent counts elements of unknown size.
  d.dstArray = &d;
  EXPECT_EQ(rt(cupti::kMemcpy3D_v3020, m3.get()).bytes, 0u);

  Poisoned<cupti::MemcpyFromSymbolParams> fs;
  fs->count = 12;
  fs->kind = 2;
  fs->stream = handle(0x84);
  c = rt(cupti::kMemcpyFromSymbolAsync_v3020, fs.get());
  EXPECT_EQ(c.bytes, 12u);
  EXPECT_EQ(c.copy_kind, 3);
  EXPECT_EQ(c.stream, handle(0x84));
  // The synchronous one has no stream field: none is read.
  c = rt(cupti::kMemcpyFromSymbol_v3020, fs.get());
  EXPECT_EQ(c.stream_ref, StreamRef::Legacy);
  Poisoned<cupti::MemcpyPeerParams> pp;
  pp->count = 9;
  pp->stream = handle(0x85);
  c = rt(cupti::kMemcpyPeerAsync_v4000, pp.get());
  EXPECT_EQ(c.copy_kind, 4);
  EXPECT_EQ(c.bytes, 9u);
  EXPECT_EQ(c.stream, handle(0x85));
}

TEST(WaitsCuptiCalls, RuntimeSynchronizationsFreesAndEvents) {
  ApiCall c = rt(cupti::kDeviceSynchronize_v3020, nullptr);
  EXPECT_EQ(c.api, SyncApi::DeviceSynchronize);
  EXPECT_TRUE(c.all_streams());
  Poisoned<cupti::StreamParams> s;
  s->stream = handle(0x91);
  c = rt(cupti::kStreamSynchronize_v3020, s.get());
  EXPECT_EQ(c.api, SyncApi::StreamSynchronize);
  EXPECT_EQ(c.stream, handle(0x91));
  Poisoned<cupti::EventParams> e;
  e->event = event(0x92);
  EXPECT_EQ(rt(cupti::kEventSynchronize_v3020, e.get()).event, event(0x92));
  EXPECT_EQ(rt(cupti::kFree_v3020, nullptr).api, SyncApi::Free);
  EXPECT_EQ(rt(cupti::kFreeHost_v3020, nullptr).api, SyncApi::FreeHost);
  Poisoned<cupti::EventRecordParams> r;
  r->event = event(0x93);
  r->stream = handle(0x94);
  c = rt(cupti::kEventRecordWithFlags_ptsz_v11010, r.get());
  EXPECT_EQ(c.kind, ApiCallKind::EventRecord);
  EXPECT_EQ(c.event, event(0x93));
  EXPECT_EQ(c.stream, handle(0x94));
}

// Memsets, both APIs: followed for their thread (a memset's device record
// names none), by their bytes and stream; a synchronous one on the default
// stream (legacy, or the thread's own in a _ptds call).
TEST(WaitsCuptiCalls, MemsetsOfBothApisGiveBytesAndStream) {
  Poisoned<cupti::MemsetParams> m;
  m->count = 4096;
  m->value = 0;
  m->stream = handle(0xa1);
  ApiCall c = rt(cupti::kMemsetAsync_v3020, m.get());
  EXPECT_EQ(c.kind, ApiCallKind::Blocking);
  EXPECT_EQ(c.api, SyncApi::Memset);
  EXPECT_STREQ(c.name, "cudaMemsetAsync");
  EXPECT_EQ(c.bytes, 4096u);
  EXPECT_TRUE(c.async);
  EXPECT_EQ(c.stream_ref, StreamRef::Handle);
  EXPECT_EQ(c.stream, handle(0xa1));
  c = rt(cupti::kMemset_v3020, m.get());  // no stream read
  EXPECT_EQ(c.api, SyncApi::Memset);
  EXPECT_FALSE(c.async);
  EXPECT_EQ(c.stream_ref, StreamRef::Legacy);
  EXPECT_EQ(rt(cupti::kMemset_ptds_v7000, m.get()).stream_ref,
            StreamRef::PerThreadDefault);
  Poisoned<cupti::Memset2DParams> m2;
  m2->width = 64;
  m2->height = 3;
  m2->stream = handle(0xa2);
  c = rt(cupti::kMemset2DAsync_ptsz_v7000, m2.get());
  EXPECT_EQ(c.bytes, 192u);
  EXPECT_EQ(c.stream, handle(0xa2));
  Poisoned<cupti::Memset3DParams> m3;
  m3->extent = {8, 4, 2};
  m3->stream = handle(0xa3);
  c = rt(cupti::kMemset3DAsync_v3020, m3.get());
  EXPECT_EQ(c.bytes, 64u);
  EXPECT_EQ(c.stream, handle(0xa3));
  // The driver's: N elements of 1, 2 or 4 bytes.
  Poisoned<cupti::CuMemsetParams> d;
  d->N = 1000;
  d->hStream = handle(0xb1);
  c = drv(cupti::kCuMemsetD8Async, d.get());
  EXPECT_EQ(c.api, SyncApi::Memset);
  EXPECT_STREQ(c.name, "cuMemsetD8Async");
  EXPECT_EQ(c.bytes, 1000u);
  EXPECT_EQ(c.stream, handle(0xb1));
  EXPECT_EQ(drv(cupti::kCuMemsetD16Async_ptsz, d.get()).bytes, 2000u);
  c = drv(cupti::kCuMemsetD32_v2, d.get());
  EXPECT_EQ(c.bytes, 4000u);
  EXPECT_EQ(c.stream_ref, StreamRef::Legacy);
  EXPECT_STREQ(c.name, "cuMemsetD32");
  Poisoned<cupti::CuMemsetD2DParams> d2;
  d2->Width = 10;
  d2->Height = 5;
  d2->hStream = handle(0xb2);
  c = drv(cupti::kCuMemsetD2D32Async, d2.get());
  EXPECT_EQ(c.bytes, 200u);
  EXPECT_EQ(c.stream, handle(0xb2));
  EXPECT_EQ(drv(cupti::kCuMemsetD2D8_v2_ptds, d2.get()).stream_ref,
            StreamRef::PerThreadDefault);
}

// ---- what is not followed ------------------------------------------------

TEST(WaitsCuptiCalls, UnknownIdsAndDomainsAreNothing) {
  unsigned char junk[64];
  std::memset(junk, 0xff, sizeof junk);
  // cuInit, cuMemAlloc_v2, cuStreamQuery, cuStreamWaitEvent (no host wait),
  // cuMemAllocAsync, cuMemFreeAsync (stream-ordered), an id past the end.
  for (cupti::CallbackId id : {0u, 1u, 243u, 125u, 295u, 598u, 600u, 1023u,
                               1024u, 100000u, 0xffffffffu})
    EXPECT_EQ(drv(id, junk).kind, ApiCallKind::None) << id;
  // cudaMalloc, cudaStreamQuery, cudaStreamWaitEvent, cudaFreeAsync.
  for (cupti::CallbackId id : {0u, 20u, 132u, 147u, 375u, 4096u})
    EXPECT_EQ(rt(id, junk).kind, ApiCallKind::None) << id;
  // Driver ids are not runtime ids: cuLaunchKernel (307) in the runtime's
  // domain is nothing; the same number means different calls.
  EXPECT_EQ(rt(cupti::kCuLaunchKernel, junk).kind, ApiCallKind::None);
  // Resource, synchronize, NVTX domains, garbage.
  for (int domain : {-1, 0, 3, 4, 5, 1000})
    EXPECT_EQ(decode_cupti_call(domain, cupti::kLaunchKernel_v7000, junk).kind,
              ApiCallKind::None)
        << domain;
  const ApiCall none = drv(1, junk);
  EXPECT_STREQ(none.name, "");
  EXPECT_EQ(none.domain, 0);
}

// Every followed call decodes with no parameters at all (what it is, from
// its id), and the list the source enables is exactly the decoded ids.
TEST(WaitsCuptiCalls, EnabledIdsAreExactlyTheDecodedOnesAndSurviveNullParams) {
  for (int domain : {kRuntime, kDriver}) {
    const auto& ids = cupti_enabled_callbacks(domain);
    const std::set<cupti::CallbackId> set(ids.begin(), ids.end());
    EXPECT_EQ(set.size(), ids.size()) << "an id listed twice";
    std::set<cupti::CallbackId> decoded;
    for (cupti::CallbackId id = 0; id < 2048; ++id) {
      const ApiCall c = decode_cupti_call(domain, id, nullptr);
      if (c.kind == ApiCallKind::None) continue;
      decoded.insert(id);
      const std::string name = c.name;
      EXPECT_EQ(name.rfind(domain == kDriver ? "cu" : "cuda", 0), 0u) << name;
      if (domain == kDriver) EXPECT_NE(name.rfind("cuda", 0), 0u) << name;
      for (const char* suffix : {"_v2", "_v3", "_ptsz", "_ptds", "_v1"})
        EXPECT_EQ(name.find(suffix), std::string::npos) << name;
      EXPECT_FALSE(c.shape_known) << name;  // nothing read: no shape
      EXPECT_EQ(c.bytes, 0u) << name;
    }
    EXPECT_EQ(decoded, set) << "domain " << domain;
  }
  EXPECT_TRUE(cupti_enabled_callbacks(3).empty());
  // What the tool needs is there; the cost of subscribing stays bounded
  // (the driver has ~800 calls).
  const auto& d = cupti_enabled_callbacks(kDriver);
  const std::set<cupti::CallbackId> ds(d.begin(), d.end());
  for (cupti::CallbackId id :
       {cupti::kCuLaunchKernel, cupti::kCuLaunchKernelEx,
        cupti::kCuMemcpyDtoHAsync_v2, cupti::kCuMemcpyDtoH_v2,
        cupti::kCuCtxSynchronize, cupti::kCuStreamSynchronize,
        cupti::kCuEventSynchronize, cupti::kCuMemFree_v2,
        cupti::kCuEventRecord})
    EXPECT_EQ(ds.count(id), 1u) << id;
  EXPECT_LT(d.size(), 120u);
  EXPECT_LT(cupti_enabled_callbacks(kRuntime).size(), 100u);
}

TEST(WaitsCuptiCalls, CopyKindHelpers) {
  using addscope::Impl::copy_kind_from_memory_types;
  using addscope::Impl::copy_kind_from_runtime;
  EXPECT_EQ(copy_kind_from_runtime(0), 1);
  EXPECT_EQ(copy_kind_from_runtime(1), 2);
  EXPECT_EQ(copy_kind_from_runtime(2), 3);
  EXPECT_EQ(copy_kind_from_runtime(3), 4);
  EXPECT_EQ(copy_kind_from_runtime(4), 0);
  EXPECT_EQ(copy_kind_from_runtime(-1), 0);
  EXPECT_EQ(copy_kind_from_runtime(99), 0);
  EXPECT_EQ(copy_kind_from_memory_types(cupti::kMemoryHost, cupti::kMemoryHost),
            1);
  EXPECT_EQ(
      copy_kind_from_memory_types(cupti::kMemoryHost, cupti::kMemoryDevice), 2);
  EXPECT_EQ(
      copy_kind_from_memory_types(cupti::kMemoryArray, cupti::kMemoryHost), 3);
  EXPECT_EQ(
      copy_kind_from_memory_types(cupti::kMemoryDevice, cupti::kMemoryArray),
      4);
  EXPECT_EQ(
      copy_kind_from_memory_types(cupti::kMemoryUnified, cupti::kMemoryHost),
      0);
  EXPECT_EQ(copy_kind_from_memory_types(0, cupti::kMemoryHost), 0);
  EXPECT_EQ(copy_kind_from_memory_types(cupti::kMemoryHost, 77), 0);
}

// cudaMemcpy -> cuMemcpyDtoH_v2 on one thread: only the runtime call is
// reported; numba's own cuMemcpyDtoHAsync_v2 is outermost.
TEST(WaitsCuptiCalls, NestingReportsTheOutermostCallOnly) {
  ApiCallNesting n;
  EXPECT_TRUE(n.enter());   // cudaMemcpy
  EXPECT_FALSE(n.enter());  // cuMemcpyDtoH_v2 inside it
  EXPECT_EQ(n.depth(), 2);
  EXPECT_FALSE(n.exit());  // its exit: skipped
  EXPECT_TRUE(n.exit());   // cudaMemcpy's exit: reported
  EXPECT_EQ(n.depth(), 0);
  EXPECT_TRUE(n.enter());  // then numba's cuMemcpyDtoHAsync_v2: outermost
  EXPECT_TRUE(n.exit());
  // An exit of a call entered before the source subscribed: ignored, and
  // the next call is still outermost.
  EXPECT_FALSE(n.exit());
  EXPECT_EQ(n.depth(), 0);
  EXPECT_TRUE(n.enter());
  EXPECT_FALSE(n.enter());
  n.reset();
  EXPECT_EQ(n.depth(), 0);
  EXPECT_TRUE(n.enter());
}

// The stream ids a thread remembers (device/addscope_StreamIdCache): CUPTI
// is asked once per context, stream and kind of handle in a generation, and
// again after a stream or context was destroyed (a new generation).
TEST(WaitsCuptiCalls, StreamIdsAreRememberedForOneGenerationOnly) {
  StreamIdCache c;
  int asked = 0;
  std::uint32_t next_id = 100;
  auto ask = [&](std::uint32_t* id) {
    ++asked;
    *id = next_id++;
    return true;
  };
  void* ctx_a = handle(0x1000);
  void* ctx_b = handle(0x2000);
  std::uint32_t id = 0;
  ASSERT_TRUE(c.get(ctx_a, handle(0x10), false, 7, &id, ask));
  EXPECT_EQ(id, 100u);
  EXPECT_EQ(asked, 1);
  for (int i = 0; i < 5; ++i) {  // the same stream: remembered
    id = 0;
    ASSERT_TRUE(c.get(ctx_a, handle(0x10), false, 7, &id, ask));
    EXPECT_EQ(id, 100u);
  }
  EXPECT_EQ(asked, 1);
  // Another stream, the same handle in another context, the per-thread
  // default stream: each its own.
  ASSERT_TRUE(c.get(ctx_a, handle(0x20), false, 7, &id, ask));
  EXPECT_EQ(id, 101u);
  ASSERT_TRUE(c.get(ctx_b, handle(0x10), false, 7, &id, ask));
  EXPECT_EQ(id, 102u);
  ASSERT_TRUE(c.get(ctx_a, nullptr, true, 7, &id, ask));
  EXPECT_EQ(id, 103u);
  ASSERT_TRUE(c.get(ctx_a, handle(0x10), false, 7, &id, ask));
  EXPECT_EQ(id, 100u);
  EXPECT_EQ(asked, 4);
  // A null handle (the legacy stream) is not the per-thread default stream.
  ASSERT_TRUE(c.get(ctx_a, nullptr, false, 7, &id, ask));
  EXPECT_EQ(id, 104u);
  ASSERT_TRUE(c.get(ctx_a, nullptr, true, 7, &id, ask));
  EXPECT_EQ(id, 103u);
  EXPECT_EQ(asked, 5);
  // A stream was destroyed (a new generation): the handle may now name
  // another stream, so CUPTI is asked again.
  ASSERT_TRUE(c.get(ctx_a, handle(0x10), false, 8, &id, ask));
  EXPECT_EQ(id, 105u);
  EXPECT_EQ(asked, 6);
  ASSERT_TRUE(c.get(ctx_a, handle(0x20), false, 8, &id, ask));
  EXPECT_EQ(id, 106u);
  EXPECT_EQ(asked, 7);
}

TEST(WaitsCuptiCalls, StreamIdsCuptiCannotGiveAreNotRemembered) {
  StreamIdCache c;
  int asked = 0;
  bool can = false;
  auto ask = [&](std::uint32_t* id) {
    ++asked;
    *id = 42;
    return can;
  };
  std::uint32_t id = 0;
  EXPECT_FALSE(c.get(nullptr, handle(0x10), false, 1, &id, ask));
  EXPECT_FALSE(c.get(nullptr, handle(0x10), false, 1, &id, ask));
  EXPECT_EQ(asked, 2);
  can = true;
  EXPECT_TRUE(c.get(nullptr, handle(0x10), false, 1, &id, ask));
  EXPECT_TRUE(c.get(nullptr, handle(0x10), false, 1, &id, ask));
  EXPECT_EQ(id, 42u);
  EXPECT_EQ(asked, 3);
}

TEST(WaitsCuptiCalls, StreamIdsBeyondTheEntriesReplaceTheOldest) {
  StreamIdCache c;
  std::vector<std::uintptr_t> asked;
  auto ask_for = [&](std::uintptr_t s) {
    return [&asked, s](std::uint32_t* id) {
      asked.push_back(s);
      *id = std::uint32_t(s);
      return true;
    };
  };
  std::uint32_t id = 0;
  const int n = StreamIdCache::kEntries;
  for (int s = 1; s <= n + 1; ++s)  // one more stream than entries
    ASSERT_TRUE(c.get(nullptr, handle(s), false, 1, &id, ask_for(s)));
  EXPECT_EQ(asked.size(), std::size_t(n + 1));
  // The newest n are remembered, each with its own id; the first went.
  for (int s = 2; s <= n + 1; ++s) {
    ASSERT_TRUE(c.get(nullptr, handle(s), false, 1, &id, ask_for(s)));
    EXPECT_EQ(id, std::uint32_t(s));
  }
  EXPECT_EQ(asked.size(), std::size_t(n + 1));
  ASSERT_TRUE(c.get(nullptr, handle(1), false, 1, &id, ask_for(1)));
  EXPECT_EQ(id, 1u);
  EXPECT_EQ(asked.size(), std::size_t(n + 2));
}
