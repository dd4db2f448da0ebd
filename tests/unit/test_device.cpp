// The device room: what a space is, its limits, the copy references, the
// launch latency and the advisor.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "addscope/core/addscope_SpaceKind.hpp"
#include "addscope/bench/addscope_Advisor.hpp"
#include "addscope/bench/addscope_DeviceInfo.hpp"
#include "addscope/bench/addscope_LaunchLatency.hpp"
#include "addscope/bench/addscope_References.hpp"
#include "addscope_TestSpaces.hpp"
#include "test_util.hpp"

using namespace addscope_test;

namespace {
// What addscope must say of one execution space type, written out by hand
// from Kokkos' DeviceType enum (Kokkos_Profiling_Interface.hpp: Serial 0,
// OpenMP 1, Cuda 2, HIP 3, OpenMPTarget 4, HPX 5, Threads 6, SYCL 7) and
// from which backends are GPUs.
template <class Space>
void expect_kind(std::uint32_t device_type, bool gpu) {
  SCOPED_TRACE(Space::name());
  EXPECT_EQ(addscope::kokkos_device_type<Space>(), device_type);
  EXPECT_EQ(addscope::is_gpu_space<Space>(), gpu);
  EXPECT_EQ(addscope::launches_are_async<Space>(), gpu);
  // Asked of a Kokkos::Device (space + memory) as of the space itself.
  using D = Kokkos::Device<Space, typename Space::memory_space>;
  EXPECT_EQ(addscope::is_gpu_space<D>(), gpu);
}
}  // namespace

TEST(SpaceKind, KnowsEveryBackendByKokkosDeviceType) {
  int checked = 0;
#if defined(KOKKOS_ENABLE_SERIAL)
  expect_kind<Kokkos::Serial>(0, false);
  ++checked;
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
  expect_kind<Kokkos::OpenMP>(1, false);
  ++checked;
#endif
#if defined(KOKKOS_ENABLE_CUDA)
  expect_kind<Kokkos::Cuda>(2, true);
  ++checked;
#endif
#if defined(KOKKOS_ENABLE_THREADS)
  expect_kind<Kokkos::Threads>(6, false);
  ++checked;
#endif
  // (HIP, HPX, SYCL, OpenMPTarget: not built here, their names differ
  // between Kokkos versions.) At least the space the tests run on:
  EXPECT_GE(checked, 1);
  // The default execution space: a GPU exactly when CUDA or HIP is on.
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  const bool default_gpu = true;
#else
  const bool default_gpu = false;
#endif
  EXPECT_EQ(addscope::is_gpu_space<Kokkos::DefaultExecutionSpace>(),
            default_gpu);
  EXPECT_FALSE(addscope::is_gpu_space<Kokkos::DefaultHostExecutionSpace>());
}

TEST(DeviceInfo, DramPeakFromClockAndBusWidth) {
  // Made-up devices, by hand: 2 transfers per clock x clock x bytes wide.
  // 1 GHz (1000000 kHz), 1024 bits = 128 B: 2 x 10^9 x 128 B = 256 GB/s.
  EXPECT_DOUBLE_EQ(addscope::dram_peak_gbps(1000000, 1024), 256.0);
  // 1 kHz, 8 bits = 1 B: 2000 B/s = 2e-6 GB/s.
  EXPECT_DOUBLE_EQ(addscope::dram_peak_gbps(1, 8), 2e-6);
  // 500 MHz, 64 bits = 8 B: 2 x 5e8 x 8 = 8 GB/s.
  EXPECT_DOUBLE_EQ(addscope::dram_peak_gbps(500000, 64), 8.0);
  // H200: HBM3e at 3201 MHz (as CUDA reports it), 6144-bit bus.
  EXPECT_NEAR(addscope::dram_peak_gbps(3201000, 6144), 4916.7, 0.1);
  // H100 SXM: 2619 MHz, 5120 bits: 3.35 TB/s as NVIDIA quotes it.
  EXPECT_NEAR(addscope::dram_peak_gbps(2619000, 5120), 3352.3, 0.1);
  EXPECT_EQ(addscope::dram_peak_gbps(0, 0), 0.0);
  EXPECT_EQ(addscope::dram_peak_gbps(1000000, 0), 0.0);
  EXPECT_THROW(addscope::dram_peak_gbps(-1, 8), addscope::InvalidArgument);
  EXPECT_THROW(addscope::dram_peak_gbps(8, -1), addscope::InvalidArgument);
}

template <class Space>
class Device : public ::testing::Test {};
TYPED_TEST_SUITE(Device, ExecSpaces);

TYPED_TEST(Device, InfoDescribesTheSpace) {
  using Space = TypeParam;
  const auto d = addscope::device_info(Space());
  EXPECT_EQ(d.exec_space, Space::name());
  EXPECT_EQ(d.is_gpu, addscope::is_gpu_space<Space>());
  EXPECT_EQ(d.concurrency, Space().concurrency());
  EXPECT_GE(d.units, 1);
  EXPECT_FALSE(d.name.empty());
  EXPECT_GT(d.memory.available, 0u);
  EXPECT_LE(d.memory.available, d.memory.total);
  if (!d.is_gpu)  // the host's RAM, as /proc/meminfo says (read here)
    EXPECT_EQ(d.memory.total, meminfo_bytes("MemTotal:"));
  EXPECT_FALSE(d.dram_peak_source.empty());
  if (d.is_gpu) {
    EXPECT_EQ(d.units_name, "SMs");
    // From the device's own attributes, written out: 2 x clock (kHz x
    // 10^3) x bus width (bits / 8), in 10^9 B/s.
    EXPECT_GT(d.memory_clock_khz, 0);
    EXPECT_GT(d.memory_bus_bits, 0);
    EXPECT_NEAR(d.dram_peak_gbps,
                2.0 * d.memory_clock_khz * 1e3 * (d.memory_bus_bits / 8.0) /
                    1e9,
                1e-6);
    // Every GPU CUDA runs on has 100 GB/s to 20 TB/s.
    EXPECT_GT(d.dram_peak_gbps, 100.0);
    EXPECT_LT(d.dram_peak_gbps, 20000.0);
    // What an H200's attributes gave on 2026-12-01 (nvidia-smi shows a
    // 3201 MHz memory clock; the attribute's clock is lower).
    if (d.name.find("H200") != std::string::npos)
      EXPECT_NEAR(d.dram_peak_gbps, 4814.3, 0.1);
    EXPECT_NE(d.dram_peak_source.find(std::to_string(d.memory_bus_bits) +
                                      "-bit bus"),
              std::string::npos)
        << d.dram_peak_source;
  } else {
    EXPECT_EQ(d.units, d.concurrency);
    EXPECT_EQ(d.dram_peak_gbps, 0.0);  // no attribute gives it on a host
    EXPECT_NE(d.dram_peak_source.find("unknown"), std::string::npos);
  }
}

TYPED_TEST(Device, ReferencesCopyTheDataAndCountTwoNElements) {
  using Space = TypeParam;
  using MS = typename Space::memory_space;
  const std::int64_t n = 100003;  // not a multiple of a pack
  const auto h = random_values<float>(n, 21);
  auto src = to_device<float, Space>(h, "src");
  Kokkos::View<float*, MS> dst("dst", n);
  addscope::MeasureOptions opt;
  opt.warmup = 0;
  opt.repeat = 2;
  const auto refs = addscope::measure_copy_references(Space(), dst, src, opt);
  std::vector<std::string> names;
  for (const auto& r : refs) {
    SCOPED_TRACE(r.name);
    names.push_back(r.name);
    EXPECT_EQ(r.result.bytes, 2u * 4u * std::uint64_t(n));
    EXPECT_EQ(r.result.direction, addscope::CopyDirection::DeviceToDevice);
    EXPECT_EQ(r.result.time.count, 2u);
    EXPECT_EQ(r.note.empty(), addscope::is_gpu_space<Space>());
  }
  const std::vector<std::string> want =
#if defined(KOKKOS_ENABLE_CUDA)
      std::is_same<Space, Kokkos::Cuda>::value
          ? std::vector<std::string>{"Kokkos::deep_copy", "cudaMemcpy",
                                     "STREAM copy kernel", "pack copy kernel"}
          :
#endif
          std::vector<std::string>{"Kokkos::deep_copy", "STREAM copy kernel",
                                   "pack copy kernel"};
  EXPECT_EQ(names, want);
  // Each method really copies every element (the tail beyond whole packs
  // too): poison dst, run that one method, compare.
  for (const auto& m : addscope::copy_references(Space(), dst, src)) {
    SCOPED_TRACE(m.name);
    Kokkos::deep_copy(dst, poison<float>());
    m.run();
    const auto got = to_host(dst);
    for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(got[i], h[i]) << i;
  }
  const auto* f = addscope::fastest(refs);
  ASSERT_NE(f, nullptr);
  for (const auto& r : refs)
    EXPECT_LE(r.result.gbps_median, f->result.gbps_median);
}

namespace {
// Kernels launched, by name, counted through Kokkos Tools' own callback
// while a LaunchCounter lives (no tool library is loaded in this binary).
std::mutex launched_mu;
std::map<std::string, int> launched;
void count_launch(const char* name, std::uint32_t, std::uint64_t* id) {
  std::lock_guard<std::mutex> g(launched_mu);
  ++launched[name];
  *id = 0;
}
struct LaunchCounter {
  LaunchCounter() {
    launched.clear();
    Kokkos::Tools::Experimental::set_begin_parallel_for_callback(count_launch);
  }
  ~LaunchCounter() {
    Kokkos::Tools::Experimental::set_begin_parallel_for_callback(nullptr);
  }
  int of(const std::string& name) {
    std::lock_guard<std::mutex> g(launched_mu);
    return launched[name];
  }
};
}  // namespace

TYPED_TEST(Device, LaunchLatencyCountsWhatItLaunched) {
  using Space = TypeParam;
  for (auto k : {addscope::EmptyKernel::Range, addscope::EmptyKernel::Team}) {
    LaunchCounter counter;
    const auto l = addscope::measure_launch_latency(Space(), k, 50, 20);
    // 10 untimed, 50 unfenced, 20 fenced: 80 launches of that kernel, none
    // of the other.
    const bool range = k == addscope::EmptyKernel::Range;
    EXPECT_EQ(counter.of(range ? "addscope::empty_range"
                               : "addscope::empty_team"),
              80);
    EXPECT_EQ(counter.of(range ? "addscope::empty_team"
                               : "addscope::empty_range"),
              0);
    EXPECT_EQ(l.kernel, k);
    EXPECT_EQ(l.launches, 50);
    EXPECT_EQ(l.fenced.count, 20u);
    // The 50 launches and their fence took at least the calls themselves;
    // an empty kernel, launched and fenced, well under a second.
    EXPECT_GT(l.call_s, 0.0);
    EXPECT_GE(l.unfenced_s, l.call_s);
    EXPECT_LT(l.unfenced_s, 1.0);
    EXPECT_LT(l.fenced.max_s, 1.0);
  }
  EXPECT_THROW(addscope::measure_launch_latency(
                   Space(), addscope::EmptyKernel::Range, 0, 1),
               addscope::InvalidArgument);
}

TYPED_TEST(Device, AdvisorPicksTheFastestCorrectCandidateAndItParsesBack) {
  using Space = TypeParam;
  using MS = typename Space::memory_space;
  Space exec;
  const std::int64_t n = 1 << 18;
  auto x = to_device<float, Space>(random_values<float>(n, 31), "x");
  auto y = to_device<float, Space>(random_values<float>(n, 32), "y");
  Kokkos::View<float*, MS> out("out", n);
  Kokkos::View<float**, Kokkos::LayoutRight, MS> wide("wide", n, 2);
  const auto team_max = addscope::add_team_size_max(exec, x, y, out);
  const std::vector<addscope::LaunchConfig> cands = {
      addscope::parse_launch_config("team:1x1"),
      addscope::parse_launch_config("range"),
      addscope::parse_launch_config("range:pack"),
      addscope::LaunchConfig::team_per_element(team_max),
      addscope::parse_launch_config("blas")};
  addscope::AdvisorOptions opt;
  opt.measure.warmup = 1;
  opt.measure.repeat = 3;
  int called = 0;
  opt.on_result = [&](const addscope::CandidateResult&) { ++called; };
  const auto a = addscope::choose_launch_config(exec, x, y, out, cands, opt);
  EXPECT_EQ(called, 5);
  ASSERT_EQ(a.results.size(), 5u);
  ASSERT_TRUE(a.has_advice());
  double fastest = 1e30;
  for (const auto& r : a.results) {
    SCOPED_TRACE(r.candidate.to_string());
    if (!r.measured) continue;
    EXPECT_EQ(r.check.checked, n);
    EXPECT_TRUE(r.check.ok()) << r.check.detail;
    EXPECT_EQ(r.label, r.candidate.kernel_label(r.resolved));
    fastest = std::min(fastest, r.phases.completion.median_s);
  }
  EXPECT_EQ(a.best_result().phases.completion.median_s, fastest);
  // The advice, and what it ran as, print and parse back.
  EXPECT_EQ(addscope::parse_launch_config(a.config().to_string()), a.config());
  EXPECT_EQ(addscope::parse_launch_config(a.best_result().resolved.to_string()),
            a.best_result().resolved);
  // (Which candidate wins is a performance claim: the benchmark's, not a
  // unit test's. The test checks that the advice is the fastest measured.)

  // A candidate that cannot run (packs on a strided View) is skipped with
  // the reason; the others still run.
  auto strided = Kokkos::subview(wide, Kokkos::ALL, 1);
  const auto b = addscope::choose_launch_config(
      exec, x, y, strided,
      {addscope::parse_launch_config("range:pack"),
       addscope::parse_launch_config("range")},
      opt);
  EXPECT_FALSE(b.results[0].measured);
  EXPECT_NE(b.results[0].skipped.find("16-byte aligned"), std::string::npos)
      << b.results[0].skipped;
  EXPECT_TRUE(b.results[1].measured);
  EXPECT_EQ(b.best, 1);
  // out must not be an input.
  EXPECT_THROW(addscope::choose_launch_config(exec, x, y, x, cands, opt),
               addscope::InvalidArgument);
  EXPECT_THROW(addscope::choose_launch_config(exec, x, y, out, {}, opt),
               addscope::InvalidArgument);
}

TEST(Advisor, DefaultCandidatesParseBackAndScaleWithTheDevice) {
  addscope::DeviceInfo d;
  d.units = 132;
  d.is_gpu = true;
  const auto full =
      addscope::launch_candidates(d, 1024, addscope::CandidateSet::Full);
  const auto quick =
      addscope::launch_candidates(d, 1024, addscope::CandidateSet::Quick);
  EXPECT_EQ(quick.size(), 6u);
  // 8 range forms + 6 team sizes x (6 leagues + ceil(N/T)) + auto + blas
  EXPECT_EQ(full.size(), 8u + 6u * 7u + 2u);
  bool has_528x256 = false;
  for (const auto& c : full) {
    EXPECT_EQ(addscope::parse_launch_config(c.to_string()), c);
    has_528x256 = has_528x256 || c.to_string() == "team:528x256";
  }
  EXPECT_TRUE(has_528x256);  // 4 x 132 SMs
  // A small team_size_max folds the grid (no duplicates).
  const auto host =
      addscope::launch_candidates(d, 1, addscope::CandidateSet::Full);
  EXPECT_EQ(host.size(), 8u + 7u + 2u);
}
