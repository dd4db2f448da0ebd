#include "addscope/waits/analyze/addscope_Launches.hpp"

#include <algorithm>

namespace addscope {
namespace Impl {

// ---- by correlation
// ----------------------------------------------------------

void Launches::add_corr(const PendingCorr& p) {
  if (corr_.empty() || corr_.back().correlation < p.correlation) {
    corr_.push_back(p);
  } else {
    auto it = std::lower_bound(corr_.begin(), corr_.end(), p.correlation,
                               [](const PendingCorr& q, std::uint32_t v) {
                                 return q.correlation < v;
                               });
    if (it != corr_.end() && it->correlation == p.correlation) {
      if (!it->done) --corr_live_;
      *it = p;
    } else {
      corr_.insert(it, p);
    }
  }
  ++corr_live_;
}

PendingCorr* Launches::find_corr(std::uint32_t c) {
  // Records come in about the order of their launches: the oldest first.
  if (!corr_.empty() && corr_.front().correlation == c)
    return corr_.front().done ? nullptr : &corr_.front();
  auto it = std::lower_bound(
      corr_.begin(), corr_.end(), c,
      [](const PendingCorr& p, std::uint32_t v) { return p.correlation < v; });
  if (it == corr_.end() || it->correlation != c || it->done) return nullptr;
  return &*it;
}

void Launches::done_corr(PendingCorr* p) {
  p->done = true;
  --corr_live_;
  while (!corr_.empty() && corr_.front().done) corr_.pop_front();
}

double Launches::oldest_corr_launch(double fallback) const {
  if (corr_live_ == 0) return fallback;
  for (const auto& p : corr_)
    if (!p.done) return std::min(fallback, p.facts.launch_s);
  return fallback;
}

std::uint64_t Launches::give_up_corr(std::size_t keep) {
  std::uint64_t given_up = 0;
  while (corr_live_ > keep && !corr_.empty()) {
    if (!corr_.front().done) {
      ++given_up;
      --corr_live_;
    }
    corr_.pop_front();
  }
  if (keep == 0) {
    corr_.clear();
    corr_live_ = 0;
  }
  return given_up;
}

// ---- by the Kokkos call
// --------------------------------------------------------

void Launches::add_call(const LaunchFacts& f) {
  if (calls_.size() >= max_pending_) calls_.pop_front();
  if (calls_.empty() || calls_.back().launch < f.launch) {
    calls_.push_back(f);
    return;
  }
  auto it = std::lower_bound(
      calls_.begin(), calls_.end(), f.launch,
      [](const LaunchFacts& a, std::uint64_t v) { return a.launch < v; });
  if (it != calls_.end() && it->launch == f.launch)
    *it = f;
  else
    calls_.insert(it, f);
}

LaunchFacts* Launches::find_call(std::uint64_t id) {
  auto it = std::lower_bound(
      calls_.begin(), calls_.end(), id,
      [](const LaunchFacts& a, std::uint64_t v) { return a.launch < v; });
  if (it == calls_.end() || it->launch != id) return nullptr;
  return &*it;
}

void Launches::map_correlation(std::uint32_t correlation, std::uint64_t id) {
  // Every runtime call inside a Kokkos call gets one: most are no launch,
  // so the map is a bounded window of the latest.
  if (corr_ext_.size() >= 4 * max_pending_) corr_ext_.pop_front();
  if (corr_ext_.empty() || corr_ext_.back().correlation < correlation) {
    corr_ext_.push_back({correlation, id});
    return;
  }
  auto it = std::lower_bound(
      corr_ext_.begin(), corr_ext_.end(), correlation,
      [](const CorrExt& a, std::uint32_t v) { return a.correlation < v; });
  if (it != corr_ext_.end() && it->correlation == correlation)
    it->id = id;
  else
    corr_ext_.insert(it, {correlation, id});
}

std::uint64_t Launches::call_of(std::uint32_t correlation) const {
  auto it = std::lower_bound(
      corr_ext_.begin(), corr_ext_.end(), correlation,
      [](const CorrExt& a, std::uint32_t v) { return a.correlation < v; });
  if (it == corr_ext_.end() || it->correlation != correlation) return 0;
  return it->id;
}

double Launches::oldest_unseen_call(double fallback) const {
  for (const auto& f : calls_)
    if (!f.seen && f.name != 0) return std::min(fallback, f.launch_s);
  return fallback;
}

// Kept in correlation order (the ids grow: a push at the back, else a short
// move), looked up by binary search: each copy record asks, again at each
// settle while its thread is unknown (a backward scan of the whole list
// here made the analyzer fall behind a soak of deep_copies).
void Launches::map_copy(std::uint32_t correlation, std::uint32_t thread) {
  if (copy_thread_.size() >= max_pending_) copy_thread_.pop_front();
  if (copy_thread_.empty() || copy_thread_.back().first < correlation) {
    copy_thread_.emplace_back(correlation, thread);
    return;
  }
  auto it =
      std::lower_bound(copy_thread_.begin(), copy_thread_.end(), correlation,
                       [](const std::pair<std::uint32_t, std::uint32_t>& p,
                          std::uint32_t v) { return p.first < v; });
  if (it != copy_thread_.end() && it->first == correlation)
    it->second = thread;
  else
    copy_thread_.insert(it, {correlation, thread});
}

std::uint32_t Launches::copy_thread(std::uint32_t correlation) const {
  auto it =
      std::lower_bound(copy_thread_.begin(), copy_thread_.end(), correlation,
                       [](const std::pair<std::uint32_t, std::uint32_t>& p,
                          std::uint32_t v) { return p.first < v; });
  return it != copy_thread_.end() && it->first == correlation ? it->second
                                                              : 0xffffffffu;
}

void Launches::forget_calls_before(double synced_s) {
  while (!calls_.empty() && calls_.front().launch_end_s > 0 &&
         calls_.front().launch_end_s <= synced_s)
    calls_.pop_front();
}

// ---- without device records
// ----------------------------------------------------

Lane& Launches::lane_for(const ExecId& exec, bool stream_known,
                         std::uint32_t device, std::uint32_t stream,
                         bool by_stream) {
  for (auto& l : lanes_) {
    if (by_stream ? (l.stream_known == stream_known && l.device == device &&
                     l.stream == stream)
                  : (l.exec.kind == exec.kind && l.exec.device == exec.device &&
                     l.exec.instance == exec.instance))
      return l;
  }
  if (lanes_.size() >= max_streams_) return lanes_.front();  // merged
  Lane l;
  l.exec = exec;
  l.stream_known = stream_known;
  l.device = device;
  l.stream = stream;
  lanes_.push_back(std::move(l));
  return lanes_.back();
}

void Launches::push_pending(Lane& l, const PendingLaunch& p,
                            std::uint64_t* dropped) {
  if (pending_count_ >= max_pending_) {
    Lane* from = &l;
    if (from->q.empty())
      for (auto& o : lanes_)
        if (!o.q.empty()) from = &o;
    if (!from->q.empty()) {
      from->q.pop_front();
      --pending_count_;
      ++*dropped;
    }
  }
  l.q.push_back(p);
  ++pending_count_;
}

}  // namespace Impl
}  // namespace addscope
