#include "addscope/waits/analyze/addscope_Fold.hpp"

#include <algorithm>

#include "addscope/waits/attribution/addscope_Attribution.hpp"
#include "addscope/waits/model/addscope_TraceSink.hpp"

namespace addscope {
namespace Impl {

Fold::Fold(const TrackerOptions& opt, NameTable& names,
           const StackTable& stacks)
    : names_(names),
      stacks_(stacks),
      streams_cap_(opt.tracker_limits.streams),
      ledger_(opt.limits) {}

Fold::~Fold() = default;

void Fold::set_trace(std::unique_ptr<TraceSink> t) { trace_ = std::move(t); }

WaitClass Fold::classify(const LiveCall& c) {
  switch (c.kind) {
    case CallKind::Fence:
      return names_.flags(c.what) & NameTable::kUserFence ? WaitClass::Explicit
                                                          : WaitClass::Hidden;
    case CallKind::Runtime:
      // In a Kokkos program before any Kokkos event: Kokkos' own (its
      // initialize synchronizes for kernels of its own), never a
      // synchronize the program wrote.
      if (c.kokkos_own) return WaitClass::Hidden;
      switch (asker(c.stack)) {
        case SyncAsker::Program:
          return WaitClass::Explicit;
        case SyncAsker::Framework:
          return WaitClass::Hidden;
        case SyncAsker::Unknown:
          break;
      }
      return is_synchronization(c.api) ? WaitClass::Explicit
                                       : WaitClass::Hidden;
    default:
      return WaitClass::Hidden;
  }
}

SyncAsker Fold::asker(std::uint32_t id) {
  // No stack (a call shorter than the sites' threshold, sites off): the
  // runtime call's kind decides.
  if (id == 0 || id > stacks_.size()) return SyncAsker::Unknown;
  if (askers_.size() <= id) askers_.resize(id + 1, 0);
  if (askers_[id] == 0) {
    const std::vector<std::uint64_t>& stack = stacks_[id];
    PythonTail py;
    std::string called;
    if (python_tail(stack, &py) && py.called) called = names_[py.called];
    askers_[id] = std::uint8_t(1 + int(sync_asker(stack, called, module_of_)));
  }
  return SyncAsker(askers_[id] - 1);
}

void Fold::launch(std::uint32_t what, DeviceKind kind) {
  const std::uint32_t sh = names_.short_id(what);
  ledger_.add_launch(what, names_[sh], names_[what], kind);
}

void Fold::host_kernel(std::uint32_t what, double seconds, DeviceKind kind) {
  const std::uint32_t sh = names_.short_id(what);
  ledger_.add_host_kernel(what, names_[sh], names_[what], seconds, kind);
}

void Fold::call(LiveCall& lc) {
  const double dur = std::max(0.0, lc.end_s - lc.begin_s);
  // Merge the shares by kernel name, longest first; each name keeps the
  // launch of its longest single share (its line and shape).
  std::vector<Share> merged;
  if (lc.shares.size() <= 1) {
    merged.swap(lc.shares);
  } else {
    std::vector<double> longest;  // per merged name
    for (const auto& s : lc.shares) {
      auto it = std::find_if(merged.begin(), merged.end(), [&](const Share& m) {
        return m.kernel == s.kernel;
      });
      if (it == merged.end()) {
        merged.push_back(s);
        longest.push_back(s.wait_s);
        continue;
      }
      double& most = longest[std::size_t(it - merged.begin())];
      if (s.wait_s > most) {
        most = s.wait_s;
        it->launch_stack = s.launch_stack;
        it->shape = s.shape;
      }
      it->wait_s += s.wait_s;
    }
    std::sort(merged.begin(), merged.end(), [](const Share& a, const Share& b) {
      return a.wait_s > b.wait_s;
    });
  }
  double wait = 0;
  for (const auto& s : merged) wait += s.wait_s;
  wait = std::min(wait, dur);
  const WaitClass cls = wait > 0 ? classify(lc) : WaitClass::None;
  const std::uint32_t st = lc.site ? lc.site : lc.what;
  // A call site is a call at a line: a call that lasted long enough to take
  // its stack is at its line. A launch's stack, taken at its kernel's first
  // launch, places the kernel (launched_at), not the launch call, unless it
  // waited.
  const bool launch =
      lc.kind == CallKind::Launch || lc.kind == CallKind::HostKernel;
  const std::uint32_t at = launch && wait <= 0 ? 0 : lc.stack;
  ledger_.add_call({lc.kind, st, lc.regions, at}, names_[st],
                   names_[lc.regions], lc.thread, dur, cls, wait);
  if (wait > 0) {
    ledger_.count_wait(cls, wait, lc.thread);
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
      c.id = lc.id;
      c.what = names_[lc.what];
      c.site = names_[st];
      c.kind = lc.kind;
      c.wait_class = cls;
      c.thread = lc.thread;
      c.regions = names_[lc.regions];
      c.context = names_[lc.context];
      c.via = names_[lc.via];
      c.begin_s = lc.begin_s;
      c.end_s = lc.end_s;
      c.wait_s = wait;
      c.wait_is_bound = lc.bound;
      c.stack = lc.stack;
      if (trace_) c.code = trace_line(lc.stack);
      for (const auto& s : merged)
        if (s.wait_s > 0) {
          const std::uint32_t sh = names_.short_id(s.kernel);
          WaitShare w;
          w.kernel = names_[sh];
          w.wait_s = s.wait_s;
          w.kernel_raw = names_[s.kernel];
          w.stream = s.stream;
          w.shape = s.shape;
          w.launch_stack = s.launch_stack;
          c.waited_for.push_back(std::move(w));
        }
      if (trace_) trace_->waiting_call(c);
      ledger_.keep_details(std::move(c), recent);
      return;
    }
  }
  if (trace_)
    trace_->host_slice(lc.thread, names_[lc.what], call_kind_name(lc.kind),
                       lc.begin_s, lc.end_s);
}

CodeSite Fold::trace_line(std::uint32_t id) const {
  CodeSite code;
  if (!id || id > stacks_.size()) return code;
  if (line_of_) return line_of_(stacks_[id]);
  PythonTail py;
  if (python_tail(stacks_[id], &py) && py.line > 0) {
    code.file = names_[py.file];
    code.line = py.line;
    code.function = names_[py.function];
    code.language = "python";
  }
  return code;
}

void Fold::kernel(const DeviceKernel& k, std::uint32_t launch_stack) {
  const double ov = overlap_s(k);
  const std::uint32_t sh = names_.short_id(k.name);
  ledger_.add_device_kernel(k.name, names_[sh], names_[k.name], k, ov);
  const std::uint64_t skey = (std::uint64_t(k.device) << 32) | k.stream;
  if (k.exec.kind != DeviceKind::Unknown &&
      (stream_exec_.size() < streams_cap_ || stream_exec_.count(skey)))
    stream_exec_[skey] = k.exec;
  if (trace_) trace_kernel(k, ov, launch_stack);
}

void Fold::trace_kernel(const DeviceKernel& k, double ov,
                        std::uint32_t launch_stack) {
  TraceKernel t;
  t.device = k.device;
  t.stream = k.stream;
  auto it = stream_exec_.find((std::uint64_t(k.device) << 32) | k.stream);
  if (it != stream_exec_.end()) t.instance = it->second.instance;
  t.name = names_[names_.short_id(k.name)];
  t.name_raw = names_[k.name];
  t.correlation = k.correlation;
  t.start_s = k.start_s;
  t.end_s = k.end_s;
  t.waited_s = k.waited_s;
  t.overlap_s = ov;
  t.shape = k.shape;
  for (const auto& d : devices)
    if (d.device == k.device && d.known()) t.capacity = &d;
  t.launched_at = trace_line(launch_stack);
  trace_->kernel(t);
}

void Fold::fill(WaitsSnapshot& w) const {
  w.devices = devices;
  w.totals = ledger_.totals();
  w.waits = ledger_.top_waits();
  w.kernels = ledger_.kernels();
  w.sites = ledger_.sites();
  w.streams = ledger_.streams();
  for (auto& st : w.streams) {
    auto it = stream_exec_.find((std::uint64_t(st.device) << 32) | st.stream);
    if (it != stream_exec_.end()) st.exec = it->second;
  }
  w.threads = ledger_.threads();
  if (trace_) {
    w.trace_path = trace_->path();
    w.trace_events_dropped = trace_->dropped();
    w.trace_write_failed = trace_->write_failed();
  }
  const LedgerDropped& ld = ledger_.dropped();
  w.dropped.kernels = ld.kernels;
  w.dropped.sites = ld.sites;
  w.dropped.streams = ld.streams;
  w.dropped.threads = ld.threads;
}

}  // namespace Impl
}  // namespace addscope
