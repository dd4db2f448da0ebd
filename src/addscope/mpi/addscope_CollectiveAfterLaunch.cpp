#include "addscope/mpi/addscope_CollectiveAfterLaunch.hpp"

#include <algorithm>
#include <cmath>

#include "addscope/mpi/addscope_CrossRankTiming.hpp"
#include "addscope/mpi/impl/addscope_Gather.hpp"
#include "addscope/mpi/impl/addscope_MpiCheck.hpp"

namespace addscope {
namespace mpi {

const char* to_string(LateCause c) {
  switch (c) {
    case LateCause::None:
      return "none";
    case LateCause::Staging:
      return "staging";
    case LateCause::Launch:
      return "launch";
    case LateCause::Checksum:
      return "checksum";
    case LateCause::Other:
      return "other";
  }
  return "?";
}

namespace Impl {

std::vector<double> pack(const RankSequence& s) {
  std::vector<double> v = {s.launch_end_s,     s.stage_begin_s,
                           s.stage_end_s,      s.collective_begin_s,
                           s.collective_end_s, s.fenced_launch_s,
                           s.kernel_s};
  v.insert(v.end(), s.stage_alone.samples_s.begin(),
           s.stage_alone.samples_s.end());
  v.insert(v.end(), s.collective_alone.samples_s.begin(),
           s.collective_alone.samples_s.end());
  return v;
}

RankSequence unpack(int rank, const std::vector<double>& v, int reads) {
  ADDSCOPE_THROW_IF(v.size() != 7 + 2 * std::size_t(reads),
                    "a rank's sequence has "
                        << v.size() << " values; allowed: " << 7 + 2 * reads);
  RankSequence s;
  s.rank = rank;
  s.launch_end_s = v[0];
  s.stage_begin_s = v[1];
  s.stage_end_s = v[2];
  s.collective_begin_s = v[3];
  s.collective_end_s = v[4];
  s.fenced_launch_s = v[5];
  s.kernel_s = v[6];
  const auto a = v.begin() + 7, b = a + reads, c = b + reads;
  s.stage_alone = Stats::of(std::vector<double>(a, b));
  s.collective_alone = Stats::of(std::vector<double>(b, c));
  return s;
}

std::vector<RankSequence> gather_sequences(MPI_Comm comm,
                                           const RankSequence& mine,
                                           double steady_start_s, int reads,
                                           bool& one_clock) {
  one_clock = all_on_one_node(comm);
  const auto starts = allgather(comm, std::vector<double>{steady_start_s});
  double first = starts.front().front();
  for (const auto& s : starts) first = std::min(first, s.front());
  const auto nums = allgather(comm, pack(mine));
  const auto kernels = allgather(comm, mine.kernel);
  const auto lines = allgather(comm, mine.tracker_line);
  std::vector<RankSequence> all;
  for (std::size_t r = 0; r < nums.size(); ++r) {
    all.push_back(unpack(int(r), nums[r], reads));
    all.back().kernel = kernels[r];
    all.back().tracker_line = lines[r];
    all.back().start_s = one_clock ? starts[r].front() - first : 0;
  }
  return all;
}

namespace {
/// max - min over every sample of every rank's `which` statistics.
template <class Which>
double spread_over_ranks(const std::vector<RankSequence>& ranks, Which which) {
  double lo = INFINITY, hi = -INFINITY;
  for (const auto& s : ranks) {
    const Stats& st = which(s);
    lo = std::min(lo, st.min_s);
    hi = std::max(hi, st.max_s);
  }
  return ranks.empty() ? 0 : hi - lo;
}
}  // namespace

}  // namespace Impl

namespace {

/// Why the last rank came late: the step before the collective that holds
/// at least half of its lateness (`gap`, at least the threshold).
LateArrival late_arrival(const CollectiveAfterLaunch& r,
                         const CollectiveFindings& f, double gap) {
  const auto& ranks = r.ranks;
  const RankSequence& last = ranks[std::size_t(f.last_rank)];
  const double thr = f.collective_threshold_s;
  LateArrival l;
  l.rank = last.rank;
  l.kernel = last.kernel;
  l.gap_s = gap;
  l.kernel_s = last.kernel_s;
  double other_launch = 0, other_checksum = 0;
  for (const auto& s : ranks)
    if (s.rank != last.rank) {
      l.others_kernel_s = std::max(l.others_kernel_s, s.kernel_s);
      other_launch = std::max(other_launch, s.launch_s());
      other_checksum = std::max(other_checksum, s.checksum_s());
    }
  const double staging = last.stage_s() - last.stage_alone.median_s;
  const double launch = last.launch_s() - other_launch;
  const double sum = last.checksum_s() - other_checksum;
  // Only an asynchronous backend leaves a kernel for the staging to wait
  // for; on a host backend a slower staging is host noise.
  if (r.async_backend && staging >= f.staging_threshold_s &&
      staging >= 0.5 * gap) {
    l.cause = LateCause::Staging;
    l.cause_s = staging;
  } else if (launch >= thr && launch >= 0.5 * gap) {
    l.cause = LateCause::Launch;
    l.cause_s = launch;
  } else if (sum >= thr && sum >= 0.5 * gap) {
    l.cause = LateCause::Checksum;
    l.cause_s = sum;
  } else {
    l.cause = LateCause::Other;
    l.cause_s = std::max(staging, std::max(launch, sum));
  }
  return l;
}

/// Who waited in the collective, and was it for the last rank?
void collective_waits(const CollectiveAfterLaunch& r, CollectiveFindings& f) {
  const RankSequence& last = r.ranks[std::size_t(f.last_rank)];
  const double thr = f.collective_threshold_s;
  for (const auto& s : r.ranks) {
    if (s.rank == f.last_rank) continue;
    const double wait =
        std::max(0.0, s.collective_s() - s.collective_alone.median_s);
    if (wait < thr) continue;
    const double gap = last.arrival_s() - s.arrival_s();
    if (gap >= thr) {
      CollectiveWait w;
      w.rank = s.rank;
      w.wait_s = wait;
      w.for_rank = last.rank;
      // Its kernel is named only where the kernel made it late.
      if (f.late.cause == LateCause::Staging ||
          f.late.cause == LateCause::Launch)
        w.for_kernel = last.kernel;
      w.arrival_gap_s = gap;
      f.waits.push_back(w);
    } else {
      f.unexplained.push_back(s.rank);
    }
  }
  std::sort(f.waits.begin(), f.waits.end(),
            [](const CollectiveWait& a, const CollectiveWait& b) {
              return a.wait_s > b.wait_s;
            });
}

}  // namespace

CollectiveFindings explain(const CollectiveAfterLaunch& r) {
  CollectiveFindings f;
  const auto& ranks = r.ranks;
  if (ranks.empty()) return f;
  constexpr double floor_s = 10e-6;
  f.collective_threshold_s = std::max(
      floor_s,
      Impl::spread_over_ranks(ranks, [](const RankSequence& s) -> const Stats& {
        return s.collective_alone;
      }));
  f.staging_threshold_s = std::max(
      floor_s,
      Impl::spread_over_ranks(ranks, [](const RankSequence& s) -> const Stats& {
        return s.stage_alone;
      }));
  f.first_rank = f.last_rank = 0;
  for (const auto& s : ranks) {
    if (s.arrival_s() > ranks[std::size_t(f.last_rank)].arrival_s())
      f.last_rank = s.rank;
    if (s.arrival_s() < ranks[std::size_t(f.first_rank)].arrival_s())
      f.first_rank = s.rank;
  }
  const double gap = ranks[std::size_t(f.last_rank)].arrival_s() -
                     ranks[std::size_t(f.first_rank)].arrival_s();
  if (gap >= f.collective_threshold_s) f.late = late_arrival(r, f, gap);
  collective_waits(r, f);
  return f;
}

}  // namespace mpi
}  // namespace addscope
