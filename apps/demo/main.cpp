// addscope-demo — the seed experiment, done right, on any Kokkos backend.
//
// A user launched a vector add with no grid configuration (1 block x 1
// thread), timed the launch (2 ms), read out[2] and saw 1.56 s: "the transfer
// is slow!". This program replays that sequence, then the same with a fence,
// and says which call absorbed whose time — in sentences that follow from the
// numbers it measured.
#include <fmt/format.h>

#include <Kokkos_Core.hpp>
#include <addscope/addscope.hpp>
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "common/addscope_apps_Cli.hpp"
#include "common/addscope_apps_Files.hpp"
#include "addscope/core/addscope_Format.hpp"
#include "common/addscope_apps_Inputs.hpp"
#include "common/addscope_apps_Json.hpp"
#include "common/addscope_apps_Table.hpp"
#include "common/addscope_apps_Types.hpp"
#include "demo_options.hpp"
#if defined(ADDSCOPE_DEMO_MPI)
#include "addscope/mpi/addscope_RankPlacement.hpp"
#include "demo_mpi.hpp"
#endif

namespace {

namespace apps = addscope::apps;
using addscope::format_seconds;
using apps::json;

constexpr const char* kProgram = "addscope-demo";
// The JSON's schema (docs/json.md): "addscope-demo/<version>", bumped when a
// field is renamed, removed or changes meaning.
constexpr const char* kSchema = "addscope-demo/1";

using addscope::demo::DemoOptions;

struct Outcome {
  json doc;
  bool verified = true;
};

using Exec = Kokkos::DefaultExecutionSpace;
using Mem = Exec::memory_space;

std::string t(double s) { return format_seconds(s); }

// resolve_launch_config, its errors prefixed with the flag that gave the
// configuration ("--naive-config: team size = ... exceeds team_size_max").
template <class V>
addscope::LaunchConfig resolve_as(const std::string& flag, const Exec& exec,
                                  const V& x, const V& y, const V& out,
                                  const addscope::LaunchConfig& c) {
  try {
    return addscope::resolve_launch_config(exec, x, y, out, c);
  } catch (const addscope::InvalidArgument& e) {
    throw addscope::InvalidArgument(flag + ": " + e.what(), e.where());
  }
}

// Before anything is allocated or measured: every configuration can run
// for T here (a team size above team_size_max is refused naming its flag).
template <class T>
void check_configs(const DemoOptions& o) {
  Exec exec;
  Kokkos::View<T*, Mem> a("addscope-demo::check", 1);
  resolve_as("--naive-config", exec, a, a, a, o.naive);
  for (const auto& c : o.common.configs)
    resolve_as(o.configs_flag, exec, a, a, a, c);
}

// "% of the DRAM peak" cell, or "n/a" where the peak is unknown.
std::string pct_peak(const addscope::DeviceInfo& dev, double gbps) {
  return addscope::format_pct(100 * gbps / std::max(dev.dram_peak_gbps, 1e-30),
                          dev.dram_peak_gbps > 0);
}

template <class T>
Outcome run(const DemoOptions& o, const char* type_name) {
  Outcome res;
  Exec exec;
  const std::int64_t n = o.n;
  const auto dev = addscope::device_info(exec);
  addscope::check_fits<Mem>(o.size_flag, n, sizeof(T), 3);
  if (dev.is_gpu)
    addscope::check_fits<Kokkos::HostSpace>(o.size_flag + " (host copies)", n,
                                            sizeof(T), 2);
  Kokkos::View<T*, Mem> x(Kokkos::view_alloc(Kokkos::WithoutInitializing, "x"),
                          n),
      y(Kokkos::view_alloc(Kokkos::WithoutInitializing, "y"), n),
      out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "out"), n);
  apps::fill_inputs(exec, x, y, o.common.seed);
  const bool async = addscope::launches_are_async<Exec>();
  const std::string space = Exec::name();
  const std::string elem = "out[" + std::to_string(o.index) + "]";
  auto read_one = [&](const Kokkos::View<T*, Mem>& v) {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(),
                                                 addscope::element(v, o.index));
    return h(0);
  };
  const T expected = T(read_one(x) + read_one(y));
  auto verify = [&](const char* what) {
    const auto v = addscope::verify_add(exec, x, y, out);
    if (!v.ok()) {
      std::cerr << kProgram << ": WRONG RESULT after " << what << ": "
                << v.detail << "\n";
      res.verified = false;
    }
    return v;
  };

  // Warm-up: module load and first touch stay out of the numbers below.
  addscope::add(exec, x, y, out);
  exec.fence();

  // 1 + 2: the seed experiment, naive then fenced (itself warmed up first).
  Kokkos::deep_copy(out, T(0));
  Kokkos::fence();
  const std::string naive_label = o.naive.kernel_label(
      resolve_as("--naive-config", exec, x, y, out, o.naive));
  addscope::ReadOptions ro;
  ro.reads = o.reads;
  const auto seq = addscope::measure_read_after_launch(
      exec, naive_label, out, o.index, expected,
      [&] { addscope::add(exec, x, y, out, o.naive); }, ro);
  res.verified &= seq.verified;
  const auto naive_check = verify("the naive launch");

  // 3: chosen configurations, fenced, with GB/s, each verified.
  addscope::MeasureOptions mo;
  mo.warmup = o.common.warmup;
  mo.repeat = o.common.repeat;
  std::vector<addscope::PhaseResult> phases;
  std::vector<addscope::Verification> checks;
  for (const auto& c : o.common.configs) {
    const std::string label =
        c.kernel_label(resolve_as(o.configs_flag, exec, x, y, out, c));
    Kokkos::deep_copy(out, T(0));
    phases.push_back(addscope::measure_phases(
        exec, label, n, addscope::add_bytes(n, sizeof(T)),
        [&] { addscope::add(exec, x, y, out, c); }, mo));
    checks.push_back(verify(label.c_str()));
  }

  // 4: whole-array transfers, device to host, pageable and pinned; the
  // element the seed read.
  using addscope::CopyDirection;
  using addscope::MemoryKind;
  std::vector<addscope::TransferResult> transfers;
  {
    auto pageable = addscope::make_host_array<T, addscope::PageableHostSpace>(
        "out_pageable", n);
    transfers.push_back(
        addscope::measure_copy(exec, "D2H whole", CopyDirection::DeviceToHost,
                               MemoryKind::Pageable, pageable, out, mo));
    if (dev.has_pinned) {
      auto pinned = addscope::make_host_array<T, addscope::PinnedHostSpace>(
          "out_pinned", n);
      transfers.push_back(
          addscope::measure_copy(exec, "D2H whole", CopyDirection::DeviceToHost,
                                 MemoryKind::Pinned, pinned, out, mo));
    }
    auto one =
        addscope::make_host_array<T, addscope::PageableHostSpace>("out_one", 1);
    transfers.push_back(addscope::measure_copy(
        exec, "D2H " + elem, CopyDirection::DeviceToHost, MemoryKind::Pageable,
        one, addscope::element(out, o.index), mo));
  }
  // 5: references: copies of the same bytes, measured now (not limits).
  auto refs = addscope::measure_copy_references(exec, out, x, mo);

  // ---- the table ---------------------------------------------------------
  std::cout << fmt::format(
      "addscope-demo: N = {}, {}; Kokkos {}, execution space {} ({} "
      "launches) on {}\n",
      n, type_name, addscope::version_text(KOKKOS_VERSION), space,
      async ? "asynchronous" : "synchronous", dev.name);
  if (dev.dram_peak_gbps > 0)
    std::cout << fmt::format("limit: DRAM peak {} GB/s ({})\n",
                             addscope::format_gbps(dev.dram_peak_gbps),
                             dev.dram_peak_source);
  else
    std::cout << "limit: DRAM peak " << dev.dram_peak_source << "\n";
  std::cout << "\n";
  const double naive_gbps =
      addscope::gbps(addscope::add_bytes(n, sizeof(T)), seq.completion_s);
  apps::Table table({"step", "what", "time", "GB/s", "% peak", "note"});
  table.add({"1 naive", "launch " + naive_label, t(seq.naive_launch_s)});
  table.add(
      {"1 naive", "create_mirror_view(" + elem + ")", t(seq.naive_mirror_s)});
  table.add({"1 naive", "deep_copy(" + elem + ")", t(seq.naive_copy_s)});
  table.add(
      {"1 naive", "read " + elem + " (the two above)", t(seq.naive_read_s())});
  table.add({"2 fenced", "launch " + naive_label, t(seq.fenced_launch_s)});
  table.add({"2 fenced", "launch + fence (the kernel)", t(seq.completion_s),
             addscope::format_gbps(naive_gbps), pct_peak(dev, naive_gbps)});
  table.add({"2 fenced", fmt::format("read {} (median of {})", elem, o.reads),
             t(seq.fenced_read_s()), "", "",
             fmt::format("min {} max {}", t(seq.fenced_read.min_s),
                         t(seq.fenced_read.max_s))});
  for (const auto& p : phases) {
    std::string note = "launch " + t(p.launch.median_s);
    if (p.device.count) note += ", device " + t(p.device.median_s);
    table.add({"3 fenced", p.label + " (median)", t(p.completion.median_s),
               addscope::format_gbps(p.gbps_median), pct_peak(dev, p.gbps_median),
               note});
  }
  for (const auto& tr : transfers)
    table.add({"4 transfer", tr.what + " " + to_string(tr.memory) + " (median)",
               t(tr.time.median_s), addscope::format_gbps(tr.gbps_median)});
  for (const auto& r : refs)
    table.add({"5 reference", r.result.what + " (median)",
               t(r.result.time.median_s),
               addscope::format_gbps(r.result.gbps_median),
               pct_peak(dev, r.result.gbps_median), "copy, 2 N elements"});
  std::cout << table.text() << "\n";

  // ---- the sentences, each from the numbers above ------------------------
  std::cout << fmt::format(
      "1. The naive sequence: {} returned after {}; reading {} then took {}.\n",
      naive_label, t(seq.naive_launch_s), elem, t(seq.naive_read_s()));
  const double ratio = seq.naive_read_s() / std::max(seq.naive_launch_s, 1e-9);
  if (async && seq.waited() && ratio >= 10)
    std::cout << fmt::format(
        "   Taken at face value, the read looks {:.0f} times slower than the "
        "launch: \"the transfer is slow\".\n",
        ratio);
  else if (async && !seq.waited())
    std::cout << "   The read did not wait: the kernel was done before it "
                 "was read.\n";
  else if (!async)
    std::cout << fmt::format(
        "   On {} the launch returns only when the kernel is done: nothing "
        "was left for the read to absorb.\n",
        space);
  std::cout << fmt::format(
      "2. With a fence after the launch, the kernel itself took {}; reading {} "
      "took {} (median of {} reads, {}..{}: create_mirror_view {} + deep_copy "
      "{}).\n",
      t(seq.completion_s), elem, t(seq.fenced_read_s()), o.reads,
      t(seq.fenced_read.min_s), t(seq.fenced_read.max_s),
      t(seq.fenced_mirror.median_s), t(seq.fenced_copy.median_s));
  std::cout << fmt::format(
      "   The naive read took {} more than the fenced one: {} (a wait counts "
      "from {}, the larger of 10 us and the spread of the fenced reads).\n",
      t(seq.wait_s()),
      !async          ? "not a wait (the kernel was done before the read began)"
      : seq.waited() ? "it waited for the kernel"
                     : "no wait, within noise",
      t(seq.wait_threshold_s()));
  if (!seq.attribution_line.empty()) {
    std::cout << "   Who waited for whom (sync tracker): "
              << seq.attribution_line << "\n";
    // Which call absorbs the wait differs between Kokkos versions (3.4:
    // create_mirror_view; 4.x: deep_copy's fence): say what was measured.
    const std::string waited = seq.attribution.front().what;
    const bool in_mirror = waited == "create_mirror_view(" + elem + ")";
    const bool in_copy = waited == "deep_copy(" + elem + ")";
    std::cout << fmt::format(
        "   The wait landed in {}{}: the first call that had to wait for the "
        "kernel{}.\n",
        waited, in_mirror ? ", which copies none of out's values" : "",
        in_mirror || in_copy
            ? fmt::format(" (alone it takes {})",
                          t(in_mirror ? seq.fenced_mirror.median_s
                                      : seq.fenced_copy.median_s))
            : "");
  } else
    std::cout << "   Who waited for whom (sync tracker): no call waited for "
                 "earlier device work.\n";
  const addscope::PhaseResult* best = nullptr;
  for (const auto& p : phases)
    if (!best || p.completion.median_s < best->completion.median_s) best = &p;
  for (const auto& p : phases)
    std::cout << fmt::format(
        "3. {} takes {} ({} GB/s{})\n", p.label, t(p.completion.median_s),
        addscope::format_gbps(p.gbps_median),
        dev.dram_peak_gbps > 0
            ? ", " + pct_peak(dev, p.gbps_median) + " of the DRAM peak"
            : std::string());
  for (const auto& tr : transfers)
    std::cout << fmt::format("4. {} into {} memory: {} ({} GB/s)\n", tr.what,
                             to_string(tr.memory), t(tr.time.median_s),
                             addscope::format_gbps(tr.gbps_median));
  if (const auto* f = addscope::fastest(refs))
    std::cout << fmt::format(
        "5. Reference (not a limit): the fastest copy of the same arrays, {}, "
        "runs at {} GB/s.\n",
        f->name, addscope::format_gbps(f->result.gbps_median));

  std::cout << "\nConclusion: ";
  if (async && seq.waited()) {
    std::cout << fmt::format(
        "the {} you would have blamed on reading {} was the {} kernel ({} of "
        "it was waiting); the read itself takes {}",
        t(seq.naive_read_s()), elem, o.naive.to_string(), t(seq.wait_s()),
        t(seq.fenced_read_s()));
  } else if (async) {
    std::cout << fmt::format(
        "nothing was hidden here: the {} kernel took {} and was done before "
        "{} was read; the read itself takes {}",
        o.naive.to_string(), t(seq.completion_s), elem, t(seq.fenced_read_s()));
  } else {
    std::cout << fmt::format(
        "on {} launches are synchronous: the launch call returns only when "
        "the work is done, so the gap cannot appear. The {} launch took {} "
        "and reading {} took {}",
        space, o.naive.to_string(), t(seq.fenced_launch_s), elem,
        t(seq.fenced_read_s()));
  }
  if (best)
    std::cout << fmt::format("; the fastest configuration tried, {}, takes {}",
                             best->label, t(best->completion.median_s));
  std::cout << ".\n";
  std::cout
      << (res.verified
              ? "All results verified: every element of out equals x + "
                "y, compared on the device after each configuration.\n"
              : "WRONG RESULTS: out != x + y (see the messages above).\n");

  // ---- JSON: the same numbers --------------------------------------------
  json j;
  j["n"] = n;
  j["type"] = type_name;
  j["execution_space"] = space;
  j["async_backend"] = async;
  j["kokkos_version"] = addscope::version_text(KOKKOS_VERSION);
  j["device"] = apps::to_json(dev);
  j["read_after_launch"] = apps::to_json(seq);
  j["read_after_launch"]["check"] = apps::to_json(naive_check);
  j["configs"] = json::array();
  for (std::size_t i = 0; i < phases.size(); ++i) {
    json p = apps::to_json(phases[i]);
    p["config"] = o.common.configs[i].to_string();
    p["check"] = apps::to_json(checks[i]);
    p["pct_of_dram_peak"] =
        dev.dram_peak_gbps > 0
            ? json(100 * phases[i].gbps_median / dev.dram_peak_gbps)
            : json(nullptr);
    j["configs"].push_back(p);
  }
  j["transfers"] = json::array();
  for (const auto& tr : transfers) j["transfers"].push_back(apps::to_json(tr));
  j["references"] = json::array();
  for (const auto& r : refs) j["references"].push_back(apps::to_json(r));
  j["verified"] = res.verified;
  res.doc = j;
  return res;
}

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
  int rc = apps::exit_ok;
  try {
    for (const auto type : o.common.types)
      apps::with_type(type, [&](auto tag) {
        check_configs<typename decltype(tag)::type>(o);
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
        const Outcome r = run<T>(o, to_string(o.common.types[i]));
        verified = verified && r.verified;
        doc["runs"].push_back(r.doc);
      });
    }
    doc["verified"] = verified;
    if (!o.common.json.empty())
      apps::write_file_atomic(o.common.json, doc.dump(2) + "\n");
    rc = verified ? apps::exit_ok : apps::exit_failure;
  } catch (const addscope::InvalidArgument& e) {
    apps::print_error(kProgram, e);
    rc = apps::exit_usage;
  } catch (const std::exception& e) {
    apps::print_error(kProgram, e);
    rc = apps::exit_failure;
  }
  Kokkos::finalize();
  return rc;
}
