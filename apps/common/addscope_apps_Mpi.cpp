#include "common/addscope_apps_Mpi.hpp"

#include <cstdlib>
#include <iostream>

#include "common/addscope_apps_Json.hpp"
#include "common/addscope_apps_Table.hpp"

namespace addscope {
namespace apps {

MpiRun::MpiRun(CommandLine& cl) : guard_(cl.kokkos_argc(), cl.kokkos_argv()) {
  if (root()) cl.warn_unused_kokkos_args();
  all_ = mpi::gather_placements(comm(), guard_.placement());
}

std::string MpiRun::placement_table() const {
  Table t({"rank", "host", "node", "node-local rank", "GPU", "how"});
  for (const auto& p : all_)
    t.add(
        {std::to_string(p.rank), p.host, std::to_string(p.node),
         std::to_string(p.local_rank) + " of " + std::to_string(p.local_ranks),
         p.device_in_use >= 0 ? std::to_string(p.device_in_use) : "-", p.how});
  return t.text();
}

json MpiRun::placements_json() const {
  json j = json::array();
  for (const auto& p : all_) j.push_back(to_json(p));
  return j;
}

int MpiRun::agree(int rc) const {
  int all = rc;
  MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MAX, comm());
  return all;
}

void MpiRun::abort(const std::string& program, const std::exception& e,
                   int rc) const {
  print_error(program + " (rank " + std::to_string(rank()) + ")", e);
  std::cerr.flush();
  MPI_Abort(comm(), rc);
  std::abort();
}

json to_json(const mpi::RankPlacement& p) {
  return {{"rank", p.rank},
          {"ranks", p.ranks},
          {"host", p.host},
          {"node", p.node},
          {"nodes", p.nodes},
          {"local_rank", p.local_rank},
          {"local_ranks", p.local_ranks},
          {"devices", p.devices},
          {"device_id", p.device_id},
          {"device_in_use", p.device_in_use},
          {"user_device", p.user_device},
          {"how", p.how}};
}

json to_json(const mpi::RankTimes& t) {
  return {{"seconds", t.seconds},
          {"span_s", t.span_s},
          {"one_clock", t.one_clock},
          {"min_s", t.min_s},
          {"max_s", t.max_s},
          {"mean_s", t.mean_s},
          {"slowest_rank", t.slowest_rank},
          {"fastest_rank", t.fastest_rank}};
}

json to_json(const mpi::CrossRankPhase& p) {
  json runs = json::array(), spans = json::array();
  for (const auto& r : p.runs) {
    runs.push_back(r.seconds);
    spans.push_back(r.span_s);
  }
  json per_rank = json::array();
  for (const auto& s : p.per_rank) per_rank.push_back(to_json(s));
  return {{"label", p.label},
          {"ranks", p.ranks},
          {"n_total", p.n_total},
          {"bytes_total", p.bytes_total},
          {"runs_s", runs},
          {"span_s", spans},
          {"one_clock", p.one_clock},
          {"job", to_json(p.job)},
          {"per_rank", per_rank},
          {"slowest_count", p.slowest_count},
          {"slowest_rank", p.slowest_rank},
          {"rank_median_min_s", p.min_rank_median_s()},
          {"rank_median_max_s", p.max_rank_median_s()},
          {"rank_median_mean_s", p.mean_rank_median_s()},
          {"aggregate_gbps", p.aggregate_gbps}};
}

json to_json(const mpi::WeakScaling& w) {
  json alone = json::array();
  for (std::size_t r = 0; r < w.alone.gbps.size(); ++r)
    alone.push_back({{"rank", r},
                     {"completion", to_json(w.alone.completion[r])},
                     {"gbps", w.alone.gbps[r]}});
  return {{"ranks", w.ranks},
          {"n_per_rank", w.n_per_rank},
          {"alone", alone},
          {"single_rank_gbps", w.single_rank_gbps},
          {"together", to_json(w.together)},
          {"aggregate_gbps", w.aggregate_gbps},
          {"efficiency", w.efficiency}};
}

json to_json(const mpi::RankSequence& s) {
  return {{"rank", s.rank},
          {"kernel", s.kernel},
          {"start_s", s.start_s},
          {"naive",
           {{"launch_s", s.launch_s()},
            {"checksum_s", s.checksum_s()},
            {"stage_begin_s", s.stage_begin_s},
            {"stage_s", s.stage_s()},
            {"collective_begin_s", s.collective_begin_s},
            {"collective_s", s.collective_s()},
            {"collective_end_s", s.collective_end_s},
            {"arrival_s", s.arrival_s()}}},
          {"fenced",
           {{"launch_s", s.fenced_launch_s},
            {"kernel_s", s.kernel_s},
            {"stage_alone", to_json(s.stage_alone)},
            {"collective_alone", to_json(s.collective_alone)}}},
          {"tracker_line",
           s.tracker_line.empty() ? json(nullptr) : json(s.tracker_line)}};
}

json to_json(const mpi::CollectiveFindings& f) {
  json waits = json::array();
  for (const auto& w : f.waits)
    waits.push_back({{"rank", w.rank},
                     {"wait_s", w.wait_s},
                     {"for_rank", w.for_rank},
                     {"for_kernel", w.for_kernel},
                     {"arrival_gap_s", w.arrival_gap_s}});
  json late = nullptr;
  if (f.late.cause != mpi::LateCause::None)
    late = {{"rank", f.late.rank},
            {"kernel", f.late.kernel},
            {"gap_s", f.late.gap_s},
            {"cause", mpi::to_string(f.late.cause)},
            {"cause_s", f.late.cause_s},
            {"kernel_s", f.late.kernel_s},
            {"others_kernel_s", f.late.others_kernel_s}};
  return {{"collective_threshold_s", f.collective_threshold_s},
          {"staging_threshold_s", f.staging_threshold_s},
          {"first_rank", f.first_rank},
          {"last_rank", f.last_rank},
          {"waits", waits},
          {"late", late},
          {"unexplained", f.unexplained}};
}

}  // namespace apps
}  // namespace addscope
