// addscope — what a launch costs: empty RangePolicy and TeamPolicy kernels
// launched K times before one fence (throughput), and launched + fenced one
// at a time (latency), as Kokkos' own launch_latency benchmark does.
#ifndef ADDSCOPE_BENCH_LAUNCHLATENCY_HPP
#define ADDSCOPE_BENCH_LAUNCHLATENCY_HPP

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "addscope/core/addscope_Error.hpp"
#include "addscope/timing/addscope_Stats.hpp"
#include "addscope/timing/addscope_Timer.hpp"

namespace addscope {

/// Which empty kernel.
enum class EmptyKernel { Range, Team };
inline const char* to_string(EmptyKernel k) {
  return k == EmptyKernel::Range ? "parallel_for RangePolicy(0,1) empty"
                                 : "parallel_for TeamPolicy(1,1) empty";
}

struct LatencyResult {
  EmptyKernel kernel = EmptyKernel::Range;
  int launches = 0;       ///< K, unfenced
  double call_s = 0;      ///< host time of one launch call (K calls / K)
  double unfenced_s = 0;  ///< K launches then one fence, divided by K
  Stats fenced;           ///< launch + fence, one at a time
};

namespace Impl {
struct EmptyRange {
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t) const {}
};
template <class Member>
struct EmptyTeam {
  KOKKOS_INLINE_FUNCTION void operator()(const Member&) const {}
};
}  // namespace Impl

/// Launch cost of an empty kernel on `exec`: `launches` unfenced launches
/// and `fenced` launch + fence pairs, after 10 untimed launches.
template <class ExecSpace>
LatencyResult measure_launch_latency(const ExecSpace& exec, EmptyKernel kernel,
                                     int launches = 10000, int fenced = 1000) {
  ADDSCOPE_THROW_IF(launches < 1 || fenced < 1,
                    "launches = " << launches << ", fenced = " << fenced
                                  << " is invalid; allowed: both >= 1");
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using Team = Kokkos::TeamPolicy<ExecSpace>;
  auto launch = [&] {
    if (kernel == EmptyKernel::Range)
      Kokkos::parallel_for("addscope::empty_range", Range(exec, 0, 1),
                           Impl::EmptyRange());
    else
      Kokkos::parallel_for("addscope::empty_team", Team(exec, 1, 1),
                           Impl::EmptyTeam<typename Team::member_type>());
  };
  LatencyResult r;
  r.kernel = kernel;
  r.launches = launches;
  for (int i = 0; i < 10; ++i) launch();
  exec.fence();
  const double t0 = host_seconds();
  for (int i = 0; i < launches; ++i) launch();
  const double t1 = host_seconds();
  exec.fence();
  const double t2 = host_seconds();
  r.call_s = (t1 - t0) / launches;
  r.unfenced_s = (t2 - t0) / launches;
  std::vector<double> s;
  s.reserve(std::size_t(fenced));
  for (int i = 0; i < fenced; ++i) {
    const double a = host_seconds();
    launch();
    exec.fence();
    s.push_back(host_seconds() - a);
  }
  r.fenced = Stats::of(s);
  return r;
}

}  // namespace addscope

#endif
