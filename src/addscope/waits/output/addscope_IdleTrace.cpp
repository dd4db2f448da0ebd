#include "addscope/waits/output/addscope_IdleTrace.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace addscope {

namespace {
nlohmann::json str_or_null(const std::string& s) {
  return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s);
}
nlohmann::json code_or_null(const CodeSite& c) {
  return c.known() ? nlohmann::json(site_text(c, 0)) : nlohmann::json(nullptr);
}
// A piece charged to the call the thread was in (its line: call_code).
bool on_the_call(IdleCause c, const IdleInterval& g) {
  return c == IdleCause::SyncRoundTrip || c == IdleCause::Communication ||
         (c == IdleCause::HostCode && g.state_known &&
          g.state == HostState::KokkosOwn);
}
bool host_blamed(IdleCause c) {
  return c == IdleCause::SyncRoundTrip || c == IdleCause::Communication ||
         c == IdleCause::LaunchLatency || c == IdleCause::HostCode;
}
}  // namespace

std::size_t emit_idle_trace(const IdleInterval& g, IdleTraceSink& sink) {
  std::size_t events = 0;
  for (const IdlePiece& p : g.pieces) {
    if (p.end_s <= p.begin_s) continue;
    nlohmann::json a = {
        {"cause", idle_cause_name(p.cause)},
        {"gap_us", (g.end_s - g.begin_s) * 1e6},
        {"next", str_or_null(g.next)},
        {"next_kind", device_work_name(g.next_kind)},
        {"next_stream", g.stream},
        {"thread",
         g.thread_known ? nlohmann::json(g.thread) : nlohmann::json(nullptr)},
        {"state", g.state_known ? nlohmann::json(host_state_name(g.state))
                                : nlohmann::json(nullptr)},
        {"site", str_or_null(g.site)},
        {"region", str_or_null(g.region)},
        {"before", str_or_null(g.before)},
        {"after", str_or_null(g.after)},
        // The blamed call's line (a round trip, an MPI call, a Kokkos
        // call's own work); any other piece's, the launch that ended the gap
        // (what the program's code ran up to).
        {"code",
         code_or_null(on_the_call(p.cause, g) ? g.call_code : g.next_code)}};
    sink.idle_slice(
        g.device, -1, std::string("idle: ") + idle_cause_words(p.cause),
        p.begin_s, p.end_s,
        a.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    ++events;
  }
  if (g.pieces.empty() || !g.state_known || !g.thread_known) return events;
  // A flow's ends must lie inside their slices once the trace has printed
  // them to the nanosecond: never at a slice's very edge (on the H200 a
  // launch that ended 1 ns into the gap put the arrow at the launch's end,
  // outside it once rounded). So the host end keeps a margin of up to 0.5 us
  // from the blamed interval's ends, and a sliver of under kMinFlow_s (an
  // idle piece, a blamed interval) gets no arrow.
  constexpr double kMinFlow_s = 10e-9;
  const IdlePiece& first = g.pieces.front();
  if (!(first.end_s - first.begin_s >= kMinFlow_s) || !host_blamed(first.cause))
    return events;
  // The blamed host interval's part inside the blamed piece.
  double hb = std::max(g.host_begin_s, first.begin_s);
  double he = std::min(g.host_end_s, first.end_s);
  if (he <= hb) {  // it ended as the device went idle: its own middle
    hb = g.host_begin_s;
    he = g.host_end_s;
  }
  if (he < hb) return events;
  double host_t = 0.5 * (hb + he);
  if (first.cause == IdleCause::HostCode) {
    // The flow ends in a slice of the host thread: the one drawn here for
    // the program's own code; in any other state (Kokkos' own work between
    // its callbacks) there may be none to end in (a viewer drops such a
    // flow, seen on the H200 in tests/tools/faults.cpp "throw"): no flow.
    if (he - hb < kMinFlow_s || g.state != HostState::Program) return events;
    nlohmann::json a = {
        {"before", str_or_null(g.before)},
        {"after", str_or_null(g.after)},
        {"up_to", code_or_null(g.next_code)},
        {"region", str_or_null(g.region)},
        {"device_idle_us", (first.end_s - first.begin_s) * 1e6}};
    sink.host_slice(
        g.thread, "host code (device idle)", hb, he,
        a.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    ++events;
  } else {
    const double len = g.host_end_s - g.host_begin_s;
    if (!(len >= kMinFlow_s)) return events;
    const double m = std::min(0.5e-6, 0.5 * len);
    host_t = std::min(std::max(host_t, g.host_begin_s + m), g.host_end_s - m);
  }
  sink.flow(g.device, -1, 0.5 * (first.begin_s + first.end_s), g.thread, host_t,
            "device idle");
  return events + 1;
}

}  // namespace addscope
