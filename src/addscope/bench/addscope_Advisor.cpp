#include "addscope/bench/addscope_Advisor.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "addscope/core/addscope_Format.hpp"

namespace addscope {

const LaunchConfig& LaunchAdvice::config() const {
  return best_result().candidate;
}

const CandidateResult& LaunchAdvice::best_result() const {
  if (best < 0 || std::size_t(best) >= results.size())
    ADDSCOPE_RUNTIME_ERROR(
        "no candidate ran correctly, so there is no "
        "advice (see each result's 'skipped' and 'check')");
  return results[std::size_t(best)];
}

std::vector<LaunchConfig> launch_candidates(const DeviceInfo& dev, int team_max,
                                            CandidateSet set) {
  std::vector<LaunchConfig> out;
  auto push = [&](const LaunchConfig& c) {
    if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  };
  team_max = std::max(1, team_max);
  const int units = std::max(1, dev.units);
  if (set == CandidateSet::Quick) {
    const int t = std::min(256, team_max);
    push(LaunchConfig::range());
    push(LaunchConfig::range(0, 4));
    push(LaunchConfig::range_pack());
    push(LaunchConfig::team_policy(std::int64_t(4) * units, t));
    push(LaunchConfig::team_auto());
    push(LaunchConfig::blas());
    return out;
  }
  // range: addscope's automatic ilp; range:ilp=1: the plain RangePolicy.
  push(LaunchConfig::range());
  push(LaunchConfig::range(dev.is_gpu ? 1024 : 4096));
  for (int ilp : {1, 2, 4, 8, 16}) push(LaunchConfig::range(0, ilp));
  push(LaunchConfig::range_pack());
  for (int want : {32, 64, 128, 256, 512, 1024}) {
    const int t = std::min(want, team_max);
    for (int mult : {1, 2, 4, 8, 16, 32})
      push(LaunchConfig::team_policy(std::int64_t(mult) * units, t));
    push(LaunchConfig::team_per_element(t));
  }
  push(LaunchConfig::team_auto());
  push(LaunchConfig::blas());
  return out;
}

}  // namespace addscope

// ---- across sizes --------------------------------------------------------

namespace addscope {

namespace {

std::string fixed(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

const char* cache_name(const DeviceInfo& d) {
  return d.is_gpu ? "L2" : "last-level cache";
}

bool noisy_reference(const CopyReference& r, const NoiseBound& b) {
  return !r.clean || b.exceeded_by(r.result.time);
}

/// "its runs varied 5.2x (max > 2 min) in 3 attempts".
std::string varied(const Stats& s, int attempts, const NoiseBound& b) {
  std::string v = "its runs varied " + fixed("%.1f", spread_ratio(s)) +
                  "x (max > " + fixed("%g", b.max_over_min) + " min)";
  if (attempts > 1) v += " in " + std::to_string(attempts) + " attempts";
  return v;
}

std::string advice_line(const PointAdvice& a, const DeviceInfo& dev,
                        bool show_range) {
  std::string line =
      "n=" + size_name(a.n) + " " + a.type + ": best " + a.config.to_string() +
      (a.ran == a.config ? "" : " (= " + a.ran.to_string() + ")") + " " +
      format_gbps(a.gbps) + " GB/s";
  if (a.pct_of_peak >= 0)
    line += " = " + format_pct(a.pct_of_peak) + " of the DRAM peak";
  if (a.reference.reliable)
    line += ", " + format_pct(a.pct_of_reference) +
            " of the fastest copy reference (" + a.reference.name + ")";
  else if (!a.reference.name.empty())
    line += ", the fastest copy reference (" + a.reference.name +
            ") is unreliable: " + a.reference.doubt;
  if (show_range) line += "; range " + format_gbps(a.range_gbps) + " GB/s";
  if (a.fits_cache) line += std::string(" [fits in ") + cache_name(dev) + "]";
  if (a.noisy)
    line += " [noisy: its runs varied " + fixed("%.1f", a.spread) + "x]";
  return line;
}

PointAdvice advise_point(const SweepPoint& p, const DeviceInfo& dev,
                         const SweepAdviceOptions& opt) {
  PointAdvice a;
  a.type = p.type;
  a.n = p.n;
  a.fits_cache =
      dev.llc_bytes > 0 && add_bytes(p.n, p.elem_size) <= dev.llc_bytes;
  int range = -1;
  for (std::size_t i = 0; i < p.results.size(); ++i) {
    const auto& r = p.results[i];
    if (!r.correct()) continue;
    if (a.best < 0 || r.phases.gbps_median >
                          p.results[std::size_t(a.best)].phases.gbps_median)
      a.best = int(i);
    if (r.candidate == LaunchConfig::range()) range = int(i);
  }
  const CandidateResult* best =
      a.best >= 0 ? &p.results[std::size_t(a.best)] : nullptr;
  a.reference = reference_standing(p.references,
                                   best ? best->phases.gbps_median : 0, opt);
  if (!best) return a;
  a.config = best->candidate;
  a.ran = best->resolved;
  a.gbps = best->phases.gbps_median;
  if (dev.dram_peak_gbps > 0) a.pct_of_peak = 100 * a.gbps / dev.dram_peak_gbps;
  if (a.reference.reliable)
    a.pct_of_reference = 100 * a.gbps / a.reference.gbps;
  if (range >= 0)
    a.range_gbps = p.results[std::size_t(range)].phases.gbps_median;
  a.noisy = opt.noise.exceeded_by(best->phases.completion);
  a.spread = spread_ratio(best->phases.completion);
  a.line = advice_line(a, dev, range >= 0 && range != a.best);
  return a;
}

void count_noise(const std::vector<SweepPoint>& points,
                 const SweepAdviceOptions& opt, SweepAdvice& a) {
  for (const auto& p : points) {
    for (const auto& r : p.results) {
      if (!r.measured) {
        ++a.skipped;
        continue;
      }
      ++a.timed;
      a.noisy += opt.noise.exceeded_by(r.phases.completion) ? 1 : 0;
      a.reduced += r.phases.reduced_repeat ? 1 : 0;
    }
    for (const auto& r : p.references) {
      ++a.timed;
      a.noisy += opt.noise.exceeded_by(r.result.time) ? 1 : 0;
    }
  }
  a.looks_busy =
      a.timed > 0 && double(a.noisy) > opt.busy_share * double(a.timed);
}

/// Each configuration's gbps / best over the points beyond the cache;
/// only configurations measured at all of them are ranked.
void rank(const std::vector<SweepPoint>& points, const DeviceInfo& dev,
          SweepAdvice& a) {
  std::map<std::string, std::vector<double>> frac;
  std::vector<std::string> order;
  std::size_t beyond = 0, advised = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const PointAdvice& p = a.points[i];
    if (!p.has_advice()) continue;
    ++advised;
    if (p.fits_cache) continue;
    ++beyond;
    for (const auto& r : points[i].results) {
      if (!r.correct() || p.gbps <= 0) continue;
      const std::string c = r.candidate.to_string();
      if (!frac.count(c)) order.push_back(c);
      frac[c].push_back(r.phases.gbps_median / p.gbps);
    }
  }
  if (beyond == 0) {
    if (advised == 0) return;
    std::size_t elem = 0;
    for (const auto& p : points) elem = std::max(elem, p.elem_size);
    int k = 0;
    while (3 * (std::uint64_t(1) << k) * elem <= dev.llc_bytes) ++k;
    a.beyond_cache_log2 = k;
    a.no_recommendation =
        std::string("every size measured fits in the ") + cache_name(dev) +
        " (" + format_bytes(dev.llc_bytes) +
        "): cache-resident adds say nothing about memory-bound ones, so no "
        "configuration is recommended";
    return;
  }
  for (const auto& c : order) {
    const auto& f = frac[c];
    if (f.size() != beyond) continue;  // not measured everywhere
    ConfigStanding s;
    s.config = c;
    s.points = int(f.size());
    double log_sum = 0;
    s.worst_of_best = 1;
    for (double v : f) {
      log_sum += std::log(std::max(v, 1e-12));
      s.worst_of_best = std::min(s.worst_of_best, v);
    }
    s.mean_of_best = std::exp(log_sum / double(f.size()));
    a.ranking.push_back(s);
  }
  std::stable_sort(a.ranking.begin(), a.ranking.end(),
                   [](const ConfigStanding& x, const ConfigStanding& y) {
                     return x.mean_of_best > y.mean_of_best;
                   });
}

}  // namespace

ReferenceStanding reference_standing(const std::vector<CopyReference>& refs,
                                     double best_add_gbps,
                                     const SweepAdviceOptions& opt) {
  ReferenceStanding s;
  const CopyReference* f = fastest(refs);
  if (!f || !(f->result.gbps_median > 0)) return s;
  s.name = f->name;
  s.gbps = f->result.gbps_median;
  s.spread = spread_ratio(f->result.time);
  s.attempts = f->attempts;
  if (noisy_reference(*f, opt.noise)) {
    s.doubt = varied(f->result.time, f->attempts, opt.noise);
    return s;
  }
  // A noisy slower reference whose fastest run beats this median may be
  // the faster copy: then no reference is known to be the fastest.
  for (const auto& r : refs) {
    if (&r == f || !noisy_reference(r, opt.noise)) continue;
    if (r.result.time.min_s > 0 &&
        gbps(r.result.bytes, r.result.time.min_s) > s.gbps) {
      s.doubt = r.name + " may be faster: " +
                varied(r.result.time, r.attempts, opt.noise);
      return s;
    }
  }
  if (best_add_gbps > opt.max_over_reference * s.gbps) {
    s.doubt = "the best add ran " + fixed("%.0f", best_add_gbps / s.gbps) +
              "x its rate (more than " + fixed("%g", opt.max_over_reference) +
              "x is not a copy of the same memory: something else slowed it)";
    return s;
  }
  s.reliable = true;
  return s;
}

double pct_of_peak(const DeviceInfo& d, const CandidateResult& c) {
  return d.dram_peak_gbps > 0 ? 100 * c.phases.gbps_median / d.dram_peak_gbps
                              : -1;
}

double pct_of_reference(const PointAdvice& a, const CandidateResult& c) {
  return a.reference.reliable && a.reference.gbps > 0
             ? 100 * c.phases.gbps_median / a.reference.gbps
             : -1;
}

SweepAdvice advise_across_sizes(const std::vector<SweepPoint>& points,
                                const DeviceInfo& dev,
                                const SweepAdviceOptions& opt) {
  SweepAdvice a;
  count_noise(points, opt, a);
  for (const auto& p : points) {
    a.points.push_back(advise_point(p, dev, opt));
    const ReferenceStanding& r = a.points.back().reference;
    a.unreliable_references += !r.name.empty() && !r.reliable ? 1 : 0;
  }
  rank(points, dev, a);
  return a;
}

}  // namespace addscope
