// Waits snapshots built by hand, for the report's and the headline's tests
// that need one call of a given kind without a timeline: the call that
// waited, its call site, the device's idle run and its round-trip rows.
#ifndef ADDSCOPE_TEST_WAITS_HAND_SNAPSHOT_HPP
#define ADDSCOPE_TEST_WAITS_HAND_SNAPSHOT_HPP

#include <cstdint>
#include <string>

#include "addscope/waits/addscope_WaitsSnapshot.hpp"

namespace addscope_test {

/// A device-mode snapshot with one runtime call `site` (from 1.0 s to 1.5 s)
/// that waited `wait_s` as `cls`, at `code`, and its call site of
/// `site_calls` calls (one of them waited); the totals hold that wait.
inline addscope::WaitsSnapshot one_wait(const std::string& site,
                                        addscope::WaitClass cls, double wait_s,
                                        const addscope::CodeSite& code = {},
                                        std::uint64_t site_calls = 1) {
  const bool hidden = cls == addscope::WaitClass::Hidden;
  addscope::WaitsSnapshot w;
  w.mode = addscope::WaitsMode::Device;
  addscope::CallRecord c;
  c.what = c.site = site;
  c.kind = addscope::CallKind::Runtime;
  c.wait_class = cls;
  c.begin_s = 1.0;
  c.end_s = 1.5;
  c.wait_s = wait_s;
  c.code = code;
  w.waits.push_back(c);
  addscope::SiteStats st;
  st.kind = c.kind;
  st.site = site;
  st.calls = site_calls;
  (hidden ? st.hidden_calls : st.explicit_calls) = 1;
  (hidden ? st.wait_hidden_s : st.wait_explicit_s) = wait_s;
  st.max_wait_s = wait_s;
  st.code = code;
  w.sites.push_back(st);
  (hidden ? w.totals.hidden_calls : w.totals.explicit_calls) = 1;
  (hidden ? w.totals.hidden_s : w.totals.explicit_s) = wait_s;
  return w;
}

/// The device's run: `span_s` long, idle `idle_s` of it (rows: the test's).
inline void idle_run(addscope::WaitsSnapshot& w, double span_s,
                     double idle_s) {
  w.idle.any_activity = true;
  w.idle.span_s = span_s;
  w.idle.busy_s = span_s - idle_s;
  w.idle.idle_s = idle_s;
}

/// A round-trip row of `calls` calls (one gap each) of `site` at `code`.
inline addscope::IdleSiteStats round_trip_row(
    const std::string& site, std::uint64_t calls, double idle_s,
    const addscope::CodeSite& code = {}) {
  addscope::IdleSiteStats r;
  r.cause = addscope::IdleCause::SyncRoundTrip;
  r.site = site;
  r.calls = r.gaps = calls;
  r.idle_s = r.max_s = idle_s;
  r.code = code;
  return r;
}

}  // namespace addscope_test

#endif
