// addscope — the waits tracker's parts (SyncTracker's private half, internal
// to addscope_SyncTracker.cpp, addscope_TrackerDevice.cpp and
// addscope_TrackerEvents.cpp): where the program threads' records go
// (the logs), who reads them (the analyzer), the device source's state, and
// how one event is recorded.
#ifndef ADDSCOPE_WAITS_TRACKERPARTS_HPP
#define ADDSCOPE_WAITS_TRACKERPARTS_HPP

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>

#include "addscope/waits/addscope_TrackerOptions.hpp"
#include "addscope/waits/addscope_WaitsClock.hpp"
#include "addscope/waits/analyze/addscope_Analyzer.hpp"
#include "addscope/waits/device/addscope_DeviceSource.hpp"
#include "addscope/waits/model/addscope_DeviceCapacity.hpp"
#include "addscope/waits/record/addscope_LogRegistry.hpp"
#include "addscope/waits/record/addscope_StackCapture.hpp"
#include "addscope/waits/site/addscope_SiteResolver.hpp"

namespace addscope {
namespace Impl {
inline std::int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
}  // namespace Impl

using Impl::EventKind;
using Impl::EventRecord;
using Impl::ThreadLog;

namespace Impl {

struct TrackerParts {
  explicit TrackerParts(TrackerOptions o)
      : opt(std::move(o)),
        clock(opt.clock ? opt.clock : std::make_shared<SteadyWaitsClock>()),
        steady(dynamic_cast<SteadyWaitsClock*>(clock.get())),
        epoch_ns(steady ? steady->epoch_ns() : 0),
        logs(opt.tracker_limits.log_chunks),
        analyzer(opt, logs, *clock, steady ? 2e-6 : 0.0) {}

  TrackerOptions opt;
  std::shared_ptr<WaitsClock> clock;
  const SteadyWaitsClock* steady;  // the fast path of now()
  std::int64_t epoch_ns;
  Impl::LogRegistry logs;
  Impl::Analyzer analyzer;
  // Stacks to lines, when a report is made (under the analyzer's lock).
  std::unique_ptr<Impl::SiteResolver> sites;
  std::atomic<std::uint64_t> next_id{1};
  // Kernels tied by the tracker's call ids: the source to push them to.
  std::atomic<Impl::DeviceSource*> push{nullptr};

  std::mutex ctl;  // the device source's state
  std::unique_ptr<Impl::DeviceSource> source;
  bool source_running = false;
  bool device_times = false, callbacks_only = false, by_call = false;
  bool tools_started_source = false, fed_by_tools = false;
  bool ever_fed_by_tools = false, any_program = false;
  bool devices_queried = false;
  // Started from inside cuInit (CUDA injection): the devices are asked at
  // the first CUDA call instead (on_cuda_in_use) and handed to the analyzer
  // by its thread (take_deferred_devices).
  bool devices_deferred = false;
  std::vector<DeviceCapacity> deferred_devices;
  std::atomic<bool> deferred_ready{false};
  // The analyzer thread's own time (ADDSCOPE_WAITS_VERBOSE prints it at the
  // end): its ticks, the CUPTI flushes it asked for, its analysis.
  struct TickStats {
    std::uint64_t ticks = 0, flushes = 0;
    std::int64_t flush_ns = 0, flush_max_ns = 0;
    std::int64_t drain_ns = 0, drain_max_ns = 0;
  } tick_stats;  // (the analyzer's thread only)
  int tracing_refs = 0;
  std::string source_desc;
  double last_device_flush = 0;

  double now() const {
    return steady ? double(Impl::steady_ns() - epoch_ns) * 1e-9 : clock->now();
  }
  Impl::DeviceSource* running_source() {
    std::lock_guard<std::mutex> g(ctl);
    return source_running ? source.get() : nullptr;
  }
};

// One event on this thread's log: `fill` sets the record's fields (the
// timestamp is taken after the tool's own work on the names, just before the
// record is published). `opens`: the event begins call `opens`, whose end
// decides whether a stack is taken (ThreadLog::open_call).
template <class Names, class Fill>
inline void record(Impl::LogRegistry& logs, const TrackerParts& p, Names names,
                   Fill fill, std::uint64_t opens = 0) {
  ThreadLog* log = logs.this_thread();
  if (!log) return;  // this thread is exiting: its log is gone
  log->begin();
  names(*log);
  if (EventRecord* r = log->reserve()) {
    fill(*r);
    r->t = p.now();
    log->commit(r->t);
    if (opens != 0) log->open_call(opens, r->t);
  }
  log->end();
}
inline void no_names(ThreadLog&) {}

// Whether each device launch is placed (record/addscope_LaunchPlaces.hpp):
// sites on, slots that can be told (in a Python process the program's
// Python line is part of a place: place_launch()).
inline bool keeps_places(const TrackerParts& p) {
  return p.opt.sites && p.opt.launch_places && have_stack_slots();
}

inline void set_exec(EventRecord& r, const ExecId& e) {
  r.exec_kind = std::uint8_t(e.kind);
  r.exec_device = e.device;
  r.exec_instance = e.instance;
}

}  // namespace Impl

}  // namespace addscope

#endif
