// addscope — the waits tracker's facade: the process-wide tracker, its
// parts wired together (addscope_TrackerParts.hpp), the results (each drains
// what the threads recorded first) and the fork handlers. The front doors
// are in addscope_TrackerEvents.cpp, the device source's control in
// addscope_TrackerDevice.cpp.
#include "addscope/waits/addscope_SyncTracker.hpp"

#include <chrono>
#include <cstdlib>
#include <initializer_list>
#include <iostream>
#include <limits>
#include <ostream>
#include <string>
#include <thread>

#include "addscope/core/addscope_OutputFile.hpp"
#include "addscope/core/addscope_OutputPath.hpp"
#include "addscope/waits/addscope_TrackerParts.hpp"
#include "addscope/waits/addscope_WaitsSettings.hpp"
#include "addscope/waits/analyze/addscope_Analyzer.hpp"
#include "addscope/waits/attribution/addscope_Attribution.hpp"
#include "addscope/waits/attribution/addscope_KernelName.hpp"
#include "addscope/waits/device/addscope_CudaDevices.hpp"
#include "addscope/waits/output/addscope_ChromeTrace.hpp"
#include "addscope/waits/output/addscope_WaitsOptions.hpp"
#include "addscope/waits/record/addscope_LogRegistry.hpp"
#include "addscope/waits/record/addscope_PythonFrames.hpp"
#include "addscope/waits/record/addscope_StackCapture.hpp"
#include "addscope/waits/site/addscope_SnapshotSites.hpp"

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

namespace {
// A setting that is one of the words `allowed`: its value, or `dflt` when
// unset, and also (with a line saying so) when set to anything else.
std::string word_setting(const char* name,
                         std::initializer_list<const char*> allowed,
                         const char* dflt) {
  const char* v = waits_setting(name);
  if (!v || !*v) return dflt;
  std::string list;
  for (const char* a : allowed) {
    if (std::string(v) == a) return v;
    list += (list.empty() ? "" : ", ") + std::string(a);
  }
  std::cerr << "addscope waits: " << name << "='" << v
            << "' is invalid; allowed: " << list << "; using " << dflt << "\n";
  return dflt;
}
}  // namespace

// ---------------------------------------------------------------------------

SyncTracker& SyncTracker::global() {
  // Never destroyed: device sources may report until the process ends.
  static SyncTracker* t = [] {
    TrackerOptions o;
    const std::string mode = word_setting(
        "ADDSCOPE_WAITS_DEVICE", {"cupti", "callbacks", "none"}, "cupti");
    // Launch callbacks by default: with CUPTI 13 external correlation can
    // leave a kernel untied (its API record's buffer may come after the
    // kernel's; docs/waits-tool.md).
    const std::string tie = word_setting(
        "ADDSCOPE_WAITS_LAUNCHES", {"external", "callbacks"}, "callbacks");
    if (mode != "none" && Impl::cupti_source_built()) {
      const auto m = mode == "callbacks"  ? Impl::CuptiMode::Callbacks
                     : tie == "callbacks" ? Impl::CuptiMode::Full
                                          : Impl::CuptiMode::FullByCall;
      o.make_device_source = [m] { return Impl::make_cupti_source(m); };
      o.query_devices = [] { return Impl::query_cuda_devices(); };
    }
    // How often a blocking call's wait for the device's records may ask
    // CUPTI for them (a flush), a duration; 0: never on a timer (only
    // near the cap on records held, and at the end).
    if (const char* fe = waits_setting("ADDSCOPE_WAITS_FLUSH_EVERY");
        fe && *fe) {
      double s = 0;
      if (parse_duration(fe, &s) && s >= 0 && s <= 3600)
        o.device_flush_every_s =
            s == 0 ? std::numeric_limits<double>::infinity() : s;
      else
        std::cerr << "addscope waits: ADDSCOPE_WAITS_FLUSH_EVERY='" << fe
                  << "' is invalid; allowed: a duration from 0 to 3600 s "
                     "(20ms, 0.5s; 0: never on a timer); using 20ms\n";
    }
    // The program's own lines: on, unless asked off; a stack is taken for
    // calls as long as the report's threshold (shorter waits are not listed).
    o.sites = word_setting("ADDSCOPE_WAITS_SITES", {"on", "off"}, "on") == "on";
    o.launch_places =
        word_setting("ADDSCOPE_WAITS_PLACES", {"0", "1"}, "1") == "1";
    {  // the report's own threshold, as the report reads it (its warnings
       // are the report's to print)
      std::vector<std::string> ignored;
      o.site_min_s = waits_options_from_environment(&ignored).threshold_s;
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
  if (p.opt.sites) {
    Impl::prepare_stack_capture();
    Impl::prepare_python_frames();
  }
  p.logs.set_on_thread_exit(&record_thread_exit, &p);
  p.logs.pool().set_wake(&wake_analyzer, &p.analyzer);
  Impl::Replay& rp = p.analyzer.replay();
  if (p.opt.device_records_by_hand) {
    rp.set_device_times(true);
    rp.mode.tie = p.opt.tie_by_hand;
    p.device_times = true;
    p.source_desc = "device records given by hand";
    if (p.opt.query_devices) rp.fold().devices = p.opt.query_devices();
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
bool SyncTracker::kokkos_seen() const {
  std::lock_guard<std::mutex> g(p_->ctl);
  return p_->ever_fed_by_tools;
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

// ---- results
// ---------------------------------------------------------------------

std::uint64_t SyncTracker::mark() const {
  return p_->next_id.load(std::memory_order_relaxed);
}

std::vector<CallRecord> SyncTracker::waits_since(std::uint64_t m) {
  // What ended before now is settled once the device's records have been
  // flushed from a moment at least the clock tolerance later (a blocking
  // call waits for the kernels that ended up to kClockTolerance_s after
  // it): the caller asks right after its calls (the seed experiment's naive
  // read), so wait that long, then flush. (Without this the naive read of
  // measure_read_after_launch came back unattributed on the H200.)
  Parts& p = *p_;
  const double ready = p.now() + Impl::kClockTolerance_s + 5e-6;
  const auto bound =  // (a test's manual clock does not move)
      std::chrono::steady_clock::now() + std::chrono::microseconds(100);
  while (p.now() < ready && std::chrono::steady_clock::now() < bound)
    std::this_thread::sleep_for(std::chrono::microseconds(5));
  flush();
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
    take_deferred_devices();
    p.analyzer.drain_locked(src, false);
    p.analyzer.replay().fill_snapshot(w);
    if (p.opt.sites) {
      if (!p.sites) p.sites.reset(new Impl::SiteResolver);
      const Impl::NameTable& names = p.analyzer.replay().names();
      Impl::resolve_sites(w, p.analyzer.replay().stacks(), *p.sites,
                          [&](std::uint32_t id) { return names[id]; });
    }
    w.epoch_unix_s = std::chrono::duration<double>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count() -
                     p.now();
  }
  w.rank = rank_from_environment();
  const Impl::LogCounters c = p.analyzer.log_counters();
  w.dropped.events = c.events_dropped;
  w.dropped.stacks = c.stacks_dropped;
  w.sites_cost.taken = c.sites_taken;
  w.sites_cost.seconds = 1e-9 * double(c.site_ns);
  w.sites_cost.read_again = c.sites_again;
  w.sites_cost.read_again_seconds = 1e-9 * double(c.site_again_ns);
  w.sites_cost.python_seconds = 1e-9 * double(c.site_python_ns);
  w.sites_cost.python_alone = c.sites_python_alone;
  w.sites_cost.python_alone_seconds = 1e-9 * double(c.site_python_alone_ns);
  w.launch_places = Impl::keeps_places(p);
  std::lock_guard<std::mutex> g(p.ctl);
  w.device_source = p.source_desc;
  w.front_door = p.ever_fed_by_tools ? "kokkos"
                 : p.any_program     ? "cuda-injection"
                                     : "library";
  if (p.source) w.dropped.device_records = p.source->records_dropped();
  return w;
}

bool SyncTracker::open_trace(const std::string& path, std::string* error) {
  std::string why;
  const int fd = open_output_stream(path, &why);
  if (fd < 0) {
    if (error) *error = why;
    return false;
  }
  Parts& p = *p_;
  std::lock_guard<std::mutex> g(p.analyzer.mutex());
  Impl::Replay& rp = p.analyzer.replay();
  rp.set_trace(std::unique_ptr<Impl::TraceSink>(
      new Impl::ChromeTrace(fd, path, 2000000)));
  // The trace is written as the program runs: its lines are resolved then,
  // native ones symbolized (once per stack, on the analyzer's thread, under
  // its lock, as the report's).
  if (p.opt.sites) {
    if (!p.sites) p.sites.reset(new Impl::SiteResolver);
    rp.fold().set_line_of([&p](const std::vector<std::uint64_t>& stack) {
      const Impl::NameTable& names = p.analyzer.replay().names();
      return p.sites->resolve(stack,
                              [&](std::uint32_t id) { return names[id]; });
    });
  }
  return true;
}

// ---- fork
// ----------------------------------------------------------------------------
// The prepare handler takes every lock the tool has, in one order (the
// analyzer's, the device state's, the registries', the logs', the chunk
// pool's), so that the child's copies are consistent and free: the child
// then starts empty. Before them, stack captures are held and drained (a
// thread inside the unwinder at fork() would leave the child its lock).

void SyncTracker::prepare_fork() {
  Parts& p = *p_;
  Impl::hold_stack_capture_for_fork();
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
  Impl::release_stack_capture_after_fork(false);
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
  Impl::forget_python_threads();  // the parent's others did not fork
  Impl::release_stack_capture_after_fork(true);
  device_settled_ = false;
}

}  // namespace addscope
