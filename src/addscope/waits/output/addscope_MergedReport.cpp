#include "addscope/waits/output/addscope_MergedReport.hpp"

#include <sstream>

#include "addscope/core/addscope_Format.hpp"
#include "addscope/waits/output/addscope_AttributionText.hpp"
#include "addscope/waits/output/addscope_WaitsJson.hpp"

namespace addscope {
namespace waits_mpi {

using nlohmann::json;

json rank_account(const WaitsSnapshot& snap, const RankCounters& c) {
  json acc;
  acc["rank"] = c.rank;
  acc["mode"] = waits_mode_name(snap.mode);
  acc["device_source"] = snap.device_source;
  acc["hidden_s"] = snap.totals.hidden_s;
  acc["hidden_calls"] = snap.totals.hidden_calls;
  acc["explicit_s"] = snap.totals.explicit_s;
  acc["explicit_calls"] = snap.totals.explicit_calls;
  acc["mpi_calls"] = c.mpi_calls;
  acc["mpi_s"] = c.mpi_s;
  acc["collectives_kept"] = c.collectives_kept;
  acc["collectives_dropped"] = c.collectives_dropped;
  acc["offset_s"] = c.offset_s;
  acc["trace"] = snap.trace_path;
  json waits = json::array();
  for (const auto& w : snap.waits) {
    if (waits.size() >= c.max_waits) break;
    if (w.wait_s <= 0) continue;
    waits.push_back(
        {{"begin_s", w.begin_s + c.offset_s},
         {"end_s", w.end_s + c.offset_s},
         {"wait_s", w.wait_s},
         {"what", w.what},
         {"kernel",
          w.waited_for.empty() ? std::string() : w.waited_for.front().kernel},
         {"class", wait_class_name(w.wait_class)},
         {"bound", w.wait_is_bound},
         {"at", site_text(w.code)},
         {"code", code_site_json(w.code)},
         {"line", format_attribution(w)}});
  }
  acc["waits"] = waits;
  return acc;
}

std::string merged_report_text(const MergedReport& m) {
  double total = 0;
  for (const auto& w : m.waits) total += w.wait_s;
  std::ostringstream os;
  os << "addscope waits across " << m.ranks << " MPI ranks ("
     << (m.one_node ? "one node: the ranks' steady clocks agree"
                    : "several nodes: clocks aligned when the ranks left a "
                      "barrier in MPI_Init; cross-rank waits from 100 us")
     << ")\n";
  for (const auto& a : m.accounts)
    os << "  rank " << a["rank"].get<int>() << ": "
       << a["mode"].get<std::string>()
       << (a["device_source"].get<std::string>().empty()
               ? std::string()
               : " (" + a["device_source"].get<std::string>() + ")")
       << "; hidden waits " << format_seconds(a["hidden_s"].get<double>())
       << " in " << a["hidden_calls"].get<std::uint64_t>() << " calls; MPI "
       << a["mpi_calls"].get<std::uint64_t>() << " calls, "
       << format_seconds(a["mpi_s"].get<double>()) << "\n";
  if (m.waits.empty()) {
    os << "  cross-rank waits: none (no rank waited "
       << format_seconds(m.min_wait_s)
       << " or more in a collective for a later rank)\n";
  } else {
    os << "  cross-rank waits: " << format_seconds(total) << " in "
       << m.waits.size()
       << " collective calls (time a rank spent in a collective until the "
          "last rank entered)\n";
    for (const auto& w : m.top)
      os << "    " << format_cross_rank_wait(w) << "\n";
    if (m.waits.size() > m.top.size()) os << "    ...\n";
  }
  return os.str();
}

json merged_report_json(const MergedReport& m) {
  double total = 0;
  for (const auto& w : m.waits) total += w.wait_s;
  json merged;
  merged["schema"] = "addscope-waits-mpi/1";
  merged["ranks"] = m.ranks;
  merged["one_node"] = m.one_node;
  merged["clock"] =
      m.one_node ? "rank 0's tracker clock; the ranks' steady clocks agree"
                 : "rank 0's tracker clock; other ranks aligned at the "
                   "barrier in MPI_Init";
  merged["min_wait_s"] = m.min_wait_s;
  merged["rank_accounts"] = m.accounts;
  json cw = json::array();
  for (const auto& w : m.waits)
    cw.push_back(
        {{"rank", w.rank},
         {"call", w.call},
         {"comm", w.comm},
         {"seq", w.seq},
         {"enter_s", w.enter_s},
         {"duration_s", w.duration_s},
         {"wait_s", w.wait_s},
         {"for_rank", w.for_rank},
         {"gap_s", w.gap_s},
         {"late_call",
          w.late_call_found ? json(w.late_call.what) : json(nullptr)},
         {"late_kernel",
          w.late_call_found ? json(w.late_call.kernel) : json(nullptr)},
         {"late_at", w.late_call_found && !w.late_call.at.empty()
                         ? json(w.late_call.at)
                         : json(nullptr)},
         {"late_busy",
          w.late_busy_found ? json(w.late_busy.what) : json(nullptr)},
         {"late_busy_kind",
          w.late_busy_found ? json(w.late_busy.wait_class) : json(nullptr)},
         {"late_busy_s", w.late_busy_overlap_s},
         {"line", format_cross_rank_wait(w)}});
  merged["cross_rank_waits"] = cw;
  merged["cross_rank_wait_s"] = total;
  json inst_j = json::array();
  for (const auto& c : m.instances)
    inst_j.push_back({{"name", c.name},
                      {"comm", c.comm},
                      {"seq", c.seq},
                      {"enter_s", c.enter_s},
                      {"exit_s", c.exit_s},
                      {"present", c.present}});
  merged["collectives"] = inst_j;
  return merged;
}

}  // namespace waits_mpi
}  // namespace addscope
