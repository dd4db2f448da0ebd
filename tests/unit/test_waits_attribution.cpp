// The attribution rules as pure functions: which kernels a blocking call
// waited for and how its time splits among them, which fences are the
// program's own, and Kokkos Tools device ids.
#include <gtest/gtest.h>

#include <string>
#include <utility>
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
  // Lazy module loading: the launch waited for the device to drain, then
  // loaded for 4.2 ms (PyTorch's first reduce launch on the H200).
  EXPECT_TRUE(Impl::awaits(b, kernel(0.5, 0.6, 2.0 - 4.2e-3)));
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

namespace {
// Every fence label Kokkos 4.6.99 passes to the tools (core/, containers/,
// algorithms/, simd/; templated ones spelled out for CUDA), and whether the
// program wrote it. Kokkos 3.4.01 reports no fences (see below).
const std::pair<const char*, bool> kKokkos46Fences[] = {
    {"Bitset::set: fence after clearing unused bits copying from HostSpace",
     false},
    {"DynamicView::DynamicView(): Fence after copying chunks to the device",
     false},
    {"DynamicView::resize_serial: Fence after copying chunks to the device",
     false},
    {"HostInaccessibleSharedAllocationRecordCommon::get_record(): fence after "
     "copying header to HostSpace",
     false},
    {"HostInaccessibleSharedAllocationRecordCommon::print_records(): fence "
     "after copying header to HostSpace",
     false},
    {"HostSpace fence", false},
    {"HostSpace::impl_deallocate before free", false},
    {"Kokkos::BinSort:sort: after", false},
    {"Kokkos::Binsort::create_permute_vector: after", false},
    {"Kokkos::Binsort::create_permute_vector: before", false},
    {"Kokkos::Binsort::sort: before", false},
    {"Kokkos::Cuda: backend fence after async free", false},
    {"Kokkos::Cuda: backend fence after async malloc", false},
    {"Kokkos::Cuda: backend fence before async free", false},
    {"Kokkos::Cuda::fence(): Unnamed Instance Fence", true},
    {"Kokkos::CudaInternal::fence(): Unnamed Instance Fence", false},
    {"Kokkos::CudaUVMSpace::impl_allocate: Post UVM Allocation", false},
    {"Kokkos::CudaUVMSpace::impl_allocate: Pre UVM Allocation", false},
    {"Kokkos::CudaUVMSpace::impl_deallocate: Post UVM Deallocation", false},
    {"Kokkos::CudaUVMSpace::impl_deallocate: Pre UVM Deallocation", false},
    {"Kokkos::DefaultGraph::submit: fencing before ending graph submit", false},
    {"Kokkos::DefaultGraph::submit: fencing before launching graph nodes",
     false},
    {"Kokkos::DefaultGraphNode::execute_node: sync with predecessors", false},
    {"Kokkos::DualView<>::sync: fence after syncing DualView", false},
    {"Kokkos::Experimental::ErrorReporter::resize: fence after resizing",
     false},
    {"Kokkos::Experimental::HPX: fence due to forced synchronizations", false},
    {"Kokkos::Experimental::HPX: fence due to forced syncronizations", false},
    {"Kokkos::Experimental::HPX::fence: Unnamed Instance Fence", true},
    {"Kokkos::Experimental::Impl::OpenMPTargetInternal::fence: Unnamed "
     "Internal Fence",
     false},
    {"Kokkos::GraphImpl::~GraphImpl: Graph Destruction", false},
    {"Kokkos::HIP::fence(): Unnamed Instance Fence", true},
    {"Kokkos::HIPInternal::fence: Unnamed Internal Fence", false},
    {"Kokkos::HIPInternal::finalize: fence on finalization", false},
    {"Kokkos::Impl::DeepCopy<CudaSpace, CudaSpace, ExecutionSpace>::DeepCopy: "
     "fence before copy",
     false},
    {"Kokkos::Impl::DeepCopy<CudaSpace, HostSpace, ExecutionSpace>::DeepCopy: "
     "fence before copy",
     false},
    {"Kokkos::Impl::DeepCopy<HostSpace, CudaSpace, ExecutionSpace>::DeepCopy: "
     "fence before copy",
     false},
    {"Kokkos::Impl::DeepCopy<HostSpace, HostSpace, ExecutionSpace>::DeepCopy: "
     "fence before copy",
     false},
    {"Kokkos::Impl::DeepCopy<HostSpace, OpenACCSpace, "
     "ExecutionSpace>::DeepCopy: fence before copy",
     false},
    {"Kokkos::Impl::DeepCopy<HostSpace, OpenMPTargetSpace>: fence before copy",
     false},
    {"Kokkos::Impl::DeepCopy<OpenACCSpace, HostSpace, "
     "ExecutionSpace>::DeepCopy: fence before copy",
     false},
    {"Kokkos::Impl::DeepCopy<OpenACCSpace, OpenACCSpace, "
     "ExecutionSpace>::DeepCopy: fence before copy",
     false},
    {"Kokkos::Impl::DeepCopy<OpenMPTargetSpace, HostSpace>: fence before copy",
     false},
    {"Kokkos::Impl::DeepCopy<OpenMPTargetSpace, OpenMPTargetSpace>: fence "
     "before copy",
     false},
    {"Kokkos::Impl::DeepCopyAsyncCuda: Deep Copy Stream Sync", false},
    {"Kokkos::Impl::DeepCopyAsyncHIP: Post Deep Copy Fence on Deep-Copy stream",
     false},
    {"Kokkos::Impl::DeepCopyAsyncSYCL: fence after memcpy", false},
    {"Kokkos::Impl::FillCrsTransposeEntries::FillCrsTransposeEntries: fence "
     "after functor execution",
     false},
    {"Kokkos::Impl::GetCrsTransposeCounts::GetCrsTransposeCounts: fence after "
     "functor execution",
     false},
    {"Kokkos::Impl::HIParallelLaunch: Debug Only Check for Execution Error",
     false},
    {"Kokkos::Impl::ParallelReduce<Cuda, MDRangePolicy>::execute: Result Not "
     "Device Accessible",
     false},
    {"Kokkos::Impl::ParallelReduce<Cuda, RangePolicy>::execute: Result Not "
     "Device Accessible",
     false},
    {"Kokkos::Impl::ParallelReduce<Cuda, TeamPolicy>::execute: Result Not "
     "Device Accessible",
     false},
    {"Kokkos::Impl::ParallelReduce<SYCL, MDRangePolicy>::execute: result not "
     "device-accessible",
     false},
    {"Kokkos::Impl::ParallelReduce<SYCL, RangePolicy>::execute: result not "
     "device-accessible",
     false},
    {"Kokkos::Impl::ParallelReduce<SYCL, TeamPolicy>::execute: result not "
     "device-accessible",
     false},
    {"Kokkos::Impl::TaskQueueSpecialization<SimpleTaskScheduler<Kokkos::Cuda>::"
     "execute: Post Get Function Pointer for Tasks",
     false},
    {"Kokkos::Impl::TaskQueueSpecialization<SimpleTaskScheduler<Kokkos::Cuda>::"
     "execute: Post Task Execution",
     false},
    {"Kokkos::Impl::TaskQueueSpecialization<SimpleTaskScheduler<Kokkos::Cuda>::"
     "execute: Pre Get Function Pointer for Tasks",
     false},
    {"Kokkos::Impl::TaskQueueSpecialization<SimpleTaskScheduler<Kokkos::Cuda>::"
     "execute: Pre Task Execution",
     false},
    {"Kokkos::Impl::TaskQueueSpecializationConstrained<SimpleTaskScheduler<"
     "Kokkos::Cuda>::execute: Post Execute Task",
     false},
    {"Kokkos::Impl::TaskQueueSpecializationConstrained<SimpleTaskScheduler<"
     "Kokkos::Cuda>::execute: Pre Execute Task",
     false},
    {"Kokkos::Impl::TaskQueueSpecializationConstrained<SimpleTaskScheduler<"
     "Kokkos::Cuda>::get_function_pointer: Post Get Function Pointer",
     false},
    {"Kokkos::Impl::TaskQueueSpecializationConstrained<SimpleTaskScheduler<"
     "Kokkos::Cuda>::get_function_pointer: Pre Get Function Pointer",
     false},
    {"Kokkos::Impl::hostspace_parallel_deepcopy_async: fence after copy",
     false},
    {"Kokkos::Impl::launch_kernel: Debug Only Check for Execution Error",
     false},
    {"Kokkos::Impl::sort_by_key_via_sort: after host sort", false},
    {"Kokkos::Impl::sort_by_key_via_sort: before host sort", false},
    {"Kokkos::Impl::sycl_deallocate: fence before deallocate", false},
    {"Kokkos::OpenACC::fence(): Unnamed Instance Fence", true},
    {"Kokkos::OpenMP::fence: Unnamed Instance Fence", true},
    {"Kokkos::OpenMPTarget::fence: Unnamed Instance Fence", true},
    {"Kokkos::SYCL::fence: Unnamed Instance Fence", true},
    {"Kokkos::SYCLInternal::USMObject fence to wait for last event to finish",
     false},
    {"Kokkos::SYCLInternal::finalize: fence on finalization", false},
    {"Kokkos::Serial::fence: Unnamed Instance Fence", true},
    {"Kokkos::Sort: fence after sorting", false},
    {"Kokkos::StaticCrsGraph::create_block_partitioning:: fence after "
     "partition",
     false},
    {"Kokkos::Threads::fence: Unnamed Instance Fence", true},
    {"Kokkos::ThreadsInternal::fence: Unnamed Instance Fence", false},
    {"Kokkos::Tools::Experimental::Impl::tool_invoked_fence: Tool Requested "
     "Fence",
     false},
    {"Kokkos::Tools::invoke_kokkosp_callback: Kokkos Profile Tool Fence",
     false},
    {"Kokkos::UnorderedMap::begin_erase: fence before setting erasable flag",
     false},
    {"Kokkos::UnorderedMap::deep_copy_view: fence after copy to dst.", false},
    {"Kokkos::UnorderedMap::end_erase: fence after erasing", false},
    {"Kokkos::UnorderedMap::end_erase: fence before erasing", false},
    {"Kokkos::UnorderedMap::get_flag: fence after copy to return value in "
     "HostSpace",
     false},
    {"Kokkos::UnorderedMap::reset_flag: fence after copying flag from "
     "HostSpace",
     false},
    {"Kokkos::UnorderedMap::set_flag: fence after copying flag from HostSpace",
     false},
    {"Kokkos::View::destruction before deallocate", false},
    {"Kokkos::View::initialization", false},
    {"Kokkos::View::initialization via memset", false},
    {"Kokkos::WorkGraphPolicy::WorkGraphPolicy: fence after executing graph "
     "count",
     false},
    {"Kokkos::WorkGraphPolicy::WorkGraphPolicy: fence after executing graph "
     "init",
     false},
    {"Kokkos::WorkGraphPolicy::WorkGraphPolicy: fence after executing readied "
     "graph",
     false},
    {"Kokkos::adjacent_difference: fence after operation", false},
    {"Kokkos::copy: fence after operation", false},
    {"Kokkos::copy_backward: fence after operation", false},
    {"Kokkos::count_if: fence after operation", false},
    {"Kokkos::create_mirror_view_and_copy: fence before returning src view",
     false},
    {"Kokkos::deep_copy(DynamicView)", false},
    {"Kokkos::deep_copy: copy between contiguous views, fence due to null "
     "argument",
     false},
    {"Kokkos::deep_copy: copy between contiguous views, fence due to same "
     "spans",
     false},
    {"Kokkos::deep_copy: copy between contiguous views, post copy fence",
     false},
    {"Kokkos::deep_copy: copy between contiguous views, post deep copy fence",
     false},
    {"Kokkos::deep_copy: copy between contiguous views, pre copy fence", false},
    {"Kokkos::deep_copy: copy between contiguous views, pre view equality "
     "check",
     false},
    {"Kokkos::deep_copy: copy into scalar, post copy fence", false},
    {"Kokkos::deep_copy: copy into scalar, pre copy fence", false},
    {"Kokkos::deep_copy: copy into scalar, src is null", false},
    {"Kokkos::deep_copy: scalar copy on space, dst data is null", false},
    {"Kokkos::deep_copy: scalar copy, fence because destination is null",
     false},
    {"Kokkos::deep_copy: scalar copy, post copy fence", false},
    {"Kokkos::deep_copy: scalar copy, pre copy fence", false},
    {"Kokkos::deep_copy: scalar to scalar copy, both pointers null", false},
    {"Kokkos::deep_copy: scalar to scalar copy, post copy fence", false},
    {"Kokkos::deep_copy: scalar to scalar copy, pre copy fence", false},
    {"Kokkos::deep_copy: scalar-to-view copy on space, dst data is null",
     false},
    {"Kokkos::deep_copy: scalar-to-view copy on space, fence after fill",
     false},
    {"Kokkos::deep_copy: scalar-to-view copy on space, pre copy", false},
    {"Kokkos::deep_copy: view-to-scalar copy on space, src data is null",
     false},
    {"Kokkos::deep_copy: view-to-view copy on space, data is null", false},
    {"Kokkos::deep_copy: view-to-view noncontiguous copy on space, post copy",
     false},
    {"Kokkos::deep_copy: view-to-view noncontiguous copy on space, pre copy",
     false},
    {"Kokkos::equal: fence after operation", false},
    {"Kokkos::exclusive_scan_custom_op: fence after operation", false},
    {"Kokkos::exclusive_scan_default_op: fence after operation", false},
    {"Kokkos::fence: Unnamed Global Fence", true},
    {"Kokkos::fill: fence after operation", false},
    {"Kokkos::for_each: fence after operation", false},
    {"Kokkos::generate: fence after operation", false},
    {"Kokkos::inclusive_scan_custom_binary_op: fence after operation", false},
    {"Kokkos::inclusive_scan_default_op: fence after operation", false},
    {"Kokkos::iter_swap: fence after operation", false},
    {"Kokkos::move: fence after operation", false},
    {"Kokkos::move_backward: fence after operation", false},
    {"Kokkos::parallel_reduce: fence after copying values back", false},
    {"Kokkos::parallel_reduce: fence due to result being value, not view",
     false},
    {"Kokkos::parallel_scan: fence due to result being a value, not a view",
     false},
    {"Kokkos::remove_if: fence after stage2", false},
    {"Kokkos::replace: fence after operation", false},
    {"Kokkos::replace_copy: fence after operation", false},
    {"Kokkos::replace_copy_if: fence after operation", false},
    {"Kokkos::replace_if: fence after operation", false},
    {"Kokkos::resize(DynRankView)", false},
    {"Kokkos::resize(View)", false},
    {"Kokkos::reverse: fence after operation", false},
    {"Kokkos::reverse_copy: fence after operation", false},
    {"Kokkos::rotate: fence after operation", false},
    {"Kokkos::rotate_copy: fence after operation", false},
    {"Kokkos::shift_left: fence after operation", false},
    {"Kokkos::shift_right: fence after operation", false},
    {"Kokkos::sort with comparator use std::sort", false},
    {"Kokkos::sort with comparator: before", false},
    {"Kokkos::sort with comparator: fence after sorting", false},
    {"Kokkos::sort without comparator use std::sort", false},
    {"Kokkos::sort: before", false},
    {"Kokkos::sort: fence after sorting", false},
    {"Kokkos::swap_ranges: fence after operation", false},
    {"Kokkos::transform: fence after operation", false},
    {"Kokkos::transform_exclusive_scan: fence after operation", false},
    {"Kokkos::transform_inclusive_scan: fence after operation", false},
    {"Kokkos::unique: fence after operation", false},
    {"Kokkos::vector::assign: fence after assigning values", false},
    {"MemoryPool::MemoryPool(): fence after copying state array from HostSpace",
     false},
    {"MemoryPool::get_usage_statistics(): fence after copying state array to "
     "HostSpace",
     false},
    {"MemoryPool::print_state(): fence after copying state array to HostSpace",
     false},
    {"Random_XorShift1024_Pool: Constructor", false},
    {"Random_XorShift1024_Pool::init", false},
    {"Random_XorShift1024_Pool::init UnifiedMemory", false},
    {"Random_XorShift64_Pool: Constructor", false},
    {"Random_XorShift64_Pool::init", false},
    {"Random_XorShift64_Pool::init UnifiedMemory", false},
    {"SharedAllocationRecord<Cuda, void>::reallocate_tracked(): fence after "
     "copying data",
     false},
    {"SharedAllocationRecord<Kokkos::CudaSpace, "
     "void>::SharedAllocationRecord(): fence after copying header from "
     "HostSpace",
     false},
    {"SharedAllocationRecord<Kokkos::CudaUVMSpace, "
     "void>::SharedAllocationRecord(): fence after copying header from "
     "HostSpace",
     false},
    {"fill_random: fence after since no execution space instance provided",
     false},
    {"fill_random: fence before since no execution space instance provided",
     false},
};
}  // namespace

// A fence is explicit only when the program called it: Kokkos::fence() or
// exec.fence() with Kokkos' default name, or a name of its own. Every label
// Kokkos issues itself is hidden — the View allocation's header-copy fence
// first of all (issue 23: a View constructed after a long kernel waited
// there, and the report called it a fence the program wrote).
TEST(WaitsAttribution, EveryKokkosInternalFenceLabelIsHidden) {
  std::size_t user = 0;
  for (const auto& f : kKokkos46Fences) {
    EXPECT_EQ(Impl::is_user_fence(f.first), f.second) << f.first;
    EXPECT_EQ(Impl::is_kokkos_internal_fence(f.first), !f.second) << f.first;
    EXPECT_EQ(Impl::classify(CallKind::Fence, f.first, SyncApi::Other),
              f.second ? WaitClass::Explicit : WaitClass::Hidden)
        << f.first;
    user += f.second;
  }
  // Kokkos::fence() and exec.fence() of the nine back-ends.
  EXPECT_EQ(user, 10u);
  EXPECT_EQ(Impl::classify(CallKind::Fence,
                           "SharedAllocationRecord<Kokkos::CudaSpace, "
                           "void>::SharedAllocationRecord(): fence after "
                           "copying header from HostSpace",
                           SyncApi::Other),
            WaitClass::Hidden);
  // Names the program gave its own fences stay explicit, whatever they say.
  for (const char* mine : {"after solve", "fence", "my SharedAllocation sync",
                           "probe: residual ready", "Kokkos", ""})
    EXPECT_TRUE(Impl::is_user_fence(mine)) << mine;
  // A reduction's result fence is Kokkos': hidden, and it completes the
  // reduction launched just before (waiting for that is the launch's work).
  const char* result =
      "Kokkos::parallel_reduce: fence due to result being value, not view";
  EXPECT_TRUE(Impl::is_result_fence(result));
  EXPECT_TRUE(Impl::is_result_fence(
      "Kokkos::parallel_scan: fence due to result being a value, not a view"));
  EXPECT_FALSE(Impl::is_result_fence("Kokkos::fence: Unnamed Global Fence"));
  EXPECT_EQ(Impl::classify(CallKind::Fence, result, SyncApi::Other),
            WaitClass::Hidden);
  EXPECT_TRUE(Impl::fence_completes_launch(result, "user::dot"));
}

// Kokkos 3.4.01 reports no fences (kokkosp_begin_fence is never called):
// its fences are seen as the CUDA calls they make. The allocation's header
// copy is a synchronous cudaMemcpy: hidden; a bare cudaDeviceSynchronize or
// cudaStreamSynchronize outside every Kokkos call cannot be told from the
// program's Kokkos::fence(): explicit; inside a Kokkos call (deep_copy) it
// is that call's: hidden.
TEST(WaitsAttribution, Kokkos34FencesAreSeenAsRuntimeCalls) {
  EXPECT_EQ(Impl::classify(CallKind::Runtime, "cudaMemcpy", SyncApi::Memcpy),
            WaitClass::Hidden);
  EXPECT_EQ(Impl::classify(CallKind::Runtime, "cudaDeviceSynchronize",
                           SyncApi::DeviceSynchronize),
            WaitClass::Explicit);
  EXPECT_EQ(Impl::classify(CallKind::DeepCopy, "deep_copy h<-d",
                           SyncApi::DeviceSynchronize),
            WaitClass::Hidden);
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
