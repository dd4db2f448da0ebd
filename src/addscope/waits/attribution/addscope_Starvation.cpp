#include "addscope/waits/attribution/addscope_Starvation.hpp"

#include <algorithm>

namespace addscope {

bool is_starved(const Occupancy& o, double device_s, double busy_s,
                const StarvationRule& rule) {
  if (o.resident_threads <= 0 || o.threads_in_flight <= 0) return false;
  const bool few = double(o.threads_in_flight) <
                   rule.max_in_flight * double(o.resident_threads);
  const bool long_enough = device_s >= rule.min_s && busy_s > 0 &&
                           device_s >= rule.min_share * busy_s;
  return few && long_enough;
}

const DeviceCapacity* find_device(const std::vector<DeviceCapacity>& devices,
                                  std::uint32_t id) {
  for (const auto& d : devices)
    if (d.device == id && d.known()) return &d;
  return nullptr;
}

std::vector<ShapeVerdict> judge_shapes(
    const KernelStats& k, const std::vector<DeviceCapacity>& devices,
    double busy_s, const StarvationRule& rule) {
  std::vector<ShapeVerdict> v;
  for (const auto& s : k.shapes) {
    ShapeVerdict j;
    j.stats = s;
    j.device = find_device(devices, s.device);
    if (j.device) j.occupancy = occupancy(*j.device, s.shape);
    j.share = busy_s > 0 ? s.device_s / busy_s : 0;
    j.starved = is_starved(j.occupancy, s.device_s, busy_s, rule);
    v.push_back(j);
  }
  std::stable_sort(v.begin(), v.end(),
                   [](const ShapeVerdict& a, const ShapeVerdict& b) {
                     return a.stats.device_s > b.stats.device_s;
                   });
  return v;
}

}  // namespace addscope
