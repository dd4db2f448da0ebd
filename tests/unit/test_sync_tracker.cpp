// The sync tracker's attribution logic, driven by synthetic events (no
// device needed): which call absorbed a pending kernel, and how much.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <sstream>
#include <thread>

#include "addscope/waits/addscope_SyncTracker.hpp"

using addscope::DeviceKind;
using addscope::SyncTracker;

namespace {
void busy_for(double s) {
  const auto t0 = std::chrono::steady_clock::now();
  while (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
             .count() < s) {
  }
}
}  // namespace

TEST(SyncTracker, DeviceIdsDecode) {
  EXPECT_EQ(addscope::device_kind_from_tools_id(2u << 24), DeviceKind::Cuda);
  EXPECT_EQ(addscope::device_kind_from_tools_id((1u << 24) + 3),
            DeviceKind::OpenMP);
  EXPECT_EQ(addscope::device_kind_from_tools_id(0), DeviceKind::Serial);
  EXPECT_TRUE(addscope::is_async(DeviceKind::Cuda));
  EXPECT_FALSE(addscope::is_async(DeviceKind::OpenMP));
}

TEST(SyncTracker, HostKernelsWaitForNothing) {
  SyncTracker t(false);
  const auto k = t.kernel_begin("host::work", DeviceKind::OpenMP);
  busy_for(0.01);
  t.kernel_end(k);
  const auto c = t.call_begin("deep_copy out", "deep_copy");
  t.call_end(c);
  const auto calls = t.blocking_calls();
  ASSERT_EQ(calls.size(), 2u);
  for (const auto& r : calls) {
    EXPECT_TRUE(r.waited_for.empty()) << r.what;
    EXPECT_EQ(r.wait_s, 0.0);
  }
  EXPECT_EQ(calls[0].what, "host::work");  // longest first
  EXPECT_GE(calls[0].duration_s(), 0.009);
  std::ostringstream os;
  t.write_report(os, 10, 0);
  EXPECT_NE(os.str().find("nothing blocked"), std::string::npos) << os.str();
}

TEST(SyncTracker, FenceWithoutProbeAbsorbsPendingKernel) {
  // An asynchronous kernel with no way to ask the device (no CUDA context
  // here): the deep_copy that fences is charged with the wait.
  SyncTracker t(false);
  const auto k = t.kernel_begin("user::add [1x1]", DeviceKind::Cuda);
  t.kernel_end(k);
  const auto quick = t.call_begin("allocate mirror", "step");
  t.call_end(quick);
  const auto c = t.call_begin("deep_copy out[2]", "deep_copy");
  busy_for(0.02);  // stands for the device finishing the kernel
  t.call_end(c);
  const auto calls = t.blocking_calls();
  ASSERT_FALSE(calls.empty());
  const auto& top = calls.front();
  EXPECT_EQ(top.what, "deep_copy out[2]");
  ASSERT_EQ(top.waited_for.size(), 1u);
  EXPECT_EQ(top.waited_for[0].kernel, "user::add [1x1]");
  EXPECT_GT(top.wait_s, 0.9 * top.duration_s());
  EXPECT_LE(top.wait_s, top.duration_s());
  const std::string line = addscope::format_attribution(top);
  EXPECT_NE(line.find("deep_copy out[2]"), std::string::npos) << line;
  EXPECT_NE(line.find("waiting for user::add [1x1]"), std::string::npos)
      << line;
  // The kernel knows who absorbed it; the quick step absorbed nothing.
  EXPECT_EQ(t.kernels().at(0).absorbed_by, "deep_copy out[2]");
  for (const auto& r : calls)
    if (r.what == "allocate mirror") EXPECT_TRUE(r.waited_for.empty());
}

TEST(SyncTracker, NestedCallsNameTheirParentAndInnermostWins) {
  SyncTracker t(false);
  const auto k = t.kernel_begin("k", DeviceKind::Cuda);
  t.kernel_end(k);
  const auto outer = t.call_begin("deep_copy a<-b", "deep_copy");
  const auto inner = t.call_begin("fence 'pre copy'", "fence");
  busy_for(0.005);
  t.call_end(inner);
  t.call_end(outer);
  const auto calls = t.calls();
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0].what, "fence 'pre copy' (in deep_copy a<-b)");
  ASSERT_EQ(calls[0].waited_for.size(), 1u);
  EXPECT_TRUE(calls[1].waited_for.empty());  // not counted twice
}

namespace {
// A device whose progress the test decides: marks are numbered, and the
// device has passed every mark up to `done`.
struct FakeProbe : addscope::Impl::DeviceProbe {
  std::intptr_t next = 1, done = 0;
  double kernel_s = 0.015;  // what events would say each kernel ran
  bool available() const override { return true; }
  addscope::Impl::DeviceMark mark() override {
    return {reinterpret_cast<void*>(next++)};
  }
  bool reached(const addscope::Impl::DeviceMark& m) override {
    return reinterpret_cast<std::intptr_t>(m.event) <= done;
  }
  double elapsed_s(const addscope::Impl::DeviceMark&,
                   const addscope::Impl::DeviceMark&) override {
    return kernel_s;
  }
  void release(addscope::Impl::DeviceMark& m) override { m.event = nullptr; }
};
}  // namespace

TEST(SyncTracker, ProbeChargesTheCallDuringWhichTheKernelFinished) {
  auto* fake = new FakeProbe;
  SyncTracker t{std::unique_ptr<addscope::Impl::DeviceProbe>(fake)};
  const auto k = t.kernel_begin("user::slow", DeviceKind::Cuda);
  t.kernel_end(k);
  // A host kernel runs while the device works; the device finishes meanwhile.
  const auto h = t.kernel_begin("host::work", DeviceKind::OpenMP);
  busy_for(0.02);
  fake->done = fake->next;
  t.kernel_end(h);
  const auto calls = t.calls();
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].what, "host::work");
  ASSERT_EQ(calls[0].waited_for.size(), 1u);
  EXPECT_EQ(calls[0].waited_for[0].kernel, "user::slow");
  // The kernel ran 15 ms from its launch: that much overlapped the call.
  EXPECT_GT(calls[0].wait_s, 0.005);
  EXPECT_LE(calls[0].wait_s, 0.0151);
  EXPECT_DOUBLE_EQ(t.kernels().at(0).device_s, 0.015);
}

TEST(SyncTracker, ProbeFindsWaitsBetweenReportedEvents) {
  auto* fake = new FakeProbe;
  fake->kernel_s = 0.05;
  SyncTracker t{std::unique_ptr<addscope::Impl::DeviceProbe>(fake)};
  const auto h = t.kernel_begin("host::setup", DeviceKind::OpenMP);
  t.kernel_end(h);
  const auto k = t.kernel_begin("user::slow_add[1x1]", DeviceKind::Cuda);
  t.kernel_end(k);
  busy_for(0.06);  // unreported code blocks until the device is done
  fake->done = fake->next;
  t.instant("allocate out_mirror (Host, 8 B)");
  const auto calls = t.blocking_calls();
  ASSERT_FALSE(calls.empty());
  const auto& gap = calls.front();
  EXPECT_EQ(gap.kind, "gap");
  EXPECT_EQ(gap.what,
            "unreported host code between 'launch of user::slow_add[1x1]' and "
            "'allocate out_mirror (Host, 8 B)'");
  ASSERT_EQ(gap.waited_for.size(), 1u);
  EXPECT_GT(gap.wait_s, 0.04);
  EXPECT_LE(gap.wait_s, gap.duration_s());
  // The host kernel's call is named after it; nothing waited there.
  bool saw_host = false;
  for (const auto& c : calls)
    if (c.what == "host::setup") saw_host = c.waited_for.empty();
  EXPECT_TRUE(saw_host);
}

TEST(SyncTracker, JsonAndClear) {
  SyncTracker t(false);
  const auto k = t.kernel_begin("k", DeviceKind::Cuda);
  t.kernel_end(k);
  const auto c = t.call_begin("fence", "fence");
  t.call_end(c);
  const std::string j = t.report_json();
  EXPECT_NE(j.find("\"kernels\""), std::string::npos);
  EXPECT_NE(j.find("\"waited_for\""), std::string::npos);
  t.clear();
  EXPECT_TRUE(t.kernels().empty());
  EXPECT_TRUE(t.calls().empty());
}

TEST(SyncTracker, FormatSeconds) {
  EXPECT_EQ(addscope::format_seconds(0.6401), "640.1 ms");
  EXPECT_EQ(addscope::format_seconds(6.5e-6), "6.5 us");
  EXPECT_EQ(addscope::format_seconds(1.5), "1.500 s");
}
