#include "addscope/timing/addscope_Stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "addscope/core/addscope_Error.hpp"

namespace addscope {

Stats Stats::of(std::vector<double> samples) {
  ADDSCOPE_THROW_IF(samples.empty(),
                    "samples is empty; allowed: one or more durations");
  for (double s : samples)
    ADDSCOPE_THROW_IF(
        !(s >= 0) || !std::isfinite(s),
        "sample = " << s << " s is invalid; allowed: finite, >= 0");
  Stats st;
  st.count = samples.size();
  st.samples_s = samples;
  std::sort(samples.begin(), samples.end());
  const std::size_t n = samples.size();
  // Linear interpolation between order statistics at position p (n - 1).
  auto at = [&](double p) {
    const double pos = p * double(n - 1);
    const std::size_t lo = std::size_t(pos);
    const std::size_t hi = std::min(lo + 1, n - 1);
    return samples[lo] + (pos - double(lo)) * (samples[hi] - samples[lo]);
  };
  st.min_s = samples.front();
  st.q1_s = at(0.25);
  st.median_s = at(0.5);
  st.q3_s = at(0.75);
  st.max_s = samples.back();
  st.mean_s = std::accumulate(samples.begin(), samples.end(), 0.0) / n;
  double ss = 0;
  for (double s : samples) ss += (s - st.mean_s) * (s - st.mean_s);
  st.stddev_s = n > 1 ? std::sqrt(ss / double(n - 1)) : 0.0;
  return st;
}

double spread_ratio(const Stats& s) {
  return s.count > 1 && s.min_s > 0 ? s.max_s / s.min_s : 1.0;
}

namespace {
std::uint64_t times(std::int64_t n, std::size_t elem, unsigned k,
                    const char* what) {
  ADDSCOPE_THROW_IF(n < 0,
                    what << ": n = " << n << " is invalid; allowed: >= 0");
  const auto un = static_cast<std::uint64_t>(n);
  ADDSCOPE_THROW_IF(
      elem != 0 && un > std::numeric_limits<std::uint64_t>::max() / (k * elem),
      what << ": n = " << n << " x " << elem << " bytes overflows 64 bits");
  return un * elem * k;
}
}  // namespace

std::uint64_t add_bytes(std::int64_t n, std::size_t s) {
  return times(n, s, 3, "add_bytes");
}
std::uint64_t copy_bytes(std::int64_t n, std::size_t s) {
  return times(n, s, 2, "copy_bytes");
}
std::uint64_t transfer_bytes(std::int64_t n, std::size_t s) {
  return times(n, s, 1, "transfer_bytes");
}

double gbps(std::uint64_t bytes, double seconds) {
  ADDSCOPE_THROW_IF(!(seconds > 0) || !std::isfinite(seconds),
                    "seconds = " << seconds << " is invalid; allowed: > 0");
  return double(bytes) / seconds * 1e-9;
}

}  // namespace addscope

#include "addscope/timing/addscope_Results.hpp"

namespace addscope {
void MeasureOptions::validate() const {
  ADDSCOPE_THROW_IF(warmup < 0,
                    "warmup = " << warmup << " is invalid; allowed: >= 0");
  ADDSCOPE_THROW_IF(repeat < 1,
                    "repeat = " << repeat << " is invalid; allowed: >= 1");
  ADDSCOPE_THROW_IF(
      !(budget_s >= 0) || !std::isfinite(budget_s),
      "budget_s = " << budget_s << " is invalid; allowed: >= 0 (0: none)");
}

MeasureOptions MeasureOptions::within_budget(double probe_s,
                                             bool* reduced) const {
  MeasureOptions o = *this;
  const bool over = budget_s > 0 && probe_s * (warmup + repeat) > budget_s;
  if (reduced) *reduced = over;
  if (!over) return o;
  // The probe was a warm-up; as many timed runs as fit, at least 3 (or
  // `repeat`, if fewer were asked for).
  // (Over the budget, budget_s / probe_s < warmup + repeat: no overflow.)
  o.warmup = 0;
  o.repeat =
      std::max(std::min(repeat, 3), std::min(repeat, int(budget_s / probe_s)));
  return o;
}
}  // namespace addscope
