#include "addscope/waits/addscope_SyncTracker.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <ostream>

namespace addscope {

DeviceKind device_kind_from_tools_id(std::uint32_t dev_id) {
  const std::uint32_t t = (dev_id >> 24) & 0x7f;
  return t < std::uint32_t(DeviceKind::Unknown) ? DeviceKind(t)
                                                : DeviceKind::Unknown;
}

const char* device_kind_name(DeviceKind k) {
  switch (k) {
    case DeviceKind::Serial:
      return "Serial";
    case DeviceKind::OpenMP:
      return "OpenMP";
    case DeviceKind::Cuda:
      return "Cuda";
    case DeviceKind::HIP:
      return "HIP";
    case DeviceKind::OpenMPTarget:
      return "OpenMPTarget";
    case DeviceKind::HPX:
      return "HPX";
    case DeviceKind::Threads:
      return "Threads";
    case DeviceKind::SYCL:
      return "SYCL";
    default:
      return "Unknown";
  }
}

bool is_async(DeviceKind k) {
  return k == DeviceKind::Cuda || k == DeviceKind::HIP ||
         k == DeviceKind::SYCL || k == DeviceKind::OpenMPTarget;
}

std::string format_seconds(double s) {
  char buf[64];
  const double a = s < 0 ? -s : s;
  if (a >= 1.0)
    std::snprintf(buf, sizeof buf, "%.3f s", s);
  else if (a >= 1e-3)
    std::snprintf(buf, sizeof buf, "%.1f ms", s * 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.1f us", s * 1e6);
  return buf;
}

std::string format_attribution(const CallRecord& c) {
  std::string line = c.what + "  " + format_seconds(c.duration_s());
  if (c.waited_for.empty())
    return line + " (no earlier device work waited for)";
  line += " = " + format_seconds(c.wait_s) + " waiting for ";
  for (std::size_t i = 0; i < c.waited_for.size(); ++i) {
    if (i) line += ", ";
    line += c.waited_for[i].kernel;
    if (c.waited_for.size() > 1)
      line += " (" + format_seconds(c.waited_for[i].wait_s) + ")";
  }
  line += " + " + format_seconds(std::max(0.0, c.own_s())) + " own";
  return line;
}

// ---------------------------------------------------------------------------
struct SyncTracker::Pending {
  std::size_t kernel;  // index into kernels_
  Impl::DeviceMark start, end;
  bool launched = false;  // kernel_end seen
};

struct SyncTracker::OpenCall {
  std::uint64_t id;
  CallRecord rec;
  std::vector<std::size_t> pending_at_begin;  // kernel indices
};

namespace {
using Clock = std::chrono::steady_clock;
const Clock::time_point& epoch() {
  static const Clock::time_point t0 = Clock::now();
  return t0;
}
}  // namespace

SyncTracker& SyncTracker::global() {
  static SyncTracker t;
  return t;
}

SyncTracker::SyncTracker(bool use_device_probe) : use_probe_(use_device_probe) {
  (void)epoch();
}
SyncTracker::SyncTracker(std::unique_ptr<Impl::DeviceProbe> probe)
    : probe_(std::move(probe)), probe_tried_(true) {
  (void)epoch();
}
SyncTracker::~SyncTracker() {
  if (probe_)
    for (auto& p : pending_) {
      probe_->release(p->start);
      probe_->release(p->end);
    }
}

double SyncTracker::now() const {
  return std::chrono::duration<double>(Clock::now() - epoch()).count();
}

Impl::DeviceProbe& SyncTracker::probe_locked() {
  // Made lazily, on the first asynchronous kernel: by then the program has
  // a CUDA context current on its thread.
  if (!probe_ || (use_probe_ && !probe_->available() && !probe_tried_)) {
    probe_ = use_probe_ ? Impl::DeviceProbe::make_cuda()
                        : Impl::DeviceProbe::make_none();
    probe_tried_ = probe_->available();
  }
  return *probe_;
}

void SyncTracker::set_fed_by_kokkos_tools(bool on) {
  std::lock_guard<std::mutex> g(mu_);
  fed_by_tools_ = on;
}
bool SyncTracker::fed_by_kokkos_tools() const {
  std::lock_guard<std::mutex> g(mu_);
  return fed_by_tools_;
}

void SyncTracker::poll() {
  std::lock_guard<std::mutex> g(mu_);
  poll_locked(now());
}

void SyncTracker::poll_locked(double t) {
  // The device runs its queue in order: stop at the first unfinished kernel.
  std::size_t done = 0;
  for (; done < pending_.size(); ++done) {
    Pending& p = *pending_[done];
    if (!p.launched) break;
    KernelRecord& k = kernels_[p.kernel];
    const bool no_probe = !probe_ || !probe_->available();
    if (no_probe) break;  // finished only when a fence says so
    if (!probe_->reached(p.end)) break;
    k.device_s = probe_->elapsed_s(p.start, p.end);
    k.done_by_s = t;
    probe_->release(p.start);
    probe_->release(p.end);
  }
  for (std::size_t i = 0; i < done; ++i) {
    KernelRecord& k = kernels_[pending_[i]->kernel];
    // Estimated finish on the host clock: the queue starts the kernel once
    // it was launched and the one before it finished.
    double fin = k.done_by_s;
    if (k.device_s >= 0)
      fin = std::max(k.launch_begin_s, last_fin_s_) + k.device_s;
    fin = std::min(std::max(fin, k.launch_end_s), k.done_by_s);
    k.done_by_s = fin;  // from here on: estimated finish time
    last_fin_s_ = std::max(last_fin_s_, fin);
  }
  pending_.erase(pending_.begin(), pending_.begin() + std::ptrdiff_t(done));
}

void SyncTracker::note_event_locked(double t, const std::string& what) {
  // Kernels that finished since the last event, while no call was open,
  // were waited for (or overlapped) by code that Kokkos does not report.
  std::vector<std::size_t> was;
  for (auto& p : pending_)
    if (p->launched) was.push_back(p->kernel);
  poll_locked(t);
  if (open_.empty() && !was.empty()) {
    CallRecord gap;
    // Kokkos 3.4 reports no fences to tools, and reading a device View's
    // label (create_mirror_view does) is a blocking copy: such waits land
    // between the events Kokkos does report.
    gap.what =
        "unreported host code between '" + last_event_ + "' and '" + what + "'";
    gap.kind = "gap";
    gap.begin_s = last_event_s_;
    gap.end_s = t;
    attribute_locked(gap, was);
    if (!gap.waited_for.empty()) push_call_locked(std::move(gap));
  }
  last_event_s_ = t;
  last_event_ = what;
}

void SyncTracker::attribute_locked(CallRecord& c,
                                   const std::vector<std::size_t>& was) {
  for (std::size_t idx : was) {
    KernelRecord& k = kernels_[idx];
    if (k.done_by_s < 0 || !k.absorbed_by.empty()) continue;  // still running
    const double fin = k.done_by_s;
    if (fin <= c.begin_s) continue;  // finished before the call began
    const double start = k.device_s >= 0 ? fin - k.device_s : k.launch_end_s;
    const double share =
        std::max(0.0, std::min(fin, c.end_s) - std::max(start, c.begin_s));
    k.absorbed_by = c.what;
    if (share <= 0) continue;
    c.waited_for.push_back({k.name, share});
    c.wait_s += share;
  }
  c.wait_s = std::min(c.wait_s, c.duration_s());
}

void SyncTracker::push_call_locked(CallRecord c) {
  ++calls_seen_;
  if (calls_.size() >= max_records_) {
    // Keep what matters for the report: waits and long calls.
    calls_.erase(std::remove_if(calls_.begin(), calls_.end(),
                                [](const CallRecord& r) {
                                  return r.waited_for.empty() &&
                                         r.duration_s() < 1e-3;
                                }),
                 calls_.end());
    if (calls_.size() >= max_records_) calls_.erase(calls_.begin());
  }
  calls_.push_back(std::move(c));
}

std::uint64_t SyncTracker::kernel_begin(const std::string& name,
                                        DeviceKind device) {
  std::lock_guard<std::mutex> g(mu_);
  const double t = now();
  note_event_locked(t, name);
  KernelRecord k;
  ++kernels_seen_;
  k.id = next_id_++;
  k.name = name;
  k.device = device;
  k.launch_begin_s = t;
  if (kernels_.size() >= max_records_) {
    // Forget old finished kernels; pending ones are referenced by index.
    if (pending_.empty() && open_.empty()) kernels_.clear();
  }
  kernels_.push_back(k);
  if (is_async(device)) {
    auto p = std::unique_ptr<Pending>(new Pending);
    p->kernel = kernels_.size() - 1;
    p->start = probe_locked().mark();
    pending_.push_back(std::move(p));
  } else {
    // A host kernel is a call the host sits in: open it like one.
    auto oc = std::unique_ptr<OpenCall>(new OpenCall);
    oc->id = k.id;
    oc->rec.what = name;
    oc->rec.kind = "kernel";
    oc->rec.begin_s = t;
    for (auto& p : pending_)
      if (p->launched) oc->pending_at_begin.push_back(p->kernel);
    open_.push_back(std::move(oc));
  }
  return k.id;
}

void SyncTracker::kernel_end(std::uint64_t kernel_id) {
  std::lock_guard<std::mutex> g(mu_);
  const double t = now();
  for (auto it = pending_.rbegin(); it != pending_.rend(); ++it) {
    KernelRecord& k = kernels_[(*it)->kernel];
    if (k.id == kernel_id && !(*it)->launched) {
      (*it)->end = probe_locked().mark();
      (*it)->launched = true;
      k.launch_end_s = t;
      last_event_s_ = t;
      last_event_ = "launch of " + k.name;
      return;
    }
  }
  for (auto k = kernels_.rbegin(); k != kernels_.rend(); ++k)  // newest first
    if (k->id == kernel_id) {
      k->launch_end_s = t;
      k->done_by_s = t;
      k->device_s = t - k->launch_begin_s;
      break;
    }
  for (auto it = open_.rbegin(); it != open_.rend(); ++it)
    if ((*it)->id == kernel_id) {
      poll_locked(t);
      CallRecord rec = (*it)->rec;
      rec.end_s = t;
      attribute_locked(rec, (*it)->pending_at_begin);
      open_.erase(std::next(it).base());
      last_event_s_ = t;
      last_event_ = "end of " + rec.what;
      push_call_locked(std::move(rec));
      return;
    }
}

std::uint64_t SyncTracker::call_begin(const std::string& what,
                                      const std::string& kind) {
  std::lock_guard<std::mutex> g(mu_);
  const double t = now();
  note_event_locked(t, what);
  auto oc = std::unique_ptr<OpenCall>(new OpenCall);
  oc->id = next_id_++;
  oc->rec.what = what;
  // A call inside another (a fence inside a deep_copy) names its parent.
  if (!open_.empty() && kind != "region")
    oc->rec.what += " (in " + open_.back()->rec.what + ")";
  oc->rec.kind = kind;
  oc->rec.begin_s = t;
  for (auto& p : pending_)
    if (p->launched) oc->pending_at_begin.push_back(p->kernel);
  const std::uint64_t id = oc->id;
  open_.push_back(std::move(oc));
  return id;
}

void SyncTracker::call_end(std::uint64_t call_id) {
  std::lock_guard<std::mutex> g(mu_);
  const double t = now();
  for (auto it = open_.rbegin(); it != open_.rend(); ++it) {
    if ((*it)->id != call_id) continue;
    CallRecord rec = (*it)->rec;
    rec.end_s = t;
    const bool fences = rec.kind == "fence" || rec.kind == "deep_copy";
    if (fences && (!probe_ || !probe_->available())) {
      // No way to ask the device: a fence or deep_copy finished all work.
      for (auto& p : pending_) {
        KernelRecord& k = kernels_[p->kernel];
        if (p->launched) k.done_by_s = t;
      }
      pending_.erase(std::remove_if(pending_.begin(), pending_.end(),
                                    [](const std::unique_ptr<Pending>& p) {
                                      return p->launched;
                                    }),
                     pending_.end());
    } else {
      poll_locked(t);
    }
    attribute_locked(rec, (*it)->pending_at_begin);
    const std::string what = rec.what;
    open_.erase(std::next(it).base());
    push_call_locked(std::move(rec));
    last_event_s_ = t;
    last_event_ = "end of " + what;
    return;
  }
}

void SyncTracker::instant(const std::string& what) {
  std::lock_guard<std::mutex> g(mu_);
  note_event_locked(now(), what);
}

std::uint64_t SyncTracker::kernels_seen() const {
  std::lock_guard<std::mutex> g(mu_);
  return kernels_seen_;
}
std::uint64_t SyncTracker::calls_seen() const {
  std::lock_guard<std::mutex> g(mu_);
  return calls_seen_;
}

std::vector<KernelRecord> SyncTracker::kernels() const {
  std::lock_guard<std::mutex> g(mu_);
  return kernels_;
}

std::vector<CallRecord> SyncTracker::calls() const {
  std::lock_guard<std::mutex> g(mu_);
  return calls_;
}

std::vector<CallRecord> SyncTracker::blocking_calls(double min_s) const {
  std::vector<CallRecord> out;
  {
    std::lock_guard<std::mutex> g(mu_);
    for (const auto& c : calls_)
      if (c.duration_s() >= min_s) out.push_back(c);
  }
  std::stable_sort(
      out.begin(), out.end(), [](const CallRecord& a, const CallRecord& b) {
        return a.wait_s != b.wait_s ? a.wait_s > b.wait_s
                                    : a.duration_s() > b.duration_s();
      });
  return out;
}

void SyncTracker::clear() {
  std::lock_guard<std::mutex> g(mu_);
  if (probe_)
    for (auto& p : pending_) {
      probe_->release(p->start);
      probe_->release(p->end);
    }
  pending_.clear();
  open_.clear();
  kernels_.clear();
  calls_.clear();
  kernels_seen_ = calls_seen_ = 0;
  last_event_.clear();
  last_event_s_ = now();
  last_fin_s_ = 0;
}

void SyncTracker::write_report(std::ostream& os, std::size_t top,
                               double min_s) const {
  const auto calls = blocking_calls(min_s);
  std::size_t waits = 0;
  for (const auto& c : calls) waits += c.waited_for.empty() ? 0 : 1;
  os << "addscope waits: " << kernels_seen() << " kernels, " << calls_seen()
     << " calls; " << calls.size() << " took " << format_seconds(min_s)
     << " or more; " << waits << " waited for earlier device work\n";
  if (waits == 0)
    os << "  nothing blocked beyond each call's own work (kernels on a host "
          "backend run synchronously inside their launch)\n";
  std::size_t shown = 0;
  for (const auto& c : calls) {
    if (shown++ >= top) break;
    char head[48];
    std::snprintf(head, sizeof head, "  %-9s ", c.kind.c_str());
    os << head << format_attribution(c) << "\n";
  }
}

std::string SyncTracker::report_json(double min_s) const {
  nlohmann::json j;
  j["kernels_seen"] = kernels_seen();
  j["calls_seen"] = calls_seen();
  j["kernels"] = nlohmann::json::array();
  for (const auto& k : kernels())
    j["kernels"].push_back({{"name", k.name},
                            {"device", device_kind_name(k.device)},
                            {"launch_begin_s", k.launch_begin_s},
                            {"launch_s", k.launch_end_s - k.launch_begin_s},
                            {"device_s", k.device_s},
                            {"finished_s", k.done_by_s},
                            {"absorbed_by", k.absorbed_by}});
  j["calls"] = nlohmann::json::array();
  for (const auto& c : blocking_calls(min_s)) {
    nlohmann::json w = nlohmann::json::array();
    for (const auto& s : c.waited_for)
      w.push_back({{"kernel", s.kernel}, {"wait_s", s.wait_s}});
    j["calls"].push_back({{"what", c.what},
                          {"kind", c.kind},
                          {"begin_s", c.begin_s},
                          {"duration_s", c.duration_s()},
                          {"wait_s", c.wait_s},
                          {"own_s", c.own_s()},
                          {"waited_for", w},
                          {"line", format_attribution(c)}});
  }
  return j.dump(2);
}

}  // namespace addscope
