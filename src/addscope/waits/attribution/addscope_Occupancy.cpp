#include "addscope/waits/attribution/addscope_Occupancy.hpp"

#include <algorithm>
#include <climits>

namespace addscope {

namespace {
long long round_up(long long x, long long unit) {
  return unit > 0 ? (x + unit - 1) / unit * unit : x;
}
long long divide_up(long long x, long long y) {
  return y > 0 ? (x + y - 1) / y : 0;
}
}  // namespace

Occupancy occupancy(const DeviceCapacity& d, const LaunchShape& s) {
  Occupancy o;
  if (!d.known() || !s.known()) return o;
  const long long threads = s.threads_per_block();
  if (threads <= 0) return o;
  const int warp = d.warp_size > 0 ? d.warp_size : 32;
  const long long warps = divide_up(threads, warp);
  const long long max_warps = d.max_threads_per_sm / warp;

  // Warps and blocks.
  const bool too_big =
      d.max_threads_per_block > 0 && threads > d.max_threads_per_block;
  o.limit_warps = too_big ? 0 : int(max_warps / warps);
  o.limit_blocks = d.max_blocks_per_sm > 0 ? d.max_blocks_per_sm : INT_MAX;

  // Registers: per warp, in allocation units, over the sub-partitions.
  constexpr long long kRegUnit = 256, kMaxRegsPerThread = 255;
  constexpr long long kSubPartitions = 4;
  const long long regs_warp = round_up((long long)s.registers * warp, kRegUnit);
  if (regs_warp == 0 || d.registers_per_sm <= 0) {
    o.limit_registers = INT_MAX;
  } else {
    const long long per_block = regs_warp * warps;
    const long long assumed = regs_warp * round_up(warps, kSubPartitions);
    const long long per_block_max =
        d.registers_per_block > 0 ? d.registers_per_block : d.registers_per_sm;
    if (s.registers > kMaxRegsPerThread || per_block > per_block_max ||
        assumed > per_block_max) {
      o.limit_registers = 0;
    } else {
      const long long warps_per_part =
          (d.registers_per_sm / kSubPartitions) / regs_warp;
      o.limit_registers = int(warps_per_part * kSubPartitions / warps);
    }
  }

  // Shared memory: static + dynamic + the driver's reserve, in allocation
  // units, out of the SM's shared memory.
  const long long unit = d.cc_major >= 8 ? 128 : 256;
  const long long used = (long long)s.shared_static + s.shared_dynamic +
                         d.reserved_shared_per_block;
  const long long per_block = round_up(used, unit);
  if (per_block <= 0 || d.shared_per_sm <= 0) {
    o.limit_shared = INT_MAX;
  } else {
    o.limit_shared = int(d.shared_per_sm / per_block);
  }

  struct Limit {
    int value;
    const char* why;
  };
  const Limit limits[] = {{o.limit_warps, "warps"},
                          {o.limit_blocks, "blocks"},
                          {o.limit_registers, "registers"},
                          {o.limit_shared, "shared memory"}};
  const Limit* least = &limits[0];
  for (const auto& l : limits)
    if (l.value < least->value) least = &l;
  o.limited_by = least->why;
  // The shape ran: at least one block of it fit on an SM.
  o.blocks_per_sm = std::max(1, least->value);
  o.theoretical =
      max_warps > 0
          ? std::min(1.0, double(o.blocks_per_sm * warps) / double(max_warps))
          : 0;
  o.resident_threads = d.resident_threads();
  const long long blocks_at_once =
      std::min<long long>(s.blocks(), (long long)d.sms * o.blocks_per_sm);
  o.threads_in_flight = blocks_at_once * threads;
  return o;
}

std::string shape_words(const LaunchShape& s) {
  if (!s.known()) return "an unknown shape";
  const long long b = s.blocks(), t = s.threads_per_block();
  return thousands(b) + (b == 1 ? " block x " : " blocks x ") + thousands(t) +
         (t == 1 ? " thread" : " threads");
}

std::string shape_short(const LaunchShape& s) {
  if (!s.known()) return "?";
  return thousands(s.blocks()) + " x " + thousands(s.threads_per_block());
}

}  // namespace addscope
