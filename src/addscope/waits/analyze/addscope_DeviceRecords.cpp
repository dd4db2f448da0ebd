#include "addscope/waits/analyze/addscope_DeviceRecords.hpp"

#include <cmath>

namespace addscope {
namespace Impl {

void DeviceRecords::add_kernel(const DeviceKernelRecord& r) {
  if (!std::isfinite(r.start_s) || !std::isfinite(r.end_s)) return;
  arrived_.push_back(r);
  arrived_names_.emplace_back(r.name ? r.name : "");
  arrived_.back().name = nullptr;  // the text lives in arrived_names_
}

void DeviceRecords::add_copy(const DeviceCopyRecord& r) {
  if (!std::isfinite(r.start_s) || !std::isfinite(r.end_s)) return;
  copies_.push_back(r);
}

// Ties a kernel record to its launch; false if that may still come.
bool DeviceRecords::resolve(Launches& launches, DeviceKernel& k,
                            const DeviceKernelRecord& r, double known_s,
                            bool final, bool* launch_known) {
  k.correlation = r.correlation;
  k.device = r.device;
  k.stream = r.stream;
  k.start_s = r.start_s;
  k.end_s = std::max(r.end_s, r.start_s);
  k.shape = r.shape;
  LaunchFacts* f = nullptr;
  LaunchFacts copy;
  if (PendingCorr* p = launches.find_corr(r.correlation)) {
    copy = p->facts;
    f = &copy;
    launches.done_corr(p);
  } else if (const std::uint64_t id = launches.call_of(r.correlation)) {
    f = launches.find_call(id);
    if (f) f->seen = true;
  }
  *launch_known = f != nullptr;
  if (!f && !final && !(r.start_s + kClockTolerance_s < known_s)) return false;
  if (f) {
    k.launch = f->name ? f->launch : 0;  // a deep_copy's kernel: no launch
    k.owner_call = f->owner_call;
    k.thread = f->thread;
    k.exec = f->exec;
    k.launch_s = f->launch_s;
    k.launch_end_s = f->launch_end_s;
    k.launch_stack = f->stack;
    k.name = f->name;
  } else {
    // Launched before tracing began, or by a call we do not watch.
    k.launch_s = k.launch_end_s = k.start_s;
  }
  return true;
}

std::uint32_t DeviceRecords::copy_thread(Launches& launches,
                                         const DeviceCopyRecord& r) {
  if (const std::uint64_t id = launches.call_of(r.correlation)) {
    if (const LaunchFacts* f = launches.find_call(id)) return f->thread;
    return kUnknownThread;
  }
  return launches.copy_thread(r.correlation);
}

DeviceKernel DeviceRecords::pop_front() {
  DeviceKernel k = tied_.front().value;
  auto it = from_.find(running_from(k));
  if (it != from_.end()) from_.erase(it);
  tied_.pop_front();
  return k;
}

double DeviceRecords::earliest_copy() const {
  double t = kForever;
  for (const auto& c : copies_) t = std::min(t, c.start_s);
  return t;
}

}  // namespace Impl
}  // namespace addscope
