#include "addscope/waits/attribution/addscope_Attribution.hpp"

#include <algorithm>

namespace addscope {
namespace Impl {

bool awaits(const BlockingCall& b, const DeviceKernel& k, double tolerance_s) {
  if (k.device != b.device) return false;
  if (!b.all_streams && k.stream != b.stream) return false;
  // Its own work (a slow launch's kernel) is not what a call waited for.
  if (b.correlation != 0 && k.correlation == b.correlation) return false;
  // A launch waits for nothing by itself: one that returned soon after a
  // kernel ended was held back by it (the legacy stream, lazy loading of
  // its module); others were slow for their own reasons.
  if (b.api == SyncApi::Launch && k.end_s < b.end_s - kLaunchReturn_s)
    return false;
  return k.launch_s < b.begin_s && k.end_s > b.begin_s &&
         k.end_s <= b.end_s + tolerance_s;
}

std::vector<double> split_wait(
    const BlockingCall& b, const std::vector<const DeviceKernel*>& candidates) {
  const std::size_t n = candidates.size();
  std::vector<double> share(n, 0.0);
  if (n == 0) return share;
  if (n == 1) {  // the common case: one kernel, waited for until its end
    share[0] =
        std::max(0.0, std::min(candidates[0]->end_s, b.end_s) - b.begin_s);
    return share;
  }
  struct Ev {
    double t;
    int start;  // 1: start, 0: end (ends first at equal times)
    std::size_t i;
  };
  std::vector<Ev> ev;
  ev.reserve(2 * n);
  double last_end = b.begin_s;
  for (std::size_t i = 0; i < n; ++i) {
    const double e = std::min(candidates[i]->end_s, b.end_s);
    const double s = std::min(std::max(candidates[i]->start_s, b.begin_s), e);
    ev.push_back({s, 1, i});
    ev.push_back({e, 0, i});
    last_end = std::max(last_end, e);
  }
  std::sort(ev.begin(), ev.end(), [](const Ev& a, const Ev& c) {
    return a.t != c.t ? a.t < c.t : a.start < c.start;
  });
  std::vector<std::size_t> active;
  double prev = b.begin_s, gap = 0;
  for (const Ev& e : ev) {
    const double t = std::min(e.t, last_end);
    const double seg = t - prev;
    if (seg > 0) {
      if (active.empty()) {
        gap += seg;  // nothing running: waiting for the next one to start
      } else {
        for (std::size_t i : active) share[i] += seg / double(active.size());
      }
      prev = t;
    }
    if (e.start) {
      share[e.i] += gap;
      gap = 0;
      active.push_back(e.i);
    } else {
      auto it = std::find(active.begin(), active.end(), e.i);
      if (it != active.end()) active.erase(it);
    }
  }
  return share;
}

double overlap_s(const DeviceKernel& k) {
  const double from = std::max(k.start_s, k.launch_end_s);
  return std::max(0.0, (k.end_s - from) - k.blocked_s);
}

double blocked_during(const BlockingCall& b, const DeviceKernel& k) {
  if (b.thread != k.thread) return 0;
  const double from = std::max(k.start_s, k.launch_end_s);
  return std::max(0.0, std::min(b.end_s, k.end_s) - std::max(b.begin_s, from));
}

namespace {
bool starts_with(const std::string& s, const char* p) {
  return s.rfind(p, 0) == 0;
}
bool ends_with(const std::string& s, const std::string& p) {
  return s.size() >= p.size() &&
         s.compare(s.size() - p.size(), p.size(), p) == 0;
}
}  // namespace

// Kokkos' fence labels, checked against the sources (every `fence("...")`,
// `exec.fence(...)`, `impl_static_fence(...)`, `cuda_device_synchronize
// (...)`, `profile_fence_event(...)` with a label in core/, containers/,
// algorithms/ and simd/):
//
// Kokkos 4.6.99 (develop). The program's fences, explicit:
//   "Kokkos::fence: Unnamed Global Fence"               Kokkos::fence()
//   "Kokkos::<Space>::fence: Unnamed Instance Fence"    exec.fence(), for
//   "Kokkos::<Space>::fence(): Unnamed Instance Fence"  Serial, OpenMP,
//     Threads, Cuda, HIP, SYCL, OpenMPTarget, OpenACC, Experimental::HPX
//   any name the program passes to Kokkos::fence(name) / exec.fence(name).
// Kokkos' own fences, hidden:
//   "Kokkos::..." — deep_copy ("Kokkos::deep_copy: copy between contiguous
//     views, pre view equality check", "... post copy fence", "scalar
//     copy, ...", "view-to-view noncontiguous copy on space, ..."),
//     "Kokkos::Impl::DeepCopy<...>::DeepCopy: fence before copy",
//     "Kokkos::Impl::DeepCopyAsyncCuda: Deep Copy Stream Sync", View
//     initialization/destruction ("Kokkos::View::initialization",
//     "Kokkos::View::initialization via memset", "Kokkos::View::destruction
//     before deallocate"), reductions/scans ("Kokkos::parallel_reduce: fence
//     due to result being value, not view", "Kokkos::parallel_scan: fence due
//     to result being a value, not a view", "Kokkos::parallel_reduce: fence
//     after copying values back", "Kokkos::Impl::ParallelReduce<Cuda,
//     RangePolicy>::execute: Result Not Device Accessible"), allocation
//     ("Kokkos::Cuda: backend fence after async malloc", "... before/after
//     async free", "Kokkos::CudaUVMSpace::impl_allocate: Pre/Post UVM
//     Allocation", "...impl_deallocate: Pre/Post UVM Deallocation"),
//     "Kokkos::DualView<>::sync: fence after syncing DualView",
//     "Kokkos::create_mirror_view_and_copy: fence before returning src view",
//     "Kokkos::resize(View)", containers ("Kokkos::UnorderedMap::...",
//     "Kokkos::vector::assign: ...", "Kokkos::StaticCrsGraph::...",
//     "Kokkos::Experimental::ErrorReporter::resize: ..."), algorithms
//     ("Kokkos::sort: before", "Kokkos::Sort: fence after sorting",
//     "Kokkos::BinSort:sort: after", "Kokkos::copy: fence after operation"
//     and every std algorithm), graphs ("Kokkos::GraphImpl::~GraphImpl: Graph
//     Destruction", "Kokkos::DefaultGraph::submit: ..."), tools
//     ("Kokkos::Tools::invoke_kokkosp_callback: Kokkos Profile Tool Fence"),
//     task scheduling, WorkGraphPolicy, Crs; and the back-ends' internal
//     instance fences, which end like the program's but name the Internal
//     class ("Kokkos::CudaInternal::fence(): Unnamed Instance Fence",
//     "Kokkos::ThreadsInternal::fence: Unnamed Instance Fence",
//     "Kokkos::HIPInternal::fence: Unnamed Internal Fence", "Kokkos::
//     Experimental::Impl::OpenMPTargetInternal::fence: Unnamed Internal
//     Fence").
//   Labels that do not start with "Kokkos::" — kKokkosInternalPrefixes below:
//     "SharedAllocationRecord<Kokkos::CudaSpace, void>::SharedAllocationRecord
//     (): fence after copying header from HostSpace" (every View allocated
//     in a device space), "SharedAllocationRecord<Cuda, void>::
//     reallocate_tracked(): fence after copying data",
//     "HostInaccessibleSharedAllocationRecordCommon::get_record(): ...",
//     "...::print_records(): ...", "MemoryPool::MemoryPool(): ...",
//     "MemoryPool::get_usage_statistics(): ...", "MemoryPool::print_state
//     (): ...", "HostSpace::impl_deallocate before free", "HostSpace fence",
//     "Bitset::set: ...", "DynamicView::DynamicView(): ...",
//     "DynamicView::resize_serial: ...", "Random_XorShift64_Pool: Constructor",
//     "Random_XorShift64_Pool::init", "Random_XorShift1024_Pool...",
//     "fill_random: fence before/after since no execution space instance
//     provided".
//
// Kokkos 3.4.01 (Kokkos Tools interface 20210225): kokkosp_begin_fence is
// looked up but never called and every internal fence is an unnamed
// `fence()` — 3.4 reports no fences and gives no labels. Its fences reach
// the tool only as the CUDA calls they make (classify(Runtime, ...)):
// inside a Kokkos call they are charged to it (deep_copy's fences: hidden;
// View initialization's fence: inside its parallel_for, the launch's own
// work); the allocation's header copy is a synchronous cudaMemcpy (hidden);
// the few outside every Kokkos call (the CudaUVMSpace View constructor's
// fences, DualView::sync's fence when both sides share a memory space, the
// reduction-result fence after parallel_reduce ends) are
// cudaDeviceSynchronize / cudaStreamSynchronize calls no tool can tell from
// the program's own Kokkos::fence(): explicit.
namespace {
const char* const kKokkosInternalPrefixes[] = {
    "SharedAllocationRecord<",
    "HostInaccessibleSharedAllocationRecordCommon::",
    "MemoryPool::",
    "HostSpace::",
    "HostSpace fence",
    "Bitset::",
    "DynamicView::",
    "Random_XorShift",
    "fill_random:",
};
}  // namespace

bool is_kokkos_internal_fence(const std::string& name) {
  if (starts_with(name, "Kokkos::")) {
    // Kokkos::fence() and exec.fence() without a name; the back-ends'
    // internal instance fences end the same way but name the Internal
    // class.
    if (name.find("Internal") != std::string::npos) return true;
    return !(ends_with(name, "Unnamed Global Fence") ||
             ends_with(name, "Unnamed Instance Fence"));
  }
  for (const char* p : kKokkosInternalPrefixes)
    if (starts_with(name, p)) return true;
  return false;
}

bool is_user_fence(const std::string& name) {
  return !is_kokkos_internal_fence(name);
}

bool is_result_fence(const std::string& name) {
  return starts_with(name, "Kokkos::parallel_reduce: fence due to result") ||
         starts_with(name, "Kokkos::parallel_scan: fence due to result");
}

bool fence_completes_launch(const std::string& fence,
                            const std::string& launch) {
  if (is_result_fence(fence)) return true;
  const char* init = "Kokkos::View::initialization";
  return starts_with(fence, init) && starts_with(launch, init);
}

WaitClass classify(CallKind kind, const std::string& name, SyncApi api) {
  switch (kind) {
    case CallKind::Fence:
      // A reduction's result fence is Kokkos': hidden (waiting there for
      // the reduction itself is the launch's own work, not a wait).
      return is_user_fence(name) ? WaitClass::Explicit : WaitClass::Hidden;
    case CallKind::Runtime:
      return is_synchronization(api) ? WaitClass::Explicit : WaitClass::Hidden;
    default:
      return WaitClass::Hidden;
  }
}

}  // namespace Impl
}  // namespace addscope
