#include "addscope/bench/addscope_SweepPlan.hpp"

#include <algorithm>
#include <sstream>

#include "addscope/core/addscope_Error.hpp"
#include "addscope/core/addscope_Format.hpp"
#include "addscope/core/addscope_Memory.hpp"

namespace addscope {

std::vector<std::int64_t> log2_sizes(int min_log2, int max_log2) {
  std::vector<std::int64_t> s;
  for (int k = min_log2; k <= max_log2; ++k) s.push_back(std::int64_t(1) << k);
  return s;
}

int default_max_log2(std::uint64_t available, std::size_t elem_size, int cap,
                     std::string* why) {
  std::ostringstream os;
  if (available == 0) {
    os << "2^" << cap << " (the default cap; free memory unknown)";
    *why = os.str();
    return cap;
  }
  const std::int64_t fit = max_elements_that_fit(available, elem_size, 3);
  int k = 0;
  while (k < cap && (std::int64_t(1) << (k + 1)) <= fit) ++k;
  os << "2^" << k << ": " << (k == cap ? "the default cap" : "memory-bound")
     << " (3 arrays of " << elem_size << "-byte elements within "
     << available / (1u << 20) << " MiB available, 5% kept free; cap 2^" << cap
     << ")";
  *why = os.str();
  return k;
}

SweepPlan plan_sweep(const SweepRequest& o, const DeviceInfo& dev, int team_max,
                     std::uint64_t host_available) {
  SweepPlan plan;
  plan.quick = o.quick;
  plan.seed = o.seed;
  plan.transfers = o.transfers;
  plan.latency = o.latency;
  plan.advisor.measure.warmup = o.warmup;
  plan.advisor.measure.repeat = o.repeat;
  plan.latency_opt.warmup = std::max(1, o.warmup);
  plan.latency_opt.repeat = std::max(o.repeat, o.quick ? 20 : 100);
  plan.latency_opt.device_time = false;
  plan.launches = o.quick ? 1000 : 10000;
  plan.fenced_launches = o.quick ? 200 : 1000;

  const std::size_t elem = o.elem_size;
  if (!o.sizes.empty()) {
    plan.sizes = o.sizes;
    std::sort(plan.sizes.begin(), plan.sizes.end());
    plan.sizes.erase(std::unique(plan.sizes.begin(), plan.sizes.end()),
                     plan.sizes.end());
  } else {
    int max_log2 = o.max_log2;
    if (!o.max_log2_set) {
      std::string why;
      max_log2 = default_max_log2(dev.memory.available, elem,
                                  dev.is_gpu ? 28 : 26, &why);
      if (o.quick) {
        max_log2 = std::min(max_log2, 22);
        why = "--quick: up to 2^" + std::to_string(max_log2) + " (" + why + ")";
      }
      plan.notes.push_back("largest size " + why);
    }
    int min_log2 = o.min_log2;
    if (!o.min_log2_set) {
      if (o.quick) min_log2 = 16;
      min_log2 = std::min(min_log2, max_log2);
    }
    ADDSCOPE_THROW_IF(min_log2 > max_log2,
                      o.min_log2_param << " = " << min_log2
                                       << " > largest size 2^" << max_log2
                                       << "; allowed: min <= max");
    plan.sizes = log2_sizes(min_log2, max_log2);
  }
  const std::int64_t nmax = plan.sizes.back();
  // A size asked for must fit: x, y, out (and the host copies of the
  // transfers).
  const std::string param = !o.sizes.empty() ? o.sizes_param
                            : o.max_log2_set ? o.max_log2_param + " n"
                                             : "default n";
  check_fits(param, nmax, elem, 3, dev.memory.available, dev.exec_space);
  if (dev.is_gpu && plan.transfers)
    check_fits(param + " (host copies)", nmax, sizeof(float), 2, host_available,
               "HostSpace");
  if (dev.llc_bytes > 0) {
    std::string fit;
    for (auto n : plan.sizes)
      if (3 * std::uint64_t(n) * elem <= dev.llc_bytes) fit = size_name(n);
    if (!fit.empty())
      plan.notes.push_back(
          "sizes up to " + fit + " fit in the " +
          (dev.is_gpu ? std::string("L2") : std::string("last-level cache")) +
          " (3 N sizeof(T) <= " + format_bytes(dev.llc_bytes) +
          "): those rows measure the cache, not memory");
  }
  if (!o.configs.empty()) {
    plan.user_configs = true;
    plan.candidates = o.configs;
  } else {
    plan.candidates = launch_candidates(
        dev, team_max, o.quick ? CandidateSet::Quick : CandidateSet::Full);
  }
  return plan;
}

}  // namespace addscope
