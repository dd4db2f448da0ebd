// addscope — the replay (analyze/addscope_Replay.hpp) of calls ending, launches
// and blocking calls: what each kind of device observation makes of them.
#include <algorithm>
#include <cmath>

#include "addscope/core/addscope_Format.hpp"
#include "addscope/waits/analyze/addscope_Replay.hpp"
#include "addscope/waits/model/addscope_TraceSink.hpp"

namespace addscope {
namespace Impl {

// Kokkos-only: a fence or deep_copy returned, so the kernels it covers had
// finished; the time it took bounds the wait.
void Replay::kokkos_only_completion(HostThread& t, const Open& call,
                                    double end_s) {
  if (launches_.pending_count() == 0) return;
  PendingLaunch last;
  const bool any = launches_.complete_launches(
      [&](const Lane& l) {
        return call.kind != CallKind::Fence || call.exec.covers(l.exec);
      },
      call.begin_s, &last);
  if (!any) return;
  Charge* owner = t.outermost_call();
  if (!owner) owner = const_cast<Open*>(&call);
  if (owner->shares.empty() && owner->own_launch != last.launch) {
    // The last kernel queued is the one the call waited for.
    owner->shares.push_back({last.name, 0, end_s - call.begin_s, last.stack});
    owner->bound = true;
  }
}

// Callbacks-only: a blocking runtime call returned, so the launches on the
// streams it waits for had finished; it waited up to its whole time for the
// last of them (unless that was its call's own kernel).
void Replay::callbacks_completion(const BlockingCall& b, Charge* owner) {
  if (launches_.pending_count() == 0) return;
  PendingLaunch last;
  const bool any = launches_.complete_launches(
      [&](const Lane& l) {
        return l.device == b.device &&
               (b.all_streams || !l.stream_known || l.stream == b.stream);
      },
      b.begin_s, &last);
  if (!any || !owner || b.api == SyncApi::Launch) return;
  if (last.owner_call == b.call ||
      (owner->own_launch != 0 && last.launch == owner->own_launch))
    return;  // its own kernel: its work
  const double wait = b.end_s - b.begin_s;
  owner->shares.push_back({last.name, 0, wait, last.stack});
  owner->bound = true;
  if (wait > owner->via_wait_s) {
    owner->via_wait_s = wait;
    owner->via = 0;  // set by the caller
  }
}

// A call of the stack ends: attribute it, or keep it until its blocking
// calls are.
void Replay::end_open(HostThread& t, Open& o, double now_s) {
  const std::uint32_t ti = t.index;
  if (!mode.device_times && mode.async_seen && !mode.callbacks_only &&
      (o.kind == CallKind::Fence || o.kind == CallKind::DeepCopy))
    kokkos_only_completion(t, o, now_s);
  if (o.kind == CallKind::Fence && o.exec.covers_all_instances() &&
      is_async(o.exec.kind))
    synced_s_ = std::max(synced_s_, o.begin_s);
  if (o.kind == CallKind::HostKernel) {
    fold_.host_kernel(o.what, now_s - o.begin_s, o.exec.kind);
    o.what = o.site = names_.short_id(o.what);
  } else if (o.kind == CallKind::Launch) {
    fold_.launch(o.what, o.exec.kind);
    if (mode.device_times) {
      for (std::uint8_t i = 0; i < o.ncorr; ++i)
        if (PendingCorr* c = launches_.find_corr(o.corr[i]))
          c->facts.launch_end_s = now_s;
      if (LaunchFacts* f = launches_.find_call(o.id)) f->launch_end_s = now_s;
      // A long launch call may have blocked (behind the legacy stream, a
      // full queue): with no launch callback to say so, the call itself.
      if (mode.tie == LaunchTie::External && !o.blocked &&
          now_s - o.begin_s > kSlowLaunch_s) {
        BlockingCall b;
        b.call = o.id;
        b.thread = ti;
        b.api = SyncApi::Launch;
        b.begin_s = o.begin_s;
        b.end_s = now_s;
        BlockingBegin what;
        what.api = SyncApi::Launch;
        blockings_.insert(b.begin_s, LiveBlocking{b, describe_blocking(what)});
        o.blocked = true;
      }
    } else if (mode.async_seen) {
      PendingLaunch p;
      p.launch = o.id;
      p.owner_call = o.id;
      p.name = o.what;
      p.stack = o.place_stack;
      p.launch_end_s = now_s;
      if (mode.callbacks_only) {
        if (o.lane_known || o.ncorr > 0)
          launches_.push_pending(
              launches_.lane_for(o.exec, o.lane_known, o.lane_device,
                                 o.lane_stream, true),
              p, &dropped_.pending_launches);
      } else {
        launches_.push_pending(launches_.lane_for(o.exec, false, 0, 0, false),
                               p, &dropped_.pending_launches);
      }
    }
    const std::uint32_t l = names_.launch_name(o.what);
    t.last_launch = o.id;
    t.last_launch_name = o.what;
    o.what = o.site = l;
  } else if (o.kind == CallKind::DeepCopy) {
    if (LaunchFacts* f = launches_.find_call(o.id)) f->launch_end_s = now_s;
  }
  const std::uint32_t what = o.what;
  const bool blocked = o.blocked;
  LiveCall c;
  static_cast<Charge&>(c) = std::move(static_cast<Charge&>(o));
  c.what = o.what;
  c.site = o.site;
  c.regions = t.region_path;
  c.thread = ti;
  c.end_s = now_s;
  if (blocked && mode.device_times)
    add_live(std::move(c));
  else
    fold_.call(c);
  set_last_event(t, what, o.kind == CallKind::Launch);
}

void Replay::launch(std::uint32_t ti, double t, const LaunchBegin& l,
                    std::uint32_t stack, std::uint32_t place) {
  last_launch_s_ = std::max(last_launch_s_, t);
  HostThread& th = threads_.get(ti);
  PendingCorr p;
  p.correlation = l.correlation;
  p.facts.thread = ti;
  p.facts.stack = place_stack(th, place, stack);
  p.facts.launch_s = p.facts.launch_end_s = t;
  Open* launch = nullptr;
  for (auto it = th.stack.rbegin(); it != th.stack.rend(); ++it) {
    if (it->kind == CallKind::HostKernel) {
      // A device launch inside a "host" kernel (a Kokkos 3.4 View
      // initialization reported with a Serial device id): a device launch.
      it->kind = CallKind::Launch;
      it->exec.kind = DeviceKind::Cuda;
    }
    if (it->kind != CallKind::Launch) continue;
    launch = &*it;
    if (p.facts.stack == 0) p.facts.stack = it->place_stack;
    p.facts.launch = it->id;
    p.facts.name = it->what;
    p.facts.exec = it->exec;
    if (it->ncorr < it->corr.size()) it->corr[it->ncorr++] = l.correlation;
    break;
  }
  mode.async_seen = true;
  // Kernels launched inside a call are that call's own work.
  if (const Open* outer = th.outermost_call()) p.facts.owner_call = outer->id;
  if (mode.callbacks_only) {
    // No record will come: the launch is pending until a blocking call
    // that covers its stream returns.
    if (launch) {
      if (!launch->lane_known) {
        launch->lane_known = l.stream_known;
        launch->lane_device = l.device;
        launch->lane_stream = l.stream;
      }
    } else {
      PendingLaunch q;
      q.owner_call = p.facts.owner_call;
      q.name = names_.outside_kokkos_name();
      q.stack = p.facts.stack;
      q.launch_end_s = t;
      launches_.push_pending(launches_.lane_for(ExecId(), l.stream_known,
                                                l.device, l.stream, true),
                             q, &dropped_.pending_launches);
    }
    return;
  }
  if (!mode.device_times) return;
  launches_.add_corr(p);
}

void Replay::launch_failed(std::uint32_t correlation) {
  if (PendingCorr* p = launches_.find_corr(correlation)) launches_.done_corr(p);
}

void Replay::slow_launch(std::uint32_t ti, double begin_s, double end_s,
                         std::uint64_t own_id, std::uint32_t correlation,
                         std::uint32_t stack) {
  if (!std::isfinite(begin_s) || !std::isfinite(end_s) || end_s < begin_s)
    return;
  BlockingBegin b;
  b.api = SyncApi::Launch;
  b.correlation = correlation;
  HostThread& th = threads_.get(ti);
  if (th.blocking_depth > 0) return;  // inside another blocking call
  blocking_begin(ti, begin_s, b, own_id);
  blocking_end(ti, end_s, stack);
  // It launched as it ended: its kernel may be running now (no flush).
  last_launch_s_ = std::max(last_launch_s_, end_s);
}

// What blocked, in words (made once per distinct kind of call).
std::uint32_t Replay::describe_blocking(const BlockingBegin& b,
                                        std::uint32_t name) {
  // Copies and memsets by their bytes.
  const bool copy = b.api == SyncApi::Memcpy || b.api == SyncApi::MemcpyAsync ||
                    b.api == SyncApi::Memset;
  const std::uint64_t a = std::uint64_t(b.api) |
                          (std::uint64_t(b.copy_kind & 0xff) << 8) |
                          (std::uint64_t(b.all_streams) << 16) |
                          (b.all_streams ? 0 : std::uint64_t(b.stream) << 32);
  const std::uint32_t plain =
      names_.combo(Combo::ApiCall, a, copy ? b.bytes : 0, [&] {
        std::string d = sync_api_name(b.api);
        if (copy) {
          static const char* kinds[] = {"", " H2H", " H2D", " D2H", " D2D"};
          if (b.copy_kind > 0 && b.copy_kind <= 4) d += kinds[b.copy_kind];
          d += " " + format_bytes(b.bytes);
        }
        if (!b.all_streams) d += stream_suffix(b.stream);
        return d;
      });
  if (name == 0) return plain;
  // The call's own name in place of the API's.
  return names_.combo(Combo::ApiCallNamed, name, plain, [&] {
    const std::string& p = names_[plain];
    return names_[name] + p.substr(std::string(sync_api_name(b.api)).size());
  });
}

void Replay::blocking_begin(std::uint32_t ti, double t, const BlockingBegin& bb,
                            std::uint64_t own_id, std::uint32_t name) {
  HostThread& th = threads_.get(ti);
  if (th.blocking_depth++ > 0) return;  // nested inside another: ignore
  BlockingCall& b = th.blocking;
  b = BlockingCall();
  b.thread = ti;
  b.api = bb.api;
  b.begin_s = t;
  b.all_streams = bb.all_streams;
  b.device = bb.device;
  b.stream = bb.stream;
  b.bytes = bb.bytes;
  b.copy_kind = bb.copy_kind;
  b.correlation = bb.correlation;
  const std::uint32_t api = describe_blocking(bb, name);
  Open* outer = th.outermost_call();
  std::uint32_t via = api;
  if (outer) {
    outer->blocked = true;
    b.call = outer->id;
    Open* inner = th.innermost_call();
    if (inner && inner != outer) {
      const bool fence = inner->kind == CallKind::Fence;
      via = names_.combo(fence ? Combo::InFence : Combo::InCall, api,
                         inner->what, [&] {
                           return names_[api] + " in " +
                                  (fence ? "fence '" + names_[inner->what] + "'"
                                         : names_[inner->what]);
                         });
    }
  } else {
    b.call = own_id;  // a call of its own
  }
  th.blocking_via = via;
  // A copy's or memset's device record names no thread: its call does.
  if (bb.correlation != 0 &&
      (bb.api == SyncApi::Memcpy || bb.api == SyncApi::MemcpyAsync ||
       bb.api == SyncApi::Memset))
    launches_.map_copy(bb.correlation, ti);
  feed_.update(th, t);
  last_t_ = t;
}

void Replay::blocking_end(std::uint32_t ti, double t, std::uint32_t stack) {
  last_blocking_end_s_ = std::max(last_blocking_end_s_, t);
  HostThread& th = threads_.get(ti);
  if (th.blocking_depth == 0) {
    ++dropped_.unmatched_ends;
    return;
  }
  if (--th.blocking_depth > 0) return;
  BlockingCall b = th.blocking;
  b.end_s = std::max(t, b.begin_s);
  if (b.all_streams && b.api == SyncApi::DeviceSynchronize)
    synced_s_ = std::max(synced_s_, b.begin_s);
  Charge* owner = nullptr;
  std::uint32_t own_site = 0;  // a call of its own: its site
  if (!th.outermost_call()) {
    LiveCall c;
    c.id = b.call;
    c.kind = CallKind::Runtime;
    c.what = th.blocking_via;
    const std::uint32_t last = last_event(th);
    c.prev_event = last;
    // Named by the Kokkos event before it; before any, in a Kokkos
    // program, it is Kokkos' own (its initialize); in a program where no
    // Kokkos has started (yet), it is named by itself alone.
    c.kokkos_own = !last && kokkos_interface != 0;
    c.context =
        last           ? names_.combo(Combo::After, last, 0,
                                      [&] { return "after '" + names_[last] + "'"; })
        : c.kokkos_own ? names_.no_event_name()
                       : 0;
    c.site = c.context
                 ? names_.combo(
                       Combo::RuntimeSite, c.what, c.context,
                       [&] { return names_[c.what] + " " + names_[c.context]; })
                 : c.what;
    c.awaiting_next_event = true;
    if (th.awaiting_next_event.size() >= 64) {  // runtime calls in a row
      auto old = live_calls_.find(th.awaiting_next_event.front());
      if (old != live_calls_.end()) {
        old->second.awaiting_next_event = false;
        live_by_end_.insert(old->second.end_s, old->first);
      }
      th.awaiting_next_event.erase(th.awaiting_next_event.begin());
    }
    th.awaiting_next_event.push_back(c.id);
    c.regions = th.region_path;
    c.api = b.api;
    c.thread = ti;
    c.begin_s = b.begin_s;
    c.end_s = b.end_s;
    c.stack = stack;
    own_site = c.site;
    add_live(std::move(c));
    owner = &live_calls_.find(b.call)->second;
  } else {
    owner = charge_of(b.call, ti);
  }
  if (mode.callbacks_only) {
    // No kernel records: the wait is bounded here, at once.
    const double before = owner ? owner->via_wait_s : 0;
    callbacks_completion(b, owner);
    if (owner && owner->via_wait_s > before) owner->via = th.blocking_via;
    TraceSink* tr = fold_.trace();
    if (tr && !(owner && owner->kind == CallKind::Runtime &&
                owner->begin_s == b.begin_s))
      tr->host_slice(ti, names_[th.blocking_via], "runtime", b.begin_s,
                     b.end_s);
  } else if (mode.device_times) {
    blockings_.insert(b.begin_s, LiveBlocking{b, th.blocking_via});
  }
  feed_.update(th, t, own_site, own_site ? stack : 0);
  last_t_ = t;
}

}  // namespace Impl
}  // namespace addscope
