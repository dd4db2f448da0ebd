// addscope-demo — the seed experiment, done right, on any Kokkos backend.
//
// A user launched a vector add with no grid configuration (1 block x 1
// thread), timed the launch (2 ms), read out[2] and saw 1.56 s: "the transfer
// is slow!". This program replays that sequence, then the same with a fence,
// and says which call absorbed whose time — in sentences that follow from the
// numbers it measured.
#include <Kokkos_Core.hpp>
#include <addscope/addscope.hpp>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "common/addscope_apps_Cli.hpp"
#include "common/addscope_apps_Files.hpp"
#include "common/addscope_apps_Types.hpp"
#include "demo_options.hpp"
#include "demo_report.hpp"
#include "demo_run.hpp"
#if defined(ADDSCOPE_DEMO_MPI)
#include "addscope/mpi/addscope_RankPlacement.hpp"
#include "demo_mpi.hpp"
#endif

namespace {

namespace apps = addscope::apps;
using json = nlohmann::json;
using addscope::demo::DemoOptions;

constexpr const char* kProgram = "addscope-demo";
// The JSON's schema (docs/json.md): "addscope-demo/<version>", bumped when a
// field is renamed, removed or changes meaning.
constexpr const char* kSchema = "addscope-demo/1";

// Demo-specific checks of the command line; throws InvalidArgument naming
// the flags as the user typed them.
DemoOptions make_options(const apps::CommandLine& cl,
                         const std::string& naive_text,
                         const std::string& index_text,
                         const std::string& reads_text,
                         const std::string& slow_text) {
  DemoOptions o;
  o.common = cl.options();
  o.configs_given = cl.given("--configs");
  if (!slow_text.empty())
    o.slow_rank = int(apps::parse_int("--slow-rank", slow_text, 0, 1 << 24));
  o.size_flag = cl.spelling("--sizes");
  o.configs_flag = cl.spelling("--configs");
  if (cl.given("--sizes")) {
    ADDSCOPE_THROW_IF(o.common.sizes.size() != 1,
                      o.size_flag << " has " << o.common.sizes.size()
                                  << " sizes; allowed: one (the demo tells "
                                     "the story of one size; addscope-bench "
                                     "sweeps several)");
    o.n = o.common.sizes.front();
  }
  if (o.common.configs.empty())
    o.common.configs = addscope::parse_launch_config_list(
        "range:ilp=1 range range:pack team:auto");
  try {
    o.naive = addscope::parse_launch_config(naive_text);
  } catch (const addscope::InvalidArgument& e) {
    throw addscope::InvalidArgument(std::string("--naive-config: ") + e.what(),
                                    e.where());
  }
  if (cl.given("--index")) {
    o.index = apps::parse_int("--index", index_text, 0, (1ll << 40) - 1);
    ADDSCOPE_THROW_IF(
        o.index >= o.n,
        "--index = " << o.index << " is out of range: the array has N = " << o.n
                     << " elements ("
                     << (cl.given("--sizes") ? o.size_flag
                                             : std::string("--sizes, default"))
                     << "); allowed: 0.." << o.n - 1);
  } else {
    ADDSCOPE_THROW_IF(
        o.index >= o.n,
        o.size_flag << " = " << o.n << " is too small to read out[" << o.index
                    << "] (the default --index); allowed: " << o.size_flag
                    << " >= " << o.index + 1 << ", or an --index below "
                    << o.n);
  }
  o.reads = int(apps::parse_int("--reads", reads_text, 1, 100000));
  if (!o.common.json.empty()) apps::check_writable("--json", o.common.json);
  return o;
}

/// Every type of --types, one after the other: measured, told, and kept
/// for the JSON. Returns the exit status.
int run(const DemoOptions& o) {
  try {
    for (const auto type : o.common.types)
      apps::with_type(type, [&](auto tag) {
        addscope::demo::check_configs<typename decltype(tag)::type>(o);
      });
    json doc;
    doc["tool"] = kProgram;
    doc["schema"] = kSchema;
    doc["version"] = ADDSCOPE_VERSION_STRING;
    doc["runs"] = json::array();
    bool verified = true;
    for (std::size_t i = 0; i < o.common.types.size(); ++i) {
      if (i) std::cout << "\n";
      apps::with_type(o.common.types[i], [&](auto tag) {
        using T = typename decltype(tag)::type;
        const auto run =
            addscope::demo::measure_run<T>(o, to_string(o.common.types[i]));
        std::cout << addscope::demo::render_text(run);
        verified = verified && run.verified;
        doc["runs"].push_back(addscope::demo::run_json(run));
      });
    }
    doc["verified"] = verified;
    if (!o.common.json.empty())
      apps::write_file_atomic(o.common.json, doc.dump(2) + "\n");
    return verified ? apps::exit_ok : apps::exit_failure;
  } catch (const addscope::InvalidArgument& e) {
    apps::print_error(kProgram, e);
    return apps::exit_usage;
  } catch (const std::exception& e) {
    apps::print_error(kProgram, e);
    return apps::exit_failure;
  }
}

}  // namespace

int main(int argc, char** argv) {
  apps::CliDefaults defaults;
  defaults.sizes_help = "10000000";
  defaults.one_size = true;
  defaults.configs_help = "range:ilp=1 range range:pack team:auto";
  apps::CommandLine cl(
      kProgram,
      "addscope-demo: the seed experiment (launch a 1x1 vector add, read "
      "out[2]) without and with a fence, which call absorbed whose time, and "
      "a few good launch configurations beside the DRAM peak.",
      defaults);
  std::string naive_text = "team:1x1", index_text = "2", reads_text = "5";
  cl.app()
      .add_option("--naive-config", naive_text,
                  "the configuration of the naive launch (default: team:1x1, "
                  "the seed's 1 block x 1 thread)")
      ->type_name("CONFIG");
  cl.app()
      .add_option("--index", index_text,
                  "the element read back, out[INDEX] (default: 2)")
      ->type_name("INDEX");
  cl.app()
      .add_option("--reads", reads_text,
                  "fenced reads of out[INDEX], timed one by one; the median "
                  "is reported (default: 5)")
      ->type_name("N");
  std::string slow_text;
#if defined(ADDSCOPE_DEMO_MPI)
  cl.app()
      .add_option("--slow-rank", slow_text,
                  "under mpirun: the rank that launches --naive-config; "
                  "the others launch the first of --configs, or range "
                  "(default: the last rank)")
      ->type_name("RANK");
#endif
  const int parsed = cl.parse(argc, argv);
  if (parsed != apps::keep_going) return parsed;
  DemoOptions o;
  try {
    o = make_options(cl, naive_text, index_text, reads_text, slow_text);
  } catch (const addscope::InvalidArgument& e) {
    apps::print_error(kProgram, e);
    return apps::exit_usage;
  }
#if defined(ADDSCOPE_DEMO_MPI)
  // Started by mpirun: the story across ranks (demo_mpi.cpp).
  if (addscope::mpi::launched_by_mpi()) return addscope::demo::run_mpi(cl, o);
#endif

  Kokkos::initialize(cl.kokkos_argc(), cl.kokkos_argv());
  cl.warn_unused_kokkos_args();
  const int rc = run(o);
  Kokkos::finalize();
  return rc;
}
