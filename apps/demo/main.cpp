// addscope-demo — the seed's experiment, done right, on any Kokkos backend.
//
// A user launched a vector add with no grid configuration (1 block x 1
// thread), timed the launch (2 ms), read out[2] and saw 1.56 s: "the transfer
// is slow!". This program replays that sequence, then the same with a fence,
// and says which call absorbed whose time.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <Kokkos_Random.hpp>
#include <addscope/addscope.hpp>
#include "common/addscope_apps_Report.hpp"
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <type_traits>
#include <vector>

namespace {

struct Options {
  std::int64_t n = 10000000;
  std::string type = "float";
  std::vector<std::string> configs = {"range:ilp=1", "range", "vector",
                                      "team:auto"};
  std::string seed_config = "team:1x1";
  std::int64_t index = 2;
  int repeat = 10;
  std::string json;
};

struct Outcome {
  nlohmann::json json;
  bool verified = true;
};

using Exec = Kokkos::DefaultExecutionSpace;
using Mem = Exec::memory_space;

std::string t(double s) { return addscope::fmt_time(s); }

template <class T>
void fill_random(const Kokkos::View<T*, Mem>& v, std::uint64_t seed) {
  Kokkos::Random_XorShift64_Pool<Exec> pool(seed);
  if constexpr (std::is_floating_point<T>::value)
    Kokkos::fill_random(v, pool, T(-1000), T(1000));
  else
    Kokkos::fill_random(v, pool, T(-1000000), T(1000000));
}

// Every element of out equals x + y (host check of the whole array).
template <class OutView, class HostView>
bool verify(const OutView& out, const HostView& hx, const HostView& hy) {
  using T = typename OutView::non_const_value_type;
  auto ho = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  for (std::size_t i = 0; i < ho.extent(0); ++i)
    if (!(ho(i) == T(hx(i) + hy(i)))) return false;
  return true;
}

template <class T>
Outcome run(const Options& o, const std::vector<addscope::LaunchConfig>& cfgs,
            const addscope::LaunchConfig& seed_cfg) {
  Outcome res;
  Exec exec;
  const std::int64_t n = o.n;
  addscope::check_fits<Mem>("--n", n, sizeof(T), 3);
  Kokkos::View<T*, Mem> x(Kokkos::view_alloc(Kokkos::WithoutInitializing, "x"),
                          n),
      y(Kokkos::view_alloc(Kokkos::WithoutInitializing, "y"), n),
      out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "out"), n);
  fill_random(x, 2026);
  fill_random(y, 1130);
  auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
  auto hy = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  const bool async = addscope::launches_are_async<Exec>();
  const std::string space = Exec::name();
  const std::string elem = "out[" + std::to_string(o.index) + "]";

  // Warm-up: module load and first-touch stay out of the numbers below.
  addscope::add(exec, x, y, out, addscope::LaunchConfig());
  exec.fence();

  // 1 + 2: the seed's sequence, naive then fenced.
  Kokkos::deep_copy(out, T(0));
  Kokkos::fence();
  const std::string seed_label = seed_cfg.kernel_label();
  const auto seed = addscope::measure_seed_sequence(
      exec, seed_label, out, o.index, T(hx(o.index) + hy(o.index)),
      [&] { addscope::add(exec, x, y, out, seed_cfg); });
  res.verified &= seed.verified && verify(out, hx, hy);

  // 3: chosen configurations, fenced, with GB/s.
  addscope::MeasureOptions mo;
  mo.warmup = 2;
  mo.repeat = o.repeat;
  std::vector<addscope::PhaseResult> phases;
  std::vector<std::string> ran_as;
  for (const auto& c : cfgs) {
    addscope::LaunchConfig ran;
    Kokkos::deep_copy(out, T(0));
    auto p = addscope::measure_phases(
        exec, c.kernel_label(), n, addscope::add_bytes(n, sizeof(T)),
        [&] { ran = addscope::add(exec, x, y, out, c); }, mo);
    res.verified &= verify(out, hx, hy);
    p.label = c.kernel_label(ran);
    phases.push_back(p);
  }

  // 4: whole-array transfers, device to host, pageable and pinned.
  std::vector<addscope::TransferResult> transfers;
  {
    auto pageable = addscope::make_host_array<T, addscope::PageableHostSpace>(
        "out_pageable", n);
    transfers.push_back(addscope::measure_copy(exec, "D2H whole", "D2H",
                                               "pageable", pageable, out, mo));
    if (addscope::has_pinned_host_space) {
      auto pinned = addscope::make_host_array<T, addscope::PinnedHostSpace>(
          "out_pinned", n);
      transfers.push_back(addscope::measure_copy(exec, "D2H whole", "D2H",
                                                 "pinned", pinned, out, mo));
    }
    auto one =
        addscope::make_host_array<T, addscope::PageableHostSpace>("out_one", 1);
    transfers.push_back(
        addscope::measure_copy(exec, "D2H " + elem, "D2H", "pageable", one,
                               addscope::element(out, o.index), mo));
  }

  // ---- the table ---------------------------------------------------------
  std::cout << fmt::format(
      "addscope-demo: N = {}, {}, execution space {} ({} launches), Kokkos "
      "{}\n\n",
      n, o.type, space, async ? "asynchronous" : "synchronous", KOKKOS_VERSION);
  std::vector<addscope::Row> rows = {
      {"1 naive", "launch " + seed_label, t(seed.naive_launch_s), "", ""},
      {"1 naive", "create_mirror_view(" + elem + ")", t(seed.naive_mirror_s),
       "", ""},
      {"1 naive", "deep_copy(" + elem + ")", t(seed.naive_copy_s), "", ""},
      {"1 naive", "read " + elem + " (the two above)", t(seed.naive_read_s()),
       "", ""},
      {"2 fenced", "launch " + seed_label, t(seed.fenced_launch_s), "", ""},
      {"2 fenced", "launch + fence (the kernel)", t(seed.completion_s),
       addscope::fmt_gbps(addscope::gbps(addscope::add_bytes(n, sizeof(T)),
                                         seed.completion_s)),
       ""},
      {"2 fenced", "read " + elem, t(seed.fenced_read_s()), "", ""},
  };
  for (const auto& p : phases)
    rows.push_back({"3 fenced", p.label + " (median)", t(p.completion.median_s),
                    addscope::fmt_gbps(p.gbps_median),
                    "launch " + t(p.launch.median_s)});
  for (const auto& tr : transfers)
    rows.push_back({"4 transfer", tr.what + " " + tr.memory + " (median)",
                    t(tr.time.median_s), addscope::fmt_gbps(tr.gbps_median),
                    ""});
  std::cout << addscope::render_table({"step", "what", "time", "GB/s", "note"},
                                      rows)
            << "\n";

  // ---- the sentences, from the numbers above ------------------------------
  std::cout << fmt::format(
      "1. The naive sequence: {} returned after {}; reading {} then took {}.\n",
      seed_label, t(seed.naive_launch_s), elem, t(seed.naive_read_s()));
  if (async)
    std::cout << fmt::format(
        "   Taken at face value, the read looks {} times slower than the "
        "launch: \"the transfer is slow\".\n",
        fmt::format("{:.0f}",
                    seed.naive_read_s() / std::max(seed.naive_launch_s, 1e-9)));
  std::cout << fmt::format(
      "2. With a fence after the launch, the kernel itself took {}; reading {} "
      "took {} (create_mirror_view {} + deep_copy {}, median of 5).\n",
      t(seed.completion_s), elem, t(seed.fenced_read_s()),
      t(seed.fenced_mirror_s), t(seed.fenced_copy_s));
  if (!seed.attribution_line.empty()) {
    std::cout << "   Who waited for whom: " << seed.attribution_line << "\n";
    // Which call absorbed the wait differs between Kokkos versions (3.4:
    // create_mirror_view; 4.x: deep_copy's fence): say what was measured.
    const std::string waited = seed.attribution.front().what;
    const bool in_mirror = waited == "create_mirror_view(" + elem + ")";
    const bool in_copy = waited == "deep_copy(" + elem + ")";
    std::cout << fmt::format(
        "   The wait landed in {}{}: the first call that had to wait for the "
        "kernel{}.\n",
        waited, in_mirror ? ", which copies none of out's values" : "",
        in_mirror || in_copy ? fmt::format(" (alone it takes {})",
                                           t(in_mirror ? seed.fenced_mirror_s
                                                       : seed.fenced_copy_s))
                             : "");
  } else
    std::cout << "   Who waited for whom: no call waited for earlier device "
                 "work.\n";
  const addscope::PhaseResult* best = nullptr;
  for (const auto& p : phases)
    if (!best || p.completion.median_s < best->completion.median_s) best = &p;
  for (const auto& p : phases)
    std::cout << fmt::format("3. {} takes {} ({} GB/s)\n", p.label,
                             t(p.completion.median_s),
                             addscope::fmt_gbps(p.gbps_median));
  for (const auto& tr : transfers)
    std::cout << fmt::format("4. {} into {} memory: {} ({} GB/s)\n", tr.what,
                             tr.memory, t(tr.time.median_s),
                             addscope::fmt_gbps(tr.gbps_median));
  std::cout << "\nConclusion: ";
  if (async) {
    std::cout << fmt::format(
        "the {} you would have blamed on reading {} was the {} kernel ({} of "
        "it was waiting); the read itself takes {}",
        t(seed.naive_read_s()), elem, seed_cfg.to_string(), t(seed.wait_s()),
        t(seed.fenced_read_s()));
  } else {
    std::cout << fmt::format(
        "on {} launches are synchronous: the launch call returns only when "
        "the work is done, so the gap cannot appear. The {} launch took {} "
        "and reading {} took {}",
        space, seed_cfg.to_string(), t(seed.fenced_launch_s), elem,
        t(seed.fenced_read_s()));
  }
  if (best)
    std::cout << fmt::format("; the fastest configuration tried, {}, takes {}",
                             best->label, t(best->completion.median_s));
  std::cout << ".\n";
  std::cout << (res.verified
                    ? "All results verified (out = x + y, every element).\n"
                    : "WRONG RESULTS: out != x + y.\n");

  // ---- JSON ----------------------------------------------------------------
  nlohmann::json j;
  j["n"] = n;
  j["type"] = o.type;
  j["execution_space"] = space;
  j["async_backend"] = async;
  j["kokkos_version"] = KOKKOS_VERSION;
  j["seed"] = addscope::to_json(seed);
  j["configs"] = nlohmann::json::array();
  for (const auto& p : phases) j["configs"].push_back(addscope::to_json(p));
  j["transfers"] = nlohmann::json::array();
  for (const auto& tr : transfers)
    j["transfers"].push_back(addscope::to_json(tr));
  j["verified"] = res.verified;
  res.json = j;
  return res;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{
      "addscope-demo: the seed's experiment (launch a 1x1 vector add, read "
      "out[2]) without and with a fence, and which call absorbed whose time"};
  app.add_option("--n", o.n, "number of elements (default 10000000)")
      ->check(CLI::Range(std::int64_t(1), std::int64_t(1) << 40));
  app.add_option("--type", o.type, "element type")
      ->check(CLI::IsMember({"float", "double", "int32", "int64"}));
  app.add_option(
      "--config", o.configs,
      std::string("launch configurations to compare (default: range:ilp=1 "
                  "range vector team:auto); forms: ") +
          addscope::launch_config_forms());
  app.add_option("--seed-config", o.seed_config,
                 "the configuration of the naive launch (default team:1x1)");
  app.add_option("--index", o.index, "the element read back (default 2)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--repeat", o.repeat, "timed repetitions (default 10)")
      ->check(CLI::Range(1, 100000));
  app.add_option("--json", o.json, "also write the results as JSON to FILE");

  std::vector<addscope::LaunchConfig> cfgs;
  addscope::LaunchConfig seed_cfg;
  try {
    app.parse(argc, argv);
    std::string joined;
    for (const auto& c : o.configs) joined += c + " ";
    cfgs = addscope::parse_launch_config_list(joined);
    seed_cfg = addscope::parse_launch_config(o.seed_config);
    if (o.index >= o.n)
      throw addscope::InvalidArgument("--index = " + std::to_string(o.index) +
                                      " is out of range; allowed: 0.." +
                                      std::to_string(o.n - 1));
    if (!o.json.empty()) addscope::check_writable("--json", o.json);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "addscope-demo: " << e.what() << "\n(run with --help)\n";
    return 2;
  } catch (const addscope::InvalidArgument& e) {
    std::cerr << "addscope-demo: " << e.what() << "\n";
    return 2;
  }

  Kokkos::initialize(argc, argv);
  int rc = 0;
  try {
    Outcome out;
    if (o.type == "float")
      out = run<float>(o, cfgs, seed_cfg);
    else if (o.type == "double")
      out = run<double>(o, cfgs, seed_cfg);
    else if (o.type == "int32")
      out = run<std::int32_t>(o, cfgs, seed_cfg);
    else
      out = run<std::int64_t>(o, cfgs, seed_cfg);
    if (!o.json.empty())
      addscope::write_file_atomic(o.json, out.json.dump(2) + "\n");
    rc = out.verified ? 0 : 1;
  } catch (const addscope::InvalidArgument& e) {
    std::cerr << "addscope-demo: " << e.what() << "\n";
    rc = 2;
  } catch (const std::exception& e) {
    std::cerr << "addscope-demo: error: " << e.what() << "\n";
    rc = 1;
  }
  Kokkos::finalize();
  return rc;
}
