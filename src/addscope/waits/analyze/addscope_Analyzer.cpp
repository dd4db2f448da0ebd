#include "addscope/waits/analyze/addscope_Analyzer.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "addscope/core/addscope_Format.hpp"
#include "addscope/waits/model/addscope_TraceSink.hpp"
#include "addscope/waits/record/addscope_StackCapture.hpp"

namespace addscope {
namespace Impl {

namespace {
ExecId exec_of(const EventRecord& r) {
  ExecId e;
  e.kind = static_cast<DeviceKind>(r.exec_kind);
  e.device = r.exec_device;
  e.instance = r.exec_instance;
  return e;
}
constexpr char kWake = 'w';
}  // namespace

Analyzer::Analyzer(const TrackerOptions& opt, LogRegistry& logs,
                   const WaitsClock& clock, double slack_s)
    : opt_(opt),
      logs_(logs),
      clock_(clock),
      slack_s_(slack_s),
      replay_(new Replay(opt)) {}

Analyzer::~Analyzer() { stop(); }

double Analyzer::host_watermark() {
  const double t0 = clock_.now();
  std::atomic_thread_fence(std::memory_order_seq_cst);
  double w = t0 - slack_s_;
  std::lock_guard<std::mutex> g(logs_.mutex());
  for (ThreadLog* l : logs_.logs())
    if (l->busy()) w = std::min(w, l->last_committed_t());
  return w;
}

void Analyzer::process(ThreadLog& log, const EventRecord& r) {
  Replay& rp = *replay_;
  const std::uint32_t th = log.thread_index();
  auto id = [&](std::uint32_t slot) {
    return slot < log.slot_ids().size() ? log.slot_ids()[slot] : 0u;
  };
  switch (r.kind) {
    case EventKind::KernelBegin:
      rp.kernel_begin(th, r.t, r.id, id(r.name), exec_of(r),
                      log.take_stack(r.t), r.site);
      break;
    case EventKind::CallBegin:
      rp.call_begin(th, r.t, r.id, static_cast<CallKind>(r.sub), id(r.name),
                    id(r.site), exec_of(r));
      break;
    case EventKind::DeepCopyBegin: {
      // "deep_copy dst<-src (Dst<-Src, 4 B)"; its site without the size.
      NameTable& n = rp.names();
      const std::uint32_t dst = id(r.name), src = id(r.site);
      const std::uint32_t dsp = id(r.device), ssp = id(r.stream);
      const std::uint32_t site =
          n.combo(Combo::DeepCopySite, (std::uint64_t(dst) << 32) | src,
                  (std::uint64_t(dsp) << 32) | ssp, [&] {
                    return "deep_copy " + n[dst] + "<-" + n[src] + " (" +
                           n[dsp] + "<-" + n[ssp] + ")";
                  });
      const std::uint32_t what = n.combo(Combo::DeepCopyWhat, site, r.u64, [&] {
        std::string s = n[site];
        if (!s.empty()) s.pop_back();  // ")"
        return s + ", " + format_bytes(r.u64) + ")";
      });
      rp.call_begin(th, r.t, r.id, CallKind::DeepCopy, what, site, ExecId());
      break;
    }
    case EventKind::CallEnd:
      rp.call_end(th, r.t, r.id, log.take_stack(r.t));
      break;
    case EventKind::CallEndInnermost:
      rp.call_end_innermost(th, r.t, static_cast<CallKind>(r.sub),
                            log.take_stack(r.t));
      break;
    case EventKind::RegionPush:
      rp.region_push(th, r.t, id(r.name));
      break;
    case EventKind::RegionPop:
      rp.region_pop(th, r.t);
      break;
    case EventKind::Instant:
      rp.instant(th, static_cast<CallKind>(r.sub), id(r.name), id(r.site),
                 r.u64);
      break;
    case EventKind::DeviceSeen:
      if (is_async(static_cast<DeviceKind>(r.exec_kind)))
        rp.mode.async_seen = true;
      break;
    case EventKind::Launch: {
      // A kernel's first launch outside Kokkos: its symbol and its line.
      const std::uint32_t stack = log.take_stack(r.t);
      if (r.name && stack) rp.launch_site(id(r.name), stack);
      LaunchBegin l;
      l.correlation = r.correlation;
      l.stream_known = r.flags & EventRecord::kStreamKnown;
      l.device = r.device;
      l.stream = r.stream;
      rp.launch(th, r.t, l, stack, r.site);
      break;
    }
    case EventKind::LaunchFailed:
      rp.launch_failed(r.correlation);
      break;
    case EventKind::SlowLaunch:
      rp.slow_launch(th, r.u64_as_time(), r.t, r.id, r.correlation,
                     log.take_stack(r.t));
      break;
    case EventKind::BlockingBegin: {
      BlockingBegin b;
      b.api = static_cast<SyncApi>(r.sub);
      b.all_streams = r.flags & EventRecord::kAllStreams;
      b.device = r.device;
      b.stream = r.stream;
      b.bytes = r.u64;
      b.copy_kind = r.copy_kind;
      b.correlation = r.correlation;
      rp.blocking_begin(th, r.t, b, r.id, id(r.name));
      break;
    }
    case EventKind::BlockingEnd:
      rp.blocking_end(th, r.t, log.take_stack(r.t));
      break;
    case EventKind::DeviceMode:
      rp.set_device_times(r.flags & EventRecord::kDeviceTimes);
      rp.mode.callbacks_only = r.flags & EventRecord::kCallbacksOnly;
      rp.mode.tie = r.flags & EventRecord::kTieExternal ? LaunchTie::External
                                                        : LaunchTie::Callbacks;
      rp.callbacks_ever = rp.callbacks_ever || rp.mode.callbacks_only;
      break;
    case EventKind::ThreadExit:
      rp.thread_exit(th);
      break;
    case EventKind::None:
    case EventKind::NameDef:
    case EventKind::Stack:
    case EventKind::PySite:
      break;
  }
}

void Analyzer::drain(DeviceSource* source, bool final) {
  std::lock_guard<std::mutex> g(mu_);
  drain_locked(source, final);
}

void Analyzer::drain_locked(DeviceSource* source, bool final) {
  Replay& rp = *replay_;
  // The device's records first: the settling ties them to their launches
  // whenever those are read.
  if (source) source->drain(*this);
  const double w = final ? kForever : host_watermark();
  std::vector<ThreadLog*> logs;
  {
    std::lock_guard<std::mutex> g(logs_.mutex());
    logs = logs_.logs();
  }
  const double device_s = final ? kForever : device_s_.load();
  // Merge the logs in time order up to w.
  for (;;) {
    ThreadLog* best = nullptr;
    const EventRecord* best_r = nullptr;
    for (ThreadLog* l : logs) {
      const EventRecord* r = l->peek();
      while (r &&
             (r->kind == EventKind::NameDef || r->kind == EventKind::Stack ||
              r->kind == EventKind::PySite)) {
        if (r->kind == EventKind::PySite) {
          // The Python line joins the native stack of the same record.
          std::vector<std::uint64_t> key;
          if (l->pending_stack && l->pending_stack_t == r->t)
            key = rp.stacks()[l->pending_stack];
          const auto id = [&](std::uint32_t slot) -> std::uint64_t {
            return slot < l->slot_ids().size() ? l->slot_ids()[slot] : 0;
          };
          key.insert(key.end(), {kPythonFrameTag, id(r->name), id(r->site),
                                 r->u64, id(r->correlation)});
          l->pending_stack =
              rp.stacks().intern(key.data(), std::uint32_t(key.size()));
          l->pending_stack_t = r->t;
          l->pop();
        } else if (r->kind == EventKind::Stack) {
          std::uint64_t pcs[kMaxStackFrames];
          const std::uint32_t n = l->pop_stack(pcs, kMaxStackFrames);
          l->pending_stack = rp.stacks().intern(pcs, n);
        } else {
          const std::uint32_t slot = r->name;
          const std::string_view text = l->pop_name_def();
          if (slot < l->slot_ids().size())
            l->slot_ids()[slot] = rp.names().intern(text);
        }
        r = l->peek();
      }
      if (r && r->t <= w && (!best_r || r->t < best_r->t)) {
        best = l;
        best_r = r;
      }
    }
    if (!best) break;
    const double t = best_r->t;
    process(*best, *best_r);
    best->pop();
    if (++since_settle_ >= opt_.settle_every) {
      since_settle_ = 0;
      rp.settle(t, device_s);
      rp.enforce_cap(t);
    }
  }
  rp.settle(w, device_s);
  rp.enforce_cap(final ? kForever : w);
  // Logs of threads that exited, read to the end.
  {
    std::lock_guard<std::mutex> g(logs_.mutex());
    for (ThreadLog* l : logs)
      if (l->retired() && !l->peek()) {
        gone_logs_ += l->counters();
        logs_.remove(l);
      }
  }
  if (TraceSink* tr = rp.trace()) tr->flush();
}

LogCounters Analyzer::log_counters() {
  LogCounters c = gone_logs_;
  c.events_dropped += logs_.late();
  std::lock_guard<std::mutex> g(logs_.mutex());
  for (ThreadLog* l : logs_.logs()) c += l->counters();
  return c;
}

void Analyzer::on_device_kernels(std::vector<DeviceKernelRecord>& k) {
  for (const auto& r : k) replay_->device_kernel(r);
}

void Analyzer::on_device_copies(std::vector<DeviceCopyRecord>& c) {
  for (const auto& r : c) replay_->device_copy(r);
}

void Analyzer::on_external_correlation(std::uint32_t correlation,
                                       std::uint64_t call_id) {
  replay_->external_correlation(correlation, call_id);
}

// ---- the thread -------------------------------------------------------------

void Analyzer::start(double every_s, std::function<void()> tick,
                     std::function<void(int)> on_signal) {
  if (running_.exchange(true)) return;
  tick_ = std::move(tick);
  on_signal_ = std::move(on_signal);
  if (pipe_[0] < 0 && ::pipe2(pipe_, O_CLOEXEC | O_NONBLOCK) != 0)
    pipe_[0] = pipe_[1] = -1;
  stop_ = false;
  thread_ = std::thread([this, every_s] { loop(every_s); });
}

void Analyzer::stop() {
  if (!running_.exchange(false)) return;
  stop_ = true;
  wake();
  if (thread_.joinable()) {
    if (thread_.get_id() == std::this_thread::get_id())
      thread_.detach();  // stopped from its own tick (the signal path)
    else
      thread_.join();
  }
}

void Analyzer::wake() {
  if (pipe_[1] >= 0) {
    const char c = kWake;
    (void)!::write(pipe_[1], &c, 1);
  }
}

void Analyzer::post_signal(int sig) {
  if (pipe_[1] >= 0 && sig > 0 && sig < 128) {
    const char c = char(sig);
    (void)!::write(pipe_[1], &c, 1);
  }
}

void Analyzer::loop(double every_s) {
  const int timeout_ms = std::max(1, int(every_s * 1000));
  while (!stop_.load()) {
    if (pipe_[0] >= 0) {
      pollfd p{pipe_[0], POLLIN, 0};
      ::poll(&p, 1, timeout_ms);
      char buf[64];
      ssize_t n;
      while ((n = ::read(pipe_[0], buf, sizeof buf)) > 0)
        for (ssize_t i = 0; i < n; ++i)
          if (buf[i] != kWake && on_signal_) on_signal_(buf[i]);
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(timeout_ms));
    }
    if (stop_.load()) break;
    if (tick_) tick_();
  }
}

void Analyzer::reset_after_fork_child() {
  // The parent's thread does not exist here; its std::thread object must
  // not be joined or destroyed as joinable.
  if (thread_.joinable()) {
    new (&thread_) std::thread();  // forget it (its handle is the parent's)
  }
  running_ = false;
  stop_ = false;
  if (pipe_[0] >= 0) ::close(pipe_[0]);
  if (pipe_[1] >= 0) ::close(pipe_[1]);
  pipe_[0] = pipe_[1] = -1;
  if (TraceSink* tr = replay_->trace()) tr->abandon();  // the parent's
  replay_.reset(new Replay(opt_));
  gone_logs_ = LogCounters();
  since_settle_ = 0;
}

}  // namespace Impl
}  // namespace addscope
