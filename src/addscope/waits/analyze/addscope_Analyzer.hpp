// addscope — the waits tracker's analyzer: the one place the program's
// events are interpreted. It merges the program threads' logs in time order
// up to a watermark (nothing earlier can still be written: every thread's
// log is either idle or known to be writing something later), hands the
// records to the replay (analyze/addscope_Replay.hpp), takes the device's
// records from the device source, and settles. It runs on a thread of its
// own (start()) every few milliseconds, when woken (a log short of chunks,
// a signal), and on the caller's thread for flush(), the results and the
// end of the run. One drain at a time (mutex()).
#ifndef ADDSCOPE_WAITS_ANALYZE_ANALYZER_HPP
#define ADDSCOPE_WAITS_ANALYZE_ANALYZER_HPP

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "addscope/waits/addscope_TrackerOptions.hpp"
#include "addscope/waits/analyze/addscope_Replay.hpp"
#include "addscope/waits/device/addscope_DeviceSource.hpp"
#include "addscope/waits/record/addscope_LogRegistry.hpp"

namespace addscope {
namespace Impl {

class Analyzer final : public DeviceRecordSink {
 public:
  /// `slack_s`: how far clocks of two cores may disagree (the watermark
  /// stays that far behind; 0 for a clock set by hand).
  Analyzer(const TrackerOptions& opt, LogRegistry& logs,
           const WaitsClock& clock, double slack_s);
  ~Analyzer() override;

  /// Held while draining; guards replay().
  std::mutex& mutex() { return mu_; }
  Replay& replay() { return *replay_; }

  /// Merges every log up to the watermark, takes `source`'s records (may
  /// be null), settles. `final`: everything, nothing held back (the end
  /// of the run). Takes mutex().
  void drain(DeviceSource* source, bool final);
  void drain_locked(DeviceSource* source, bool final);

  /// Every kernel that ended before `t` has been handed over (a flush of
  /// the device source that began at `t` returned). kForever: records come
  /// by hand or not at all.
  void set_device_complete(double t) {
    device_s_.store(t, std::memory_order_relaxed);
  }

  /// The analyzer's own thread: calls `tick` every `every_s` seconds and
  /// when woken; `on_signal(sig)` for a signal posted by post_signal().
  void start(double every_s, std::function<void()> tick,
             std::function<void(int)> on_signal);
  void stop();
  bool running() const { return running_.load(); }
  /// Wakes the thread (any thread; not from a signal handler).
  void wake();
  /// From a signal handler (async-signal-safe): the thread calls
  /// on_signal(sig) soon.
  void post_signal(int sig);

  /// All logs' counters, those of threads gone included: the events the
  /// program's threads could not record (late ones too), the stacks they
  /// left out, the sites they took and the time those cost them.
  LogCounters log_counters();

  /// fork(): the prepare/parent/child handlers (see SyncTracker).
  void lock_for_fork() { mu_.lock(); }
  void unlock_after_fork_parent() { mu_.unlock(); }
  /// In the child: a fresh, empty state; no thread (start() again).
  void reset_after_fork_child();

  // DeviceRecordSink (from DeviceSource::drain, under mutex())
  void on_device_kernels(std::vector<DeviceKernelRecord>& k) override;
  void on_device_copies(std::vector<DeviceCopyRecord>& c) override;
  void on_external_correlation(std::uint32_t correlation,
                               std::uint64_t call_id) override;

 private:
  double host_watermark();
  void process(ThreadLog& log, const EventRecord& r);
  void loop(double every_s);

  const TrackerOptions& opt_;
  LogRegistry& logs_;
  const WaitsClock& clock_;
  const double slack_s_;
  std::mutex mu_;
  std::unique_ptr<Replay> replay_;
  std::atomic<double> device_s_{kForever};
  LogCounters gone_logs_;  // of threads that exited
  std::size_t since_settle_ = 0;
  // the thread
  std::thread thread_;
  std::atomic<bool> running_{false}, stop_{false};
  int pipe_[2] = {-1, -1};
  std::function<void()> tick_;
  std::function<void(int)> on_signal_;
};

}  // namespace Impl
}  // namespace addscope

#endif
