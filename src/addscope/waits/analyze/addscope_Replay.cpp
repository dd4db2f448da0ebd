#include "addscope/waits/analyze/addscope_Replay.hpp"

#include <algorithm>

#include "addscope/core/addscope_Format.hpp"
#include "addscope/waits/attribution/addscope_Attribution.hpp"
#include "addscope/waits/model/addscope_TraceSink.hpp"

namespace addscope {
namespace Impl {

Replay::Replay(const TrackerOptions& opt)
    : opt_(opt),
      lim_(opt.tracker_limits),
      names_(lim_.names, lim_.name_bytes),
      threads_(lim_.open_per_thread, dropped_),
      launches_(lim_.pending_launches, lim_.streams),
      fold_(opt, names_, stacks_) {}

Replay::~Replay() = default;

void Replay::set_device_times(bool on) {
  mode.device_times = on;
  device_times_ever = device_times_ever || on;
  feed_.on = feed_.on || on;
}

// ---- helpers
// -------------------------------------------------------------------

bool Replay::fence_completes_launch(std::uint32_t fence, std::uint32_t launch) {
  if (names_.flags(fence) & NameTable::kResultFence) return true;
  return (names_.flags(fence) & NameTable::kViewInit) &&
         (names_.flags(launch) & NameTable::kViewInit);
}

void Replay::set_last_event(HostThread& t, std::uint32_t what, bool launch) {
  for (auto id : t.awaiting_next_event) {
    auto it = live_calls_.find(id);
    if (it == live_calls_.end()) continue;
    LiveCall& c = it->second;
    c.context = c.prev_event
                    ? names_.combo(Combo::Between, c.prev_event, what,
                                   [&] {
                                     return "between '" + names_[c.prev_event] +
                                            "' and '" + names_[what] + "'";
                                   })
                    : names_.combo(Combo::Before, what, 0, [&] {
                        return "before '" + names_[what] + "'";
                      });
    c.awaiting_next_event = false;
    live_by_end_.insert(c.end_s, c.id);
  }
  t.awaiting_next_event.clear();
  t.last_event = what;
  t.last_event_was_launch = launch;
  t.instant_pending = false;
}

std::uint32_t Replay::last_event(HostThread& t) {
  if (t.instant_pending && t.instant_space == 0) {
    t.last_event = t.instant_label;  // named whole by the caller
    t.instant_pending = false;
  } else if (t.instant_pending) {
    const bool alloc = t.instant_kind == CallKind::Alloc;
    t.last_event =
        names_.combo(alloc ? Combo::Allocate : Combo::Deallocate,
                     (std::uint64_t(t.instant_label) << 32) | t.instant_space,
                     t.instant_bytes, [&] {
                       std::string s = alloc ? "allocate " : "deallocate ";
                       s += names_[t.instant_label];
                       s += " (";
                       s += names_[t.instant_space];
                       s += ", ";
                       s += format_bytes(t.instant_bytes);
                       s += ")";
                       return s;
                     });
    t.instant_pending = false;
  }
  return t.last_event;
}

Charge* Replay::charge_of(std::uint64_t id, std::uint32_t thread) {
  auto it = live_calls_.find(id);
  if (it != live_calls_.end()) return &it->second;
  if (HostThread* t = threads_.find(thread))
    for (auto& o : t->stack)
      if (o.id == id) return &o;
  return nullptr;
}

void Replay::add_live(LiveCall c) {
  const double end = c.end_s;
  const std::uint64_t id = c.id;
  const bool named = !c.awaiting_next_event;
  live_calls_.emplace(id, std::move(c));
  if (named) live_by_end_.insert(end, id);
}

// ---- host events
// ----------------------------------------------------------------

std::uint32_t Replay::place_stack(HostThread& th, std::uint32_t place,
                                  std::uint32_t stack) {
  if (place == 0) return stack;
  if (stack != 0) {
    if (th.place_stacks.size() < HostThread::kMaxPlaces ||
        th.place_stacks.count(place))
      th.place_stacks[place] = stack;
    return stack;
  }
  const auto it = th.place_stacks.find(place);
  return it == th.place_stacks.end() ? 0 : it->second;
}

void Replay::kernel_begin(std::uint32_t thread, double t, std::uint64_t id,
                          std::uint32_t name, ExecId exec, std::uint32_t stack,
                          std::uint32_t place) {
  if (stack != 0 && launch_stacks_.size() < lim_.names)
    launch_stacks_.emplace(name, stack);  // the first one kept
  if (is_async(exec.kind)) last_launch_s_ = std::max(last_launch_s_, t);
  if (exec.kind == DeviceKind::OpenMP || exec.kind == DeviceKind::Threads ||
      exec.kind == DeviceKind::HPX)
    host_kind_ = exec.kind;
  HostThread& th = threads_.get(thread);
  // Kokkos 3.x reports a View's initialization with device id 0 (Serial)
  // whatever space runs it: it runs where the View was just allocated (a
  // launch inside it, reported by the runtime, also makes it a device
  // kernel, see launch()); a host View's is a host kernel.
  if (exec.kind == DeviceKind::Serial && kokkos_interface < 20211015 &&
      names_[name].rfind("Kokkos::View::initialization [", 0) == 0)
    exec.kind =
        is_async(th.last_alloc_kind) ? th.last_alloc_kind : DeviceKind::Unknown;
  if (is_async(exec.kind)) mode.async_seen = true;
  Open o;
  o.id = id;
  o.kind = is_async(exec.kind) ? CallKind::Launch : CallKind::HostKernel;
  o.what = name;
  o.exec = exec;
  o.own_launch = o.id;
  o.begin_s = t;
  o.stack = stack;
  o.place_stack = place_stack(th, place, stack);
  if (mode.device_times && mode.tie == LaunchTie::External) {
    LaunchFacts f;
    f.launch = id;
    const Open* outer = th.outermost_call();
    f.owner_call = outer ? outer->id : id;
    f.name = name;
    f.thread = thread;
    f.exec = exec;
    f.launch_s = f.launch_end_s = t;
    f.stack = o.place_stack;
    launches_.add_call(f);
  }
  threads_.push_open(th, std::move(o));
  feed_.update(th, t);
  last_t_ = t;
}

void Replay::call_begin(std::uint32_t thread, double t, std::uint64_t id,
                        CallKind kind, std::uint32_t what, std::uint32_t site,
                        ExecId exec) {
  HostThread& th = threads_.get(thread);
  Open o;
  o.id = id;
  o.kind = kind;
  o.what = what;
  o.site = site ? site : what;
  o.exec = exec;
  o.begin_s = t;
  // The fence Kokkos makes for a reduction's host result waits for that
  // reduction: its own work.
  if (kind == CallKind::Fence && th.last_event_was_launch &&
      fence_completes_launch(o.what, th.last_launch_name))
    o.own_launch = th.last_launch;
  if (kind == CallKind::DeepCopy && mode.device_times &&
      mode.tie == LaunchTie::External) {
    // Kernels it launches are its own work.
    LaunchFacts f;
    const Open* outer = th.outermost_call();
    f.owner_call = outer ? outer->id : id;
    f.launch = id;
    f.thread = thread;
    f.launch_s = f.launch_end_s = t;
    launches_.add_call(f);
  }
  threads_.push_open(th, std::move(o));
  feed_.update(th, t);
  last_t_ = t;
}

void Replay::call_end(std::uint32_t thread, double t, std::uint64_t id,
                      std::uint32_t stack) {
  HostThread& th = threads_.get(thread);
  auto it = std::find_if(
      th.stack.rbegin(), th.stack.rend(),
      [&](const Open& o) { return o.id == id && o.kind != CallKind::Region; });
  if (it == th.stack.rend()) {  // unmatched: ignore
    ++dropped_.unmatched_ends;
    return;
  }
  Open o = std::move(*it);
  if (stack != 0) o.stack = stack;
  th.stack.erase(std::next(it).base());
  feed_.call_ended(th, o.id, o.stack);  // before end_open takes what it holds
  end_open(th, o, t);
  feed_.update(th, t);
  last_t_ = t;
}

void Replay::call_end_innermost(std::uint32_t thread, double t, CallKind kind,
                                std::uint32_t stack) {
  HostThread& th = threads_.get(thread);
  auto it = std::find_if(th.stack.rbegin(), th.stack.rend(),
                         [&](const Open& o) { return o.kind == kind; });
  if (it == th.stack.rend()) {
    ++dropped_.unmatched_ends;
    return;
  }
  Open o = std::move(*it);
  if (stack != 0) o.stack = stack;
  th.stack.erase(std::next(it).base());
  feed_.call_ended(th, o.id, o.stack);  // before end_open takes what it holds
  end_open(th, o, t);
  feed_.update(th, t);
  last_t_ = t;
}

void Replay::region_push(std::uint32_t thread, double t, std::uint32_t n) {
  HostThread& th = threads_.get(thread);
  if (th.region_paths.size() >= lim_.region_depth) {
    ++th.regions_ignored;
    ++dropped_.regions_too_deep;
  } else {
    Open o;
    o.kind = CallKind::Region;
    o.what = n;
    o.begin_s = t;
    const std::uint32_t parent = th.region_path;
    th.region_path = names_.combo(Combo::RegionPath, parent, n, [&] {
      return parent ? names_[parent] + " > " + names_[n] : names_[n];
    });
    th.region_paths.push_back(th.region_path);
    threads_.push_open(th, std::move(o));
  }
  set_last_event(th,
                 names_.combo(Combo::RegionStart, n, 0,
                              [&] { return "start of region " + names_[n]; }),
                 false);
  feed_.update(th, t);
}

void Replay::region_pop(std::uint32_t thread, double t) {
  HostThread& th = threads_.get(thread);
  if (th.regions_ignored > 0) {  // the innermost push was past the cap
    --th.regions_ignored;
    return;
  }
  auto it = std::find_if(th.stack.rbegin(), th.stack.rend(), [](const Open& o) {
    return o.kind == CallKind::Region;
  });
  if (it == th.stack.rend()) {
    ++dropped_.unmatched_ends;
    return;
  }
  const Open o = *it;
  th.stack.erase(std::next(it).base());
  if (!th.region_paths.empty()) th.region_paths.pop_back();
  th.region_path = th.region_paths.empty() ? 0 : th.region_paths.back();
  if (TraceSink* tr = fold_.trace())
    tr->host_slice(thread, "region " + names_[o.what], "region", o.begin_s, t);
  set_last_event(
      th,
      names_.combo(Combo::RegionEnd, o.what, 0,
                   [&] { return "end of region " + names_[o.what]; }),
      false);
  feed_.update(th, t);
}

void Replay::instant(std::uint32_t thread, CallKind kind, std::uint32_t label,
                     std::uint32_t space, std::uint64_t bytes) {
  HostThread& th = threads_.get(thread);
  if (kind == CallKind::Alloc)
    th.last_alloc_kind = device_kind_of_space(names_[space]);
  th.instant_kind = kind;
  th.instant_label = label;
  th.instant_space = space;
  th.instant_bytes = bytes;
  th.instant_pending = true;
  if (!th.awaiting_next_event.empty()) {  // it names runtime calls: now
    set_last_event(th, last_event(th), false);
    return;
  }
  th.last_event_was_launch = false;
}

void Replay::thread_exit(std::uint32_t idx) {
  HostThread* t = threads_.find(idx);
  if (!t || t->exited) return;
  feed_.close(*t, last_t_);
  threads_.count_left_open(*t, dropped_);  // what it left open never ends
  t->stack.clear();
  t->place_stacks.clear();  // a thread that takes its index numbers anew
  t->region_paths.clear();
  t->regions_ignored = 0;
  t->blocking_depth = 0;
  // Runtime calls awaiting the next event keep the context they have.
  for (auto id : t->awaiting_next_event) {
    auto it = live_calls_.find(id);
    if (it == live_calls_.end()) continue;
    it->second.awaiting_next_event = false;
    live_by_end_.insert(it->second.end_s, id);
  }
  t->awaiting_next_event.clear();
  t->exited = true;
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
  w.threads_seen = threads_.used();
  w.kernels_without_device_record = without_record_;
  w.dropped = dropped_;
  w.dropped.names = names_.dropped();
  // Calls and regions still open now will not end before the report.
  threads_.for_each([&](const HostThread& t) {
    if (!t.exited) threads_.count_left_open(t, w.dropped);
  });
  fold_.fill(w);
  // Host kernels Kokkos did not place ran on the host space other kernels
  // ran on, else on Kokkos' default space if that is a host space.
  const DeviceKind host = host_kind_ != DeviceKind::Unknown ? host_kind_
                          : !is_async(default_kind)         ? default_kind
                                                    : DeviceKind::Unknown;
  for (auto& k : w.kernels)
    if (k.device_kind == DeviceKind::Unknown) k.device_kind = host;
  if (!launch_stacks_.empty()) {
    std::unordered_map<std::string, std::uint32_t> by_name;
    for (const auto& [name, stack] : launch_stacks_)
      by_name.emplace(names_[name], stack);
    for (auto& k : w.kernels) {
      auto it = by_name.find(k.raw_name);
      if (it != by_name.end()) k.launch_stack = it->second;
    }
  }
  if (device_times_ever)
    w.idle = idle_.summary([this](std::uint32_t id) { return names_[id]; });
  // Device records were on, yet the device ran nothing: a host-only run
  // (Kokkos 4.x allocates in CudaSpace at start-up, which starts the device
  // source; a host program on a GPU build then read as "device").
  if (w.mode == WaitsMode::Device && w.totals.launches == 0 &&
      w.totals.device_kernels == 0 && !w.idle.any_activity &&
      w.totals.hidden_calls == 0 && w.totals.explicit_calls == 0)
    w.mode = WaitsMode::Host;
}

void Replay::set_trace(std::unique_ptr<TraceSink> t) {
  const bool on = t != nullptr;
  fold_.set_trace(std::move(t));
  if (!on) {
    idle_.set_gap_listener(nullptr);
    return;
  }
  idle_.set_gap_listener([this](const IdleGapRecord& r) {
    TraceSink* tr = fold_.trace();
    if (!tr) return;
    IdleInterval iv =
        idle_interval(r, [this](std::uint32_t id) { return names_[id]; });
    iv.call_code = fold_.trace_line(r.stack);
    iv.next_code = fold_.trace_line(r.next_stack);
    tr->idle(iv);
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
