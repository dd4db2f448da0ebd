// addscope — settling the replay (analyze/addscope_Replay.hpp), in order:
// kernel records are tied to their launches once those are known
// (analyze/addscope_DeviceRecords.hpp), blocking calls are attributed to
// the kernels they waited for once every such kernel has arrived, and calls
// and kernels are folded into the results (analyze/addscope_Fold.hpp) once
// nothing can change them any more; then the idle blame is fed up to where
// no earlier device work can still come.
#include <algorithm>
#include <cmath>

#include "addscope/waits/analyze/addscope_Replay.hpp"
#include "addscope/waits/attribution/addscope_Attribution.hpp"
#include "addscope/waits/model/addscope_TraceSink.hpp"

namespace addscope {
namespace Impl {

std::size_t Replay::pending_total() const {
  return launches_.corr_live() + records_.size() + live_calls_.size() +
         blockings_.size() + launches_.pending_count();
}

void Replay::settle(double host_s, double device_s) {
  settle_impl(host_s, device_s, false);
}

void Replay::settle_impl(double host_s, double device_s, bool force) {
  const bool final = host_s == kForever;
  // 1. Kernel records whose launch is known (or never will be).
  const double known_s = std::min(host_s, device_s);
  const double unresolved_from = records_.tie(
      launches_, names_, known_s, final || force,
      [&](const DeviceKernel& k, bool launch_known) {
        if (!feed_.on) return;
        DeviceActivity a;
        a.device = k.device;
        a.stream = k.stream;
        a.start_s = k.start_s;
        a.end_s = k.end_s;
        a.name = names_.short_id(k.name);  // readable in every section
        a.thread = launch_known ? k.thread : kUnknownThread;
        a.launch_s = launch_known ? k.launch_s : -1;
        a.launch_stack = launch_known ? k.launch_stack : 0;
        idle_.add_activity(a);
      });
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
  while (!records_.empty() && records_.front_end() <= w) {
    DeviceKernel k = records_.pop_front();
    finalize_kernel(k);
  }
  // 5. Blocking calls that ended before every unsettled kernel ran.
  double keep_from = launches_.oldest_corr_launch(host_s);
  keep_from = std::min(keep_from, unresolved_from);
  keep_from = std::min(keep_from, records_.earliest_from());
  threads_.for_each([&](HostThread& t) {
    while (!t.blocked.empty() && t.blocked.front().end_s < keep_from)
      t.blocked.pop_front();
  });
  threads_.erase_exited([](const HostThread&) { return false; });
  // 6. The idle blame: up to where no device work can still come that
  // began earlier (a launch with no record yet, a record not yet tied).
  // Copies and memsets keep the device busy: to the idle blame, once the
  // thread that made them is known (or never will be).
  records_.take_copies(
      launches_, known_s, final || force,
      [&](const DeviceCopyRecord& r, std::uint32_t thread) {
        if (!feed_.on) return;
        DeviceActivity a;
        a.device = r.device;
        a.stream = r.stream;
        a.kind = r.memset ? DeviceWork::Memset : DeviceWork::Memcpy;
        a.start_s = r.start_s;
        a.end_s = std::max(r.end_s, r.start_s);
        a.name = names_.intern(r.memset ? "memset" : "memcpy");
        a.thread = thread;
        idle_.add_activity(a);
      });
  if (final) {
    feed_.advance(threads_, last_t_, true);
    idle_.set_run_bounds(0, last_t_);
    idle_.finish();
  } else {
    double wi = std::min(std::min(w, device_s), unresolved_from);
    wi = launches_.oldest_unseen_call(wi);
    wi = std::min(wi, records_.earliest_copy());
    feed_.advance(threads_, wi);
  }
  launches_.forget_calls_before(std::min(synced_s_, device_s));
}

void Replay::enforce_cap(double now_s) {
  if (pending_total() <= lim_.pending_records) return;
  without_record_ += launches_.give_up_corr(lim_.pending_records / 2);
  settle_impl(now_s, now_s, true);
  // Records that claim to end later than now (a clock gone wrong).
  while (pending_total() > lim_.pending_records && !records_.empty()) {
    DeviceKernel k = records_.pop_front();
    finalize_kernel(k);
    ++dropped_.settled_early;
  }
  if (pending_total() > lim_.pending_records && records_.untied() > 0) {
    dropped_.settled_early += records_.untied();
    settle_impl(now_s, now_s, true);
  }
}

void Replay::attribute_blocking(LiveBlocking& lb) {
  BlockingCall& b = lb.b;
  std::vector<DeviceKernel*>& cands = scratch_cands_;
  cands.clear();
  records_.each_ending_in(b.begin_s, b.end_s + kClockTolerance_s,
                          [&](DeviceKernel& k) {
                            if (awaits(b, k)) cands.push_back(&k);
                          });
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
    owner->shares.push_back(
        {k.name, k.stream, share[i], k.launch_stack, k.shape});
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
    const double from = DeviceRecords::running_from(k);
    auto it = std::lower_bound(
        bl.begin(), bl.end(), from,
        [](const BlockingCall& b, double v) { return b.end_s < v; });
    for (; it != bl.end() && it->begin_s < k.end_s; ++it)
      k.blocked_s += blocked_during(*it, k);
  }
  // Its name's first launch: only the trace reads it.
  std::uint32_t first = 0;
  if (fold_.trace()) {
    const auto it = launch_stacks_.find(k.name);
    if (it != launch_stacks_.end()) first = it->second;
  }
  fold_.kernel(k, first);
}

}  // namespace Impl
}  // namespace addscope
