// The attribution rules as pure functions: which kernels a blocking call
// waited for and how its time splits among them, which fences are the
// program's own, and Kokkos Tools device ids.
#include <gtest/gtest.h>

#include <vector>

#include "addscope/waits/attribution/addscope_Attribution.hpp"

using addscope::BlockingCall;
using addscope::CallKind;
using addscope::DeviceKernel;
using addscope::ExecId;
using addscope::SyncApi;
using addscope::WaitClass;
namespace Impl = addscope::Impl;

namespace {
DeviceKernel kernel(double launch, double start, double end,
                    std::uint32_t stream = 7) {
  DeviceKernel k;
  k.launch_s = k.launch_end_s = launch;
  k.start_s = start;
  k.end_s = end;
  k.stream = stream;
  return k;
}
BlockingCall blocking(double b, double e, int stream = -1) {
  BlockingCall c;
  c.begin_s = b;
  c.end_s = e;
  c.all_streams = stream < 0;
  c.stream = stream < 0 ? 0 : std::uint32_t(stream);
  return c;
}
std::vector<double> split(const BlockingCall& b,
                          const std::vector<DeviceKernel>& ks) {
  std::vector<const DeviceKernel*> p;
  for (const auto& k : ks) p.push_back(&k);
  return Impl::split_wait(b, p);
}
}  // namespace

TEST(WaitsAttribution, AwaitsOnlyKernelsEndingInsideOnItsStreams) {
  const auto b = blocking(1.0, 2.0);
  EXPECT_TRUE(Impl::awaits(b, kernel(0.5, 0.6, 1.5)));
  EXPECT_FALSE(Impl::awaits(b, kernel(0.5, 0.6, 0.9)));        // ended before
  EXPECT_FALSE(Impl::awaits(b, kernel(0.5, 0.6, 2.5)));        // still running
  EXPECT_FALSE(Impl::awaits(b, kernel(1.1, 1.2, 1.5)));        // launched after
  EXPECT_TRUE(Impl::awaits(b, kernel(0.5, 0.6, 2.0 + 1e-5)));  // clock skew
  const auto s = blocking(1.0, 2.0, 13);
  EXPECT_TRUE(Impl::awaits(s, kernel(0.5, 0.6, 1.5, 13)));
  EXPECT_FALSE(Impl::awaits(s, kernel(0.5, 0.6, 1.5, 14)));
  auto other_device = kernel(0.5, 0.6, 1.5);
  other_device.device = 1;
  EXPECT_FALSE(Impl::awaits(b, other_device));
}

TEST(WaitsAttribution, ALongLaunchWaitedOnlyForWhatEndedAsItReturned) {
  auto b = blocking(1.0, 2.0);
  b.api = SyncApi::Launch;
  EXPECT_TRUE(Impl::awaits(b, kernel(0.5, 0.6, 2.0 - 5e-5)));
  EXPECT_FALSE(Impl::awaits(b, kernel(0.5, 0.6, 1.5)));  // mid-way: unrelated
}

TEST(WaitsAttribution, SplitSequentialKernels) {
  // One stream: a runs until 1.3, b from 1.3 to 1.8; the call began at 1.0.
  const auto w =
      split(blocking(1.0, 2.0), {kernel(0, 0.5, 1.3), kernel(0, 1.3, 1.8)});
  ASSERT_EQ(w.size(), 2u);
  EXPECT_NEAR(w[0], 0.3, 1e-12);
  EXPECT_NEAR(w[1], 0.5, 1e-12);
}

TEST(WaitsAttribution, SplitConcurrentKernelsShareTheInstant) {
  // Two streams: a 1.0..1.4 and b 1.2..1.6 (b started inside the call).
  const auto w = split(blocking(1.0, 2.0),
                       {kernel(0, 0.5, 1.4, 1), kernel(0, 1.2, 1.6, 2)});
  EXPECT_NEAR(w[0], 0.2 + 0.1, 1e-12);  // alone, then half of 1.2..1.4
  EXPECT_NEAR(w[1], 0.1 + 0.2, 1e-12);
  EXPECT_NEAR(w[0] + w[1], 0.6, 1e-12);
}

TEST(WaitsAttribution, SplitGivesIdleTimeToTheNextKernel) {
  // Nothing runs 1.1..1.3 (the next kernel still queued): b's share.
  const auto w =
      split(blocking(1.0, 2.0), {kernel(0, 0.5, 1.1), kernel(0, 1.3, 1.5)});
  EXPECT_NEAR(w[0], 0.1, 1e-12);
  EXPECT_NEAR(w[1], 0.4, 1e-12);
}

TEST(WaitsAttribution, SplitClampsToTheCall) {
  const auto w = split(blocking(1.0, 2.0), {kernel(0, 0.5, 2.0 + 1e-5)});
  EXPECT_NEAR(w[0], 1.0, 1e-12);
  EXPECT_TRUE(split(blocking(1.0, 2.0), {}).empty());
}

TEST(WaitsAttribution, OverlapIsRunTimeAfterTheLaunchWhileTheHostWorked) {
  auto k = kernel(0.0, 0.1, 1.0);
  k.launch_end_s = 0.2;  // the launch returned while it ran already
  EXPECT_NEAR(Impl::overlap_s(k), 0.8, 1e-12);
  // Its thread blocked 0.5..0.7 (for it or for anything else).
  BlockingCall b = blocking(0.5, 0.7);
  EXPECT_NEAR(Impl::blocked_during(b, k), 0.2, 1e-12);
  k.blocked_s += Impl::blocked_during(b, k);
  EXPECT_NEAR(Impl::overlap_s(k), 0.6, 1e-12);
  // Before the launch returned, or on another thread: not counted.
  EXPECT_NEAR(Impl::blocked_during(blocking(0.0, 0.3), k), 0.1, 1e-12);
  b.thread = 1;
  EXPECT_EQ(Impl::blocked_during(b, k), 0.0);
  k.blocked_s = 5;
  EXPECT_EQ(Impl::overlap_s(k), 0.0);
}

TEST(WaitsAttribution, UserFences) {
  EXPECT_TRUE(Impl::is_user_fence("Kokkos::fence: Unnamed Global Fence"));
  EXPECT_TRUE(
      Impl::is_user_fence("Kokkos::Cuda::fence(): Unnamed Instance Fence"));
  EXPECT_TRUE(
      Impl::is_user_fence("Kokkos::OpenMP::fence: Unnamed Instance Fence"));
  EXPECT_TRUE(Impl::is_user_fence("after solve"));
  EXPECT_FALSE(Impl::is_user_fence(
      "Kokkos::CudaInternal::fence(): Unnamed Instance Fence"));
  EXPECT_FALSE(Impl::is_user_fence(
      "Kokkos::deep_copy: copy between contiguous views, pre view equality "
      "check"));
  EXPECT_FALSE(
      Impl::is_user_fence("Kokkos::View::initialization [x] via memset"));
  EXPECT_TRUE(Impl::is_result_fence(
      "Kokkos::parallel_reduce: fence due to result being value, not view"));
}

TEST(WaitsAttribution, Classify) {
  EXPECT_EQ(
      Impl::classify(CallKind::Fence, "Kokkos::fence: Unnamed Global Fence",
                     SyncApi::Other),
      WaitClass::Explicit);
  EXPECT_EQ(
      Impl::classify(CallKind::Fence, "Kokkos::deep_copy: x", SyncApi::Other),
      WaitClass::Hidden);
  EXPECT_EQ(
      Impl::classify(CallKind::DeepCopy, "deep_copy a<-b", SyncApi::Memcpy),
      WaitClass::Hidden);
  EXPECT_EQ(Impl::classify(CallKind::Runtime, "cudaDeviceSynchronize",
                           SyncApi::DeviceSynchronize),
            WaitClass::Explicit);
  EXPECT_EQ(Impl::classify(CallKind::Runtime, "cudaStreamSynchronize",
                           SyncApi::StreamSynchronize),
            WaitClass::Explicit);
  EXPECT_EQ(Impl::classify(CallKind::Runtime, "cudaMemcpy", SyncApi::Memcpy),
            WaitClass::Hidden);
  EXPECT_EQ(Impl::classify(CallKind::Runtime, "cudaFree", SyncApi::Free),
            WaitClass::Hidden);
  EXPECT_EQ(Impl::classify(CallKind::Launch, "launch of x", SyncApi::Other),
            WaitClass::Hidden);
  EXPECT_EQ(
      Impl::classify(CallKind::Step, "create_mirror_view", SyncApi::Other),
      WaitClass::Hidden);
}

TEST(WaitsAttribution, ToolsDeviceIds) {
  // Kokkos 4.x: type << 24 | device << 17 | instance.
  const auto e = ExecId::from_tools_id((2u << 24) | (0u << 17) | 3u);
  EXPECT_EQ(e.kind, addscope::DeviceKind::Cuda);
  EXPECT_EQ(e.instance, 3u);
  EXPECT_EQ(e.to_string(), "Cuda instance 3");
  const auto global = ExecId::from_tools_id(2u << 24);  // a global fence
  EXPECT_TRUE(global.covers_all_instances());
  EXPECT_TRUE(global.covers(e));
  EXPECT_FALSE(ExecId::from_tools_id((2u << 24) | 4u).covers(e));
  EXPECT_TRUE(ExecId::from_tools_id((2u << 24) | 3u).covers(e));
  const auto dc = ExecId::from_tools_id((2u << 24) + 0x00ffffffu);
  EXPECT_EQ(dc.to_string(), "Cuda deep_copy resource");
  EXPECT_FALSE(dc.covers(e));
  const auto dev1 = ExecId::from_tools_id((2u << 24) | (1u << 17) | 1u);
  EXPECT_EQ(dev1.device, 1u);
  EXPECT_EQ(dev1.to_string(), "Cuda device 1 instance 1");
  // Kokkos 3.x: type << 24, instance 0 for Cuda.
  EXPECT_EQ(ExecId::from_tools_id(1u << 24).kind, addscope::DeviceKind::OpenMP);
  EXPECT_EQ(ExecId::from_tools_id(0).kind, addscope::DeviceKind::Serial);
  EXPECT_EQ(ExecId::from_tools_id(200u << 24).kind,
            addscope::DeviceKind::Unknown);
  EXPECT_TRUE(addscope::is_async(addscope::DeviceKind::Cuda));
  EXPECT_FALSE(addscope::is_async(addscope::DeviceKind::OpenMP));
  EXPECT_EQ(addscope::device_kind_of_space("CudaHostPinned"),
            addscope::DeviceKind::Cuda);
  EXPECT_EQ(addscope::device_kind_of_space("Host"),
            addscope::DeviceKind::Unknown);
}
