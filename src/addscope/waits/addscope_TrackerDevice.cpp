// addscope — the waits tracker's device source: started and stopped with
// the front doors that need it, flushed by the analyzer's thread while
// anything waits for its records, stopped at the end of the run.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "addscope/waits/addscope_SyncTracker.hpp"
#include "addscope/waits/addscope_TrackerParts.hpp"
#include "addscope/waits/addscope_WaitsSettings.hpp"
#include "addscope/waits/model/addscope_TraceSink.hpp"

namespace addscope {

using Impl::no_names;
using Impl::record;

namespace {
// How often records held near their cap ask the device source for more
// (the analyzer's tick is 5 ms: a flush per tick would hold the program's
// launches behind running kernels, as CUPTI's flush waits for them).
constexpr double kHeldFlushEvery_s = 0.02;
}  // namespace

// ---- the device source
// -----------------------------------------------------------

void SyncTracker::record_mode() {
  // (ctl held) How device work is observed from now on, in time order with
  // the events.
  Parts& p = *p_;
  const std::uint8_t flags =
      (p.device_times ? EventRecord::kDeviceTimes : 0) |
      (p.callbacks_only ? EventRecord::kCallbacksOnly : 0) |
      (p.by_call ? EventRecord::kTieExternal : 0);
  record(p.logs, p, no_names, [&](EventRecord& r) {
    r.kind = EventKind::DeviceMode;
    r.flags = flags;
  });
  p.push.store(p.device_times && p.by_call ? p.source.get() : nullptr,
               std::memory_order_release);
  p.analyzer.set_device_complete(p.device_times && !p.opt.device_records_by_hand
                                     ? p.now()
                                     : Impl::kForever);
}

void SyncTracker::ensure_device(DeviceKind kind) {
  if (!is_async(kind) || device_settled_.load(std::memory_order_acquire))
    return;
  Parts& p = *p_;
  {
    std::lock_guard<std::mutex> g(p.ctl);
    // The Kokkos Tools front door traces the device for the whole run; the
    // library's front door only within start/stop_device_tracing().
    if (!p.fed_by_tools || p.tools_started_source) {
      device_settled_.store(true, std::memory_order_release);
      return;
    }
    p.tools_started_source = true;
  }
  start_device_tracing();
  device_settled_.store(true, std::memory_order_release);
}

void SyncTracker::device_seen(DeviceKind kind) {
  if (!is_async(kind)) return;
  if (!device_settled_.load(std::memory_order_acquire)) {
    Parts& p = *p_;
    record(p.logs, p, no_names, [&](EventRecord& r) {
      r.kind = EventKind::DeviceSeen;
      r.exec_kind = std::uint8_t(kind);
    });
  }
  ensure_device(kind);
}

bool SyncTracker::start_device_tracing() {
  Parts& p = *p_;
  Impl::DeviceSource* src = nullptr;
  {
    std::lock_guard<std::mutex> g(p.analyzer.mutex());
    ++p.analyzer.replay().fold().keep_recent;
  }
  {
    std::lock_guard<std::mutex> g(p.ctl);
    if (p.opt.device_records_by_hand || p.opt.callbacks_by_hand)
      return p.device_times;
    ++p.tracing_refs;
    if (p.source_running) return p.device_times;
    if (!p.source) {
      if (!p.opt.make_device_source) {
        const char* dev = waits_setting("ADDSCOPE_WAITS_DEVICE");
        p.source_desc = dev && std::string(dev) == "none"
                            ? "ADDSCOPE_WAITS_DEVICE=none"
                            : "no device source";
        return false;
      }
      p.source = p.opt.make_device_source();
      if (!p.source) {
        p.source_desc = "built without CUPTI";
        return false;
      }
    }
    src = p.source.get();
  }
  // Outside the locks: the source may report while it starts.
  const bool ok = src->start(*this);
  std::vector<DeviceCapacity> devices;
  bool query = false;
  {
    std::lock_guard<std::mutex> g(p.ctl);
    query = ok && !p.devices_queried && p.opt.query_devices;
    p.devices_queried = p.devices_queried || query;
    // CUDA injection: this runs inside the program's cuInit, where a driver
    // call of ours (cuInit, cuDeviceGet...) makes CUDA's initialization
    // fail for the program ("initialization error", seen on the H200).
    if (query && p.any_program) {
      p.devices_deferred = true;
      query = false;
    }
  }
  if (query) devices = p.opt.query_devices();
  if (query) {
    std::lock_guard<std::mutex> g(p.analyzer.mutex());
    p.analyzer.replay().fold().devices = std::move(devices);
  }
  std::lock_guard<std::mutex> g(p.ctl);
  const bool records = ok && src->kernel_records();
  p.source_running = ok;
  p.device_times = records;
  p.callbacks_only = ok && !records;
  p.by_call = records && src->ties_by_call();
  p.source_desc = src->description();
  if (ok) record_mode();
  return records;
}

void SyncTracker::trace_any_cuda_program() {
  Parts& p = *p_;
  {
    std::lock_guard<std::mutex> g(p.ctl);
    p.any_program = true;
    if (p.tools_started_source) return;  // watched already
    p.tools_started_source = true;       // for the whole run
    if (p.opt.make_any_program_source) {
      p.opt.make_device_source = p.opt.make_any_program_source;
    } else if (p.opt.make_device_source) {
      const char* dev = waits_setting("ADDSCOPE_WAITS_DEVICE");
      const auto m = dev && std::string(dev) == "callbacks"
                         ? Impl::CuptiMode::Callbacks
                         : Impl::CuptiMode::Full;
      p.opt.make_device_source = [m] {
        return Impl::make_cupti_source(m, true);
      };
    }
  }
  start_device_tracing();
  device_settled_.store(true, std::memory_order_release);
}

void SyncTracker::stop_device_tracing() {
  Parts& p = *p_;
  Impl::DeviceSource* src = nullptr;
  {
    std::lock_guard<std::mutex> g(p.analyzer.mutex());
    int& k = p.analyzer.replay().fold().keep_recent;
    if (k > 0) --k;
  }
  {
    std::lock_guard<std::mutex> g(p.ctl);
    if (p.opt.device_records_by_hand || p.opt.callbacks_by_hand ||
        p.tracing_refs == 0)
      return;
    if (--p.tracing_refs > 0 || p.tools_started_source) return;
    if (!p.source_running) return;
    src = p.source.get();
  }
  src->stop();  // delivers what is pending
  p.analyzer.drain(src, false);
  {
    std::lock_guard<std::mutex> g(p.ctl);
    p.source_running = false;
    p.device_times = p.callbacks_only = p.by_call = false;
    record_mode();
  }
  p.analyzer.set_device_complete(Impl::kForever);  // all delivered
  p.analyzer.drain(src, false);
}

void SyncTracker::flush() {
  Parts& p = *p_;
  Impl::DeviceSource* src = p.running_source();
  if (src) {
    const double t0 = p.now();
    src->flush();  // never under our locks (CUPTI calls back)
    std::lock_guard<std::mutex> g(p.analyzer.mutex());
    p.analyzer.set_device_complete(t0);
    p.analyzer.drain_locked(src, false);
    return;
  }
  p.analyzer.drain(nullptr, false);
}

void SyncTracker::finish() {
  Parts& p = *p_;
  p.analyzer.stop();
  Impl::DeviceSource* src = p.running_source();
  if (src) src->stop();  // delivers every record, then stops watching
  {
    std::lock_guard<std::mutex> g(p.ctl);
    if (src) {
      p.source_running = false;
      p.device_times = p.callbacks_only = p.by_call = false;
      p.push.store(nullptr, std::memory_order_release);
    }
  }
  std::lock_guard<std::mutex> g(p.analyzer.mutex());
  take_deferred_devices();
  p.analyzer.drain_locked(src, true);
  if (Impl::TraceSink* tr = p.analyzer.replay().trace()) tr->close();
  const char* v = waits_setting("ADDSCOPE_WAITS_VERBOSE");
  const Parts::TickStats& st = p.tick_stats;
  if (v && *v && std::strcmp(v, "0") != 0 && st.ticks > 0)
    std::fprintf(stderr,
                 "addscope waits: analyzer thread: %llu ticks; %llu CUPTI "
                 "flushes, %.1f ms in all (longest %.2f ms); analysis %.1f ms "
                 "in all (longest %.2f ms); %zu log chunks held at the end\n",
                 (unsigned long long)st.ticks, (unsigned long long)st.flushes,
                 st.flush_ns * 1e-6, st.flush_max_ns * 1e-6, st.drain_ns * 1e-6,
                 st.drain_max_ns * 1e-6, p.logs.pool().allocated());
}

void SyncTracker::on_cuda_in_use() {
  Parts& p = *p_;
  {
    std::lock_guard<std::mutex> g(p.ctl);
    if (!p.devices_deferred) return;
    p.devices_deferred = false;
  }
  std::vector<DeviceCapacity> d = p.opt.query_devices();
  {
    std::lock_guard<std::mutex> g(p.ctl);
    p.deferred_devices = std::move(d);
  }
  p.deferred_ready.store(true, std::memory_order_release);
}

void SyncTracker::take_deferred_devices() {
  // (the analyzer's lock held) never the other way round: the program's
  // thread takes only ctl in on_cuda_in_use.
  Parts& p = *p_;
  if (!p.deferred_ready.load(std::memory_order_acquire)) return;
  p.deferred_ready.store(false, std::memory_order_relaxed);
  std::lock_guard<std::mutex> g(p.ctl);
  p.analyzer.replay().fold().devices = std::move(p.deferred_devices);
}

void SyncTracker::tick() {
  // The analyzer's thread: the device's records while anything waits for
  // them (never under our locks: CUPTI calls back), then a drain.
  Parts& p = *p_;
  Parts::TickStats& st = p.tick_stats;
  ++st.ticks;
  Impl::DeviceSource* src = p.running_source();
  bool flushed = false;
  double t0 = 0;
  if (src && src->kernel_records()) {
    t0 = p.now();
    // A blocking call's wait asks at most every device_flush_every_s (the
    // user's, ADDSCOPE_WAITS_FLUSH_EVERY); records held near their cap
    // every kHeldFlushEvery_s whatever that is.
    const double since = t0 - p.last_device_flush;
    bool waiting = false;
    if (since >= std::min(p.opt.device_flush_every_s, kHeldFlushEvery_s)) {
      // The events up to now first: a launch just made means a kernel may
      // be running, and CUPTI's flush would wait for it.
      std::lock_guard<std::mutex> g(p.analyzer.mutex());
      p.analyzer.drain_locked(src, false);
      const Impl::Replay& r = p.analyzer.replay();
      waiting = (since >= p.opt.device_flush_every_s &&
                 r.blocking_waits_for_device()) ||
                (since >= kHeldFlushEvery_s && r.device_records_near_cap());
    }
    if (waiting) {
      t0 = p.now();
      const std::int64_t f0 = Impl::steady_ns();
      src->flush();
      const std::int64_t f = Impl::steady_ns() - f0;
      ++st.flushes;
      st.flush_ns += f;
      st.flush_max_ns = std::max(st.flush_max_ns, f);
      p.last_device_flush = t0;
      flushed = true;
    }
  }
  const std::int64_t d0 = Impl::steady_ns();
  {
    std::lock_guard<std::mutex> g(p.analyzer.mutex());
    take_deferred_devices();
    if (flushed) p.analyzer.set_device_complete(t0);
    p.analyzer.drain_locked(src, false);
  }
  const std::int64_t d = Impl::steady_ns() - d0;
  st.drain_ns += d;
  st.drain_max_ns = std::max(st.drain_max_ns, d);
}

void SyncTracker::start_background(void (*on_signal)(int)) {
  p_->analyzer.start(
      p_->opt.analyze_every_s, [this] { tick(); },
      [on_signal](int sig) {
        if (on_signal) on_signal(sig);
      });
}

void SyncTracker::post_signal(int sig) { p_->analyzer.post_signal(sig); }

}  // namespace addscope
