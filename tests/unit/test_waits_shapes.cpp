// Launch shapes and starved launches: the CUDA occupancy rules (by hand for
// an H200 and against NVIDIA's own cuda_occupancy.h where it is installed),
// the starved-launch rule on synthetic kernel records (starved, healthy,
// huge grids, tiny kernels, mixed shapes under one name, the boundaries),
// the bounded median, the report's options from the environment.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "addscope/waits/attribution/addscope_MedianSample.hpp"
#include "addscope/waits/attribution/addscope_Occupancy.hpp"
#include "addscope/waits/attribution/addscope_Starvation.hpp"
#include "addscope/waits/output/addscope_Headline.hpp"
#include "addscope/waits/output/addscope_LaunchLine.hpp"
#include "addscope/waits/output/addscope_WaitsOptions.hpp"
#include "addscope/waits/output/addscope_WaitsReport.hpp"
#include "waits_hand_snapshot.hpp"
#include "waits_sim.hpp"

#if defined(__has_include)
#if __has_include(<cuda_occupancy.h>)
#define ADDSCOPE_HAVE_CUDA_OCCUPANCY 1
#include <cuda_occupancy.h>
#endif
#endif

using addscope::DeviceCapacity;
using addscope::LaunchShape;
using addscope::Occupancy;
using addscope::StarvationRule;
using addscope_test::h200;
using addscope_test::WaitsSim;

namespace {

LaunchShape shape(long long grid, int block, unsigned regs = 16,
                  int shared = 0) {
  LaunchShape s;
  s.grid[0] = int(std::min<long long>(grid, INT_MAX));
  s.grid[1] = s.grid[2] = 1;
  s.block[0] = block;
  s.block[1] = s.block[2] = 1;
  s.registers = regs;
  s.shared_static = shared;
  return s;
}

}  // namespace

// ---- occupancy, computed by hand ------------------------------------------

TEST(WaitsOccupancy, OneBlockOfOneThread) {
  // 1 warp per block; 32 blocks per SM at most; registers (16 x 32 = 512 per
  // warp, 16384 per sub-partition: 32 warps each, 128 per SM) and shared
  // memory (the 1 KiB reserve: 228 blocks) allow more.
  const Occupancy o = addscope::occupancy(h200(), shape(1, 1));
  EXPECT_EQ(o.limit_warps, 64);
  EXPECT_EQ(o.limit_blocks, 32);
  EXPECT_EQ(o.limit_registers, 128);
  EXPECT_EQ(o.limit_shared, 228);
  EXPECT_EQ(o.blocks_per_sm, 32);
  EXPECT_STREQ(o.limited_by, "blocks");
  EXPECT_DOUBLE_EQ(o.theoretical, 0.5);  // 32 of 64 warps
  EXPECT_EQ(o.threads_in_flight, 1);
  EXPECT_EQ(o.resident_threads, 270336);
}

TEST(WaitsOccupancy, KokkosThreeFourRangePolicyAdd) {
  // 64-thread blocks over 10^7 elements: 156,250 blocks, 32 per SM (warps
  // and blocks bind together), every resident thread busy.
  const Occupancy o = addscope::occupancy(h200(), shape(156250, 64));
  EXPECT_EQ(o.limit_warps, 32);
  EXPECT_EQ(o.limit_blocks, 32);
  EXPECT_EQ(o.blocks_per_sm, 32);
  EXPECT_STREQ(o.limited_by, "warps");
  EXPECT_DOUBLE_EQ(o.theoretical, 1.0);
  EXPECT_EQ(o.threads_in_flight, 270336);
  EXPECT_DOUBLE_EQ(o.in_flight_fraction(), 1.0);
}

TEST(WaitsOccupancy, RegistersBind) {
  // 256 threads x 64 registers: 2048 registers per warp, 8 warps per
  // sub-partition, 32 per SM: 4 blocks of 8 warps = half the SM.
  const Occupancy o = addscope::occupancy(h200(), shape(1000, 256, 64));
  EXPECT_EQ(o.limit_registers, 4);
  EXPECT_EQ(o.blocks_per_sm, 4);
  EXPECT_STREQ(o.limited_by, "registers");
  EXPECT_DOUBLE_EQ(o.theoretical, 0.5);
  EXPECT_EQ(o.threads_in_flight, 132LL * 4 * 256);  // 528 of 1000 blocks
}

TEST(WaitsOccupancy, RegistersRoundUpToTheAllocationUnit) {
  // 40 registers: 1280 per warp (a multiple of 256); 41: 1312 -> 1536.
  EXPECT_EQ(addscope::occupancy(h200(), shape(1, 128, 40)).limit_registers,
            12);  // 16384 / 1280 = 12 warps per part, 48 per SM / 4
  EXPECT_EQ(addscope::occupancy(h200(), shape(1, 128, 41)).limit_registers,
            10);  // 16384 / 1536 = 10, 40 / 4
  // Registers are split over 4 sub-partitions: 10 warps of 1536 fit in
  // each, 40 per SM (not 65536 / 1536 = 42): 20 blocks of 2 warps, not 21.
  EXPECT_EQ(addscope::occupancy(h200(), shape(1, 64, 41)).limit_registers, 20);
}

TEST(WaitsOccupancy, SharedMemoryBinds) {
  // 128 threads with 48 KiB static shared memory: 49152 + 1024 reserved =
  // 50176 bytes per block, 4 blocks in 228 KiB: 16 of 64 warps.
  const Occupancy o = addscope::occupancy(h200(), shape(10000, 128, 32, 49152));
  EXPECT_EQ(o.limit_shared, 4);
  EXPECT_EQ(o.blocks_per_sm, 4);
  EXPECT_STREQ(o.limited_by, "shared memory");
  EXPECT_DOUBLE_EQ(o.theoretical, 0.25);
  EXPECT_EQ(o.threads_in_flight, 132LL * 4 * 128);
}

TEST(WaitsOccupancy, ImpossibleShapesStillCountOneBlock) {
  // 1024 threads x 255 registers cannot launch; a record that says so ran
  // at least one block per SM.
  const Occupancy o = addscope::occupancy(h200(), shape(10, 1024, 255));
  EXPECT_EQ(o.limit_registers, 0);
  EXPECT_EQ(o.blocks_per_sm, 1);
  EXPECT_STREQ(o.limited_by, "registers");
  // Unknown register count: registers do not bind.
  EXPECT_EQ(addscope::occupancy(h200(), shape(1, 32, 0)).limit_registers,
            INT_MAX);
  // Unknown device or shape: all zero.
  EXPECT_EQ(addscope::occupancy(DeviceCapacity(), shape(1, 1)).blocks_per_sm,
            0);
  EXPECT_EQ(addscope::occupancy(h200(), LaunchShape()).threads_in_flight, 0);
}

TEST(WaitsOccupancy, HugeGridsDoNotOverflow) {
  LaunchShape s = shape(INT_MAX, 1024, 32);
  s.grid[1] = 65535;
  s.grid[2] = 65535;
  const Occupancy o = addscope::occupancy(h200(), s);
  EXPECT_EQ(o.blocks_per_sm, 2);
  EXPECT_EQ(o.threads_in_flight, 270336);
  EXPECT_EQ(
      addscope::shape_short(s),
      addscope::thousands((long long)INT_MAX * 65535 * 65535) + " x 1,024");
}

TEST(WaitsOccupancy, Words) {
  EXPECT_EQ(addscope::thousands(270336), "270,336");
  EXPECT_EQ(addscope::thousands(999), "999");
  EXPECT_EQ(addscope::thousands(1000), "1,000");
  EXPECT_EQ(addscope::thousands(-1234567), "-1,234,567");
  EXPECT_EQ(addscope::shape_words(shape(1, 1)), "1 block x 1 thread");
  EXPECT_EQ(addscope::shape_words(shape(78125, 128)),
            "78,125 blocks x 128 threads");
  LaunchShape s = shape(4, 8);
  s.grid[1] = 2;
  s.block[1] = 4;
  EXPECT_EQ(addscope::shape_short(s), "8 x 32");
}

#ifdef ADDSCOPE_HAVE_CUDA_OCCUPANCY
// NVIDIA's occupancy calculator (cuda_occupancy.h, host code from the CUDA
// toolkit) for sm_90 over block sizes, register counts and shared memory.
TEST(WaitsOccupancy, AgreesWithCudaOccupancyHeader) {
  const DeviceCapacity d = h200();
  cudaOccDeviceProp p;
  p.computeMajor = d.cc_major;
  p.computeMinor = d.cc_minor;
  p.maxThreadsPerBlock = d.max_threads_per_block;
  p.maxThreadsPerMultiprocessor = d.max_threads_per_sm;
  p.regsPerBlock = d.registers_per_block;
  p.regsPerMultiprocessor = d.registers_per_sm;
  p.warpSize = d.warp_size;
  p.sharedMemPerBlock = 48 * 1024;
  p.sharedMemPerMultiprocessor = std::size_t(d.shared_per_sm);
  p.numSms = d.sms;
  p.sharedMemPerBlockOptin = std::size_t(d.shared_per_block_optin);
  p.reservedSharedMemPerBlock = std::size_t(d.reserved_shared_per_block);
  cudaOccDeviceState state;
  int compared = 0;
  for (int block :
       {1, 31, 32, 33, 64, 96, 128, 160, 192, 256, 384, 512, 640, 768, 1024})
    for (int regs :
         {0, 8, 16, 24, 32, 40, 41, 48, 64, 72, 96, 128, 168, 200, 255})
      for (int smem :
           {0, 100, 1000, 4096, 16384, 49152, 65536, 102400, 200000, 232448}) {
        cudaOccFuncAttributes a;
        a.maxThreadsPerBlock = 1024;
        a.numRegs = regs;
        a.sharedSizeBytes = std::size_t(smem);
        a.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
        a.maxDynamicSharedSizeBytes = std::size_t(d.shared_per_block_optin);
        a.numBlockBarriers = 1;
        cudaOccResult r;
        ASSERT_EQ(cudaOccMaxActiveBlocksPerMultiprocessor(&r, &p, &a, &state,
                                                          block, 0),
                  CUDA_OCC_SUCCESS);
        const Occupancy o =
            addscope::occupancy(d, shape(1, block, unsigned(regs), smem));
        const int theirs = r.activeBlocksPerMultiprocessor;
        // A shape that cannot launch (theirs 0) counts one block here.
        EXPECT_EQ(o.blocks_per_sm, std::max(1, theirs))
            << block << " threads, " << regs << " registers, " << smem
            << " B shared";
        ++compared;
      }
  EXPECT_EQ(compared, 15 * 15 * 10);
}
#endif

// ---- the starved-launch rule on synthetic records --------------------------

namespace {

// A run on a synthetic H200: kernels with the given shapes and device times,
// one after another, no waits.
struct ShapeRun {
  WaitsSim s{true};
  double t = 0;
  ShapeRun() {
    addscope::TrackerOptions o;
    o.clock = s.clock;
    o.device_records_by_hand = true;
    o.query_devices = [] { return std::vector<DeviceCapacity>{h200()}; };
    o.sites = false;  // the shapes alone
    s.t.reset(new addscope::SyncTracker(o));
  }
  void kernel(const std::string& name, int grid, int block, double seconds,
              int times = 1) {
    for (int i = 0; i < times; ++i) {
      const auto k = s.launch(name, t, t + 1e-6);
      s.ran(k, 7, t + 2e-6, t + 2e-6 + seconds, grid, block);
      t += 4e-6 + seconds;
    }
  }
  addscope::WaitsSnapshot done() { return s.done(); }
};

nlohmann::json json_of(const addscope::WaitsSnapshot& w,
                       const addscope::WaitsReportOptions& o = {}) {
  return nlohmann::json::parse(addscope::waits_json(w, o));
}
const nlohmann::json& kernel_json(const nlohmann::json& j,
                                  const std::string& name) {
  for (const auto& k : j["kernels"])
    if (k["name"] == name) return k;
  static const nlohmann::json none;
  ADD_FAILURE() << "no kernel " << name;
  return none;
}
std::string report_of(const addscope::WaitsSnapshot& w,
                      const addscope::WaitsReportOptions& o = {}) {
  std::ostringstream os;
  addscope::write_waits_report(os, w, o);
  return os.str();
}

}  // namespace

TEST(WaitsStarved, OneThreadLaunchIsNamed) {
  ShapeRun r;
  r.kernel("user::fill", 78125, 128, 50e-6);
  r.kernel("user::slow_add[1x1]", 1, 1, 0.599);
  const auto w = r.done();
  const auto j = json_of(w);
  EXPECT_TRUE(kernel_json(j, "user::slow_add[1x1]")["starved"].get<bool>());
  EXPECT_FALSE(kernel_json(j, "user::fill")["starved"].get<bool>());
  ASSERT_EQ(j["starved"].size(), 1u);
  EXPECT_EQ(j["starved"][0]["line"],
            "user::slow_add[1x1] ran as 1 block x 1 thread (1 of 270,336 "
            "resident threads on this NVIDIA H200): 599.0 ms");
  const auto& sh = kernel_json(j, "user::slow_add[1x1]")["shapes"][0];
  EXPECT_EQ(sh["threads_in_flight"], 1);
  EXPECT_EQ(sh["resident_threads"], 270336);
  EXPECT_EQ(sh["blocks_per_sm"], 32);
  const std::string text = report_of(w);
  EXPECT_NE(text.find("starved launches (fewer than 1/8 of the resident "
                      "threads in flight, at least 1.0% of all kernel time "
                      "and 1.0 ms): 1\n    user::slow_add[1x1] ran as 1 "
                      "block x 1 thread (1 of 270,336 resident threads on "
                      "this NVIDIA H200): 599.0 ms\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("device 0: NVIDIA H200 (sm_90), 132 SMs x 2,048 "
                      "threads = 270,336 resident threads"),
            std::string::npos)
      << text;
}

TEST(WaitsStarved, HealthyAndHugeGridsAreNot) {
  ShapeRun r;
  r.kernel("healthy", 78125, 128, 0.05, 10);
  LaunchShape huge = shape(INT_MAX, 1024, 32);
  huge.grid[1] = 1000;
  {
    const auto k = r.s.launch("huge", r.t, r.t + 1e-6);
    addscope::Impl::DeviceKernelRecord rec;
    rec.correlation = k.corr;
    rec.stream = 7;
    rec.start_s = r.t + 2e-6;
    rec.end_s = r.t + 2.0;
    rec.shape = huge;
    std::vector<addscope::Impl::DeviceKernelRecord> v{rec};
    r.s.t->on_device_kernels(v);
  }
  const auto j = json_of(r.done());
  EXPECT_TRUE(j["starved"].empty()) << j["starved"].dump();
  EXPECT_EQ(kernel_json(j, "huge")["shapes"][0]["threads_in_flight"], 270336);
  EXPECT_EQ(kernel_json(j, "huge")["shapes"][0]["blocks"],
            (long long)INT_MAX * 1000);
  EXPECT_EQ(kernel_json(j, "healthy")["launches"], 10);
}

TEST(WaitsStarved, TinyKernelsAreNot) {
  {
    // A 1-block reduction tail beside real work: 0.003% of the time.
    ShapeRun r;
    r.kernel("work", 100000, 256, 0.1);
    r.kernel("tail", 1, 32, 3e-6);
    const auto j = json_of(r.done());
    EXPECT_TRUE(j["starved"].empty());
    kernel_json(j, "tail");  // judged: tied to its launch, its shape known
  }
  {
    // Only tiny kernels: 100% of the device time, but 50 us in all.
    ShapeRun r;
    r.kernel("Kokkos::View::initialization [s]", 1, 1, 5e-6, 10);
    const auto w = r.done();
    EXPECT_TRUE(json_of(w)["starved"].empty());
    EXPECT_NE(report_of(w).find("starved launches ("), std::string::npos);
    EXPECT_NE(report_of(w).find("): none\n"), std::string::npos)
        << report_of(w);
  }
}

TEST(WaitsStarved, MixedShapesUnderOneName) {
  ShapeRun r;
  for (int i = 0; i < 10; ++i) {
    r.kernel("user::scale", 1, 1, 0.01);
    r.kernel("user::scale", 1000, 256, 0.001);
  }
  const auto w = r.done();
  const auto j = json_of(w);
  const auto& k = kernel_json(j, "user::scale");
  EXPECT_EQ(k["launches"], 20);
  ASSERT_EQ(k["shapes"].size(), 2u);
  // Most device time first: the starved one.
  EXPECT_EQ(k["shapes"][0]["grid"][0], 1);
  EXPECT_TRUE(k["shapes"][0]["starved"].get<bool>());
  EXPECT_EQ(k["shapes"][0]["launches"], 10);
  EXPECT_NEAR(k["shapes"][0]["device_s"].get<double>(), 0.1, 1e-9);
  EXPECT_EQ(k["shapes"][1]["grid"][0], 1000);
  EXPECT_FALSE(k["shapes"][1]["starved"].get<bool>());
  EXPECT_TRUE(k["starved"].get<bool>());
  ASSERT_EQ(j["starved"].size(), 1u);
  EXPECT_EQ(j["starved"][0]["line"],
            "user::scale ran as 1 block x 1 thread (1 of 270,336 resident "
            "threads on this NVIDIA H200): 100.0 ms in 10 launches, 10.0 ms "
            "each on average");
  // The median of the 20 launches: between the two groups.
  EXPECT_NEAR(k["median_s"].get<double>(), 0.0055, 1e-9);
  EXPECT_TRUE(k["median_exact"].get<bool>());
  EXPECT_NE(report_of(w).find("+1 other shape"), std::string::npos);
}

TEST(WaitsStarved, ManyShapesAreCapped) {
  ShapeRun r;
  for (int g = 1; g <= 12; ++g) r.kernel("k", g * 1000, 128, 1e-3);
  const auto j = json_of(r.done());
  const auto& k = kernel_json(j, "k");
  EXPECT_EQ(k["shapes"].size(), addscope::KernelStats::kMaxShapes);
  EXPECT_EQ(k["other_shapes"]["launches"], 12 - 8);
  EXPECT_EQ(k["launches"], 12);
}

TEST(WaitsStarved, Boundaries) {
  // 256-thread blocks: 8 per SM. 132 blocks x 256 = 33,792 threads = exactly
  // 1/8 of 270,336: not fewer, not starved. 131 blocks: starved.
  const DeviceCapacity d = h200();
  const StarvationRule rule;
  const Occupancy at = addscope::occupancy(d, shape(132, 256));
  const Occupancy below = addscope::occupancy(d, shape(131, 256));
  EXPECT_EQ(at.threads_in_flight, 33792);
  EXPECT_FALSE(addscope::is_starved(at, 1.0, 1.0, rule));
  EXPECT_TRUE(addscope::is_starved(below, 1.0, 1.0, rule));
  // Share: at least 1% of the device time, and at least 1 ms.
  EXPECT_TRUE(addscope::is_starved(below, 0.01, 1.0, rule));
  EXPECT_FALSE(addscope::is_starved(below, 0.0099, 1.0, rule));
  EXPECT_TRUE(addscope::is_starved(below, 1e-3, 1e-3, rule));
  EXPECT_FALSE(addscope::is_starved(below, 0.9e-3, 0.9e-3, rule));
  // Unknown capacity: never.
  EXPECT_FALSE(addscope::is_starved(Occupancy(), 1.0, 1.0, rule));
  // A looser rule flags more.
  StarvationRule half;
  half.max_in_flight = 0.5;
  EXPECT_TRUE(addscope::is_starved(at, 1.0, 1.0, half));
}

TEST(WaitsStarved, UnknownDeviceIsNotJudged) {
  WaitsSim s;  // no device capacities
  const auto k = s.launch("user::slow_add[1x1]", 0, 1e-6);
  s.ran(k, 7, 2e-6, 0.5, 1, 1);
  const auto w = s.done();
  EXPECT_TRUE(json_of(w)["starved"].empty());
  EXPECT_TRUE(
      json_of(w)["kernels"][0]["shapes"][0]["threads_in_flight"].is_null());
  EXPECT_NE(report_of(w).find("starved launches: not judged"),
            std::string::npos)
      << report_of(w);
}

TEST(WaitsStarved, TheWaitPointsAtTheLaunch) {
  ShapeRun r;
  auto& s = r.s;
  const auto k = s.launch("user::slow_add[1x1]", 0.0, 0.00002);
  s.ran(k, 7, 0.00001, 0.6, 1, 1);
  s.call(addscope::CallKind::DeepCopy,
         "deep_copy out_mirror<-out (Host<-Cuda, 4 B)", 0.0001, 0.6001, [&] {
           s.block(addscope::SyncApi::Memcpy, 0.00011, 0.60009, -1, 4, 3);
         });
  const auto w = r.done();
  const std::string text = report_of(w);
  EXPECT_NE(text.find("deep_copy out_mirror<-out (Host<-Cuda, 4 B) waited "
                      "599.9 ms for user::slow_add[1x1], launched as 1 x 1 "
                      "(starved)"),
            std::string::npos)
      << text;
  const auto j = json_of(w);
  EXPECT_EQ(j["waits"][0]["waited_for"][0]["launched_as"], "1 x 1");
  EXPECT_TRUE(j["waits"][0]["waited_for"][0]["starved"].get<bool>());
}

TEST(WaitsStarved, RuleFromTheEnvironment) {
  static std::map<std::string, std::string> env;
  auto lookup = [](const char* v) -> const char* {
    auto it = env.find(v);
    return it == env.end() ? nullptr : it->second.c_str();
  };
  env = {{"ADDSCOPE_WAITS_TOP", "3"},
         {"ADDSCOPE_WAITS_THRESHOLD", "1.5ms"},
         {"ADDSCOPE_WAITS_STARVED_THREADS", "0.25"},
         {"ADDSCOPE_WAITS_STARVED_SHARE", "0.05"},
         {"ADDSCOPE_WAITS_STARVED_MIN", "20us"},
         {"ADDSCOPE_WAITS_OUTPUT", "waits-%p.txt"}};
  std::vector<std::string> warn;
  auto o = addscope::waits_options_from_environment(&warn, lookup);
  EXPECT_TRUE(warn.empty());
  EXPECT_EQ(o.top, 3u);
  EXPECT_DOUBLE_EQ(o.threshold_s, 1.5e-3);
  EXPECT_DOUBLE_EQ(o.starved.max_in_flight, 0.25);
  EXPECT_DOUBLE_EQ(o.starved.min_share, 0.05);
  EXPECT_DOUBLE_EQ(o.starved.min_s, 20e-6);
  EXPECT_EQ(o.output, "waits-%p.txt");
  env = {{"ADDSCOPE_WAITS_TOP", "0"},
         {"ADDSCOPE_WAITS_THRESHOLD", "ten"},
         {"ADDSCOPE_WAITS_STARVED_THREADS", "2"},
         {"ADDSCOPE_WAITS_STARVED_MIN", "-1ms"}};
  warn.clear();
  o = addscope::waits_options_from_environment(&warn, lookup);
  ASSERT_EQ(warn.size(), 4u);
  EXPECT_EQ(warn[0],
            "ADDSCOPE_WAITS_TOP='0' is invalid; allowed: an integer from 1 "
            "to 1000000 (using 10)");
  EXPECT_EQ(o.top, 10u);
  EXPECT_DOUBLE_EQ(o.threshold_s, 10e-6);
  EXPECT_DOUBLE_EQ(o.starved.max_in_flight, 0.125);
  EXPECT_DOUBLE_EQ(o.starved.min_s, 1e-3);
  double s = 0;
  EXPECT_TRUE(addscope::parse_duration("0.25", &s));
  EXPECT_DOUBLE_EQ(s, 0.25);
  EXPECT_TRUE(addscope::parse_duration(" 3 us", &s));
  EXPECT_DOUBLE_EQ(s, 3e-6);
  EXPECT_FALSE(addscope::parse_duration("3 min", &s));
  EXPECT_FALSE(addscope::parse_duration("", &s));
}

// ---- the bounded median
// ------------------------------------------------------

TEST(WaitsMedian, ExactWhileSmall) {
  addscope::MedianSample m;
  EXPECT_EQ(m.median(), 0.0);
  for (double v : {5.0, 1.0, 3.0}) m.add(v);
  EXPECT_DOUBLE_EQ(m.median(), 3.0);
  m.add(10.0);
  EXPECT_DOUBLE_EQ(m.median(), 4.0);  // (3 + 5) / 2
  for (int i = 0; i < 252; ++i) m.add(1000.0 + i);
  EXPECT_EQ(m.count(), 256u);
  EXPECT_TRUE(m.exact());
  std::vector<double> all = {5, 1, 3, 10};
  for (int i = 0; i < 252; ++i) all.push_back(1000.0 + i);
  std::sort(all.begin(), all.end());
  EXPECT_DOUBLE_EQ(m.median(), 0.5 * (all[127] + all[128]));
}

TEST(WaitsMedian, SampledWhenLong) {
  // 10^5 durations, uniform in [0, 1) with a slow tail: the sampled median
  // is close to the true one, and the same on every run.
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0, 1);
  addscope::MedianSample a, b;
  std::vector<double> all;
  for (int i = 0; i < 100000; ++i) {
    const double v = i % 100 == 0 ? 50.0 : u(rng);
    a.add(v);
    b.add(v);
    all.push_back(v);
  }
  std::nth_element(all.begin(), all.begin() + 50000, all.end());
  EXPECT_FALSE(a.exact());
  EXPECT_EQ(a.count(), 100000u);
  EXPECT_NEAR(a.median(), all[50000], 0.1);
  EXPECT_EQ(a.median(), b.median());
  // Launches that slow down over the run (0, 1, ..., 10^5 - 1): a uniform
  // sample keeps early and late ones alike; its median is 50000 within
  // 0.15 x 10^5 (the sample median's spread is ~0.03 x 10^5).
  addscope::MedianSample ramp;
  for (int i = 0; i < 100000; ++i) ramp.add(double(i));
  EXPECT_NEAR(ramp.median(), 50000.0, 15000.0);
}

// ---- the grouped report and the JSON's order --------------------------------

namespace {
// `n` calls at one site, each waiting for its own kernel; then `sites`
// further sites with one short wait each.
addscope::WaitsSnapshot many_waits(int n, int sites, double short_wait) {
  WaitsSim s;
  double t = 0;
  for (int i = 0; i < n; ++i) {
    const auto k = s.launch("user::k", t, t + 1e-6);
    s.ran(k, 7, t + 2e-6, t + 1e-3, 1000, 256);
    s.call(addscope::CallKind::DeepCopy, "deep_copy h<-d (Host<-Cuda, 4 B)",
           t + 3e-6, t + 1.01e-3, [&] {
             s.block(addscope::SyncApi::Memcpy, t + 4e-6, t + 1.005e-3, -1, 4,
                     3);
           });
    t += 2e-3;
  }
  for (int i = 0; i < sites; ++i) {
    const auto k = s.launch("user::short", t, t + 1e-6);
    s.ran(k, 7, t + 2e-6, t + 3e-6 + short_wait, 1000, 256);
    s.call(addscope::CallKind::DeepCopy,
           "deep_copy s" + std::to_string(i) + "<-d (Host<-Cuda, 4 B)",
           t + 3e-6, t + 10e-6 + short_wait, [&] {
             s.block(addscope::SyncApi::Memcpy, t + 3e-6, t + 5e-6 + short_wait,
                     -1, 4, 3);
           });
    t += 1e-3;
  }
  return s.done();
}
}  // namespace

TEST(WaitsReport, GroupedByCallSite) {
  const auto w = many_waits(50, 0, 0);
  const std::string r = report_of(w);
  // One row for the 50 calls: count, total, mean, share.
  EXPECT_NE(r.find("          50     49.8 ms    996.0 us  100.0%  deep_copy "
                   "h<-d (Host<-Cuda, 4 B)\n"),
            std::string::npos)
      << r;
  EXPECT_NE(r.find("longest: deep_copy h<-d (Host<-Cuda, 4 B) waited"),
            std::string::npos)
      << r;
  std::size_t lines = 0;
  for (std::size_t p = r.find("waited 996.0 us for user::k");
       p != std::string::npos; p = r.find("waited 996.0 us for", p + 1))
    ++lines;
  EXPECT_EQ(lines, 1u) << r;  // not repeated line by line
  EXPECT_NE(r.find("          50     49.9 ms    998.0 us    998.0 us  100.0%  "
                   "1,000 x 256"),
            std::string::npos)
      << r;  // the kernel: launches, total, mean, median, share
}

TEST(WaitsReport, TopAndThreshold) {
  // 12 sites waiting 2 ms each and 3 waiting 2 us.
  WaitsSim s;
  double t = 0;
  for (int i = 0; i < 15; ++i) {
    const double wait = i < 12 ? 2e-3 : 2e-6;
    const auto k = s.launch("user::k", t, t + 1e-6);
    s.ran(k, 7, t + 2e-6, t + 3e-6 + wait, 1000, 256);
    s.call(addscope::CallKind::DeepCopy,
           "deep_copy s" + std::to_string(i) + "<-d (Host<-Cuda, 4 B)",
           t + 3e-6, t + 10e-6 + wait, [&] {
             s.block(addscope::SyncApi::Memcpy, t + 3e-6, t + 5e-6 + wait, -1,
                     4, 3);
           });
    t += 10e-3;
  }
  const auto w = s.done();
  const std::string r = report_of(w);
  EXPECT_NE(r.find("... 2 more call sites, 3 call sites under 10.0 us "
                   "(ADDSCOPE_WAITS_TOP, ADDSCOPE_WAITS_THRESHOLD; all with "
                   "ADDSCOPE_WAITS_JSON=FILE)"),
            std::string::npos)
      << r;
  addscope::WaitsReportOptions launched;  // addscope-waits --json ...
  launched.launcher = true;
  launched.json = true;
  const std::string l = report_of(w, launched);
  EXPECT_NE(l.find("... 2 more call sites, 3 call sites under 10.0 us "
                   "(--top, --threshold; all in the JSON)"),
            std::string::npos)
      << l;
  addscope::WaitsReportOptions o;
  o.top = 20;
  o.threshold_s = 0;
  const std::string all = report_of(w, o);
  EXPECT_EQ(all.find("more call sites"), std::string::npos) << all;
  EXPECT_NE(all.find("deep_copy s14<-d"), std::string::npos) << all;
  o.top = 3;
  const std::string three = report_of(w, o);
  EXPECT_NE(three.find("... 12 more call sites"), std::string::npos) << three;
  EXPECT_EQ(json_of(w, o)["longest_waits"].size(), 3u);
}

TEST(WaitsReport, JsonInTimeOrderWithNulls) {
  const auto w = many_waits(3, 4, 1e-3);
  const auto j = json_of(w);
  EXPECT_EQ(j["schema"], "addscope-waits/4");
  EXPECT_EQ(j["version"], 4);
  ASSERT_EQ(j["waits"].size(), 7u);
  for (std::size_t i = 1; i < j["waits"].size(); ++i)
    EXPECT_LT(j["waits"][i - 1]["begin_s"].get<double>(),
              j["waits"][i]["begin_s"].get<double>());
  // The longest first: ids, most wait first.
  ASSERT_EQ(j["longest_waits"].size(), 7u);
  std::map<std::uint64_t, double> wait_of;
  for (const auto& c : j["waits"]) wait_of[c["id"]] = c["wait_s"];
  for (std::size_t i = 1; i < 7; ++i)
    EXPECT_GE(wait_of[j["longest_waits"][i - 1]],
              wait_of[j["longest_waits"][i]]);
  // Nothing to say: null, never "".
  std::function<void(const nlohmann::json&, const std::string&)> no_empty =
      [&](const nlohmann::json& v, const std::string& at) {
        if (v.is_string()) EXPECT_NE(v.get<std::string>(), "") << at;
        if (v.is_object())
          for (auto it = v.begin(); it != v.end(); ++it)
            no_empty(it.value(), at + "." + it.key());
        if (v.is_array())
          for (std::size_t i = 0; i < v.size(); ++i)
            no_empty(v[i], at + "[" + std::to_string(i) + "]");
      };
  no_empty(j, "");
  EXPECT_TRUE(j["waits"][0]["regions"].is_null());
  EXPECT_TRUE(j["waits"][0]["context"].is_null());
  EXPECT_TRUE(j["trace"].is_null());
  EXPECT_EQ(j["waits"][0]["site"], "deep_copy h<-d (Host<-Cuda, 4 B)");
  // Sites: calls that waited, shares, means. Hidden waits in all: 3 x
  // 996 us (h<-d) + 4 x 1 ms (s0..s3) = 6.988 ms; h<-d's share 2.988 /
  // 6.988, each s<i>'s 1 / 6.988.
  int seen = 0;
  double shares = 0;
  for (const auto& st : j["sites"]) {
    shares += st["hidden_share"].get<double>();
    if (st["site"] == "deep_copy h<-d (Host<-Cuda, 4 B)") {
      ++seen;
      EXPECT_EQ(st["hidden_calls"], 3);
      EXPECT_NEAR(st["mean_wait_s"].get<double>(), 996e-6, 1e-9);
      EXPECT_NEAR(st["hidden_share"].get<double>(), 0.427590154551, 1e-9);
    } else if (st["site"].get<std::string>().rfind("deep_copy s", 0) == 0) {
      ++seen;
      EXPECT_EQ(st["hidden_calls"], 1);
      EXPECT_NEAR(st["hidden_share"].get<double>(), 0.143102461362, 1e-9);
      EXPECT_EQ(st["explicit_share"].get<double>(), 0.0);
    }
  }
  EXPECT_EQ(seen, 5);
  EXPECT_NEAR(shares, 1.0, 1e-12);
  EXPECT_NEAR(j["totals"]["hidden_s"].get<double>(), 6.988e-3, 1e-12);
}

TEST(WaitsReport, HostKernelsOnTheirSpace) {
  // Kokkos 3.x: a View's initialization comes with device id 0 (Serial)
  // whatever space runs it; the program's kernels say which host space.
  WaitsSim s(false);
  addscope::ExecId omp;
  omp.kind = addscope::DeviceKind::OpenMP;
  addscope::ExecId serial;
  serial.kind = addscope::DeviceKind::Serial;
  s.at(0);
  auto id = s.t->kernel_begin("Kokkos::View::initialization [x]", serial);
  s.at(1e-3);
  s.t->kernel_end(id);
  id = s.t->kernel_begin("user::work", omp);
  s.at(2e-3);
  s.t->kernel_end(id);
  const auto w = s.done();
  const auto j = json_of(w);
  EXPECT_EQ(kernel_json(j, "Kokkos::View::initialization [x]")["device"],
            "OpenMP");
  EXPECT_EQ(kernel_json(j, "user::work")["device"], "OpenMP");
  EXPECT_NE(report_of(w).find("launch shapes: a GPU matter"),
            std::string::npos);
  // No host kernel of another kind: Kokkos' "Default Device" says.
  WaitsSim t(false);
  t.t->set_default_device("N6Kokkos6SerialE");
  t.at(0);
  id = t.t->kernel_begin("Kokkos::View::initialization [y]", serial);
  t.at(1e-3);
  t.t->kernel_end(id);
  EXPECT_EQ(kernel_json(json_of(t.done()),
                        "Kokkos::View::initialization [y]")["device"],
            "Serial");
}

// ---- the headline
// ------------------------------------------------------------

// The launch that keeps a whole H200 busy: 1,056 blocks of 256 threads for
// a kernel that ran 1 x 1 (the seed's add); the kernel's own block size when
// it had at least a warp; fewer blocks when its registers allow only one per
// SM; nothing for a device whose capacity is unknown.
TEST(WaitsHeadline, FillingLaunchKeepsEveryResidentThreadBusy) {
  const DeviceCapacity d = h200();
  const LaunchShape a = addscope::filling_launch(d, shape(1, 1));
  EXPECT_EQ(a.grid[0], 1056);
  EXPECT_EQ(a.block[0], 256);
  EXPECT_EQ(addscope::occupancy(d, a).threads_in_flight, 270336);
  const LaunchShape b = addscope::filling_launch(d, shape(4, 128));
  EXPECT_EQ(b.grid[0], 2112);
  EXPECT_EQ(b.block[0], 128);
  const LaunchShape c = addscope::filling_launch(d, shape(1, 256, 255));
  EXPECT_EQ(c.grid[0], 132);  // 255 registers: one block of 256 per SM
  EXPECT_EQ(c.block[0], 256);
  EXPECT_FALSE(addscope::filling_launch(DeviceCapacity(), shape(1, 1)).known());
}

// Start-up apart in the headline (issue 36): half a second of host code
// before a kernel's first run is start-up, paid once, and the run's own
// idle (round trips in a loop) is named beside it, each with its place.
TEST(WaitsHeadline, StartUpIsPaidOnceBesideTheRunsOwnIdle) {
  ShapeRun r;
  const auto a = r.s.launch("user::init", 0.0, 1e-5);
  r.s.ran(a, 7, 2e-5, 3e-5, 1056, 256);
  for (int i = 0; i < 10; ++i) {
    const double t0 = 0.5 + i * 1e-3;
    const auto l = r.s.launch("user::step", t0, t0 + 1e-5);
    r.s.ran(l, 7, t0 + 2e-5, t0 + 5e-4, 1056, 256);
    r.s.call(addscope::CallKind::DeepCopy, "deep_copy r_h<-r", t0 + 2e-5,
             t0 + 5.1e-4, [&] {
               r.s.block(addscope::SyncApi::Memcpy, t0 + 3e-5, t0 + 5.05e-4,
                         -1, 4, 3);
             });
  }
  r.s.at(0.52);
  const auto lines = addscope::headline_lines(r.done(), StarvationRule());
  std::string all;
  for (const auto& l : lines) all += l + "\n";
  EXPECT_NE(all.find("start-up, paid once (the most: the first run of "
                     "user::step); "),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("of it synchronization round trip (the most: "
                     "deep_copy r_h<-r"),
            std::string::npos)
      << all;
}

// The longest single wait's cost to the device is said only when the idle
// rows of its site hold that call alone: a site whose other calls also left
// round trips (copies that waited for nothing) says nothing of it.
TEST(WaitsHeadline, OneWaitsIdleCostOnlyFromItsOwnRows) {
  for (const std::uint64_t row_calls : {1u, 3u}) {
    // Three calls, one waited: no loop line.
    addscope::WaitsSnapshot w = addscope_test::one_wait(
        "cudaMemcpy D2H 4 B", addscope::WaitClass::Hidden, 0.2, {}, 3);
    addscope_test::idle_run(w, 10, 0.1);
    w.idle.sites.push_back(addscope_test::round_trip_row(
        "cudaMemcpy D2H 4 B", row_calls, 0.1));
    std::string all;
    for (const auto& l : addscope::headline_lines(w, StarvationRule()))
      all += l + "\n";
    ASSERT_NE(all.find("cudaMemcpy D2H 4 B"), std::string::npos) << all;
    EXPECT_EQ(all.find("in its round trip") != std::string::npos,
              row_calls == 1)
        << all;
  }
}

// "The device stayed busy" only when no round-trip row may hold the calls
// unsaid: an unnamed row (a blocked call cut at the analyzer's watermark),
// or one of the same call without a line, leaves it unsaid.
TEST(WaitsHeadline, StayedBusyOnlyWhenNoRowMayHoldTheCalls) {
  for (const int rows : {0, 1, 2}) {
    addscope::CodeSite code;
    code.file = "/x/train.py";
    code.line = 21;
    code.language = "python";
    addscope::WaitsSnapshot w = addscope_test::one_wait(
        "cudaStreamSynchronize", addscope::WaitClass::Explicit, 0.4, code);
    addscope_test::idle_run(w, 10, 0.1);
    // Unnamed (a blocked call cut at the watermark); the call without a line.
    if (rows > 0)
      w.idle.sites.push_back(addscope_test::round_trip_row(
          rows == 1 ? "" : "cudaStreamSynchronize", 1, 0.1));
    std::string all;
    for (const auto& l : addscope::headline_lines(w, StarvationRule()))
      all += l + "\n";
    EXPECT_EQ(all.find("the device stayed busy") != std::string::npos,
              rows == 0)
        << rows << "\n" << all;
  }
}

// The seed on an H200, as the headline reads it: how busy the device was,
// the starved add with the launch that fills the device, the read that only
// waited; at most five lines; nothing without device times.
// The launch the device needs, in the program's own words: its launch
// line with the numbers it ran with replaced — only where the line spells
// them out and they are the ones the kernel ran with.
TEST(WaitsHeadline, TheLaunchLineWrittenWithTheLaunchTheDeviceNeeds) {
  auto shape = [](int g, int b) {
    LaunchShape s;
    s.grid[0] = g;
    s.block[0] = b;
    s.grid[1] = s.grid[2] = s.block[1] = s.block[2] = 1;
    return s;
  };
  const LaunchShape ran = shape(1, 1), fill = shape(1056, 256);
  auto as = [&](const std::string& text, const char* language,
                const LaunchShape& r) {
    addscope::CodeSite at;
    at.file = "seed.py";
    at.line = 37;
    at.language = language;
    at.text = text;
    return addscope::launch_line_as(at, r, fill);
  };
  // numba, its comment dropped (it spoke of the old launch).
  EXPECT_EQ(as("add[1, 1](x, y, out)  # 1 block x 1 thread", "python", ran),
            "add[1056, 256](x, y, out)");
  EXPECT_EQ(as("kernels.add [ 1,1 ] (x, '#', out)", "python", ran),
            "kernels.add [ 1056,256 ] (x, '#', out)");
  EXPECT_EQ(as("add[1, 1](x, 'a#', out)  # after a string", "python", ran),
            "add[1056, 256](x, 'a#', out)");
  // CuPy's RawKernel: grid and block as tuples.
  EXPECT_EQ(as("add((1,), (1,), (x, y, out))", "python", ran),
            "add((1056,), (256,), (x, y, out))");
  // CUDA C++, its comment dropped.
  EXPECT_EQ(as("add<<<1, 1>>>(x, y, out);  // the seed", "c++", ran),
            "add<<<1056, 256>>>(x, y, out);");
  EXPECT_EQ(as("add<<<1, 1, 0, s>>>(x, y, out);", "c++", ran),
            "add<<<1056, 256, 0, s>>>(x, y, out);");
  // Not said: variables, other numbers, another form, no text, a 2-D run.
  EXPECT_EQ(as("add[blocks, threads](x, y, out)", "python", ran), "");
  EXPECT_EQ(as("add[2, 1](x, y, out)", "python", ran), "");
  EXPECT_EQ(as("add<<<1, 1>>>(x, y, out);", "python", ran), "");
  EXPECT_EQ(as("v = out[1, 1]", "python", ran), "");
  EXPECT_EQ(as("", "python", ran), "");
  LaunchShape two_d = ran;
  two_d.grid[1] = 2;
  EXPECT_EQ(as("add[1, 1](x, y, out)", "python", two_d), "");
  // In the headline: the starved launch, as the program would write it.
  ShapeRun r;
  r.s.at(0);
  const auto k = r.s.launch("add", 0.0, 1e-5);
  r.s.ran(k, 7, 2e-5, 0.73, 1, 1);
  r.s.at(0.8);
  addscope::WaitsSnapshot w = r.done();
  ASSERT_EQ(w.kernels.size(), 1u);
  w.kernels[0].launched_at.file = "seed.py";
  w.kernels[0].launched_at.line = 37;
  w.kernels[0].launched_at.language = "python";
  w.kernels[0].launched_at.text = "add[1, 1](x, y, out)  # the seed";
  std::string all;
  for (const auto& l : addscope::headline_lines(w, StarvationRule()))
    all += l + "\n";
  EXPECT_NE(all.find("launched as 1,056 x 256 it would keep all 270,336 busy "
                     "(`add[1056, 256](x, y, out)`)\n"),
            std::string::npos)
      << all;
}

TEST(WaitsHeadline, TheSeedInFiveLinesAtMost) {
  ShapeRun r;
  r.s.at(0);
  const auto k = r.s.launch("user::add", 0.0, 1e-5);
  r.s.ran(k, 7, 2e-5, 0.73, 1, 1);
  r.s.call(
      addscope::CallKind::DeepCopy, "deep_copy out_mirror<-out", 2e-5, 0.7301,
      [&] { r.s.block(addscope::SyncApi::Memcpy, 3e-5, 0.73005, -1, 4, 3); });
  r.s.at(0.8);
  const addscope::WaitsSnapshot w = r.done();
  const auto lines = addscope::headline_lines(w, StarvationRule());
  ASSERT_GE(lines.size(), 3u);
  ASSERT_LE(lines.size(), 5u);
  std::string all;
  for (const auto& l : lines) all += l + "\n";
  EXPECT_EQ(lines[0].rfind("the device ran kernels, copies or memsets 100.0% "
                           "of its run",
                           0),
            0u)
      << all;
  EXPECT_NE(all.find("user::add ran as 1 x 1 for 730.0 ms, 1 of the 270,336 "
                     "threads the device holds at once: launched as 1,056 x "
                     "256 it would keep all 270,336 busy"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("deep_copy out_mirror<-out"), std::string::npos) << all;
  EXPECT_NE(all.find("of it waiting for user::add: not a slow call, a wait "
                     "(hidden)"),
            std::string::npos)
      << all;
  // The report opens with it.
  const std::string rep = report_of(w);
  EXPECT_NE(rep.find("\n  in short:\n    the device ran kernels"),
            std::string::npos)
      << rep;
  EXPECT_LT(rep.find("in short:"), rep.find("hidden waits:")) << rep;
  // A round trip in a loop: the site and its calls, not one of them.
  ShapeRun loop;
  for (int i = 0; i < 10; ++i) {
    const double t0 = i * 1e-3;
    const auto l = loop.s.launch("user::step", t0, t0 + 1e-5);
    loop.s.ran(l, 7, t0 + 2e-5, t0 + 5e-4, 1056, 256);
    loop.s.call(addscope::CallKind::DeepCopy, "deep_copy r_h<-r", t0 + 2e-5,
                t0 + 5.1e-4, [&] {
                  loop.s.block(addscope::SyncApi::Memcpy, t0 + 3e-5,
                               t0 + 5.05e-4, -1, 4, 3);
                });
  }
  loop.s.at(0.02);
  const auto ll = addscope::headline_lines(loop.done(), StarvationRule());
  std::string lall;
  for (const auto& l : ll) lall += l + "\n";
  EXPECT_NE(lall.find("deep_copy r_h<-r: 10 calls waited 4.7 ms in all "
                      "(hidden), 470.0 us each on average"),
            std::string::npos)
      << lall;
  // What they cost the device: its idle time in their round trips.
  EXPECT_NE(lall.find("470.0 us each on average; the device sat idle 4.7 ms "
                      "in their round trips"),
            std::string::npos)
      << lall;
  EXPECT_EQ(lall.find("ran as"), std::string::npos) << lall;  // none starved
  // A host backend: no headline.
  addscope::WaitsSnapshot host = w;
  host.mode = addscope::WaitsMode::Host;
  EXPECT_TRUE(addscope::headline_lines(host, StarvationRule()).empty());
}

// On a GPU run, a kernel Kokkos ran on a host space beside the device's has
// no share of the device kernels' time: the share column has one whole and
// adds up to 100% (before, this host kernel read 100.0% beside the device
// kernels' 75% and 25%).
TEST(WaitsReportKernels, SharesOfOneWholeAddUp) {
  ShapeRun r;
  r.kernel("user::dev_a", 1056, 256, 0.003);
  r.kernel("user::dev_b", 1056, 256, 0.001);
  addscope::ExecId omp;
  omp.kind = addscope::DeviceKind::OpenMP;
  r.s.at(0.01);
  const auto id = r.s.t->kernel_begin("user::host_fill", omp);
  r.s.at(0.014);
  r.s.t->kernel_end(id);
  r.s.at(0.02);
  const auto w = r.done();
  const std::string rep = report_of(w);
  auto row = [&](const std::string& name) {
    const auto e = rep.find("  " + name);
    const auto b = rep.rfind('\n', e);
    return rep.substr(b + 1, e - b - 1);
  };
  EXPECT_NE(row("user::dev_a").find(" 75.0% "), std::string::npos) << rep;
  EXPECT_NE(row("user::dev_b").find(" 25.0% "), std::string::npos) << rep;
  EXPECT_NE(row("user::host_fill").find("      -  host: OpenMP"),
            std::string::npos)
      << rep;
  const auto j = json_of(w);
  EXPECT_TRUE(kernel_json(j, "user::host_fill")["share"].is_null());
  EXPECT_DOUBLE_EQ(kernel_json(j, "user::dev_a")["share"].get<double>() +
                       kernel_json(j, "user::dev_b")["share"].get<double>(),
                   1.0);
}
