// addscope-bench — choose a launch configuration for out = x + y and see how
// close to the hardware it gets: sweeps sizes x configurations x types with
// the library's advisor (every result verified on the device), beside the
// DRAM peak (the limit) and copies of the same bytes measured in the same run
// (references); then host<->device transfers and launch latency.
//
// Exit status: 0 success, 1 runtime failure (including a wrong add result),
// 2 bad flags or values (nothing is measured).

#include <fmt/format.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "addscope/addscope.hpp"
#include "addscope/core/addscope_Format.hpp"
#include "bench_report.hpp"
#include "bench_sweep.hpp"
#include "bench_types.hpp"
#include "common/addscope_apps_Cli.hpp"
#include "common/addscope_apps_Files.hpp"
#include "common/addscope_apps_SweepPlots.hpp"
#if defined(ADDSCOPE_BENCH_MPI)
#include "addscope/mpi/addscope_RankPlacement.hpp"
#include "bench_mpi.hpp"
#endif

namespace addscope {
namespace bench {
namespace {

constexpr const char* kProgram = "addscope-bench";
using Exec = Kokkos::DefaultExecutionSpace;

/// Bench-specific checks of the command line. Throws InvalidArgument.
Options make_options(const apps::CommandLine& cl, const std::string& min_text,
                     const std::string& max_text, Options o) {
  o.common = cl.options();
  o.size_flag = cl.spelling("--sizes");
  o.configs_flag = cl.spelling("--configs");
  o.min_log2_set = cl.given("--min-log2");
  o.max_log2_set = cl.given("--max-log2");
  ADDSCOPE_THROW_IF(
      cl.given("--sizes") && (o.min_log2_set || o.max_log2_set),
      o.size_flag << " excludes --min-log2 and --max-log2; allowed: either "
                     "explicit sizes or a range of powers of two");
  if (o.min_log2_set)
    o.min_log2 = int(apps::parse_int("--min-log2", min_text, 0, 40));
  if (o.max_log2_set)
    o.max_log2 = int(apps::parse_int("--max-log2", max_text, 0, 40));
  ADDSCOPE_THROW_IF(o.min_log2_set && o.max_log2_set && o.min_log2 > o.max_log2,
                    "--min-log2 = " << o.min_log2 << " > --max-log2 = "
                                    << o.max_log2 << "; allowed: min <= max");
  if (o.quick) {
    if (!cl.given("--repeat")) o.common.repeat = 3;
    if (!cl.given("--warmup")) o.common.warmup = 1;
  }
  if (!o.common.json.empty()) apps::check_writable("--json", o.common.json);
  if (!o.csv.empty()) apps::check_writable("--csv", o.csv);
  return o;
}

/// The device and the plan; throws InvalidArgument for values that cannot
/// run here (nothing is measured then).
void plan_run(const Exec& exec, const Options& o, Report& report) {
  report.device = device_info(exec);
  int team_max = 1 << 20;
  for (const auto t : o.common.types)
    apps::with_type(t, [&](auto tag) {
      using T = typename decltype(tag)::type;
      team_max = std::min(team_max, sweep_team_max<T>(exec));
    });
  report.plan = make_plan(o, report.device, team_max,
                          available_bytes<Kokkos::HostSpace>());
  if (report.plan.user_configs)
    for (const auto t : o.common.types)
      apps::with_type(t, [&](auto tag) {
        check_sweep_configs<typename decltype(tag)::type>(
            exec, o.configs_flag, report.plan.candidates);
      });
  report.notes = report.plan.notes;
}

/// Every measurement of the plan, with progress on stderr.
void measure(const Exec& exec, Report& report) {
  const Plan& plan = report.plan;
  const DeviceInfo& dev = report.device;
  Progress progress(total_weight(plan, dev));
  progress.message(fmt::format(
      "{}: Kokkos {}, execution space {}, on {} ({} {}): {} sizes x {} "
      "configurations x {} type(s), repeat {}",
      kProgram, report.kokkos_version, dev.exec_space, dev.name, dev.units,
      dev.units_name, plan.sizes.size(), plan.candidates.size(),
      plan.types.size(), plan.advisor.measure.repeat));
  const SweepObserver observe = SweepProgress(plan, dev, progress);
  for (const auto t : plan.types)
    apps::with_type(t, [&](auto tag) {
      using T = typename decltype(tag)::type;
      sweep_add<T>(exec, plan, apps::to_string(t), report, observe);
    });
  if (plan.transfers) sweep_transfers(exec, plan, dev, report, observe);
  progress.finish();
  if (plan.latency) sweep_latency(exec, plan, report);
  // Host backends: our threads add at most `concurrency` to the load; more
  // than that means other processes shared the cores during the run.
  double load = 0;
  if (!dev.is_gpu && ::getloadavg(&load, 1) == 1 &&
      load > dev.concurrency + 0.5)
    report.warnings.push_back(fmt::format(
        "the 1-minute load average was {:.1f} on {} threads at the end of "
        "the run: other processes competed for the cores, so host timings "
        "are slower and noisier than the hardware allows",
        load, dev.concurrency));
}

/// The text on stdout, then --json, --csv and --plot.
void write_outputs(const Options& o, const Report& report) {
  std::cout << render_text(report);
  std::vector<std::string> wrote;
  if (!o.common.json.empty()) {
    apps::write_file_atomic(o.common.json, report_json(report).dump(2) + "\n");
    wrote.push_back(o.common.json);
  }
  if (!o.csv.empty()) {
    apps::write_file_atomic(o.csv, add_rows_csv(report));
    wrote.push_back(o.csv);
  }
  std::vector<std::string> types;
  for (const auto t : report.plan.types) types.push_back(apps::to_string(t));
  if (!o.plot.empty())
    for (const auto& p : apps::write_sweep_plots(
             report, report.advice, report.device, types,
             !report.plan.user_configs, report.kokkos_version, o.plot,
             apps::find_program("gnuplot")))
      wrote.push_back(p);
  for (const auto& w : wrote) std::cout << "wrote " << w << "\n";
  std::cout << fmt::format("measured in {} (elapsed_s in the JSON)\n",
                           format_seconds(report.elapsed_s));
  std::cout.flush();
}

/// The bench's own flags (the shared ones are apps::CommandLine's).
void add_flags(CLI::App& app, Options& o, std::string& min_text,
               std::string& max_text) {
  app.add_option("--min-log2", min_text,
                 "smallest size 2^k (default: 10; --quick 16)")
      ->type_name("K");
  app.add_option("--max-log2", max_text,
                 "largest size 2^k (default: GPU 28, host 26, shrunk to the "
                 "memory; --quick 22)")
      ->type_name("K");
  app.add_option("--csv", o.csv, "write the add rows as CSV to FILE")
      ->type_name("FILE");
  app.add_option("--plot", o.plot,
                 "write PNG plots (and their data and gnuplot script) into "
                 "DIR (created if missing; needs gnuplot)")
      ->type_name("DIR");
  app.add_flag("--quick", o.quick,
               "a short sweep: sizes 2^16..2^22, six configurations, repeat "
               "3, warmup 1, fewer launches for the latency");
  app.add_flag("--no-transfers", o.skip_transfers,
               "skip the host<->device transfers and single-element reads");
  app.add_flag("--no-latency", o.skip_latency,
               "skip the launch latency of an empty kernel");
}

int run(const Options& o) {
  const Exec exec;
  const double t0 = host_seconds();
  Report report;
  report.kokkos_version = version_text(KOKKOS_VERSION);
  try {
    plan_run(exec, o, report);
  } catch (const InvalidArgument& e) {
    apps::print_error(kProgram, e);
    return apps::exit_usage;
  }
  measure(exec, report);
  compute_advice(report);
  report.elapsed_s = host_seconds() - t0;
  write_outputs(o, report);
  if (report.verify_failures) {
    std::cerr << kProgram << ": " << report.verify_failures
              << " add result(s) were wrong (see the 'check' column)\n";
    return apps::exit_failure;
  }
  return apps::exit_ok;
}

}  // namespace
}  // namespace bench
}  // namespace addscope

int main(int argc, char** argv) {
  namespace apps = addscope::apps;
  namespace bench = addscope::bench;
  apps::CliDefaults defaults;
  defaults.sizes_help =
      "powers of two 2^--min-log2 .. 2^--max-log2; --quick 2^16..2^22";
  defaults.configs_help =
      "range, range:chunk=C, range:ilp=1/2/4/8/16, range:pack, a team grid "
      "team:LxT (T in 32..1024 up to team_size_max; L = 1, 2, 4, 8, 16, 32 x "
      "the SM count or host threads) and team:ceil(N/T)xT, team:auto, blas; "
      "--quick: range, range:ilp=4, range:pack, team:(4 x SMs)x256, "
      "team:auto, blas";
  apps::CommandLine cl(
      bench::kProgram,
      "addscope-bench: sweeps out = x + y over sizes x launch configurations "
      "x value types on Kokkos' default execution space, and reports for "
      "every add its median time and spread, GB/s (3 N sizeof(T) bytes), the "
      "% of the DRAM peak (the limit) and of copies of the same bytes "
      "measured in the same run (references); then the best configuration "
      "per size, host<->device transfers, single-element reads and launch "
      "latency.",
      defaults);
  bench::Options o;
  std::string min_text, max_text;
  bench::add_flags(cl.app(), o, min_text, max_text);
  const int parsed = cl.parse(argc, argv);
  if (parsed != apps::keep_going) return parsed;
  try {
    o = bench::make_options(cl, min_text, max_text, o);
    if (!o.plot.empty()) {
      if (apps::find_program("gnuplot").empty()) {
        std::cerr << bench::kProgram
                  << ": --plot needs gnuplot, which is not on PATH (Debian: "
                     "apt-get install gnuplot-nox; cmake/bootstrap.sh "
                     "packages installs it); nothing was measured\n";
        return apps::exit_failure;
      }
      apps::make_output_dir("--plot", o.plot);
    }
  } catch (const addscope::InvalidArgument& e) {
    apps::print_error(bench::kProgram, e);
    return apps::exit_usage;
  }
#if defined(ADDSCOPE_BENCH_MPI)
  // Started by mpirun: weak scaling over the ranks (bench_mpi.cpp).
  if (addscope::mpi::launched_by_mpi()) return bench::run_mpi(cl, o);
#endif

  Kokkos::initialize(cl.kokkos_argc(), cl.kokkos_argv());
  cl.warn_unused_kokkos_args();
  int status = apps::exit_failure;
  try {
    status = bench::run(o);
  } catch (const std::exception& e) {
    apps::print_error(bench::kProgram, e);
  }
  Kokkos::finalize();
  return status;
}
