// The waits tracker on synthetic timelines (no device): what Kokkos Tools
// and CUPTI would report for the cases the tool must get right — overlap is
// not waiting, explicit fences are not hidden waits, streams and threads
// are kept apart, waits with no Kokkos event around them are found.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "addscope/waits/output/addscope_AttributionText.hpp"
#include "addscope/waits/output/addscope_WaitsReport.hpp"
#include "waits_sim.hpp"

using addscope::CallKind;
using addscope::SyncApi;
using addscope::WaitClass;
using addscope::WaitsMode;
using addscope_test::Actor;
using addscope_test::cuda;
using addscope_test::WaitsSim;

namespace {
const addscope::CallRecord* find_wait(const addscope::WaitsSnapshot& w,
                                      const std::string& what) {
  for (const auto& c : w.waits)
    if (c.what == what) return &c;
  return nullptr;
}
const addscope::KernelStats* find_kernel(const addscope::WaitsSnapshot& w,
                                         const std::string& name) {
  for (const auto& k : w.kernels)
    if (k.name == name) return &k;
  return nullptr;
}
}  // namespace

// 1. A 0.49 s kernel, 1 s of host work, then the program's fence: nobody
// waited; the kernel overlapped the host work.
TEST(WaitsTracker, OverlapIsNotWaiting) {
  WaitsSim s;
  const auto k = s.launch("probe::slow_add[1x1]", 0.0, 0.00002);
  s.ran(k, 7, 0.00001, 0.49181);
  // 1 s of host work Kokkos does not see, then the user's fence.
  s.call(CallKind::Fence, "Kokkos::fence: Unnamed Global Fence", 1.00002,
         1.00004,
         [&] { s.block(SyncApi::DeviceSynchronize, 1.000025, 1.000035); });
  const auto w = s.done();
  EXPECT_EQ(w.mode, WaitsMode::Device);
  EXPECT_EQ(w.totals.hidden_calls, 0u);
  EXPECT_EQ(w.totals.explicit_calls, 0u);
  EXPECT_TRUE(w.waits.empty());
  const auto* ks = find_kernel(w, "probe::slow_add[1x1]");
  ASSERT_NE(ks, nullptr);
  // It ran from its launch's return (20 us) to 491.81 ms: all of it overlap.
  EXPECT_NEAR(ks->overlap_s, 0.49181 - 0.00002, 1e-9);
  EXPECT_NEAR(w.totals.overlap_s, ks->overlap_s, 1e-12);
  EXPECT_NEAR(ks->device_s, 0.4918, 1e-9);
}

// 2. The seed: a 1x1 kernel, then a read; on Kokkos 3.4 the blocking
// cudaMemcpy is a View label read outside any Kokkos call.
TEST(WaitsTracker, SeedReadOutsideKokkosCallsIsHidden) {
  WaitsSim s;
  const auto k = s.launch("user::slow_add[1x1]", 0.0, 0.00002);
  s.ran(k, 7, 0.00001, 0.6);
  s.block(SyncApi::Memcpy, 0.0001, 0.60003, -1, 256);
  s.at(0.60005);
  s.t->instant(CallKind::Alloc, "allocate out_mirror (Host, 4 B)");
  s.call(CallKind::DeepCopy, "deep_copy out_mirror<-out (Host<-Cuda, 4 B)",
         0.6001, 0.60012,
         [&] { s.block(SyncApi::Memcpy, 0.600101, 0.600119, -1, 4); });
  const auto w = s.done();
  ASSERT_EQ(w.waits.size(), 1u);
  const auto& c = w.waits[0];
  EXPECT_EQ(c.kind, CallKind::Runtime);
  EXPECT_EQ(c.wait_class, WaitClass::Hidden);
  EXPECT_EQ(c.what, "cudaMemcpy 256 B");
  EXPECT_EQ(c.context,
            "between 'launch of user::slow_add[1x1]' and 'allocate out_mirror "
            "(Host, 4 B)'");
  ASSERT_EQ(c.waited_for.size(), 1u);
  EXPECT_EQ(c.waited_for[0].kernel, "user::slow_add[1x1]");
  // Waiting from the call's begin to the kernel's end; the rest is own.
  EXPECT_NEAR(c.wait_s, 0.6 - 0.0001, 1e-9);
  EXPECT_NEAR(c.own_s(), 0.00003, 1e-9);
  EXPECT_FALSE(c.wait_is_bound);
  EXPECT_NEAR(w.totals.hidden_s, c.wait_s, 1e-12);
  EXPECT_EQ(w.totals.explicit_calls, 0u);
  const auto line = addscope::format_attribution(c);
  EXPECT_NE(line.find("waiting for user::slow_add[1x1]"), std::string::npos)
      << line;
  // The kernel ran 20 us..100 us with nobody waiting: that was overlap.
  EXPECT_NEAR(find_kernel(w, "user::slow_add[1x1]")->overlap_s, 0.00008, 1e-9);
}

// 3. Which fences are the program's own.
TEST(WaitsTracker, ExplicitFencesAreNotHiddenWaits) {
  WaitsSim s;
  double t = 0;
  auto kernel_then = [&](const std::string& k, CallKind kind,
                         const std::string& what,
                         const std::function<void(double)>& nested = {}) {
    const auto l = s.launch(k, t, t + 1e-5);
    s.ran(l, 7, t + 5e-6, t + 0.01);
    s.call(kind, what, t + 2e-5, t + 0.0101, [&] {
      if (nested)
        nested(t);
      else
        s.block(SyncApi::DeviceSynchronize, t + 3e-5, t + 0.01005);
    });
    t += 0.1;
  };
  kernel_then("k_user_fence", CallKind::Fence,
              "Kokkos::fence: Unnamed Global Fence");
  kernel_then("k_instance_fence", CallKind::Fence,
              "Kokkos::Cuda::fence(): Unnamed Instance Fence");
  kernel_then("k_named_fence", CallKind::Fence, "my solver sync");
  kernel_then("k_internal_fence", CallKind::Fence,
              "Kokkos::View::initialization [x] via memset");
  kernel_then("k_deep_copy", CallKind::DeepCopy,
              "deep_copy h<-d (Host<-Cuda, 4 B)", [&](double t0) {
                s.call(CallKind::Fence,
                       "Kokkos::deep_copy: copy between contiguous views, "
                       "pre view equality check",
                       t0 + 2.5e-5, t0 + 0.01008, [&] {
                         s.block(SyncApi::DeviceSynchronize, t0 + 3e-5,
                                 t0 + 0.01005);
                       });
              });
  const auto w = s.done();
  auto cls = [&](const std::string& what) {
    const auto* c = find_wait(w, what);
    EXPECT_NE(c, nullptr) << what;
    return c ? c->wait_class : WaitClass::None;
  };
  EXPECT_EQ(cls("Kokkos::fence: Unnamed Global Fence"), WaitClass::Explicit);
  EXPECT_EQ(cls("Kokkos::Cuda::fence(): Unnamed Instance Fence"),
            WaitClass::Explicit);
  EXPECT_EQ(cls("my solver sync"), WaitClass::Explicit);
  EXPECT_EQ(cls("Kokkos::View::initialization [x] via memset"),
            WaitClass::Hidden);
  // Charged to the deep_copy the program wrote, not its internal fence.
  EXPECT_EQ(cls("deep_copy h<-d (Host<-Cuda, 4 B)"), WaitClass::Hidden);
  const auto* dc = find_wait(w, "deep_copy h<-d (Host<-Cuda, 4 B)");
  ASSERT_NE(dc, nullptr);
  EXPECT_NE(dc->via.find("pre view equality check"), std::string::npos)
      << dc->via;
  EXPECT_EQ(w.waits.size(), 5u);
  EXPECT_EQ(w.totals.explicit_calls, 3u);
  EXPECT_EQ(w.totals.hidden_calls, 2u);
  for (const auto& c : w.waits)
    EXPECT_NEAR(c.wait_s, 0.01 - 3e-5, 1e-9) << c.what;
}

// A parallel_reduce into a host value: Kokkos fences for the result; the
// wait for the reduction itself is its own work, earlier kernels are not.
TEST(WaitsTracker, ReductionResultFenceWaitsForItsOwnKernel) {
  WaitsSim s;
  const auto a = s.launch("user::before", 0.0, 1e-5);
  s.ran(a, 7, 2e-5, 0.05);
  const auto r = s.launch("user::dot", 2e-5, 3e-5);
  s.ran(r, 7, 0.05, 0.08);
  s.call(CallKind::Fence,
         "Kokkos::parallel_reduce: fence due to result being value, not view",
         4e-5, 0.08003,
         [&] { s.block(SyncApi::StreamSynchronize, 5e-5, 0.08002, 7); });
  const auto w = s.done();
  ASSERT_EQ(w.waits.size(), 1u);
  const auto& c = w.waits[0];
  ASSERT_EQ(c.waited_for.size(), 1u);
  EXPECT_EQ(c.waited_for[0].kernel, "user::before");
  EXPECT_NEAR(c.wait_s, 0.05 - 5e-5, 1e-9);
  // Kokkos' own fence, not the program's: the earlier kernel's time was
  // absorbed where nobody wrote a fence.
  EXPECT_EQ(c.wait_class, WaitClass::Hidden);
}

// 4. Two instances (streams), 0.5 s each, then both fenced: each fence
// waits for its own stream only; a device-wide sync shares the time.
TEST(WaitsTracker, TwoStreamsKeepTheirOwnTimelines) {
  WaitsSim s;
  const auto a = s.launch("user::slow_a", 0.0, 1e-5, cuda(1));
  const auto b = s.launch("user::slow_b", 2e-5, 3e-5, cuda(2));
  s.ran(a, 13, 1e-5, 0.5);
  s.ran(b, 14, 3e-5, 0.49995);  // ends inside fence a, on another stream
  s.call(
      CallKind::Fence, "Kokkos::Cuda::fence(): Unnamed Instance Fence", 4e-5,
      0.50003, [&] { s.block(SyncApi::StreamSynchronize, 5e-5, 0.50002, 13); },
      cuda(1));
  s.call(
      CallKind::Fence, "Kokkos::Cuda::fence(): Unnamed Instance Fence", 0.50004,
      0.50006,
      [&] { s.block(SyncApi::StreamSynchronize, 0.500045, 0.500055, 14); },
      cuda(2));
  // Again, both waited for at once by a device-wide synchronization.
  const auto c = s.launch("user::slow_a", 0.6, 0.60001, cuda(1));
  const auto d = s.launch("user::slow_b", 0.60002, 0.60003, cuda(2));
  s.ran(c, 13, 0.60001, 0.8);
  s.ran(d, 14, 0.60003, 0.8);
  s.call(CallKind::Fence, "Kokkos::fence: Unnamed Global Fence", 0.60004,
         0.80002,
         [&] { s.block(SyncApi::DeviceSynchronize, 0.60005, 0.80001); });
  const auto w = s.done();
  ASSERT_EQ(w.waits.size(),
            2u);  // the second instance fence waited for nothing
  const addscope::CallRecord* inst = nullptr;
  const addscope::CallRecord* glob = nullptr;
  for (const auto& x : w.waits)
    (x.what == "Kokkos::fence: Unnamed Global Fence" ? glob : inst) = &x;
  ASSERT_NE(inst, nullptr);
  ASSERT_NE(glob, nullptr);
  ASSERT_EQ(inst->waited_for.size(), 1u);
  EXPECT_EQ(inst->waited_for[0].kernel, "user::slow_a");
  EXPECT_EQ(inst->waited_for[0].stream, 13u);
  EXPECT_NEAR(inst->wait_s, 0.5 - 5e-5, 1e-9);
  ASSERT_EQ(glob->waited_for.size(), 2u);
  EXPECT_NEAR(glob->wait_s, 0.8 - 0.60005, 1e-9);
  EXPECT_NEAR(glob->waited_for[0].wait_s, glob->waited_for[1].wait_s, 1e-9);
  // While slow_b ran, its thread sat in the fences: no host work overlapped
  // it (20 us each time, between its launch and the fence).
  EXPECT_NEAR(find_kernel(w, "user::slow_b")->overlap_s, 4e-5, 1e-9);
  ASSERT_EQ(w.streams.size(), 2u);
  EXPECT_EQ(w.streams[0].stream, 13u);
  EXPECT_EQ(w.streams[0].exec.instance, 1u);
  EXPECT_EQ(w.streams[1].exec.instance, 2u);
}

// 5. Two host threads, each with its own instance and deep_copy: their call
// stacks do not mix, even interleaved.
TEST(WaitsTracker, TwoThreadsHaveTheirOwnCallStacks) {
  WaitsSim s;
  Actor a, b;
  std::uint64_t ca = 0, cb = 0;
  WaitsSim::Launched la{}, lb{};
  a.run([&] { la = s.launch("user::slow_a", 0.0, 1e-5, cuda(1)); });
  b.run([&] { lb = s.launch("user::slow_b", 2e-5, 3e-5, cuda(2)); });
  s.ran(la, 13, 1e-5, 0.3);
  s.ran(lb, 14, 3e-5, 0.5);
  // Both deep_copies open, then their blocking copies, ended in the
  // opposite order to their begins.
  a.run([&] {
    s.at(4e-5);
    ca = s.t->call_begin(CallKind::DeepCopy, "deep_copy ha<-a");
  });
  b.run([&] {
    s.at(5e-5);
    cb = s.t->call_begin(CallKind::DeepCopy, "deep_copy hb<-b");
  });
  a.run([&] { s.block(SyncApi::MemcpyAsync, 6e-5, 0.30002, 13, 4, 3); });
  b.run([&] { s.block(SyncApi::MemcpyAsync, 7e-5, 0.50002, 14, 4, 3); });
  b.run([&] {
    s.at(0.50003);
    s.t->call_end(cb);
  });
  a.run([&] {
    s.at(0.50004);
    s.t->call_end(ca);
  });
  const auto w = s.done();
  ASSERT_EQ(w.waits.size(), 2u);
  const auto* wa = find_wait(w, "deep_copy ha<-a");
  const auto* wb = find_wait(w, "deep_copy hb<-b");
  ASSERT_NE(wa, nullptr);
  ASSERT_NE(wb, nullptr);
  EXPECT_NE(wa->thread, wb->thread);
  ASSERT_EQ(wa->waited_for.size(), 1u);
  ASSERT_EQ(wb->waited_for.size(), 1u);
  EXPECT_EQ(wa->waited_for[0].kernel, "user::slow_a");
  EXPECT_EQ(wb->waited_for[0].kernel, "user::slow_b");
  EXPECT_NEAR(wa->wait_s, 0.3 - 6e-5, 1e-9);
  EXPECT_NEAR(wb->wait_s, 0.5 - 7e-5, 1e-9);
  EXPECT_NEAR(wa->duration_s(), 0.50004 - 4e-5, 1e-9);
  EXPECT_EQ(w.threads.size(), 2u);
}

// 6. A wait inside a region with no Kokkos event around it, and the
// program's own cudaDeviceSynchronize (a synchronization without a fence).
TEST(WaitsTracker, WaitsWithoutKokkosEvents) {
  WaitsSim s;
  s.at(0);
  s.t->region_push("user::phase");
  const auto k = s.launch("user::slow", 1e-5, 2e-5);
  s.ran(k, 7, 2e-5, 0.2);
  s.block(SyncApi::Memcpy, 3e-5, 0.20001, -1, 4,
          3);  // the program's cudaMemcpy
  const auto k2 = s.launch("user::slow", 0.3, 0.30001);
  s.ran(k2, 7, 0.30001, 0.4);
  s.block(SyncApi::DeviceSynchronize, 0.30002, 0.40001);
  s.at(0.5);
  s.t->region_pop();
  const auto w = s.done();
  ASSERT_EQ(w.waits.size(), 2u);
  const auto* copy = find_wait(w, "cudaMemcpy D2H 4 B");
  const auto* sync = find_wait(w, "cudaDeviceSynchronize");
  ASSERT_NE(copy, nullptr);
  ASSERT_NE(sync, nullptr);
  EXPECT_EQ(copy->wait_class, WaitClass::Hidden);
  EXPECT_EQ(copy->regions, "user::phase");
  EXPECT_NEAR(copy->wait_s, 0.2 - 3e-5, 1e-9);
  EXPECT_EQ(sync->wait_class, WaitClass::Explicit);
  EXPECT_EQ(sync->regions, "user::phase");
  EXPECT_NEAR(sync->wait_s, 0.4 - 0.30002, 1e-9);
}

// In a Kokkos program, a synchronize before any Kokkos event is Kokkos'
// own (Kokkos::initialize waits for its lock-array kernel: 7-11 us on the
// H200, once read as "explicit waits ... in fences the program wrote"); one
// after the program's own launch is the program's.
TEST(WaitsTracker, KokkosOwnSynchronizeBeforeAnyEventIsHidden) {
  WaitsSim s;
  s.t->set_kokkos_interface_version(20211015);
  s.at(0.0);
  s.t->on_launch(s.next_corr++);  // Kokkos' own, no Kokkos event
  s.block(SyncApi::DeviceSynchronize, 1e-6, 2e-5);
  addscope::Impl::DeviceKernelRecord r;
  r.correlation = 1;
  r.stream = 7;
  r.start_s = 2e-6;
  r.end_s = 1.9e-5;
  r.name = "_Z30init_lock_arrays_cuda_kernelv";
  std::vector<addscope::Impl::DeviceKernelRecord> v{r};
  s.t->on_device_kernels(v);
  const auto k = s.launch("user::slow", 1e-4, 2e-4);
  s.ran(k, 7, 2e-4, 0.2);
  s.block(SyncApi::DeviceSynchronize, 3e-4, 0.20001);
  const auto w = s.done();
  ASSERT_EQ(w.waits.size(), 2u);
  const addscope::CallRecord* own = nullptr;
  const addscope::CallRecord* program = nullptr;
  for (const auto& c : w.waits) (c.begin_s < 1e-4 ? own : program) = &c;
  ASSERT_NE(own, nullptr);
  ASSERT_NE(program, nullptr);
  EXPECT_EQ(own->site, "cudaDeviceSynchronize before any Kokkos event");
  EXPECT_EQ(own->wait_class, WaitClass::Hidden);
  EXPECT_EQ(program->wait_class, WaitClass::Explicit);
  EXPECT_EQ(program->waited_for.at(0).kernel, "user::slow");
  EXPECT_EQ(w.totals.explicit_calls, 1u);
}

// A launch call that blocked (Kokkos 3.4: behind another thread's label
// read on the legacy stream): the launch waited for the kernel that ended
// meanwhile; its own kernel is its work.
TEST(WaitsTracker, ALaunchThatBlockedWaited) {
  WaitsSim s;
  const auto a = s.launch("user::slow_t0", 0.0, 1e-5, cuda(1));
  s.ran(a, 13, 1e-5, 0.5);
  s.at(2e-5);
  const auto id = s.t->kernel_begin("user::slow_t1", cuda(2));
  const std::uint32_t corr = s.next_corr++;
  s.t->on_launch(corr);
  s.t->on_slow_launch(3e-5, 0.50001);
  s.at(0.50002);
  s.t->kernel_end(id);
  s.ran({id, corr}, 14, 0.50001, 0.9);
  const auto w = s.done();
  ASSERT_EQ(w.waits.size(), 1u);
  EXPECT_EQ(w.waits[0].what, "launch of user::slow_t1");
  EXPECT_EQ(w.waits[0].kind, CallKind::Launch);
  EXPECT_EQ(w.waits[0].wait_class, WaitClass::Hidden);
  EXPECT_EQ(w.waits[0].via, "cudaLaunchKernel");
  ASSERT_EQ(w.waits[0].waited_for.size(), 1u);
  EXPECT_EQ(w.waits[0].waited_for[0].kernel, "user::slow_t0");
  EXPECT_NEAR(w.waits[0].wait_s, 0.5 - 3e-5, 1e-9);
}

// Two slow launches in a CUDA program without Kokkos (PyTorch on the H200:
// a 3.6 ms launch, then a launch held 440 ms behind a spin kernel): each is
// a call of its own, and the second waited for the spin, not for the kernel
// it launched itself (whose launch callback came a moment before the slow
// launch's begin: once read as "waited 443.9 ms for reduce_kernel").
TEST(WaitsTracker, SlowLaunchesAreCallsOfTheirOwnAndNotWaitsForTheirKernel) {
  WaitsSim s;
  auto record = [&](std::uint32_t corr, double start, double end,
                    const char* name) {
    addscope::Impl::DeviceKernelRecord r;
    r.correlation = corr;
    r.stream = 7;
    r.start_s = start;
    r.end_s = end;
    r.shape.grid[0] = r.shape.block[0] = 1;
    r.shape.grid[1] = r.shape.grid[2] = r.shape.block[1] = r.shape.block[2] = 1;
    r.name = name;
    std::vector<addscope::Impl::DeviceKernelRecord> v{r};
    s.t->on_device_kernels(v);
  };
  // The spin: launched at 0, runs 10 us .. 450 ms.
  s.at(0.0);
  s.t->on_launch(1);
  // A slow launch of its own (3.6 ms; nothing ends meanwhile).
  s.at(0.001);
  s.t->on_launch(2);
  s.t->on_slow_launch(0.0010001, 0.0046, 2);
  // The launch held back by the spin until 50 us after it ended.
  s.at(0.01);
  s.t->on_launch(3);
  s.t->on_slow_launch(0.0100001, 0.45005, 3);
  s.at(0.46);
  record(1, 1e-5, 0.45, "_Z4spinv");
  record(2, 0.45001, 0.45002, "_Z4fillv");
  record(3, 0.45006, 0.45007, "_Z6reducev");
  const auto w = s.done();
  ASSERT_EQ(w.waits.size(), 1u) << "the 3.6 ms launch waited for nothing";
  EXPECT_EQ(w.waits[0].via, "cudaLaunchKernel");
  // The spin, then the fill queued behind it (it ended inside the launch);
  // never the launch's own reduce().
  ASSERT_EQ(w.waits[0].waited_for.size(), 2u);
  EXPECT_EQ(w.waits[0].waited_for[0].kernel, "spin()");
  EXPECT_NEAR(w.waits[0].waited_for[0].wait_s, 0.45 - 0.0100001, 1e-9);
  EXPECT_EQ(w.waits[0].waited_for[1].kernel, "fill()");
  EXPECT_NEAR(w.waits[0].wait_s, 0.45002 - 0.0100001, 1e-9);
}

// 7. No device timestamps (no CUPTI): a fence or deep_copy bounds the wait.
TEST(WaitsTracker, KokkosOnlyWaitsAreBounds) {
  WaitsSim s(false);
  s.launch("user::on_instance_2", 0.0, 1e-5, cuda(2));
  // A fence of instance 1 does not finish instance 2's kernel...
  s.call(CallKind::Fence, "Kokkos::Cuda::fence(): Unnamed Instance Fence", 2e-5,
         3e-5, {}, cuda(1));
  // ...the deep_copy (which fences everything) does.
  s.call(CallKind::DeepCopy, "deep_copy h<-d", 4e-5, 0.25);
  s.call(CallKind::DeepCopy, "deep_copy h<-d again", 0.3, 0.30001);
  const auto w = s.done();
  EXPECT_EQ(w.mode, WaitsMode::KokkosOnly);
  ASSERT_EQ(w.waits.size(), 1u);
  EXPECT_EQ(w.waits[0].what, "deep_copy h<-d");
  EXPECT_TRUE(w.waits[0].wait_is_bound);
  EXPECT_NEAR(w.waits[0].wait_s, 0.25 - 4e-5, 1e-9);
  EXPECT_EQ(w.waits[0].waited_for.at(0).kernel, "user::on_instance_2");
  EXPECT_NE(addscope::format_attribution(w.waits[0]).find("up to"),
            std::string::npos);
}

// 8. Host backends: kernels run inside their launch; nothing waits.
TEST(WaitsTracker, HostKernelsWaitForNothing) {
  WaitsSim s(false);
  addscope::ExecId omp;
  omp.kind = addscope::DeviceKind::OpenMP;
  s.launch("host::work", 0.0, 0.01, omp);
  s.call(CallKind::DeepCopy, "deep_copy out", 0.02, 0.03);
  s.call(CallKind::Fence, "Kokkos::fence: Unnamed Global Fence", 0.04, 0.05);
  const auto w = s.done();
  EXPECT_EQ(w.mode, WaitsMode::Host);
  EXPECT_TRUE(w.waits.empty());
  EXPECT_EQ(w.totals.host_kernels, 1u);
  EXPECT_EQ(w.totals.calls, 3u);
  const auto* k = find_kernel(w, "host::work");
  ASSERT_NE(k, nullptr);
  EXPECT_NEAR(k->device_s, 0.01, 1e-12);
  std::ostringstream os;
  addscope::write_waits_report(os, w);
  EXPECT_NE(os.str().find("no call waited for device work"), std::string::npos)
      << os.str();
}

// A kernel still running when the call returns was not waited for; one
// that ended before the call began was not either.
TEST(WaitsTracker, OnlyKernelsThatEndedDuringTheCallWereWaitedFor) {
  WaitsSim s;
  const auto early = s.launch("k_early", 0.0, 1e-5);
  s.ran(early, 7, 1e-5, 0.01);
  const auto late = s.launch("k_late", 0.02, 0.02001, cuda());
  s.ran(late, 8, 0.02001, 0.9);  // still running after the copy below
  const auto mid = s.launch("k_mid", 0.02002, 0.02003);
  s.ran(mid, 7, 0.02003, 0.1);
  s.call(CallKind::DeepCopy, "deep_copy x", 0.05, 0.1001,
         [&] { s.block(SyncApi::Memcpy, 0.05001, 0.1, -1, 8, 3); });
  const auto w = s.done();
  ASSERT_EQ(w.waits.size(), 1u);
  ASSERT_EQ(w.waits[0].waited_for.size(), 1u);
  EXPECT_EQ(w.waits[0].waited_for[0].kernel, "k_mid");
  EXPECT_NEAR(w.waits[0].wait_s, 0.1 - 0.05001, 1e-9);
}

// The library's front door reads the waits since a mark; nothing before it
// is lost (the tool, if loaded, keeps everything).
TEST(WaitsTracker, MarkKeepsEarlierRecords) {
  WaitsSim s;
  const auto a = s.launch("k_before", 0.0, 1e-5);
  s.ran(a, 7, 1e-5, 0.1);
  s.call(CallKind::DeepCopy, "deep_copy before", 2e-5, 0.10001,
         [&] { s.block(SyncApi::Memcpy, 3e-5, 0.1, -1, 4); });
  s.t->flush();
  s.t->start_device_tracing();  // as the front door does: recent waits kept
  const auto m = s.t->mark();
  const auto b = s.launch("k_after", 0.2, 0.20001);
  s.ran(b, 7, 0.20001, 0.3);
  s.call(CallKind::Step, "create_mirror_view(out[2])", 0.20002, 0.30002,
         [&] { s.block(SyncApi::Memcpy, 0.20003, 0.30001, -1, 256); });
  s.t->flush();
  const auto since = s.t->waits_since(m);
  s.t->stop_device_tracing();
  ASSERT_EQ(since.size(), 1u);
  EXPECT_EQ(since[0].what, "create_mirror_view(out[2])");
  EXPECT_EQ(since[0].waited_for.at(0).kernel, "k_after");
  EXPECT_EQ(s.done().waits.size(), 2u);
}

// State stays bounded: records are attributed and forgotten as the run
// goes, and only the longest waits are kept with details.
TEST(WaitsTracker, StateIsBoundedOverManyKernels) {
  addscope::LedgerLimits lim;
  lim.top_waits = 10;
  lim.recent_waits = 5;
  WaitsSim s(true, lim, 64);
  double t = 0;
  std::vector<double> begins;  // each fence's begin, by i
  for (int i = 0; i < 20000; ++i) {
    begins.push_back(t + 2e-6);
    const auto k = s.launch("k", t, t + 1e-6);
    s.ran(k, 7, t + 1e-6, t + 1e-5 + 1e-10 * i);
    s.call(CallKind::Fence, "Kokkos::fence: Unnamed Global Fence", t + 2e-6,
           t + 2e-5,
           [&] { s.block(SyncApi::DeviceSynchronize, t + 3e-6, t + 1.9e-5); });
    t += 1e-4;
    if (i % 1000 == 999) {
      EXPECT_LT(s.t->pending_records(), 300u) << i;
    }
  }
  const auto w = s.done();
  EXPECT_EQ(s.t->pending_records(), 0u);
  EXPECT_EQ(w.waits.size(), 10u);
  EXPECT_EQ(w.totals.explicit_calls, 20000u);
  EXPECT_EQ(w.totals.device_kernels, 20000u);
  // Kernel i ran until t + 1e-5 + 1e-10 i, its fence blocked from t + 3e-6:
  // fence i waited 7 us + 0.1 ns x i. The 10 kept are the last 10 fences
  // (i = 19999 down to 19990), each named by its begin time — not merely a
  // list in some order.
  ASSERT_EQ(w.waits.size(), 10u);
  for (std::size_t r = 0; r < 10; ++r) {
    SCOPED_TRACE(r);
    const std::size_t i = 19999 - r;
    EXPECT_NEAR(w.waits[r].begin_s, begins[i], 1e-9);
    EXPECT_NEAR(w.waits[r].wait_s, 7e-6 + 1e-10 * double(i), 1e-12);
    EXPECT_EQ(w.waits[r].what, "Kokkos::fence: Unnamed Global Fence");
  }
  ASSERT_EQ(w.kernels.size(), 1u);
  EXPECT_EQ(w.kernels[0].launches, 20000u);
}

TEST(WaitsTracker, ReportAndJson) {
  WaitsSim s;
  const auto k = s.launch("user::slow_add[1x1]", 0.0, 0.00002);
  s.ran(k, 7, 0.00001, 0.6, 1, 1);
  s.call(CallKind::DeepCopy, "deep_copy out_mirror<-out (Host<-Cuda, 4 B)",
         0.0001, 0.6001,
         [&] { s.block(SyncApi::Memcpy, 0.00011, 0.60009, -1, 4, 3); });
  const auto w = s.done();
  std::ostringstream os;
  addscope::write_waits_report(os, w);
  const std::string r = os.str();
  EXPECT_NE(r.find("hidden waits: 599.9 ms in 1 call"), std::string::npos) << r;
  EXPECT_NE(r.find("explicit waits: none"), std::string::npos) << r;
  EXPECT_NE(r.find("deep_copy out_mirror<-out (Host<-Cuda, 4 B) waited "
                   "599.9 ms for user::slow_add[1x1], launched as 1 x 1\n"
                   "               600.0 ms in all, 110.0 us its own; "
                   "deep_copy, blocked in cudaMemcpy D2H 4 B, host thread 0"),
            std::string::npos)
      << r;
  const auto j = nlohmann::json::parse(addscope::waits_json(w));
  EXPECT_EQ(j["schema"], "addscope-waits/4");
  EXPECT_EQ(j["version"], 4);
  EXPECT_EQ(j["mode"], "device");
  ASSERT_EQ(j["waits"].size(), 1u);
  EXPECT_EQ(j["waits"][0]["class"], "hidden");
  EXPECT_EQ(j["waits"][0]["kind"], "deep_copy");
  EXPECT_EQ(j["waits"][0]["waited_for"][0]["kernel"], "user::slow_add[1x1]");
  EXPECT_TRUE(j["waits"][0]["regions"].is_null());
  EXPECT_EQ(j["kernels"][0]["shapes"][0]["grid"][0], 1);
  EXPECT_EQ(j["kernels"][0]["shapes"][0]["block"][0], 1);
  EXPECT_EQ(j["kernels"][0]["device"], "Cuda");
  EXPECT_NEAR(j["totals"]["hidden_s"].get<double>(), 0.6 - 0.00011, 1e-9);
}

// A memset's device record names no thread: its call does (cudaMemsetAsync,
// cuMemsetD*: Kokkos' View initialization, CuPy's zeros). The device idle
// before it is then the launching thread's — its code here — not
// "other/unknown" (seen on the H200: 5 such gaps in a Kokkos program).
TEST(WaitsTracker, AMemsetsThreadIsItsCallsSoTheIdleBeforeItIsKnown) {
  WaitsSim s;
  auto kernels = [&](std::vector<std::uint32_t> corrs) {
    std::vector<addscope::Impl::DeviceKernelRecord> v;
    for (std::uint32_t corr : corrs) {
      addscope::Impl::DeviceKernelRecord r;
      r.correlation = corr;
      r.stream = 7;
      r.start_s = corr == 1 ? 1.00005 : corr == 2 ? 1.01 : 1.0601;
      r.end_s = corr == 1 ? 1.01 : corr == 2 ? 1.02 : 1.07;
      r.shape.grid[0] = r.shape.grid[1] = r.shape.grid[2] = 1;
      r.shape.block[0] = r.shape.block[1] = r.shape.block[2] = 1;
      r.name = "_Z1kv";
      v.push_back(r);
    }
    s.t->on_device_kernels(v);
  };
  // Records come after their time; the kernels' launches hold the idle
  // blame back until their records come (the memset's call does not: its
  // record comes first here).
  s.block(SyncApi::Memcpy, 0.99, 0.995, -1, 64, 2);  // the inputs, H2D
  s.at(1.0);
  s.t->on_launch(1);
  s.at(1.0001);
  s.t->on_launch(2);
  s.block(SyncApi::Memset, 1.05, 1.05001, 7, 4096, 0, 3);
  s.at(1.0504);
  s.copied(3, 7, 1.0502, 1.0503, 4096, true);
  s.at(1.06);
  s.t->on_launch(4);
  s.at(1.08);  // the kernels' records, held back by their launches
  kernels({1, 2, 4});
  s.at(1.1);
  const addscope::WaitsSnapshot w = s.done();
  double unknown = -1, host = -1;
  for (const auto& k : w.idle.causes) {
    if (k.cause == addscope::IdleCause::Unknown) unknown = k.idle_s;
    if (k.cause == addscope::IdleCause::HostCode) host = k.idle_s;
  }
  EXPECT_EQ(unknown, 0.0);
  // The two gaps (before the memset, before the third kernel) are the
  // program's code but for the memset's call and the launch.
  EXPECT_GT(host, 0.0302 + 0.0098 - 2e-4);
  EXPECT_NEAR(w.idle.idle_s, 0.0302 + 0.0098, 1e-6);
  // The memset's call is a host call of its own, by its bytes.
  std::ostringstream os;
  addscope::write_waits_report(os, w);
  EXPECT_NE(os.str().find("after cudaMemset 4.0 KiB (stream 7)"),
            std::string::npos)
      << os.str();
}
