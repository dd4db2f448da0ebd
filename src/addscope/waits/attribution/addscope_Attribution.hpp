// addscope — the attribution rules, as pure functions over records (no
// clocks, no threads, no devices), so that they can be tested on synthetic
// timelines.
//
//  * A call *waited* for kernel K only for the part of it that ended because
//    K finished: a blocking runtime call that began after K was launched and
//    returned after K ended, on a stream it waits for. Its waiting part runs
//    from its begin to the end of the last such kernel; at each instant of it
//    the kernels running share the instant equally, and an instant when none
//    runs (the next one queued) goes to the next kernel to start. The rest of
//    the call is its own work.
//  * Host work done while K ran (after its launch returned) and nobody waited
//    for it is *overlap*: time saved.
//  * A wait is *explicit* in a fence the program wrote (or a synchronization
//    call of its own); anywhere else it is *hidden*. A fence is the
//    program's only when the program called it: Kokkos::fence() or
//    exec.fence() with Kokkos' default name or a name of its own. Every
//    fence Kokkos issues itself (allocation, deallocation, deep_copy,
//    reductions and scans into host values, DualView syncs, View
//    initialization, containers, algorithms, back-ends) is hidden, charged
//    to the Kokkos call that made it. The labels checked (Kokkos 4.6.99 and
//    3.4.01) are listed in addscope_Attribution.cpp and docs/waits-report.md.
#ifndef ADDSCOPE_WAITS_ATTRIBUTION_ATTRIBUTION_HPP
#define ADDSCOPE_WAITS_ATTRIBUTION_ATTRIBUTION_HPP

#include <cstddef>
#include <string>
#include <vector>

#include "addscope/waits/model/addscope_WaitRecords.hpp"

namespace addscope {
namespace Impl {

/// How far a kernel's end may lie past the return of a call that waited for
/// it (device timestamps mapped onto the host clock are that close).
constexpr double kClockTolerance_s = 20e-6;
/// A long launch call waited for a kernel only if it returned within this
/// of the kernel's end. CUDA's lazy module loading holds a launch until the
/// device has drained, then loads: on the H200 PyTorch's first reduce
/// launch returned 4-6 ms after the spin kernel it waited 460 ms for ended.
constexpr double kLaunchReturn_s = 10e-3;

/// Could `b` have waited for `k`: launched before the call began, ended
/// while it ran, on a stream it waits for (a long launch call: ended just
/// before it returned).
bool awaits(const BlockingCall& b, const DeviceKernel& k,
            double tolerance_s = kClockTolerance_s);

/// The part of `b` spent waiting for each of `candidates` (all of which
/// satisfy awaits(b, k)), in the same order. Their sum is the waiting part:
/// from b's begin to the last candidate's end (clamped to b's end).
std::vector<double> split_wait(
    const BlockingCall& b, const std::vector<const DeviceKernel*>& candidates);

/// Host time during which `k` ran after its launch returned and its
/// launching thread was not blocked (k.blocked_s filled): host work done
/// meanwhile.
double overlap_s(const DeviceKernel& k);
/// How long `b` (a blocking call) overlapped `k`'s run after its launch
/// returned, if `b` is on k's launching thread; 0 otherwise.
double blocked_during(const BlockingCall& b, const DeviceKernel& k);

/// A label Kokkos gives a fence it issues itself (never one the program
/// called): "Kokkos::..." except the default names of Kokkos::fence() and
/// exec.fence(), and the internal labels that do not start with "Kokkos::":
/// "SharedAllocationRecord<Kokkos::CudaSpace, void>::
/// SharedAllocationRecord(): fence after copying header from HostSpace"
/// (every View allocated in device memory), "MemoryPool::...", ...
bool is_kokkos_internal_fence(const std::string& fence_name);
/// A fence the program wrote: Kokkos' default names for Kokkos::fence() and
/// exec.fence() ("Kokkos::fence: Unnamed Global Fence",
/// "Kokkos::Cuda::fence(): Unnamed Instance Fence", ...), or any name that
/// is not one of Kokkos' internal fences (the program named it).
bool is_user_fence(const std::string& fence_name);
/// The fence Kokkos makes after a parallel_reduce or parallel_scan into a
/// host value: it waits for the reduction the program just launched (that
/// wait is the launch's own work); waiting there for earlier kernels is
/// hidden (the program asked for a value, not for a fence).
bool is_result_fence(const std::string& fence_name);

/// A fence that completes the launch just before it on the same thread, so
/// that waiting for that kernel is the launch's own work: the result fence
/// of a reduction, or a View's initialization fence after its
/// initialization kernel.
bool fence_completes_launch(const std::string& fence_name,
                            const std::string& last_launch_name);

/// How a wait in a call is classified, from the outermost Kokkos call it
/// happened in (`kind`, `name`) — or, outside every Kokkos call, from the
/// runtime call itself (kind Runtime, `api`).
WaitClass classify(CallKind kind, const std::string& name, SyncApi api);

}  // namespace Impl
}  // namespace addscope

#endif
