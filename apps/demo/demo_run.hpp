// addscope-demo — one run of the story for one value type: the numbers it
// measures (DemoRun) and the measuring, every step a library call. What the
// numbers say is demo_report's (and addscope::explain's).
#ifndef ADDSCOPE_APPS_DEMO_DEMO_RUN_HPP
#define ADDSCOPE_APPS_DEMO_DEMO_RUN_HPP

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "addscope/addscope.hpp"
#include "addscope/compute/addscope_Inputs.hpp"
#include "common/addscope_apps_Configs.hpp"
#include "demo_options.hpp"

namespace addscope {
namespace demo {

/// Everything one run measured: what the table, the sentences and the JSON
/// are made of.
struct DemoRun {
  std::string type;            ///< "float"
  std::size_t elem_size = 0;   ///< sizeof(T)
  std::string kokkos_version;  ///< "3.4.1"
  DeviceInfo dev;
  std::string naive_config;          ///< --naive-config as given ("team:1x1")
  ReadAfterLaunch seq;               ///< steps 1 and 2
  Verification naive_check;          ///< every element, after the naive launch
  std::vector<std::string> configs;  ///< --configs as given
  std::vector<std::string> ran_as;   ///< what each resolved to ("range:ilp=1")
  std::vector<PhaseResult> phases;   ///< step 3, one per configuration
  std::vector<Verification> checks;  ///< after each configuration
  std::vector<TransferResult> transfers;  ///< step 4
  std::vector<CopyReference> refs;        ///< step 5
  bool verified = true;
};

using Exec = Kokkos::DefaultExecutionSpace;
using Mem = Exec::memory_space;

/// Before anything is allocated or measured: every configuration can run
/// for T here (a team size above team_size_max is refused naming its flag).
template <class T>
void check_configs(const DemoOptions& o) {
  const Exec exec;
  Kokkos::View<T*, Mem> a("addscope-demo::check", 1);
  apps::check_configs("--naive-config", exec, a, a, a, {o.naive});
  apps::check_configs(o.configs_flag, exec, a, a, a, o.common.configs);
}

namespace detail {

/// Step 4: whole-array copies to the host, pageable and pinned, and the
/// element the seed read.
template <class T>
std::vector<TransferResult> measure_transfers(
    const Exec& exec, const DeviceInfo& dev, const Kokkos::View<T*, Mem>& out,
    const std::string& elem, std::int64_t index, const MeasureOptions& mo) {
  const auto d2h = CopyDirection::DeviceToHost;
  const std::int64_t n = std::int64_t(out.extent(0));
  std::vector<TransferResult> t;
  auto pageable = make_host_array<T, PageableHostSpace>("out_pageable", n);
  t.push_back(measure_copy(exec, "D2H whole", d2h, MemoryKind::Pageable,
                           pageable, out, mo));
  if (dev.has_pinned) {
    auto pinned = make_host_array<T, PinnedHostSpace>("out_pinned", n);
    t.push_back(measure_copy(exec, "D2H whole", d2h, MemoryKind::Pinned, pinned,
                             out, mo));
  }
  auto one = make_host_array<T, PageableHostSpace>("out_one", 1);
  t.push_back(measure_copy(exec, "D2H " + elem, d2h, MemoryKind::Pageable, one,
                           element(out, index), mo));
  return t;
}

}  // namespace detail

/// One run for T: the seed experiment naive then fenced (1, 2), the
/// configurations fenced with GB/s, each verified (3), the whole-array and
/// one-element transfers (4), the copy references (5).
template <class T>
DemoRun measure_run(const DemoOptions& o, const char* type_name) {
  DemoRun run;
  const Exec exec;
  const std::int64_t n = o.n;
  run.type = type_name;
  run.elem_size = sizeof(T);
  run.kokkos_version = version_text(KOKKOS_VERSION);
  run.dev = device_info(exec);
  run.naive_config = o.naive.to_string();
  check_fits<Mem>(o.size_flag, n, sizeof(T), 3);
  if (run.dev.is_gpu)
    check_fits<Kokkos::HostSpace>(o.size_flag + " (host copies)", n, sizeof(T),
                                  2);
  using V = Kokkos::View<T*, Mem>;
  V x(Kokkos::view_alloc(Kokkos::WithoutInitializing, "x"), n),
      y(Kokkos::view_alloc(Kokkos::WithoutInitializing, "y"), n),
      out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "out"), n);
  addscope::fill_inputs(exec, x, y, o.common.seed);
  const std::string elem = "out[" + std::to_string(o.index) + "]";
  auto read_one = [&](const V& v) {
    return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(),
                                               element(v, o.index))(0);
  };
  const T expected = T(read_one(x) + read_one(y));
  auto verify = [&](const std::string& what) {
    const auto v = verify_add(exec, x, y, out);
    if (!v.ok()) {
      std::cerr << "addscope-demo: WRONG RESULT after " << what << ": "
                << v.detail << "\n";
      run.verified = false;
    }
    return v;
  };

  // Warm-up: module load and first touch stay out of the numbers below.
  add(exec, x, y, out);
  exec.fence();

  // 1 + 2: the seed experiment, naive then fenced (itself warmed up first).
  Kokkos::deep_copy(out, T(0));
  Kokkos::fence();
  const std::string naive_label = o.naive.kernel_label(
      apps::resolve_as("--naive-config", exec, x, y, out, o.naive));
  ReadOptions ro;
  ro.reads = o.reads;
  run.seq = measure_read_after_launch(
      exec, naive_label, out, o.index, expected,
      [&] { add(exec, x, y, out, o.naive); }, ro);
  run.verified = run.verified && run.seq.verified;
  run.naive_check = verify("the naive launch");

  // 3: the chosen configurations, fenced, with GB/s, each verified.
  MeasureOptions mo;
  mo.warmup = o.common.warmup;
  mo.repeat = o.common.repeat;
  for (const auto& c : o.common.configs) {
    const LaunchConfig ran =
        apps::resolve_as(o.configs_flag, exec, x, y, out, c);
    const std::string label = c.kernel_label(ran);
    Kokkos::deep_copy(out, T(0));
    run.configs.push_back(c.to_string());
    run.ran_as.push_back(ran.to_string());
    run.phases.push_back(measure_phases(
        exec, label, n, add_bytes(n, sizeof(T)),
        [&] { add(exec, x, y, out, c); }, mo));
    run.checks.push_back(verify(label));
  }

  // 4, 5: transfers; references (copies of the same bytes, not limits).
  run.transfers =
      detail::measure_transfers<T>(exec, run.dev, out, elem, o.index, mo);
  run.refs = measure_copy_references(exec, out, x, mo);
  return run;
}

}  // namespace demo
}  // namespace addscope

#endif
