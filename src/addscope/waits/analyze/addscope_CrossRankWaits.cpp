#include "addscope/waits/analyze/addscope_CrossRankWaits.hpp"

#include <algorithm>

#include "addscope/core/addscope_Format.hpp"

namespace addscope {
namespace waits_mpi {

std::vector<CrossRankWait> cross_rank_waits(
    const std::vector<CollectiveInstance>& instances,
    const std::vector<RankWaits>& ranks, const CrossRankOptions& opt) {
  std::vector<CrossRankWait> out;
  for (const auto& in : instances) {
    const int n = int(in.enter_s.size());
    int last = -1;
    for (int r = 0; r < n; ++r)
      if (in.present[std::size_t(r)] &&
          (last < 0 ||
           in.enter_s[std::size_t(r)] > in.enter_s[std::size_t(last)]))
        last = r;
    if (last < 0) continue;
    const double last_enter = in.enter_s[std::size_t(last)];
    for (int r = 0; r < n; ++r) {
      if (r == last || !in.present[std::size_t(r)]) continue;
      const double enter = in.enter_s[std::size_t(r)];
      const double exit = in.exit_s[std::size_t(r)];
      const double wait = std::min(exit, last_enter) - enter;
      if (wait < opt.min_wait_s) continue;
      CrossRankWait w;
      w.rank = r;
      w.call = in.name;
      w.comm = in.comm;
      w.seq = in.seq;
      w.enter_s = enter;
      w.duration_s = exit - enter;
      w.wait_s = wait;
      w.for_rank = last;
      w.gap_s = last_enter - enter;
      // What the last rank did meanwhile: its waiting call that covers
      // most of [enter, last_enter], if it covers at least half.
      if (std::size_t(last) < ranks.size()) {
        const RankWaits& lr = ranks[std::size_t(last)];
        auto overlap = [&](const RankWaitCall& c) {
          return std::min(c.end_s, last_enter) - std::max(c.begin_s, enter);
        };
        double best = 0;
        for (const auto& c : lr.waits)
          if (overlap(c) > best) {
            best = overlap(c);
            w.late_call = c;
          }
        w.late_call_found = best > 0 && best >= 0.5 * w.gap_s;
        if (!w.late_call_found) {
          w.late_call = RankWaitCall();
          best = 0;
          for (const auto& c : lr.busy)
            if (overlap(c) > best) {
              best = overlap(c);
              w.late_busy = c;
            }
          w.late_busy_found = best > 0 && best >= 0.5 * w.gap_s;
          w.late_busy_overlap_s = best;
        }
      }
      out.push_back(w);
    }
  }
  std::sort(out.begin(), out.end(),
            [](const CrossRankWait& a, const CrossRankWait& b) {
              return a.wait_s > b.wait_s;
            });
  if (out.size() > opt.top) out.resize(opt.top);
  return out;
}

namespace {
/// "kernel user::add[1x1]"; a name that starts with its kind ("deep_copy
/// a<-b") as it is.
std::string kind_and_name(const RankWaitCall& c) {
  if (c.wait_class.empty() || c.what.rfind(c.wait_class, 0) == 0) return c.what;
  return c.wait_class + " " + c.what;
}
}  // namespace

std::string format_cross_rank_wait(const CrossRankWait& w) {
  std::string s = "rank " + std::to_string(w.rank) + "'s " + w.call + " (" +
                  w.comm + ", #" + std::to_string(w.seq) + ") " +
                  format_seconds(w.duration_s) + " = " +
                  format_seconds(w.wait_s) + " waiting for rank " +
                  std::to_string(w.for_rank) + " + " +
                  format_seconds(std::max(0.0, w.duration_s - w.wait_s)) +
                  " own; rank " + std::to_string(w.for_rank) + " entered " +
                  format_seconds(w.gap_s) + " later";
  if (w.late_call_found) {
    const auto& c = w.late_call;
    s += ": it was blocked in " + c.what;
    if (!c.at.empty()) s += " at " + c.at;
    if (!c.kernel.empty()) s += " on " + c.kernel;
    s += " (" + c.wait_class + " wait " + (c.bound ? "of at most " : "") +
         format_seconds(c.wait_s) + ")";
  } else if (w.late_busy_found) {
    s += ": it was in " + kind_and_name(w.late_busy) + " for " +
         format_seconds(w.late_busy_overlap_s) + " of that" +
         (w.late_busy.wait_class == "kernel"
              ? " (a host backend: the kernel ran inside its launch)"
              : "");
  } else {
    s += ": no call of rank " + std::to_string(w.for_rank) +
         " that the tracker saw covers half of that";
    if (w.late_busy_overlap_s > 0)
      s += " (the most: " + kind_and_name(w.late_busy) + ", " +
           format_seconds(w.late_busy_overlap_s) + ")";
  }
  return s;
}

}  // namespace waits_mpi
}  // namespace addscope
