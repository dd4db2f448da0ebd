// addscope-bench under mpirun — weak scaling: every rank holds N elements
// (the sizes are per rank) and adds them on its own GPU. For each size,
// type and configuration: each rank alone while the others wait at a
// barrier (the single-rank rate, measured in the same run), then all ranks
// at once from an aligned start (the aggregate: the bytes of all ranks over
// the slowest rank's time); efficiency = aggregate / (ranks x single-rank
// rate). The same for staging each rank's block to a host mirror (fence +
// deep_copy: Open MPI need not be CUDA-aware). Every add verified on every
// rank. The measuring is the library's (addscope::mpi).
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
#include "bench_plan.hpp"
#include "common/addscope_apps_Configs.hpp"
#include "common/addscope_apps_Files.hpp"
#include "common/addscope_apps_Inputs.hpp"
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

struct Row {
  apps::ValueType type = apps::ValueType::Float;
  std::int64_t n = 0;  ///< per rank
  std::string what;    ///< "add" | "stage D2H"
  std::string label;   ///< rank 0's kernel label, or the copy
  mpi::WeakScaling w;
  bool checked = false;  ///< an add, verified
  Verification check;
};

std::string pct(double f) { return fmt::format("{:.1f}%", 100 * f); }

template <class T>
void measure_type(const apps::MpiRun& run, const Plan& plan,
                  apps::ValueType type, const DeviceInfo& dev,
                  std::vector<Row>& rows, int& failures) {
  const Exec exec;
  const MPI_Comm comm = run.comm();
  const std::int64_t nmax = plan.sizes.back();
  auto host = make_host_array<T, PinnedHostSpace>("addscope-bench::stage",
                                                  plan.transfers ? nmax : 0);
  MeasureOptions opt = plan.advisor.measure;
  opt.device_time = false;
  for (const std::int64_t n : plan.sizes) {
    // N per rank: a distributed vector of ranks x N (allocated per size,
    // so that only three arrays live at a time).
    const std::int64_t tn = n * run.ranks();
    mpi::DistributedVector<T, Mem> xs("x", tn, comm), ys("y", tn, comm),
        os("out", tn, comm);
    apps::fill_inputs(
        exec, xs.local(), ys.local(),
        plan.seed + 1000003 * std::uint64_t(run.rank()) + std::uint64_t(n));
    for (const auto& c : plan.candidates) {
      Row row;
      row.type = type;
      row.n = n;
      row.what = "add";
      Kokkos::deep_copy(os.local(), T(0));
      exec.fence();
      const std::string label = c.kernel_label(addscope::resolve_launch_config(
          exec, xs.local(), ys.local(), os.local(), c));
      row.label = label;
      row.w = mpi::measure_weak_scaling(
          comm, exec, label, n, add_bytes(n, sizeof(T)),
          [&] { mpi::add(exec, xs, ys, os, c); }, opt);
      row.checked = true;
      row.check = mpi::verify_add(exec, xs, ys, os);
      if (!row.check.ok()) {
        ++failures;
        if (run.root())
          std::cerr << kProgram << ": WRONG RESULT for " << label
                    << " at N = " << size_name(n)
                    << " per rank: " << row.check.detail << "\n";
      }
      rows.push_back(row);
    }
    if (plan.transfers) {
      Row row;
      row.type = type;
      row.n = n;
      row.what = "stage D2H";
      const auto h = Kokkos::subview(host, std::make_pair(std::int64_t(0), n));
      row.label = std::string("fence + deep_copy to a ") +
                  (dev.has_pinned ? "pinned" : "host") + " mirror";
      row.w = mpi::measure_weak_scaling(
          comm, exec, row.label, n, transfer_bytes(n, sizeof(T)),
          [&] { fenced_copy(exec, h, os.local()); }, opt);
      rows.push_back(row);
    }
    if (run.root())
      std::cerr << kProgram << ": " << apps::to_string(type)
                << " N = " << size_name(n) << " per rank done\n";
  }
}

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
    std::vector<std::string> cells = {apps::to_string(r.type), size_name(r.n),
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
    if (r.what == "add" && r.type == apps::ValueType::Float &&
        r.n == (std::int64_t(1) << 28))
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

json to_json_rows(const std::vector<Row>& rows) {
  json a = json::array();
  for (const auto& r : rows) {
    json j = mpi::to_json(r.w);
    j["type"] = apps::to_string(r.type);
    j["n_per_rank"] = r.n;
    j["what"] = r.what;
    j["label"] = r.label;
    j["bytes_per_rank"] = r.what == "add"
                              ? add_bytes(r.n, apps::size_of(r.type))
                              : transfer_bytes(r.n, apps::size_of(r.type));
    j["check"] = r.checked ? to_json(r.check) : json(nullptr);
    a.push_back(j);
  }
  return a;
}

std::string rows_csv(const std::vector<Row>& rows) {
  apps::Table t({"type", "n_per_rank", "what", "label", "ranks",
                 "single_rank_gbps", "aggregate_gbps", "efficiency",
                 "slowest_rank", "job_median_s", "check"});
  for (const auto& r : rows)
    t.add({apps::to_string(r.type), std::to_string(r.n), r.what, r.label,
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
  doc["rows"] = to_json_rows(rows);
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
    for (const auto t : plan.types)
      apps::with_type(t, [&](auto tag) {
        using T = typename decltype(tag)::type;
        measure_type<T>(run, plan, t, dev, rows, failures);
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
