#include "addscope/mpi/addscope_CrossRankTiming.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "addscope/core/addscope_Error.hpp"
#include "addscope/mpi/impl/addscope_Gather.hpp"

namespace addscope {
namespace mpi {

RankTimes RankTimes::of(std::vector<double> seconds) {
  ADDSCOPE_THROW_IF(seconds.empty(),
                    "seconds is empty; allowed: one value per rank");
  for (std::size_t r = 0; r < seconds.size(); ++r)
    ADDSCOPE_THROW_IF(!(seconds[r] >= 0), "seconds[" << r
                                                     << "] = " << seconds[r]
                                                     << " is invalid; "
                                                        "allowed: >= 0");
  RankTimes t;
  t.seconds = std::move(seconds);
  const auto& s = t.seconds;
  const auto mx = std::max_element(s.begin(), s.end());
  const auto mn = std::min_element(s.begin(), s.end());
  t.max_s = *mx;
  t.min_s = *mn;
  t.slowest_rank = int(mx - s.begin());
  t.fastest_rank = int(mn - s.begin());
  t.mean_s = std::accumulate(s.begin(), s.end(), 0.0) / double(s.size());
  t.span_s = t.max_s;
  return t;
}

RankTimes gather_times(MPI_Comm comm, double seconds, bool one_clock,
                       double start_s) {
  const auto all = Impl::allgather(comm, std::vector<double>{seconds, start_s});
  std::vector<double> s;
  double first = INFINITY, last = -INFINITY;
  for (const auto& v : all) {
    s.push_back(v[0]);
    first = std::min(first, v[1]);
    last = std::max(last, v[1] + v[0]);
  }
  RankTimes t = RankTimes::of(std::move(s));
  t.one_clock = one_clock;
  for (const auto& v : all) t.starts_s.push_back(v[1]);
  if (one_clock) t.span_s = std::max(t.max_s, last - first);
  return t;
}

bool all_on_one_node(MPI_Comm comm) {
  int ranks = 1, node_ranks = 1;
  ADDSCOPE_MPI_CHECK(MPI_Comm_size(comm, &ranks));
  MPI_Comm node;
  ADDSCOPE_MPI_CHECK(
      MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
  ADDSCOPE_MPI_CHECK(MPI_Comm_size(node, &node_ranks));
  ADDSCOPE_MPI_CHECK(MPI_Comm_free(&node));
  int all = node_ranks == ranks ? 1 : 0;
  ADDSCOPE_MPI_CHECK(
      MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_MIN, comm));
  return all == 1;
}

namespace {
double median_of(const std::vector<Stats>& v, bool want_max) {
  double best = want_max ? 0 : INFINITY;
  for (const auto& s : v)
    best = want_max ? std::max(best, s.median_s) : std::min(best, s.median_s);
  return v.empty() ? 0 : best;
}
}  // namespace

double CrossRankPhase::min_rank_median_s() const {
  return median_of(per_rank, false);
}
double CrossRankPhase::max_rank_median_s() const {
  return median_of(per_rank, true);
}
double CrossRankPhase::mean_rank_median_s() const {
  if (per_rank.empty()) return 0;
  double sum = 0;
  for (const auto& s : per_rank) sum += s.median_s;
  return sum / double(per_rank.size());
}

namespace Impl {

void summarize(CrossRankPhase& p) {
  ADDSCOPE_THROW_IF(p.runs.empty(), "no runs; allowed: repeat >= 1");
  std::vector<double> job;
  std::vector<std::vector<double>> by_rank(std::size_t(p.ranks));
  p.slowest_count.assign(std::size_t(p.ranks), 0);
  for (const auto& run : p.runs) {
    job.push_back(run.span_s);
    ++p.slowest_count[std::size_t(run.slowest_rank)];
    for (int r = 0; r < p.ranks; ++r)
      by_rank[std::size_t(r)].push_back(run.seconds[std::size_t(r)]);
  }
  p.job = Stats::of(job);
  p.per_rank.clear();
  for (auto& v : by_rank) p.per_rank.push_back(Stats::of(v));
  p.slowest_rank = 0;
  for (int r = 1; r < p.ranks; ++r)
    if (p.per_rank[std::size_t(r)].median_s >
        p.per_rank[std::size_t(p.slowest_rank)].median_s)
      p.slowest_rank = r;
  p.aggregate_gbps =
      p.job.median_s > 0 ? gbps(p.bytes_total, p.job.median_s) : 0;
}

AloneRates alone_rates(MPI_Comm comm, const Stats& mine,
                       std::uint64_t bytes_local) {
  AloneRates a;
  const auto all = allgather(comm, mine.samples_s);
  const auto bytes = allgather(comm, std::vector<double>{double(bytes_local)});
  double sum = 0;
  for (std::size_t r = 0; r < all.size(); ++r) {
    a.completion.push_back(Stats::of(all[r]));
    const double med = a.completion.back().median_s;
    a.gbps.push_back(med > 0 ? gbps(std::uint64_t(bytes[r].front()), med) : 0);
    sum += a.gbps.back();
  }
  a.mean_gbps = sum / double(all.size());
  return a;
}

std::int64_t sum_over_ranks(MPI_Comm comm, std::int64_t v) {
  std::int64_t s = 0;
  ADDSCOPE_MPI_CHECK(MPI_Allreduce(&v, &s, 1, MPI_INT64_T, MPI_SUM, comm));
  return s;
}

}  // namespace Impl
}  // namespace mpi
}  // namespace addscope
