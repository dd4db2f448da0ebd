// addscope — Replay, continued: settling. Kernel records are tied to their
// launches once those are known, blocking calls are attributed to the
// kernels they waited for once every such kernel has arrived, and calls
// and kernels are folded into the ledger (and the trace) once nothing can
// change them any more.
#include <algorithm>
#include <cmath>

#include "addscope/waits/analyze/addscope_Replay.hpp"
#include "addscope/waits/attribution/addscope_Attribution.hpp"
#include "addscope/waits/model/addscope_TraceSink.hpp"

namespace addscope {
namespace Impl {

namespace {
// When a kernel began running after its launch returned.
double from_of(const DeviceKernel& k) {
  return std::max(k.start_s, k.launch_end_s);
}
}  // namespace

void Replay::device_kernel(const DeviceKernelRecord& r) {
  if (!std::isfinite(r.start_s) || !std::isfinite(r.end_s)) return;
  arrived_.push_back(r);
  arrived_names_.emplace_back(r.name ? r.name : "");
  arrived_.back().name = nullptr;  // the text lives in arrived_names_
}

// Ties a kernel record to its launch; false if that may still come.
bool Replay::resolve(DeviceKernel& k, const DeviceKernelRecord& r,
                     double known_s, bool final, bool* tied) {
  k.correlation = r.correlation;
  k.device = r.device;
  k.stream = r.stream;
  k.start_s = r.start_s;
  k.end_s = std::max(r.end_s, r.start_s);
  k.shape = r.shape;
  LaunchFacts* f = nullptr;
  LaunchFacts copy;
  if (PendingCorr* p = launches_.find_corr(r.correlation)) {
    copy = p->facts;
    f = &copy;
    launches_.done_corr(p);
  } else if (const std::uint64_t id = launches_.call_of(r.correlation)) {
    f = launches_.find_call(id);
    if (f) f->seen = true;
  }
  *tied = f != nullptr;
  if (!f && !final && !(r.start_s + kClockTolerance_s < known_s)) return false;
  if (f) {
    k.launch = f->name ? f->launch : 0;  // a deep_copy's kernel: no launch
    k.owner_call = f->owner_call;
    k.thread = f->thread;
    k.exec = f->exec;
    k.launch_s = f->launch_s;
    k.launch_end_s = f->launch_end_s;
    k.name = f->name;
  } else {
    // Launched before tracing began, or by a call we do not watch.
    k.launch_s = k.launch_end_s = k.start_s;
  }
  return true;
}

void Replay::pop_device_front() {
  auto it = device_from_.find(from_of(device_.front().value));
  if (it != device_from_.end()) device_from_.erase(it);
  device_.pop_front();
}

std::size_t Replay::pending_total() const {
  return launches_.corr_live() + device_.size() + arrived_.size() +
         arrived_copies_.size() + live_calls_.size() + blockings_.size() +
         launches_.pending_count();
}

void Replay::settle(double host_s, double device_s) {
  settle_impl(host_s, device_s, false);
}

void Replay::settle_impl(double host_s, double device_s, bool force) {
  const bool final = host_s == kForever;
  // 1. Kernel records whose launch is known (or never will be).
  const double known_s = std::min(host_s, device_s);
  double unresolved_from = kForever;
  {
    std::size_t keep = 0;
    for (std::size_t i = 0; i < arrived_.size(); ++i) {
      DeviceKernel k;
      bool tied = false;
      if (resolve(k, arrived_[i], known_s, final || force, &tied)) {
        if (k.name == 0) k.name = names_.intern(arrived_names_[i]);
        device_from_.insert(from_of(k));
        device_.insert(k.end_s, k);
        if (feed_.on) {
          DeviceActivity a;
          a.device = k.device;
          a.stream = k.stream;
          a.start_s = k.start_s;
          a.end_s = k.end_s;
          a.name = k.name;
          a.thread = tied ? k.thread : kUnknownThread;
          a.launch_s = tied ? k.launch_s : -1;
          idle_.add_activity(a);
        }
      } else {
        unresolved_from = std::min(unresolved_from, arrived_[i].start_s);
        arrived_[keep] = arrived_[i];
        arrived_names_[keep] = std::move(arrived_names_[i]);
        ++keep;
      }
    }
    arrived_.resize(keep);
    arrived_names_.resize(keep);
  }
  // 2. The moment before which nothing can change any more.
  double w = host_s;
  if (final) {
    without_record_ += launches_.give_up_corr(0);
  } else {
    threads_.for_each([&](const HostThread& t) {
      if (t.blocking_depth > 0) w = std::min(w, t.blocking.begin_s);
    });
    w = launches_.oldest_corr_launch(w);
    w = std::min(w, unresolved_from);
  }
  const double pinned = w;
  if (force) w = host_s;
  // 3. Blocking calls whose kernels have all arrived, in time order.
  while (!blockings_.empty() && blockings_.front().key < w) {
    if (!force &&
        blockings_.front().value.b.end_s + kClockTolerance_s > device_s) {
      w = std::min(w, blockings_.front().key);
      break;
    }
    if (force && !(blockings_.front().key < pinned)) ++dropped_.settled_early;
    LiveBlocking lb = std::move(blockings_.front().value);
    blockings_.pop_front();
    attribute_blocking(lb);
  }
  // 4. Calls and kernels that can no longer change.
  if (final)
    for (auto& c : live_calls_)
      if (c.second.awaiting_next_event) {
        c.second.awaiting_next_event = false;
        live_by_end_.insert(c.second.end_s, c.first);
      }
  while (!live_by_end_.empty() && live_by_end_.front().key <= w) {
    const std::uint64_t id = live_by_end_.front().value;
    live_by_end_.pop_front();
    auto it = live_calls_.find(id);
    if (it == live_calls_.end()) continue;
    fold_.call(it->second);
    live_calls_.erase(it);
  }
  while (!device_.empty() && device_.front().key <= w) {
    DeviceKernel k = device_.front().value;
    pop_device_front();
    finalize_kernel(k);
  }
  // 5. Blocking calls that ended before every unsettled kernel ran.
  double keep_from = launches_.oldest_corr_launch(host_s);
  keep_from = std::min(keep_from, unresolved_from);
  if (!device_from_.empty())
    keep_from = std::min(keep_from, *device_from_.begin());
  threads_.for_each([&](HostThread& t) {
    while (!t.blocked.empty() && t.blocked.front().end_s < keep_from)
      t.blocked.pop_front();
  });
  threads_.erase_exited([](const HostThread&) { return false; });
  // 6. The idle blame: up to where no device work can still come that
  // began earlier (a launch with no record yet, a record not yet tied).
  feed_copies(known_s, final || force);
  if (final) {
    feed_.advance(threads_, last_t_);
    idle_.set_run_bounds(0, last_t_);
    idle_.finish();
  } else {
    double wi = std::min(std::min(w, device_s), unresolved_from);
    wi = launches_.oldest_unseen_call(wi);
    for (const auto& c : arrived_copies_) wi = std::min(wi, c.start_s);
    feed_.advance(threads_, wi);
  }
  launches_.forget_calls_before(std::min(synced_s_, device_s));
}

void Replay::device_copy(const DeviceCopyRecord& r) {
  if (!std::isfinite(r.start_s) || !std::isfinite(r.end_s)) return;
  arrived_copies_.push_back(r);
}

// Copies and memsets keep the device busy: to the idle blame, once the
// thread that made them is known (or never will be).
void Replay::feed_copies(double known_s, bool final) {
  std::size_t keep = 0;
  for (std::size_t i = 0; i < arrived_copies_.size(); ++i) {
    const DeviceCopyRecord& r = arrived_copies_[i];
    std::uint32_t thread = kUnknownThread;
    if (const std::uint64_t id = launches_.call_of(r.correlation)) {
      if (const LaunchFacts* f = launches_.find_call(id)) thread = f->thread;
    } else {
      thread = launches_.copy_thread(r.correlation);
    }
    if (thread == kUnknownThread && !final &&
        !(r.start_s + kClockTolerance_s < known_s)) {
      arrived_copies_[keep++] = r;  // its call may still be read
      continue;
    }
    if (feed_.on) {
      DeviceActivity a;
      a.device = r.device;
      a.stream = r.stream;
      a.kind = r.memset ? DeviceWork::Memset : DeviceWork::Memcpy;
      a.start_s = r.start_s;
      a.end_s = std::max(r.end_s, r.start_s);
      a.name = names_.intern(r.memset ? "memset" : "memcpy");
      a.thread = thread;
      idle_.add_activity(a);
    }
  }
  arrived_copies_.resize(keep);
}

void Replay::enforce_cap(double now_s) {
  if (pending_total() <= lim_.pending_records) return;
  without_record_ += launches_.give_up_corr(lim_.pending_records / 2);
  settle_impl(now_s, now_s, true);
  // Records that claim to end later than now (a clock gone wrong).
  while (pending_total() > lim_.pending_records && !device_.empty()) {
    DeviceKernel k = device_.front().value;
    pop_device_front();
    finalize_kernel(k);
    ++dropped_.settled_early;
  }
  if (pending_total() > lim_.pending_records && !arrived_.empty()) {
    dropped_.settled_early += arrived_.size();
    settle_impl(now_s, now_s, true);
  }
}

void Replay::attribute_blocking(LiveBlocking& lb) {
  BlockingCall& b = lb.b;
  std::vector<DeviceKernel*>& cands = scratch_cands_;
  cands.clear();
  for (auto it = device_.upper_bound(b.begin_s);
       it != device_.end() && it->key <= b.end_s + kClockTolerance_s; ++it)
    if (awaits(b, it->value)) cands.push_back(&it->value);
  scratch_ccands_.assign(cands.begin(), cands.end());
  const auto share = split_wait(b, scratch_ccands_);
  // The thread sat here: what ran meanwhile was not overlapped by host
  // work (summed per kernel when it is settled).
  if (HostThread* t = threads_.find(b.thread)) t->blocked.push_back(b);
  Charge* owner = charge_of(b.call, b.thread);
  const bool own_call =
      owner && owner->kind == CallKind::Runtime && owner->begin_s == b.begin_s;
  TraceSink* tr = fold_.trace();
  if (tr && !own_call)
    tr->host_slice(b.thread, names_[lb.via], "runtime", b.begin_s,
                       b.end_s);
  double total = 0;
  for (std::size_t i = 0; i < cands.size(); ++i) {
    if (share[i] <= 0) continue;
    DeviceKernel& k = *cands[i];
    k.waited_s += share[i];
    if (!owner) continue;
    if ((k.owner_call != 0 && k.owner_call == b.call) ||
        (owner->own_launch != 0 && k.launch == owner->own_launch))
      continue;  // a call waiting for its own kernel: its own work
    owner->shares.push_back({k.name, k.stream, share[i]});
    total += share[i];
    if (tr) {
      const double ke = std::min(k.end_s, b.end_s);
      const double kt =
          std::max(k.start_s, ke - std::min(0.5e-6, 0.5 * k.device_s()));
      const double margin = std::min(0.5e-6, 0.5 * (b.end_s - b.begin_s));
      const double ct =
          std::min(std::max(ke, b.begin_s + margin), b.end_s - margin);
      tr->flow(k.device, k.stream, kt, b.thread, ct);
    }
  }
  if (owner && total > owner->via_wait_s) {
    owner->via_wait_s = total;
    owner->via = lb.via;
  }
}

void Replay::finalize_kernel(DeviceKernel& k) {
  if (HostThread* t = threads_.find(k.thread)) {
    const auto& bl = t->blocked;
    const double from = from_of(k);
    auto it = std::lower_bound(
        bl.begin(), bl.end(), from,
        [](const BlockingCall& b, double v) { return b.end_s < v; });
    for (; it != bl.end() && it->begin_s < k.end_s; ++it)
      k.blocked_s += blocked_during(*it, k);
  }
  fold_.kernel(k);
}

}  // namespace Impl
}  // namespace addscope
