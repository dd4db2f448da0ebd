#include "addscope/waits/attribution/addscope_Attribution.hpp"

#include <algorithm>

namespace addscope {
namespace Impl {

bool awaits(const BlockingCall& b, const DeviceKernel& k, double tolerance_s) {
  if (k.device != b.device) return false;
  if (!b.all_streams && k.stream != b.stream) return false;
  // A launch waits for nothing by itself: one that returned right after a
  // kernel ended was held back by it (the legacy stream); others were slow
  // for their own reasons (loading the kernel).
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

bool is_user_fence(const std::string& name) {
  if (!starts_with(name, "Kokkos::")) return true;
  // Kokkos::fence() and exec.fence() without a name; Kokkos' own internal
  // fences carry "Internal" ("Kokkos::CudaInternal::fence(): Unnamed
  // Instance Fence") or say what they are for.
  if (name.find("Internal") != std::string::npos) return false;
  return ends_with(name, "Unnamed Global Fence") ||
         ends_with(name, "Unnamed Instance Fence");
}

bool is_result_fence(const std::string& name) {
  return name.find("fence due to result being value") != std::string::npos;
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
      return is_user_fence(name) || is_result_fence(name) ? WaitClass::Explicit
                                                          : WaitClass::Hidden;
    case CallKind::Runtime:
      return is_synchronization(api) ? WaitClass::Explicit : WaitClass::Hidden;
    default:
      return WaitClass::Hidden;
  }
}

}  // namespace Impl
}  // namespace addscope
