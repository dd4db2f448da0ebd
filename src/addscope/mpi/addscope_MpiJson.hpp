// addscope::mpi — the MPI component's results as JSON, one form per type
// (addscope_Json.hpp for the core's). Opt-in, like addscope_Json.hpp: it
// needs nlohmann-json 3 on the include path.
#ifndef ADDSCOPE_MPI_MPIJSON_HPP
#define ADDSCOPE_MPI_MPIJSON_HPP

#include <nlohmann/json.hpp>

#include "addscope/addscope_Json.hpp"
#include "addscope/mpi/addscope_Mpi.hpp"
#include "addscope/mpi/addscope_WeakScalingSweep.hpp"

namespace addscope {
namespace mpi {

using addscope::to_json;

inline nlohmann::json to_json(const RankPlacement& p) {
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

inline nlohmann::json to_json(const RankTimes& t) {
  return {{"seconds", t.seconds},
          {"span_s", t.span_s},
          {"one_clock", t.one_clock},
          {"min_s", t.min_s},
          {"max_s", t.max_s},
          {"mean_s", t.mean_s},
          {"slowest_rank", t.slowest_rank},
          {"fastest_rank", t.fastest_rank}};
}

inline nlohmann::json to_json(const CrossRankPhase& p) {
  nlohmann::json runs = nlohmann::json::array(),
                 spans = nlohmann::json::array();
  for (const auto& r : p.runs) {
    runs.push_back(r.seconds);
    spans.push_back(r.span_s);
  }
  nlohmann::json per_rank = nlohmann::json::array();
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

inline nlohmann::json to_json(const WeakScaling& w) {
  nlohmann::json alone = nlohmann::json::array();
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

inline nlohmann::json to_json(const RankSequence& s) {
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
          {"tracker_line", addscope::Impl::str_or_null(s.tracker_line)}};
}

inline nlohmann::json to_json(const CollectiveFindings& f) {
  nlohmann::json waits = nlohmann::json::array();
  for (const auto& w : f.waits)
    waits.push_back({{"rank", w.rank},
                     {"wait_s", w.wait_s},
                     {"for_rank", w.for_rank},
                     {"for_kernel", w.for_kernel},
                     {"arrival_gap_s", w.arrival_gap_s}});
  nlohmann::json late = nullptr;
  if (f.late.cause != LateCause::None)
    late = {{"rank", f.late.rank},
            {"kernel", f.late.kernel},
            {"gap_s", f.late.gap_s},
            {"cause", to_string(f.late.cause)},
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

/// A weak-scaling sweep's row: its WeakScaling and what was measured.
inline nlohmann::json to_json(const WeakScalingRow& r) {
  nlohmann::json j = to_json(r.w);
  j["type"] = r.type;
  j["n_per_rank"] = r.n;
  j["what"] = r.what;
  j["label"] = r.label;
  j["bytes_per_rank"] = r.bytes_per_rank();
  j["check"] = r.checked ? to_json(r.check) : nlohmann::json(nullptr);
  return j;
}

}  // namespace mpi
}  // namespace addscope

#endif
