#include "addscope/waits/output/addscope_TraceMerge.hpp"

namespace addscope {
namespace waits_mpi {

int merged_pid(int rank, int pid) { return (rank + 1) * 1000 + pid; }

void merge_rank_trace(const std::string& text, int rank, int ranks,
                      double offset_us, nlohmann::json& out) {
  using nlohmann::json;
  const json in = json::parse(text);
  if (!in.is_array()) throw json::type_error::create(302, "not an array", &in);
  for (json e : in) {
    if (!e.is_object()) continue;
    if (e.contains("pid") && e["pid"].is_number_integer())
      e["pid"] = merged_pid(rank, e["pid"].get<int>());
    if (e.contains("ts") && e["ts"].is_number())
      e["ts"] = e["ts"].get<double>() + offset_us;
    if (e.contains("id") && e["id"].is_number_unsigned())
      e["id"] = e["id"].get<std::uint64_t>() * std::uint64_t(ranks) +
                std::uint64_t(rank);
    const std::string name = e.value("name", "");
    if (e.value("ph", "") == "M" && name == "process_name" &&
        e.contains("args") && e["args"].contains("name"))
      e["args"]["name"] = "rank " + std::to_string(rank) + " " +
                          e["args"]["name"].get<std::string>();
    if (e.value("ph", "") == "M" && name == "process_sort_index" &&
        e.contains("args") && e["args"].contains("sort_index"))
      e["args"]["sort_index"] =
          rank * 1000 + e["args"]["sort_index"].get<int>();
    out.push_back(std::move(e));
  }
}

void add_rank_flow(nlohmann::json& out, std::uint64_t id,
                   const std::string& name, int from, double from_s, int to,
                   double to_s) {
  // Host threads are process 1 in each rank's trace; the main thread is 0.
  out.push_back({{"ph", "s"},
                 {"pid", merged_pid(from, 1)},
                 {"tid", 0},
                 {"name", name},
                 {"cat", "rank wait"},
                 {"id", id},
                 {"ts", from_s * 1e6}});
  out.push_back({{"ph", "f"},
                 {"bp", "e"},
                 {"pid", merged_pid(to, 1)},
                 {"tid", 0},
                 {"name", name},
                 {"cat", "rank wait"},
                 {"id", id},
                 {"ts", to_s * 1e6}});
}

}  // namespace waits_mpi
}  // namespace addscope
