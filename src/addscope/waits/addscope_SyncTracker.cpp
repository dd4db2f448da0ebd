#include "addscope/waits/addscope_SyncTracker.hpp"

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <ostream>

#include "addscope/core/addscope_OutputFile.hpp"
#include "addscope/core/addscope_OutputPath.hpp"
#include "addscope/waits/addscope_TrackerParts.hpp"
#include "addscope/waits/analyze/addscope_Analyzer.hpp"
#include "addscope/waits/attribution/addscope_KernelName.hpp"
#include "addscope/waits/device/addscope_CudaDevices.hpp"
#include "addscope/waits/output/addscope_ChromeTrace.hpp"
#include "addscope/waits/output/addscope_WaitsReport.hpp"
#include "addscope/waits/record/addscope_LogRegistry.hpp"

namespace addscope {

using Impl::no_names;
using Impl::record;

namespace {
// A thread exits: its last record.
void record_thread_exit(void* parts, ThreadLog& log) {
  auto* p = static_cast<SyncTracker::Parts*>(parts);
  log.begin();
  if (EventRecord* r = log.reserve()) {
    r->kind = EventKind::ThreadExit;
    r->t = p->now();
    log.commit(r->t);
  }
  log.end();
}

void wake_analyzer(void* analyzer) {
  static_cast<Impl::Analyzer*>(analyzer)->wake();
}

}  // namespace

// ---------------------------------------------------------------------------
// Clock

namespace {
using Impl::steady_ns;
const std::int64_t& process_epoch_ns() {
  static const std::int64_t t0 = steady_ns();
  return t0;
}
}  // namespace

SteadyWaitsClock::SteadyWaitsClock() : epoch_ns_(process_epoch_ns()) {}
double SteadyWaitsClock::now() const {
  return double(steady_ns() - epoch_ns_) * 1e-9;
}
double SteadyWaitsClock::from_steady_ns(std::int64_t ns) const {
  return double(ns - epoch_ns_) * 1e-9;
}

const char* waits_mode_name(WaitsMode m) {
  switch (m) {
    case WaitsMode::Host:
      return "host";
    case WaitsMode::Device:
      return "device";
    case WaitsMode::KokkosOnly:
      return "kokkos-only";
    case WaitsMode::Callbacks:
      return "callbacks";
  }
  return "unknown";
}

// ---------------------------------------------------------------------------

SyncTracker& SyncTracker::global() {
  // Never destroyed: device sources may report until the process ends.
  static SyncTracker* t = [] {
    TrackerOptions o;
    const char* dev = std::getenv("ADDSCOPE_WAITS_DEVICE");
    std::string mode = dev && *dev ? dev : "cupti";
    if (mode != "cupti" && mode != "callbacks" && mode != "none") {
      std::cerr << "addscope waits: ADDSCOPE_WAITS_DEVICE='" << mode
                << "' is invalid; allowed: cupti, callbacks, none; using "
                   "cupti\n";
      mode = "cupti";
    }
    const char* lt = std::getenv("ADDSCOPE_WAITS_LAUNCHES");
    std::string tie = lt && *lt ? lt : "external";
    if (tie != "external" && tie != "callbacks") {
      std::cerr << "addscope waits: ADDSCOPE_WAITS_LAUNCHES='" << tie
                << "' is invalid; allowed: external, callbacks; using "
                   "external\n";
      tie = "external";
    }
    if (mode != "none" && Impl::cupti_source_built()) {
      const auto m = mode == "callbacks"  ? Impl::CuptiMode::Callbacks
                     : tie == "callbacks" ? Impl::CuptiMode::Full
                                          : Impl::CuptiMode::FullByCall;
      o.make_device_source = [m] { return Impl::make_cupti_source(m); };
      o.query_devices = [] { return Impl::query_cuda_devices(); };
    }
    o.background = true;
    return new SyncTracker(std::move(o));
  }();
  return *t;
}

SyncTracker::SyncTracker() : SyncTracker(TrackerOptions()) {}

SyncTracker::SyncTracker(TrackerOptions options)
    : p_(new Parts(std::move(options))) {
  Parts& p = *p_;
  p.logs.set_on_thread_exit(&record_thread_exit, &p);
  p.logs.pool().set_wake(&wake_analyzer, &p.analyzer);
  Impl::Replay& rp = p.analyzer.replay();
  if (p.opt.device_records_by_hand) {
    rp.set_device_times(true);
    rp.mode.tie = p.opt.tie_by_hand;
    p.device_times = true;
    p.source_desc = "device records given by hand";
    if (p.opt.query_devices) rp.devices = p.opt.query_devices();
    p.devices_queried = true;
  } else if (p.opt.callbacks_by_hand) {
    rp.mode.callbacks_only = rp.callbacks_ever = true;
    p.callbacks_only = true;
    p.source_desc = "device callbacks given by hand";
  }
}

SyncTracker::~SyncTracker() {
  p_->analyzer.stop();
  Impl::DeviceSource* src = p_->running_source();
  if (src) src->stop();
}

double SyncTracker::now() const { return p_->now(); }

void SyncTracker::set_fed_by_kokkos_tools(bool on) {
  std::lock_guard<std::mutex> g(p_->ctl);
  p_->fed_by_tools = on;
  p_->ever_fed_by_tools = p_->ever_fed_by_tools || on;
  device_settled_ = false;
}
bool SyncTracker::fed_by_kokkos_tools() const {
  std::lock_guard<std::mutex> g(p_->ctl);
  return p_->fed_by_tools;
}
void SyncTracker::set_kokkos_interface_version(std::uint64_t v) {
  std::lock_guard<std::mutex> g(p_->analyzer.mutex());
  p_->analyzer.replay().kokkos_interface = v;
}
void SyncTracker::set_default_device(const std::string& type_name) {
  const std::string t = demangle(type_name);  // "Kokkos::OpenMP"
  DeviceKind k = DeviceKind::Unknown;
  for (DeviceKind c :
       {DeviceKind::Serial, DeviceKind::OpenMP, DeviceKind::Cuda,
        DeviceKind::HIP, DeviceKind::HPX, DeviceKind::Threads, DeviceKind::SYCL,
        DeviceKind::OpenMPTarget, DeviceKind::OpenACC})
    if (t == std::string("Kokkos::") + device_kind_name(c) ||
        t == std::string("Kokkos::Experimental::") + device_kind_name(c))
      k = c;
  std::lock_guard<std::mutex> g(p_->analyzer.mutex());
  p_->analyzer.replay().default_kind = k;
}

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
    ++p.analyzer.replay().keep_recent;
  }
  {
    std::lock_guard<std::mutex> g(p.ctl);
    if (p.opt.device_records_by_hand || p.opt.callbacks_by_hand)
      return p.device_times;
    ++p.tracing_refs;
    if (p.source_running) return p.device_times;
    if (!p.source) {
      if (!p.opt.make_device_source) {
        const char* dev = std::getenv("ADDSCOPE_WAITS_DEVICE");
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
  }
  if (query) devices = p.opt.query_devices();
  if (query) {
    std::lock_guard<std::mutex> g(p.analyzer.mutex());
    p.analyzer.replay().devices = std::move(devices);
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
    p.tools_started_source = true;        // for the whole run
    if (p.opt.make_device_source) {
      const char* dev = std::getenv("ADDSCOPE_WAITS_DEVICE");
      const auto m = dev && std::string(dev) == "callbacks"
                         ? Impl::CuptiMode::Callbacks
                         : Impl::CuptiMode::Full;
      p.opt.make_device_source = [m] { return Impl::make_cupti_source(m, true); };
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
    int& k = p.analyzer.replay().keep_recent;
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
  p.analyzer.drain_locked(src, true);
  if (Impl::ChromeTrace* tr = p.analyzer.replay().trace()) tr->close();
}

void SyncTracker::tick() {
  // The analyzer's thread: the device's records while anything waits for
  // them (never under our locks: CUPTI calls back), then a drain.
  Parts& p = *p_;
  Impl::DeviceSource* src = p.running_source();
  bool flushed = false;
  if (src && src->kernel_records()) {
    const double t0 = p.now();
    if (t0 - p.last_device_flush >= p.opt.device_flush_every_s) {
      bool waiting = false;
      {
        std::lock_guard<std::mutex> g(p.analyzer.mutex());
        waiting = p.analyzer.replay().pending_total() > 0;
      }
      if (waiting) {
        src->flush();
        p.last_device_flush = t0;
        flushed = true;
      }
    }
    std::lock_guard<std::mutex> g(p.analyzer.mutex());
    if (flushed) p.analyzer.set_device_complete(t0);
    p.analyzer.drain_locked(src, false);
    return;
  }
  p.analyzer.drain(src, false);
}

void SyncTracker::start_background(void (*on_signal)(int)) {
  p_->analyzer.start(
      p_->opt.analyze_every_s, [this] { tick(); },
      [on_signal](int sig) {
        if (on_signal) on_signal(sig);
      });
}

void SyncTracker::post_signal(int sig) { p_->analyzer.post_signal(sig); }

// ---- results
// ---------------------------------------------------------------------

std::uint64_t SyncTracker::mark() const {
  return p_->next_id.load(std::memory_order_relaxed);
}

std::vector<CallRecord> SyncTracker::waits_since(std::uint64_t m) {
  std::lock_guard<std::mutex> g(p_->analyzer.mutex());
  p_->analyzer.drain_locked(nullptr, false);
  return p_->analyzer.replay().waits_since(m);
}

std::size_t SyncTracker::pending_records() {
  std::lock_guard<std::mutex> g(p_->analyzer.mutex());
  p_->analyzer.drain_locked(nullptr, false);
  return p_->analyzer.replay().pending_total();
}

TrackerFootprint SyncTracker::footprint() {
  Parts& p = *p_;
  TrackerFootprint f;
  {
    std::lock_guard<std::mutex> g(p.analyzer.mutex());
    p.analyzer.drain_locked(nullptr, false);
    p.analyzer.replay().fill_footprint(f);
  }
  f.log_chunks = p.logs.pool().allocated();
  return f;
}

WaitsSnapshot SyncTracker::snapshot() {
  Parts& p = *p_;
  WaitsSnapshot w;
  Impl::DeviceSource* src = p.running_source();
  {
    std::lock_guard<std::mutex> g(p.analyzer.mutex());
    p.analyzer.drain_locked(src, false);
    p.analyzer.replay().fill_snapshot(w);
    w.epoch_unix_s = std::chrono::duration<double>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count() -
                     p.now();
  }
  w.rank = rank_from_environment();
  w.dropped.events = p.analyzer.events_dropped();
  std::lock_guard<std::mutex> g(p.ctl);
  w.device_source = p.source_desc;
  w.front_door = p.ever_fed_by_tools ? "kokkos"
                 : p.any_program     ? "cuda-injection"
                                     : "library";
  if (p.source) w.dropped.device_records = p.source->records_dropped();
  return w;
}

void SyncTracker::write_report(std::ostream& os) {
  write_waits_report(os, snapshot());
}

std::string SyncTracker::report_json() { return waits_json(snapshot()); }

bool SyncTracker::open_trace(const std::string& path, std::string* error) {
  std::string why;
  const int fd = open_output_stream(path, &why);
  if (fd < 0) {
    if (error) *error = why;
    return false;
  }
  std::lock_guard<std::mutex> g(p_->analyzer.mutex());
  p_->analyzer.replay().set_trace(std::unique_ptr<Impl::ChromeTrace>(
      new Impl::ChromeTrace(fd, path, 2000000)));
  return true;
}

// ---- fork
// ----------------------------------------------------------------------------
// The prepare handler takes every lock the tool has, in one order (the
// analyzer's, the device state's, the registries', the logs', the chunk
// pool's), so that the child's copies are consistent and free: the child
// then starts empty.

void SyncTracker::prepare_fork() {
  Parts& p = *p_;
  p.analyzer.lock_for_fork();
  p.ctl.lock();
  Impl::LogRegistry::global_mutex().lock();
  p.logs.mutex().lock();
  p.logs.pool().mutex().lock();
}

void SyncTracker::after_fork_parent() {
  Parts& p = *p_;
  p.logs.pool().mutex().unlock();
  p.logs.mutex().unlock();
  Impl::LogRegistry::global_mutex().unlock();
  p.ctl.unlock();
  p.analyzer.unlock_after_fork_parent();
}

void SyncTracker::after_fork_child() {
  Parts& p = *p_;
  p.logs.pool().mutex().unlock();
  p.logs.mutex().unlock();
  // The parent's threads' logs (this thread's too) are gone; this thread
  // starts a new one at its next event.
  p.logs.reset_after_fork();
  Impl::LogRegistry::global_mutex().unlock();
  // The device runtime does not survive a fork: no device source here.
  p.push.store(nullptr, std::memory_order_release);
  p.source.release();  // the parent's (its CUPTI state is not ours)
  p.source_running = false;
  p.device_times = p.callbacks_only = p.by_call = false;
  p.tracing_refs = 0;
  p.source_desc = "none in a child process after fork()";
  p.opt.make_device_source = nullptr;
  p.ctl.unlock();
  p.analyzer.reset_after_fork_child();
  p.analyzer.unlock_after_fork_parent();
  device_settled_ = false;
}

}  // namespace addscope
