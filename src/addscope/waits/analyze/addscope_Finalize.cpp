// addscope — Replay, continued: a call folded into the ledger (and the
// trace) once its waits are known; the results as the snapshot reads them.
#include <algorithm>

#include "addscope/waits/analyze/addscope_Replay.hpp"
#include "addscope/waits/model/addscope_TraceSink.hpp"

namespace addscope {
namespace Impl {

void Replay::finalize_call(std::uint64_t id, CallKind kind, std::uint32_t what,
                           std::uint32_t site, std::uint32_t regions,
                           std::uint32_t context, std::uint32_t via,
                           SyncApi api, std::uint32_t thread, double begin_s,
                           double end_s, bool bound,
                           std::vector<Share>& shares) {
  const double dur = std::max(0.0, end_s - begin_s);
  // Merge the shares by kernel name, longest first.
  std::vector<Share> merged;
  if (shares.size() <= 1) {
    merged.swap(shares);
  } else {
    for (const auto& s : shares) {
      auto it = std::find_if(merged.begin(), merged.end(), [&](const Share& m) {
        return m.kernel == s.kernel;
      });
      if (it == merged.end())
        merged.push_back(s);
      else
        it->wait_s += s.wait_s;
    }
    std::sort(merged.begin(), merged.end(), [](const Share& a, const Share& b) {
      return a.wait_s > b.wait_s;
    });
  }
  double wait = 0;
  for (const auto& s : merged) wait += s.wait_s;
  wait = std::min(wait, dur);
  const WaitClass cls = wait > 0 ? classify(kind, what, api) : WaitClass::None;
  const std::uint32_t st = site ? site : what;
  ledger_.add_call({kind, st, regions}, names_[st], names_[regions], thread,
                   dur, cls, wait);
  if (wait > 0) {
    ledger_.count_wait(cls, wait, thread);
    for (const auto& s : merged)
      if (s.wait_s > 0) {
        const std::uint32_t sh = names_.short_id(s.kernel);
        ledger_.add_kernel_wait(s.kernel, names_[sh], names_[s.kernel], cls,
                                s.wait_s);
      }
    // The details (strings) only where they are kept or written.
    const bool recent = keep_recent > 0;
    if (recent || trace_ || ledger_.wants_details(wait)) {
      CallRecord c;
      c.id = id;
      c.what = names_[what];
      c.site = names_[st];
      c.kind = kind;
      c.wait_class = cls;
      c.thread = thread;
      c.regions = names_[regions];
      c.context = names_[context];
      c.via = names_[via];
      c.begin_s = begin_s;
      c.end_s = end_s;
      c.wait_s = wait;
      c.wait_is_bound = bound;
      for (const auto& s : merged)
        if (s.wait_s > 0) {
          const std::uint32_t sh = names_.short_id(s.kernel);
          c.waited_for.push_back(
              {names_[sh], s.wait_s, names_[s.kernel], s.stream});
        }
      if (trace_) trace_->waiting_call(c);
      ledger_.keep_details(std::move(c), recent);
      return;
    }
  }
  if (trace_)
    trace_->host_slice(thread, names_[what], call_kind_name(kind), begin_s,
                       end_s);
}

void Replay::finalize_live(LiveCall& c) {
  finalize_call(c.id, c.kind, c.what, c.site, c.regions, c.context, c.via,
                c.api, c.thread, c.begin_s, c.end_s, c.bound, c.shares);
}

void Replay::fill_snapshot(WaitsSnapshot& w) const {
  w.mode =
      device_times_ever
          ? WaitsMode::Device
          : (callbacks_ever && mode.async_seen
                 ? WaitsMode::Callbacks
                 : (mode.async_seen ? WaitsMode::KokkosOnly : WaitsMode::Host));
  w.kokkos_fences =
      kokkos_interface == 0 ? -1 : (kokkos_interface >= 20211015 ? 1 : 0);
  w.devices = devices;
  w.totals = ledger_.totals();
  w.threads_seen = threads_.used();
  w.waits = ledger_.top_waits();
  w.kernels = ledger_.kernels();
  // Host kernels Kokkos did not place ran on the host space other kernels
  // ran on, else on Kokkos' default space if that is a host space.
  const DeviceKind host = host_kind_ != DeviceKind::Unknown ? host_kind_
                          : !is_async(default_kind)         ? default_kind
                                                    : DeviceKind::Unknown;
  for (auto& k : w.kernels)
    if (k.device_kind == DeviceKind::Unknown) k.device_kind = host;
  w.sites = ledger_.sites();
  w.streams = ledger_.streams();
  for (auto& st : w.streams) {
    auto it = stream_exec_.find((std::uint64_t(st.device) << 32) | st.stream);
    if (it != stream_exec_.end()) st.exec = it->second;
  }
  w.threads = ledger_.threads();
  w.kernels_without_device_record = without_record_;
  if (trace_) {
    w.trace_path = trace_->path();
    w.trace_events_dropped = trace_->dropped();
    w.trace_write_failed = trace_->write_failed();
  }
  w.dropped = dropped_;
  w.dropped.names = names_.dropped();
  // Calls and regions still open now will not end before the report.
  threads_.for_each([&](const HostThread& t) {
    if (!t.exited) threads_.count_left_open(t, w.dropped);
  });
  if (device_times_ever)
    w.idle = idle_.summary([this](std::uint32_t id) { return names_[id]; });
  const LedgerDropped& ld = ledger_.dropped();
  w.dropped.kernels = ld.kernels;
  w.dropped.sites = ld.sites;
  w.dropped.streams = ld.streams;
  w.dropped.threads = ld.threads;
  // Device records were on, yet the device ran nothing: a host-only run
  // (Kokkos 4.x allocates in CudaSpace at start-up, which starts the device
  // source; a host program on a GPU build then read as "device").
  if (w.mode == WaitsMode::Device && w.totals.launches == 0 &&
      w.totals.device_kernels == 0 && !w.idle.any_activity &&
      w.totals.hidden_calls == 0 && w.totals.explicit_calls == 0)
    w.mode = WaitsMode::Host;
}

void Replay::set_trace(std::unique_ptr<TraceSink> t) {
  trace_ = std::move(t);
  if (!trace_) {
    idle_.set_gap_listener(nullptr);
    return;
  }
  idle_.set_gap_listener([this](const IdleGapRecord& r) {
    if (!trace_) return;
    trace_->idle(
        idle_interval(r, [this](std::uint32_t id) { return names_[id]; }));
  });
}

void Replay::fill_footprint(TrackerFootprint& f) const {
  f.names = names_.size();
  f.name_bytes = names_.bytes();
  f.threads = threads_.size();
  threads_.for_each([&](const HostThread& t) {
    f.open += t.stack.size();
    f.blocked_history += t.blocked.size();
  });
  f.pending_records = pending_total() + launches_.calls_held();
  f.pending_launches = launches_.pending_count();
}

}  // namespace Impl
}  // namespace addscope
