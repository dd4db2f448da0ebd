#include "addscope/waits/model/addscope_IdleSummary.hpp"

#include <algorithm>

namespace addscope {

const char* device_work_name(DeviceWork w) {
  switch (w) {
    case DeviceWork::Kernel:
      return "kernel";
    case DeviceWork::Memcpy:
      return "memcpy";
    case DeviceWork::Memset:
      return "memset";
  }
  return "unknown";
}

const char* host_state_name(HostState s) {
  switch (s) {
    case HostState::Program:
      return "program";
    case HostState::Launch:
      return "launch";
    case HostState::Blocked:
      return "blocked";
    case HostState::KokkosOwn:
      return "kokkos";
    case HostState::Mpi:
      return "mpi";
  }
  return "unknown";
}

const char* idle_cause_name(IdleCause c) {
  switch (c) {
    case IdleCause::SyncRoundTrip:
      return "sync_round_trip";
    case IdleCause::LaunchLatency:
      return "launch_latency";
    case IdleCause::HostCode:
      return "host_code";
    case IdleCause::Communication:
      return "communication";
    case IdleCause::Submitted:
      return "submitted";
    case IdleCause::Unknown:
      return "unknown";
    case IdleCause::StartUp:
      return "start_up";
  }
  return "unknown";
}

const char* idle_cause_words(IdleCause c) {
  switch (c) {
    case IdleCause::SyncRoundTrip:
      return "synchronization round trip";
    case IdleCause::LaunchLatency:
      return "launch latency";
    case IdleCause::HostCode:
      return "host code";
    case IdleCause::Communication:
      return "communication (MPI)";
    case IdleCause::Submitted:
      return "already submitted";
    case IdleCause::Unknown:
      return "other/unknown";
    case IdleCause::StartUp:
      return "start-up";
  }
  return "other/unknown";
}

bool idle_row_is_a_kernel(IdleCause c) {
  return c == IdleCause::LaunchLatency || c == IdleCause::Submitted ||
         c == IdleCause::Unknown || c == IdleCause::StartUp;
}

void sort_idle_sites(std::vector<IdleSiteStats>& sites) {
  std::sort(sites.begin(), sites.end(),
            [](const IdleSiteStats& a, const IdleSiteStats& b) {
              if (a.idle_s != b.idle_s) return a.idle_s > b.idle_s;
              if (a.cause != b.cause) return a.cause < b.cause;
              if (a.site != b.site) return a.site < b.site;
              if (a.region != b.region) return a.region < b.region;
              if (a.before != b.before) return a.before < b.before;
              return a.after < b.after;
            });
}

void merge_idle_site(IdleSiteStats& into, const IdleSiteStats& from) {
  into.gaps += from.gaps;
  into.calls += from.calls;
  into.idle_s += from.idle_s;
  into.max_s = std::max(into.max_s, from.max_s);
  for (std::size_t i = 0; i < into.state_s.size(); ++i)
    into.state_s[i] += from.state_s[i];
}

void fill_idle_what_if(IdleSummary& s) {
  s.what_if.clear();
  for (const IdleCauseStats& c : s.causes) {
    // Start-up is paid once, whatever the run does: no what-if.
    if (c.idle_s <= 0 || c.cause == IdleCause::StartUp) continue;
    IdleWhatIf w;
    w.cause = c.cause;
    w.idle_s = c.idle_s;
    w.share = s.span_s > 0 ? c.idle_s / s.span_s : 0;
    w.gaps = c.gaps;
    w.calls = c.calls;
    bool found = false;
    for (const IdleSiteStats& r : s.sites) {
      if (r.cause != c.cause) continue;
      if (!found) {
        w.top = r;
        found = true;
      } else {
        ++w.other_sites;
      }
    }
    w.top_share = s.span_s > 0 ? w.top.idle_s / s.span_s : 0;
    if (found && s.devices.size() == 1 && !w.top.other &&
        !w.top.region.empty()) {
      for (const IdleRegionStats& r : s.regions)
        if (!r.other && r.region == w.top.region && r.one_thread &&
            r.host_s > 0 && w.top.idle_s <= r.host_s)
          w.region_share = w.top.idle_s / r.host_s;
    }
    s.what_if.push_back(std::move(w));
  }
}

}  // namespace addscope
