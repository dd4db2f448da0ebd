// addscope-bench — choose a launch configuration for out = x + y and see how
// close to the hardware it gets: sweeps sizes x configurations x types,
// compares every add with a device-to-device copy of the same bytes measured
// in the same run, verifies every result, and measures host<->device
// transfers and launch latency.
//
// Exit status: 0 success, 1 runtime failure (including a wrong add result),
// 2 bad flags or values (nothing is measured).

#include <fmt/format.h>
#include <sys/stat.h>

#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "addscope/addscope.hpp"
#include "bench_plan.hpp"
#include "common/addscope_apps_Report.hpp"
#include "bench_progress.hpp"
#include "bench_report.hpp"
#include "bench_sweep.hpp"
#include "bench_system.hpp"
#include "bench_types.hpp"

namespace addscope {
namespace bench {
namespace {

constexpr int kExitOk = 0;
constexpr int kExitRuntime = 1;
constexpr int kExitUsage = 2;
constexpr int kContinue = -1;

const char* kAllTypes[] = {"float", "double", "int32", "int64"};

void print_error(const std::string& what) {
  std::fprintf(stderr, "addscope-bench: error: %s\n", what.c_str());
}

/// Parses the command line into `o`; `kokkos_args` gets the --kokkos-*
/// arguments (for Kokkos::initialize). Returns kContinue, or an exit status.
int parse_command_line(int argc, char** argv, Options* o,
                       std::vector<std::string>* kokkos_args) {
  std::vector<char*> mine{argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--kokkos-", 9) == 0)
      kokkos_args->push_back(argv[i]);
    else
      mine.push_back(argv[i]);
  }

  CLI::App app{
      "addscope-bench: sweeps out = x + y over sizes x launch configurations "
      "x value types on Kokkos' default execution space, and reports for "
      "every add its median time, GB/s (3 N sizeof(T) bytes) and the % of a "
      "device-to-device copy of the same bytes measured in the same run; "
      "then the best configuration per size, host<->device transfers, "
      "single-element reads and launch latency.",
      "addscope-bench"};
  std::vector<std::string> sizes;
  auto* o_sizes =
      app.add_option("--sizes", sizes,
                     "explicit sizes (elements), comma-separated: 1048576 or "
                     "2^20 (default: powers of two, --min-log2..--max-log2)")
          ->delimiter(',');
  auto* o_min = app.add_option("--min-log2", o->min_log2,
                               "smallest size 2^k (default 10; --quick 16)")
                    ->check(CLI::Range(0, 40));
  auto* o_max =
      app.add_option("--max-log2", o->max_log2,
                     "largest size 2^k (default: GPU 2^28 and host 2^26, "
                     "shrunk to the memory; --quick 22)")
          ->check(CLI::Range(0, 40));
  o_sizes->excludes(o_min);
  o_sizes->excludes(o_max);
  app.add_option(
         "--configs", o->configs,
         std::string("launch configurations, separated by spaces or ';'. "
                     "Default: range (ilp chosen by addscope), range:chunk=C, "
                     "range:ilp=1/2/4/8/16, vector, a team grid team:LxT (T "
                     "in 32..1024 up to team_size_max; L = 1, 2, 4, 8, 16, 32 "
                     "x the SM count or host threads, and ceil(N/T)), "
                     "team:auto, blas. --quick: range, range:ilp=4, vector, "
                     "team:(4 x SMs)x256, team:auto, blas. Forms: ") +
             launch_config_forms())
      ->type_name("LIST");
  app.add_option("--types", o->types,
                 "value types, comma-separated: float, double, int32, int64, "
                 "all")
      ->delimiter(',')
      ->check(CLI::IsMember({"float", "double", "int32", "int64", "all"}))
      ->capture_default_str();
  auto* o_repeat =
      app.add_option("--repeat", o->repeat,
                     "timed runs per point; the median is reported (--quick 3)")
          ->capture_default_str();
  auto* o_warmup =
      app.add_option("--warmup", o->warmup, "untimed runs first (--quick 1)")
          ->capture_default_str();
  app.add_option("--json", o->json,
                 "write everything as one JSON document to FILE")
      ->type_name("FILE");
  app.add_option("--csv", o->csv, "write the add rows as CSV to FILE")
      ->type_name("FILE");
  app.add_option("--plot", o->plot,
                 "write PNG plots (and their data and gnuplot script) into "
                 "DIR (created if missing; needs gnuplot)")
      ->type_name("DIR");
  app.add_flag("--quick", o->quick,
               "a short sweep: sizes 2^16..2^22, a handful of configurations, "
               "repeat 3, fewer launches for the latency");
  app.add_option("--seed", o->seed, "seed of the random input data")
      ->capture_default_str();
  app.add_flag("--no-transfers", o->skip_transfers,
               "skip the host<->device transfers and single-element reads");
  app.add_flag("--no-latency", o->skip_latency,
               "skip the launch latency of an empty kernel");
  app.footer(
      "Arguments starting with --kokkos- go to Kokkos::initialize.\n"
      "Exit status: 0 success; 1 runtime failure or a wrong add result; "
      "2 bad flags or values (nothing measured).");

  try {
    app.parse(int(mine.size()), mine.data());
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? kExitOk : kExitUsage;
  }
  o->min_log2_set = o_min->count() > 0;
  o->max_log2_set = o_max->count() > 0;

  try {
    if (o->quick) {
      if (!o_repeat->count()) o->repeat = 3;
      if (!o_warmup->count()) o->warmup = 1;
    }
    MeasureOptions{o->warmup, o->repeat}.validate();
    for (const auto& s : sizes) o->sizes.push_back(parse_size(s));
    std::sort(o->sizes.begin(), o->sizes.end());
    o->sizes.erase(std::unique(o->sizes.begin(), o->sizes.end()),
                   o->sizes.end());
    ADDSCOPE_THROW_IF(
        o->min_log2_set && o->max_log2_set && o->min_log2 > o->max_log2,
        "--min-log2 = " << o->min_log2 << " > --max-log2 = " << o->max_log2
                        << "; allowed: min <= max");
    std::vector<std::string> types;
    for (const auto& t : o->types) {
      if (t == "all")
        types.insert(types.end(), std::begin(kAllTypes), std::end(kAllTypes));
      else
        types.push_back(t);
    }
    o->types.clear();
    for (const auto& t : types)
      if (std::find(o->types.begin(), o->types.end(), t) == o->types.end())
        o->types.push_back(t);
    ADDSCOPE_THROW_IF(o->types.empty(),
                      "--types is empty; allowed: float, double, int32, "
                      "int64, all");
    if (app.count("--configs")) parse_launch_config_list(o->configs);
    if (!o->json.empty()) check_writable("--json", o->json);
    if (!o->csv.empty()) check_writable("--csv", o->csv);
  } catch (const InvalidArgument& e) {
    print_error(e.what());
    return kExitUsage;
  }

  if (!o->plot.empty()) {
    if (find_program("gnuplot").empty()) {
      print_error(
          "--plot needs gnuplot, which is not on PATH (Debian: apt-get "
          "install gnuplot-nox; cmake/bootstrap.sh packages installs it); "
          "nothing was measured");
      return kExitRuntime;
    }
    try {
      struct stat st;
      if (::stat(o->plot.c_str(), &st) != 0) {
        ADDSCOPE_THROW_IF(::mkdir(o->plot.c_str(), 0777) != 0,
                          "--plot = '" << o->plot << "' cannot be created ("
                                       << std::strerror(errno)
                                       << "); allowed: a writable folder");
      } else {
        ADDSCOPE_THROW_IF(!S_ISDIR(st.st_mode),
                          "--plot = '" << o->plot
                                       << "' is not a folder; allowed: a "
                                          "writable folder");
      }
      check_writable("--plot", o->plot + "/plots.gp");
    } catch (const InvalidArgument& e) {
      print_error(e.what());
      return kExitUsage;
    }
  }
  return kContinue;
}

/// Sizes, configurations and measure options, given the device. Throws
/// InvalidArgument for values that cannot run here.
Plan make_plan(const Options& o, const DeviceInfo& dev,
               std::map<std::string, std::vector<SweepConfig>>* configs) {
  using Exec = Kokkos::DefaultExecutionSpace;
  const Exec exec;
  Plan plan;
  plan.types = o.types;
  plan.quick = o.quick;
  plan.seed = o.seed;
  plan.transfers = !o.skip_transfers;
  plan.latency = !o.skip_latency;
  plan.opt.warmup = o.warmup;
  plan.opt.repeat = o.repeat;
  plan.latency_opt.warmup = std::max(1, o.warmup);
  plan.latency_opt.repeat = std::max(o.repeat, o.quick ? 20 : 100);
  plan.launches = o.quick ? 1000 : 10000;
  plan.fenced_launches = o.quick ? 200 : 1000;

  std::size_t elem = 0;
  for (const auto& t : o.types) elem = std::max(elem, type_size(t));
  if (!o.sizes.empty()) {
    plan.sizes = o.sizes;
  } else {
    int max_log2 = o.max_log2;
    if (!o.max_log2_set) {
      std::string why;
      max_log2 = default_max_log2(dev, elem, &why);
      if (o.quick) {
        max_log2 = std::min(max_log2, 22);
        why = "--quick: up to 2^" + std::to_string(max_log2) + " (" + why + ")";
      }
      plan.notes.push_back("largest size " + why);
    }
    int min_log2 = o.min_log2;
    if (!o.min_log2_set) {
      if (o.quick) min_log2 = 16;
      min_log2 = std::min(min_log2, max_log2);
    }
    ADDSCOPE_THROW_IF(min_log2 > max_log2,
                      "--min-log2 = " << min_log2 << " > largest size 2^"
                                      << max_log2 << "; allowed: min <= max");
    plan.sizes = log2_sizes(min_log2, max_log2);
  }
  const std::int64_t nmax = plan.sizes.back();
  // A size the user asked for must fit: x, y, out (and the transfers' device
  // array and host mirrors).
  const std::string param = !o.sizes.empty() ? "--sizes n"
                            : o.max_log2_set ? "--max-log2 n"
                                             : "default n";
  check_fits<Exec::memory_space>(param, nmax, elem, 3);
  if (dev.is_gpu && plan.transfers)
    check_fits<Kokkos::HostSpace>(param + " (host mirrors)", nmax,
                                  sizeof(float), 2);
  if (dev.l2_bytes > 0) {
    std::string fit;
    for (auto n : plan.sizes)
      if (sweep_bytes(n, elem) <= dev.l2_bytes) fit = size_name(n);
    if (!fit.empty())
      plan.notes.push_back(
          "sizes up to " + fit +
          " fit in L2 (3 N sizeof(T) <= " + std::to_string(dev.l2_bytes >> 10) +
          " KiB): those rows measure the cache, not memory");
    std::string in_llc;
    if (!dev.is_gpu && dev.llc_bytes > dev.l2_bytes)
      for (auto n : plan.sizes)
        if (sweep_bytes(n, elem) <= dev.llc_bytes) in_llc = size_name(n);
    if (!in_llc.empty())
      plan.notes.push_back("sizes up to " + in_llc +
                           " fit in the last-level cache as the CPU reports "
                           "it (" +
                           std::to_string(dev.llc_bytes >> 20) + " MiB)");
  }

  if (!o.configs.empty()) {
    plan.user_configs = true;
    plan.configs = parse_launch_config_list(o.configs);
  }
  for (const auto& t : plan.types) {
    detail::with_type(t, [&](auto tag) {
      using T = decltype(tag);
      auto list = make_configs(plan, dev, team_max_for<T>(exec));
      validate_configs<T>(exec, list, nmax);
      (*configs)[t] = std::move(list);
    });
  }
  for (const auto& sc : configs->at(plan.types.front()))
    if (sc.league_per_n && sc.max_league > 0 && !sc.valid_at(nmax))
      plan.notes.push_back(sc.spec + " runs only up to n = " +
                           size_name(sc.max_league * sc.config.team) +
                           " (at most " + size_name(sc.max_league) +
                           " teams on the host: each costs microseconds)");
  return plan;
}

int run(const Options& o) {
  using Exec = Kokkos::DefaultExecutionSpace;
  const Exec exec;
  const double t0 = host_seconds();
  Report report;
  report.options = o;
  std::map<std::string, std::vector<SweepConfig>> configs;
  Plan plan;
  try {
    report.device = query_device();
    plan = make_plan(o, report.device, &configs);
  } catch (const InvalidArgument& e) {
    print_error(e.what());
    return kExitUsage;
  } catch (const std::exception& e) {
    print_error(e.what());
    return kExitRuntime;
  }
  report.sizes = plan.sizes;
  report.repeat = plan.opt.repeat;
  report.warmup = plan.opt.warmup;
  report.notes = plan.notes;
  for (const auto& sc : configs[plan.types.front()])
    report.specs.push_back(sc.spec);

  try {
    const DeviceInfo& dev = report.device;
    std::size_t steps = 0;
    double weight = 0;
    for (const auto& t : plan.types)
      weight += add_sweep_weight(plan, configs[t], type_size(t),
                                 dev.has_cuda_runtime, &steps);
    if (plan.transfers) weight += transfer_weight(plan, dev, &steps);
    Progress progress(weight, steps);
    progress.message(fmt::format(
        "addscope-bench: {} {} on {} ({} {}): {} sizes x {} configurations x "
        "{} type(s), repeat {}",
        Exec::name(), dev.kokkos_version, dev.name, dev.units, dev.units_name,
        plan.sizes.size(), report.specs.size(), plan.types.size(),
        plan.opt.repeat));
    for (const auto& t : plan.types) {
      detail::with_type(t, [&](auto tag) {
        using T = decltype(tag);
        sweep_add<T>(exec, plan, dev, configs[t], progress, report);
      });
    }
    if (plan.transfers) sweep_transfers(exec, plan, dev, progress, report);
    progress.finish();
    if (plan.latency) measure_launch_latency(exec, plan, report);
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
    compute_advice(report);
    report.elapsed_s = host_seconds() - t0;

    std::cout << render_text(report);
    std::vector<std::string> wrote;
    if (!o.json.empty()) {
      write_file_atomic(o.json, report_json(report).dump(2) + "\n");
      wrote.push_back(o.json);
    }
    if (!o.csv.empty()) {
      write_file_atomic(o.csv, add_rows_csv(report));
      wrote.push_back(o.csv);
    }
    if (!o.plot.empty()) {
      for (const auto& p : write_plots(report, o.plot, find_program("gnuplot")))
        wrote.push_back(p);
    }
    for (const auto& w : wrote) std::cout << "wrote " << w << "\n";
    std::cout << fmt::format("done in {}\n",
                             format_seconds(host_seconds() - t0));
    std::cout.flush();
    if (report.verify_failures) {
      print_error(std::to_string(report.verify_failures) +
                  " add result(s) were wrong (see the 'check' column)");
      return kExitRuntime;
    }
    return kExitOk;
  } catch (const std::exception& e) {
    print_error(e.what());
    return kExitRuntime;
  }
}

}  // namespace
}  // namespace bench
}  // namespace addscope

int main(int argc, char** argv) {
  addscope::bench::Options options;
  std::vector<std::string> kokkos_args;
  const int rc =
      addscope::bench::parse_command_line(argc, argv, &options, &kokkos_args);
  if (rc != addscope::bench::kContinue) return rc;

  std::vector<char*> kargv{argv[0]};
  for (auto& a : kokkos_args) kargv.push_back(&a[0]);
  kargv.push_back(nullptr);
  int kargc = int(kargv.size()) - 1;
  Kokkos::initialize(kargc, kargv.data());
  int status = addscope::bench::kExitRuntime;
  try {
    status = addscope::bench::run(options);
  } catch (const std::exception& e) {
    addscope::bench::print_error(e.what());
  }
  Kokkos::finalize();
  return status;
}
