// addscope-bench under mpirun — weak scaling: every rank holds N elements
// (the sizes are per rank) and adds them on its own GPU. For each size,
// type and configuration: each rank alone while the others wait at a
// barrier (the single-rank rate, measured in the same run), then all ranks
// at once from an aligned start (the aggregate: the bytes of all ranks over
// the slowest rank's time); efficiency = aggregate / (ranks x single-rank
// rate). The same for staging each rank's block to a host mirror (fence +
// deep_copy: Open MPI need not be CUDA-aware). Every add verified on every
// rank. The measuring is the library's (mpi::sweep_weak_scaling); here: the
// plan per rank, the table, JSON and CSV.
#include "bench_mpi.hpp"

#include <fmt/format.h>

#include <Kokkos_Core.hpp>
#include <addscope/addscope.hpp>
#include <addscope/mpi/addscope_Mpi.hpp>
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "addscope/core/addscope_Format.hpp"
#include "addscope/mpi/addscope_MpiJson.hpp"
#include "common/addscope_apps_Configs.hpp"
#include "common/addscope_apps_Files.hpp"
#include "common/addscope_apps_Mpi.hpp"
#include "common/addscope_apps_Table.hpp"

namespace addscope {
namespace bench {

namespace {

constexpr const char* kProgram = "addscope-bench";
using Exec = Kokkos::DefaultExecutionSpace;
using Mem = Exec::memory_space;
using json = nlohmann::json;

constexpr const char* kDefinition =
    "single-rank rate: each rank's median alone (the other ranks wait at a "
    "barrier), the mean over the ranks; aggregate: the bytes of all ranks / "
    "the job's time, all ranks starting together after a barrier, each "
    "fenced: from the first rank's start to the last rank's end on one node "
    "(one clock), the slowest rank's time across nodes (median over runs); "
    "efficiency = aggregate / (ranks x single-rank rate)";

using Row = mpi::WeakScalingRow;

std::string pct(double f) { return fmt::format("{:.1f}%", 100 * f); }

std::string render(const apps::MpiRun& run, const Plan& plan,
                   const DeviceInfo& dev, const std::vector<Row>& rows) {
  std::string s = fmt::format(
      "addscope-bench across {} MPI ranks: weak scaling, N elements per "
      "rank; Kokkos {}, execution space {} on {}\n\n",
      run.ranks(), version_text(KOKKOS_VERSION), dev.exec_space, dev.name);
  s += run.placement_table() + "\n";
  for (const auto& note : plan.notes) s += "note: " + note + "\n";
  s += std::string("definition: ") + kDefinition + "\n\n";
  std::vector<std::string> head = {"type", "N/rank", "what"};
  for (int r = 0; r < run.ranks(); ++r)
    head.push_back(fmt::format("alone r{} GB/s", r));
  for (const char* h : {"single-rank GB/s", "together: rank medians", "slowest",
                        "job median", "aggregate GB/s", "efficiency", "check"})
    head.push_back(h);
  apps::Table t(head);
  for (const auto& r : rows) {
    std::vector<std::string> cells = {r.type, size_name(r.n),
                                      r.what + " " + r.label};
    for (double g : r.w.alone.gbps) cells.push_back(format_gbps(g));
    const auto& tg = r.w.together;
    cells.push_back(format_gbps(r.w.single_rank_gbps));
    cells.push_back(format_seconds(tg.min_rank_median_s()) + " .. " +
                    format_seconds(tg.max_rank_median_s()));
    cells.push_back("rank " + std::to_string(tg.slowest_rank));
    cells.push_back(format_seconds(tg.job.median_s));
    cells.push_back(format_gbps(r.w.aggregate_gbps));
    cells.push_back(pct(r.w.efficiency));
    cells.push_back(!r.checked ? "-" : r.check.ok() ? "ok" : "WRONG");
    t.add(cells);
  }
  s += t.text() + "\n";
  // The line the issue asks for, where it was measured.
  for (const auto& r : rows)
    if (r.what == "add" && r.type == "float" && r.n == (std::int64_t(1) << 28))
      s += fmt::format(
          "float at 2^28 per rank, {}: aggregate {} GB/s over {} ranks = "
          "{} of {} x the single-rank rate ({} GB/s; each rank alone: {})\n",
          r.label, format_gbps(r.w.aggregate_gbps), r.w.ranks,
          pct(r.w.efficiency), r.w.ranks, format_gbps(r.w.single_rank_gbps),
          [&] {
            std::string a;
            for (std::size_t q = 0; q < r.w.alone.gbps.size(); ++q)
              a += (q ? ", " : "") + format_gbps(r.w.alone.gbps[q]);
            return a;
          }());
  return s;
}

std::string rows_csv(const std::vector<Row>& rows) {
  apps::Table t({"type", "n_per_rank", "what", "label", "ranks",
                 "single_rank_gbps", "aggregate_gbps", "efficiency",
                 "slowest_rank", "job_median_s", "check"});
  for (const auto& r : rows)
    t.add({r.type, std::to_string(r.n), r.what, r.label,
           std::to_string(r.w.ranks), fmt::format("{}", r.w.single_rank_gbps),
           fmt::format("{}", r.w.aggregate_gbps),
           fmt::format("{}", r.w.efficiency),
           std::to_string(r.w.together.slowest_rank),
           fmt::format("{}", r.w.together.job.median_s),
           !r.checked     ? ""
           : r.check.ok() ? "ok"
                          : "wrong"});
  return t.csv();
}

/// This rank's plan: the options' sizes within its share of the node's
/// memory (ranks on one node share its host memory, and a GPU where there
/// are more ranks than GPUs); the configurations given, else `range`.
/// Throws InvalidArgument.
Plan plan_for_rank(const apps::MpiRun& run, const Options& o,
                   const DeviceInfo& dev) {
  ADDSCOPE_THROW_IF(!o.plot.empty(),
                    "--plot is not available across MPI ranks; allowed: "
                    "--json and --csv (or run without mpirun)");
  const auto& me = run.placements()[std::size_t(run.rank())];
  DeviceInfo share = dev;
  std::uint64_t host = available_bytes<Kokkos::HostSpace>();
  host /= std::uint64_t(std::max(1, me.local_ranks));
  if (!dev.is_gpu || me.shares_device())
    share.memory.available /= std::uint64_t(std::max(
        1, me.shares_device() ? (me.local_ranks + me.devices - 1) / me.devices
                              : me.local_ranks));
  Plan plan = make_plan(o, share, 1 << 20, host);
  if (!plan.user_configs) plan.candidates = {LaunchConfig::range()};
  const Kokkos::View<float*, Mem> one("one", 1);
  apps::check_configs(o.configs_flag, Exec(), one, one, one, plan.candidates);
  return plan;
}

/// Rank 0: the text, and the JSON and CSV files. False if a file could not
/// be written.
bool report(const apps::MpiRun& run, const Options& o, const Plan& plan,
            const DeviceInfo& dev, const std::vector<Row>& rows, int failures,
            double elapsed) {
  std::cout << render(run, plan, dev, rows);
  json doc;
  doc["tool"] = kProgram;
  // Under mpirun the document is another one: a schema of its own
  // (docs/json.md).
  doc["schema"] = "addscope-bench-mpi/1";
  doc["version"] = ADDSCOPE_VERSION_STRING;
  doc["kokkos_version"] = version_text(KOKKOS_VERSION);
  doc["device"] = to_json(dev);
  doc["mpi"] = {{"ranks", run.ranks()}, {"placement", run.placements_json()}};
  doc["definition"] = kDefinition;
  doc["notes"] = plan.notes;
  json a = json::array();
  for (const auto& r : rows) a.push_back(mpi::to_json(r));
  doc["rows"] = a;
  doc["verify_failures"] = failures;
  doc["elapsed_s"] = elapsed;
  bool ok = true;
  try {
    if (!o.common.json.empty()) {
      apps::write_file_atomic(o.common.json, doc.dump(2) + "\n");
      std::cout << "wrote " << o.common.json << "\n";
    }
    if (!o.csv.empty()) {
      apps::write_file_atomic(o.csv, rows_csv(rows));
      std::cout << "wrote " << o.csv << "\n";
    }
  } catch (const std::exception& e) {
    apps::print_error(kProgram, e);
    ok = false;
  }
  std::cout << fmt::format("measured in {} (elapsed_s in the JSON)\n",
                           format_seconds(elapsed));
  return ok;
}

}  // namespace

int run_mpi(apps::CommandLine& cl, const Options& o) {
  apps::MpiRun run(cl);
  const double t0 = host_seconds();
  const Exec exec;
  Plan plan;
  DeviceInfo dev;
  try {
    dev = device_info(exec);
    plan = plan_for_rank(run, o, dev);
  } catch (const InvalidArgument& e) {
    if (run.root()) apps::print_error(kProgram, e);
    return run.agree(apps::exit_usage);
  }
  // Every rank must plan the same sizes (their memory may differ).
  std::int64_t n0 = plan.sizes.back(), nmin = n0;
  MPI_Allreduce(&n0, &nmin, 1, MPI_INT64_T, MPI_MIN, run.comm());
  while (!plan.sizes.empty() && plan.sizes.back() > nmin) plan.sizes.pop_back();

  std::vector<Row> rows;
  int failures = 0;
  try {
    if (run.root())
      std::cerr << fmt::format(
          "{}: {} ranks, {} sizes per rank x {} configuration(s) x {} "
          "type(s), repeat {}\n",
          kProgram, run.ranks(), plan.sizes.size(), plan.candidates.size(),
          plan.types.size(), plan.advisor.measure.repeat);
    auto observe = [&](const Row& r, bool size_done) {
      if (r.checked && !r.check.ok()) ++failures;
      if (r.checked && !r.check.ok() && run.root())
        std::cerr << kProgram << ": WRONG RESULT for " << r.label
                  << " at N = " << size_name(r.n)
                  << " per rank: " << r.check.detail << "\n";
      if (size_done && run.root())
        std::cerr << kProgram << ": " << r.type << " N = " << size_name(r.n)
                  << " per rank done\n";
    };
    for (const auto t : plan.types)
      apps::with_type(t, [&](auto tag) {
        mpi::sweep_weak_scaling<typename decltype(tag)::type>(
            run.comm(), plan, apps::to_string(t), dev.has_pinned, rows,
            observe);
      });
  } catch (const std::exception& e) {
    run.abort(kProgram, e, apps::exit_failure);
  }
  const double elapsed = host_seconds() - t0;
  if (run.root() && !report(run, o, plan, dev, rows, failures, elapsed))
    failures += 1;
  return run.agree(failures ? apps::exit_failure : apps::exit_ok);
}

}  // namespace bench
}  // namespace addscope
