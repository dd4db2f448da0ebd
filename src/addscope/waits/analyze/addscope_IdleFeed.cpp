#include "addscope/waits/analyze/addscope_IdleFeed.hpp"

#include <algorithm>

namespace addscope {
namespace Impl {

IdleFeed::Now IdleFeed::state_of(HostThread& t) {
  const Open* outer = t.outermost_call();
  auto site_of = [](const Open& o) {
    return o.kind == CallKind::Launch ? o.what : o.site;
  };
  if (t.blocking_depth > 0)
    return {HostState::Blocked, outer ? outer->id : t.blocking.call,
            outer ? site_of(*outer) : 0};
  if (!outer) return {HostState::Program, 0, 0};
  if (outer->kind == CallKind::Launch)
    return {HostState::Launch, outer->id, site_of(*outer)};
  if (outer->kind == CallKind::Mpi)
    return {HostState::Mpi, outer->id, outer->site};
  return {HostState::KokkosOwn, outer->id, outer->site};
}

void IdleFeed::emit(HostThread& t, double end_s, std::uint32_t after,
                    bool may_hold) {
  if (!t.idle_open || !(end_s > t.idle_begin)) return;
  HostInterval h;
  h.thread = t.index;
  h.state = t.idle_state;
  h.begin_s = t.idle_begin;
  h.end_s = end_s;
  h.call = t.idle_call;
  h.site = t.idle_site;
  h.region = t.idle_region;
  h.stack = t.idle_stack;
  if (h.state == HostState::Program) {
    h.before = t.idle_before;
    h.after = after;
  }
  // Inside a Kokkos call that is still open (blocked, or its own work):
  // held until the call ends, when its stack (its line) is known, with what
  // follows it on the thread (in order); too many held, or held too long
  // (advance), go without.
  const Open* outer = t.outermost_call();
  const bool hold =
      may_hold &&
      (h.state == HostState::Blocked || h.state == HostState::KokkosOwn) &&
      outer && outer->id == h.call && h.stack == 0;
  if (t.held.size() >= HostThread::kHeld) release(t);
  if (hold || !t.held.empty()) {
    t.held.push_back(h);
    return;
  }
  blame_.add_host_interval(h);
}

void IdleFeed::release(HostThread& t) {
  for (const HostInterval& h : t.held) blame_.add_host_interval(h);
  t.held.clear();
}

void IdleFeed::call_ended(HostThread& t, std::uint64_t call,
                          std::uint32_t stack) {
  if (!on) return;
  // The interval open now, if it is the call's, ends with it (update()).
  if (t.idle_open && t.idle_call == call && t.idle_stack == 0 &&
      (t.idle_state == HostState::Blocked ||
       t.idle_state == HostState::KokkosOwn))
    t.idle_stack = stack;
  bool mine = false;
  for (HostInterval& h : t.held)
    if (h.call == call && h.stack == 0 &&
        (h.state == HostState::Blocked || h.state == HostState::KokkosOwn)) {
      h.stack = stack;
      mine = true;
    }
  if (mine) release(t);
}

void IdleFeed::update(HostThread& t, double now_s, std::uint32_t blocked_site,
                      std::uint32_t blocked_stack) {
  if (!on) return;
  const Now n = state_of(t);
  if (t.idle_open && n.state == t.idle_state && n.call == t.idle_call &&
      n.site == t.idle_site && t.region_path == t.idle_region)
    return;
  // A blocking call outside Kokkos calls is named when it ends.
  if (t.idle_open && t.idle_state == HostState::Blocked && t.idle_site == 0) {
    t.idle_site = blocked_site;
    t.idle_stack = blocked_stack;
  }
  emit(t, now_s, n.state == HostState::Program ? 0 : n.site);
  if (n.state == HostState::Program && t.idle_open &&
      t.idle_state != HostState::Program)
    t.last_outer_site = t.idle_site;
  t.idle_open = true;
  t.idle_state = n.state;
  t.idle_begin = now_s;
  t.idle_call = n.call;
  t.idle_site = n.site;
  t.idle_stack = 0;
  t.idle_region = t.region_path;
  t.idle_before = t.last_outer_site;
}

void IdleFeed::close(HostThread& t, double now_s) {
  if (!on) return;
  emit(t, now_s, 0);
  release(t);
  t.idle_open = false;
}

void IdleFeed::advance(HostThreads& threads, double w, bool final) {
  if (!on) return;
  // The blame waits for what is held (briefly: a Kokkos call ends us after
  // its last blocking call), never more than kHoldBack_s behind, nor at the
  // end.
  double wb = w;
  threads.for_each([&](HostThread& t) {
    if (!t.held.empty()) {
      if (final || w - t.held.front().begin_s > kHoldBack_s)
        release(t);
      else
        wb = std::min(wb, t.held.front().begin_s);
    }
    if (t.idle_open && w > t.idle_begin) {
      // The same interval, in two pieces: [begin, w) now, [w, ...) later.
      const std::uint32_t before = t.idle_before;
      emit(t, w, 0, false);  // after what is held, if anything is
      t.idle_begin = w;
      t.idle_before = before;
    }
  });
  blame_.advance(wb);
}

}  // namespace Impl
}  // namespace addscope
