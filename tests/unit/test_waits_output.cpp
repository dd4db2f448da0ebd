// What the waits tool writes: readable kernel names, the Chrome trace's
// structure (every flow binds to slices), CUPTI kernel records decoded,
// output paths.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <link.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <typeinfo>
#include <utility>

#include "addscope/core/addscope_OutputPath.hpp"
#include "addscope/waits/attribution/addscope_KernelName.hpp"
#include "addscope/waits/device/addscope_CuptiAbi.hpp"
#include "addscope/waits/device/addscope_CuptiLibrary.hpp"
#include "addscope/waits/device/addscope_CuptiSource.hpp"
#include "addscope/waits/output/addscope_AttributionText.hpp"
#include "addscope/waits/output/addscope_WaitsOptions.hpp"
#include "addscope/waits/output/addscope_WaitsReport.hpp"
#include "addscope/waits/tool/addscope_ToolOutputs.hpp"
#include "waits_hand_snapshot.hpp"
#include "waits_sim.hpp"

using addscope::short_kernel_name;

namespace {
template <class T>
struct KokkosStreamLike {
  auto add() {
    return [](int) {};
  }
  auto mul() {
    auto first = [](int) {};
    (void)first;
    return [](int) {};
  }
};
struct FunctorX {};
struct TagY {};
}  // namespace

namespace Kokkos {
namespace Impl {
template <class F, class P, class S>
struct ParallelFor {};
}  // namespace Impl
}  // namespace Kokkos

TEST(WaitsNames, CudaLambdaWrappers) {
  EXPECT_EQ(short_kernel_name(
                "__nv_hdl_wrapper_t<false, false, __nv_dl_tag<void "
                "(KokkosStream<float>::*)(), &KokkosStream<float>::add, 1>, "
                "void (const int), KokkosStream<float>*>"),
            "KokkosStream<float>::add (lambda)");
  EXPECT_EQ(short_kernel_name(
                "__nv_hdl_wrapper_t<false, true, __nv_dl_tag<void (*)(int, "
                "char**), &main, 3>, void (const int &, double &), int>"),
            "main (lambda #3)");
}

TEST(WaitsNames, HostLambdasFromTheCompiler) {
  // Kokkos names an unlabelled kernel typeid(functor).name().
  const std::string add = typeid(KokkosStreamLike<float>().add()).name();
  const std::string mul = typeid(KokkosStreamLike<double>().mul()).name();
  EXPECT_EQ(short_kernel_name(add),
            "(anonymous namespace)::KokkosStreamLike<float>::add (lambda)")
      << add << " -> " << addscope::demangle(add);
  EXPECT_EQ(short_kernel_name(mul),
            "(anonymous namespace)::KokkosStreamLike<double>::mul (lambda #2)")
      << mul;
}

TEST(WaitsNames, KokkosFourNamesFunctorsItself) {
  // Kokkos 4.x with a host compiler: __PRETTY_FUNCTION__-style names.
  EXPECT_EQ(short_kernel_name("StreamCase<float>::add()::<lambda(long int)>"),
            "StreamCase<float>::add (lambda)");
  EXPECT_EQ(
      short_kernel_name(
          "CombinedFunctorReducer<StreamCase<float>::dot()::<lambda(long "
          "int, float&)>, FunctorAnalysis<FunctorPatternInterface::REDUCE, "
          "Kokkos::RangePolicy<Kokkos::OpenMP>, StreamCase<float>::dot()::"
          "<lambda(long int, float&)>, float>::Reducer, void>"),
      "StreamCase<float>::dot (lambda)");
  EXPECT_EQ(short_kernel_name("Kokkos::Impl::CombinedFunctorReducer<Foo, "
                              "Kokkos::Impl::FunctorAnalysis<>::Reducer>"),
            "Foo");
}

TEST(WaitsNames, FunctorsTagsAndEntryPoints) {
  const std::string f = typeid(FunctorX).name();
  const std::string tag = typeid(TagY).name();
  EXPECT_EQ(short_kernel_name(f), "(anonymous namespace)::FunctorX");
  EXPECT_EQ(short_kernel_name(f + "/" + tag),
            "(anonymous namespace)::FunctorX/(anonymous namespace)::TagY");
  const std::string closure =
      typeid(Kokkos::Impl::ParallelFor<FunctorX, int, long>).name();
  EXPECT_EQ(short_kernel_name(closure), "(anonymous namespace)::FunctorX")
      << addscope::demangle(closure);
  EXPECT_EQ(short_kernel_name(
                "void Kokkos::Impl::cuda_parallel_launch_local_memory<"
                "Kokkos::Impl::ParallelFor<Foo<double>, Kokkos::RangePolicy<>, "
                "Kokkos::Cuda>>(Kokkos::Impl::ParallelFor<Foo<double>, "
                "Kokkos::RangePolicy<>, Kokkos::Cuda>)"),
            "Foo<double>");
  EXPECT_EQ(short_kernel_name("_Z4spinl"), "spin(long)");
}

// PyTorch's kernels (their names as CUPTI gave them on the H100) take the
// lambda they apply as a template argument: named by the kernel template,
// its leading numbers and the function the lambda is local to — before,
// the kernel template cut inside its arguments (252 characters, angle
// brackets left open). A name still long once its templates collapse
// loses its parameters too.
TEST(WaitsNames, ALambdaInsideTemplateArgumentsNamesTheKernel) {
  EXPECT_EQ(short_kernel_name(
                "_ZN2at6native29vectorized_elementwise_kernelILi4EZZZNS0_15mse_"
                "kernel_cudaERNS_18TensorIteratorBaseEENKUlvE_clEvENKUlvE0_"
                "clEvEUlffE_St5arrayIPcLm3EEEEviT0_T1_"),
            "at::native::vectorized_elementwise_kernel<4, "
            "at::native::mse_kernel_cuda (lambda)>");
  // Two instances told apart by their numbers.
  for (const char* n : {"128ELi4", "512ELi1"}) {
    const std::string raw =
        std::string("_ZN2at6native13reduce_kernelILi") + n +
        "ENS0_8ReduceOpIfNS0_14func_wrapper_tIfZNS0_11sum_functorIfffEclERNS_"
        "14TensorIteratorEEUlffE_EEjfLi4ELi4EEEEEvT1_";
    const std::string size = std::string(n).substr(0, 3);
    const std::string vec = std::string(1, n[6]);
    EXPECT_EQ(short_kernel_name(raw),
              "at::native::reduce_kernel<" + size + ", " + vec +
                  ", at::native::sum_functor<float, float, "
                  "float>::operator() (lambda)>")
        << addscope::demangle(raw);
  }
  const std::string raw =
      "_ZN2at6native54_GLOBAL__N__d8ceb000_21_DistributionNormal_cu_"
      "0c5b6e8543distribution_elementwise_grid_stride_kernelIfLi4EZNS0_"
      "9templates4cuda20normal_and_transformIffPNS_17CUDAGeneratorImplEZZZNS4_"
      "13normal_kernelIS7_EEvRKNS_10TensorBaseEddT_ENKUlvE_clEvENKUlvE0_clEvEU"
      "lfE_EEvRNS_18TensorIteratorBaseET1_T2_EUlP24curandStatePhilox4_32_10E0_"
      "ZNS1_27distribution_nullary_kernelIff6float4S7_SM_SF_EEvSH_SJ_RKT3_T4_"
      "EUlifE_EEvlNS_15PhiloxCudaStateESI_SJ_";
  EXPECT_EQ(short_kernel_name(raw),
            "at::native::(anonymous namespace)::"
            "distribution_elementwise_grid_stride_kernel<at::native::"
            "templates::cuda::normal_kernel<at::CUDAGeneratorImpl*> (lambda)>")
      << addscope::demangle(raw);
  // No lambda: templates collapsed, then a long parameter list.
  EXPECT_EQ(short_kernel_name(
                "_ZN2at6native13reduce_kernelILi512ELi1ENS0_8ReduceOpIfNS0_"
                "7MeanOpsIffffEEjfLi4ELi4EEEEEvT1_"),
            "void at::native::reduce_kernel<...>(at::native::ReduceOp<...>)");
  EXPECT_EQ(short_kernel_name("_ZN7cutlass7Kernel2I43cutlass_80_simt_sgemm_"
                              "256x128_8x4_nn_align1EEvNT_6ParamsE"),
            "void cutlass::Kernel2<...>(cutlass_80_simt_sgemm_256x128_8x4_nn_"
            "align1::Params)");
  const std::string long_params =
      "void f<int>(" + std::string(170, 'a') + ", int)";
  EXPECT_EQ(short_kernel_name(long_params), "void f<...>(...)");
}

TEST(WaitsNames, LabelsStayAsWritten) {
  for (const char* l :
       {"user::slow_add[1x1]", "addscope::add[team:1x1]",
        "Kokkos::View::initialization [x]", "N", "Zero", "42", "my kernel"})
    EXPECT_EQ(short_kernel_name(l), l);
}

namespace {
struct Event {
  std::string ph;
  int pid = 0;
  std::uint64_t tid = 0;
  double ts = 0, dur = 0;
  std::uint64_t id = 0;
  std::string name, cat;
};
std::vector<Event> read_trace(const std::string& path) {
  std::ifstream f(path);
  const auto j = nlohmann::json::parse(f);
  std::vector<Event> v;
  for (const auto& e : j) {
    Event x;
    x.ph = e.at("ph");
    x.pid = e.at("pid");
    x.tid = e.value("tid", std::uint64_t(0));
    x.ts = e.value("ts", 0.0);
    x.dur = e.value("dur", 0.0);
    x.id = e.value("id", std::uint64_t(0));
    x.name = e.value("name", "");
    x.cat = e.value("cat", "");
    v.push_back(x);
  }
  return v;
}
// The innermost X slice on (pid, tid) that contains ts.
const Event* slice_at(const std::vector<Event>& v, int pid, std::uint64_t tid,
                      double ts) {
  const Event* best = nullptr;
  for (const auto& e : v)
    if (e.ph == "X" && e.pid == pid && e.tid == tid && e.ts <= ts &&
        ts <= e.ts + e.dur && (!best || e.dur < best->dur))
      best = &e;
  return best;
}
}  // namespace

TEST(WaitsTrace, EveryFlowBindsToSlices) {
  using addscope::CallKind;
  using addscope::SyncApi;
  const std::string path = ::testing::TempDir() + "waits_trace_" +
                           std::to_string(getpid()) + ".json";
  addscope_test::WaitsSim s;
  ASSERT_TRUE(s.t->open_trace(path));
  const auto a = s.launch("user::slow_a", 0.0, 1e-5, addscope_test::cuda(1));
  const auto b = s.launch("user::slow_b", 2e-5, 3e-5, addscope_test::cuda(2));
  s.ran(a, 13, 1e-5, 0.3);
  s.ran(b, 14, 3e-5, 0.5);
  s.call(CallKind::Fence, "Kokkos::fence: Unnamed Global Fence", 4e-5, 0.50003,
         [&] { s.block(SyncApi::DeviceSynchronize, 5e-5, 0.50001); });
  const auto c = s.launch("user::slow_c", 0.6, 0.60001);
  s.ran(c, 13, 0.60001, 0.7);
  s.block(SyncApi::Memcpy, 0.60002, 0.70001, -1, 256);  // outside any call
  s.at(0.8);
  s.t->instant(CallKind::Alloc, "allocate x");
  s.done();
  const auto v = read_trace(path);
  std::remove(path.c_str());
  std::map<std::uint64_t, std::vector<const Event*>> flows;
  int kernels = 0, names = 0, idle = 0, waited = 0;
  std::set<std::pair<int, std::uint64_t>> named;  // (pid, tid)
  for (const auto& e : v) {
    if (e.ph == "s" || e.ph == "f") flows[e.id].push_back(&e);
    if (e.ph == "s" && e.name == "waited for") ++waited;
    if (e.ph == "X" && e.pid >= 100 && e.cat == "kernel") ++kernels;
    if (e.ph == "X" && e.pid >= 100 && e.cat == "idle") ++idle;
    if (e.ph == "M" && e.name == "thread_name") {
      ++names;
      named.insert({e.pid, e.tid});
    }
  }
  EXPECT_EQ(kernels, 3);
  // Each track named once: host thread 0, streams 13 and 14 of device 0,
  // and device 0's idle track.
  EXPECT_EQ(names, 4);
  EXPECT_EQ(named.size(), 4u);
  // (An array, not a braced list: nvcc 11.8 cannot deduce the range of a
  // braced list of pairs.)
  const std::pair<int, std::uint64_t> tracks[] = {{1, 0}, {100, 13}, {100, 14}};
  for (const auto& t : tracks)
    EXPECT_EQ(named.count(t), 1u) << t.first << " " << t.second;
  EXPECT_EQ(waited, 3);  // fence <- a, b; memcpy <- c
  // The device idle from 0.5 to 0.60001: one idle slice, blamed on the
  // fence that was blocked on it (an arrow to the host).
  EXPECT_EQ(idle, 1);
  ASSERT_EQ(flows.size(), 4u);
  for (const auto& f : flows) {
    ASSERT_EQ(f.second.size(), 2u) << f.first;
    const Event* from = f.second[0]->ph == "s" ? f.second[0] : f.second[1];
    const Event* to = f.second[0]->ph == "f" ? f.second[0] : f.second[1];
    ASSERT_EQ(from->ph, "s");
    ASSERT_EQ(to->ph, "f");
    const Event* k = slice_at(v, from->pid, from->tid, from->ts);
    const Event* w = slice_at(v, to->pid, to->tid, to->ts);
    ASSERT_NE(k, nullptr) << "flow " << f.first << " starts outside a slice";
    ASSERT_NE(w, nullptr) << "flow " << f.first << " ends outside a slice";
    EXPECT_GE(k->pid, 100);  // from a device slice
    EXPECT_EQ(w->pid, 1);    // to a host call
    if (from->name == "waited for")
      EXPECT_LE(from->ts, to->ts + 1.0);  // the wait ends after the kernel
  }
}

// The trace's slices carry the facts as arguments: the call that waited
// says how long, of which class and for which kernel; the kernel its
// shape, what it was waited for and how much of the device it kept busy
// (its device's capacity known); its stream's track names the Kokkos
// instance it served.
TEST(WaitsTrace, SlicesCarryTheWaitTheShapeAndTheInstance) {
  using addscope::CallKind;
  using addscope::SyncApi;
  const std::string path = ::testing::TempDir() + "waits_trace_args_" +
                           std::to_string(getpid()) + ".json";
  addscope::TrackerOptions o;
  o.device_records_by_hand = true;
  o.query_devices = [] {
    addscope::DeviceCapacity d;
    d.device = 0;
    d.sms = 132;
    d.max_threads_per_sm = 2048;
    d.max_threads_per_block = 1024;
    d.max_blocks_per_sm = 32;
    d.registers_per_sm = 65536;
    d.registers_per_block = 65536;
    d.shared_per_sm = 233472;
    d.shared_per_block_optin = 232448;
    d.reserved_shared_per_block = 1024;
    return std::vector<addscope::DeviceCapacity>{d};
  };
  addscope_test::WaitsSim s(o);
  ASSERT_TRUE(s.t->open_trace(path));
  const auto a = s.launch("user::slow_a", 0.0, 1e-5, addscope_test::cuda(2));
  s.ran(a, 13, 1e-5, 0.3, 4, 64);
  s.call(CallKind::DeepCopy, "deep_copy out_mirror<-out", 2e-5, 0.30002,
         [&] { s.block(SyncApi::Memcpy, 3e-5, 0.30001, -1, 4, 3); });
  const addscope::WaitsSnapshot w = s.done();
  std::ifstream f(path);
  const auto j = nlohmann::json::parse(f);
  f.close();
  std::remove(path.c_str());
  ASSERT_EQ(w.waits.size(), 1u);
  const addscope::CallRecord& c = w.waits[0];
  ASSERT_FALSE(c.waited_for.empty());
  const nlohmann::json* call = nullptr;
  const nlohmann::json* kernel = nullptr;
  std::string stream_name;
  for (const auto& e : j) {
    if (e.value("ph", "") == "X" && e.value("pid", 0) == 1 &&
        e.value("name", "") == c.what)
      call = &e;
    if (e.value("ph", "") == "X" && e.value("cat", "") == "kernel") kernel = &e;
    if (e.value("ph", "") == "M" && e.value("pid", 0) == 100 &&
        e.value("tid", 0) == 13)
      stream_name = e["args"].value("name", "");
  }
  ASSERT_NE(call, nullptr) << j.dump(1);
  const auto& ca = (*call)["args"];
  EXPECT_NEAR(ca.value("wait_us", 0.0), c.wait_s * 1e6, 1e-3);
  EXPECT_GT(ca.value("wait_us", 0.0), 0.29e6);
  EXPECT_EQ(ca.value("class", ""), addscope::wait_class_name(c.wait_class));
  EXPECT_EQ(ca.value("waited_for", ""), "user::slow_a");
  EXPECT_EQ(ca.value("via", ""), c.via);
  EXPECT_FALSE(c.via.empty());
  ASSERT_NE(kernel, nullptr) << j.dump(1);
  EXPECT_EQ((*kernel)["name"], "user::slow_a");
  const auto& ka = (*kernel)["args"];
  EXPECT_EQ(ka.value("kernel", ""), "user::slow_a");
  EXPECT_NEAR(ka.value("waited_us", 0.0), c.wait_s * 1e6, 1e-3);
  EXPECT_EQ(ka.value("shape", ""), "4 x 64");
  EXPECT_EQ(ka["grid"], nlohmann::json({4, 1, 1}));
  EXPECT_EQ(ka["block"], nlohmann::json({64, 1, 1}));
  EXPECT_EQ(ka.value("threads_in_flight", 0), 256);
  EXPECT_EQ(ka.value("resident_threads", 0), 132 * 2048);
  EXPECT_EQ(stream_name, "stream 13 (Kokkos instance 2)");
}

TEST(WaitsTrace, UnwritablePathIsAnError) {
  addscope_test::WaitsSim s;
  std::string err;
  EXPECT_FALSE(s.t->open_trace("/nonexistent-dir/x/trace.json", &err));
  EXPECT_NE(err.find("/nonexistent-dir/x/trace.json"), std::string::npos);
}

namespace {
struct NsSink : addscope::Impl::DeviceSink {
  void on_launch(const addscope::Impl::LaunchBegin&) override {}
  void on_launch_failed(std::uint32_t) override {}
  void on_slow_launch(double, double, std::uint32_t) override {}
  void on_blocking_begin(const addscope::Impl::BlockingBegin&) override {}
  void on_blocking_end() override {}
  double seconds_from_steady_ns(std::int64_t ns) const override {
    return double(ns) * 1e-9;
  }
};
}  // namespace

TEST(WaitsCupti, KernelRecordsDecode) {
  namespace cupti = addscope::Impl::cupti;
  // A record as CUPTI lays it out, with bytes after the common prefix.
  struct {
    cupti::KernelRecordPrefix p;
    char tail[64];
  } rec{};
  rec.p.kind = cupti::kActivityConcurrentKernel;
  rec.p.registersPerThread = 40;
  rec.p.start = 5000000000ull;
  rec.p.end = 5600000000ull;
  rec.p.deviceId = 0;
  rec.p.streamId = 13;
  rec.p.gridX = 1;
  rec.p.gridY = rec.p.gridZ = 1;
  rec.p.blockX = 256;
  rec.p.blockY = rec.p.blockZ = 1;
  rec.p.staticSharedMemory = 128;
  rec.p.dynamicSharedMemory = 1024;
  rec.p.correlationId = 77;
  rec.p.name = "_Z4spinl";
  NsSink sink;
  addscope::Impl::DeviceKernelRecord k;
  // CUPTI's clock runs 4 s ahead of the steady clock here.
  ASSERT_TRUE(
      addscope::Impl::decode_kernel_record(&rec, 4000000000ll, sink, &k));
  EXPECT_EQ(k.correlation, 77u);
  EXPECT_EQ(k.stream, 13u);
  EXPECT_NEAR(k.start_s, 1.0, 1e-12);
  EXPECT_NEAR(k.end_s, 1.6, 1e-12);
  EXPECT_EQ(k.shape.grid[0], 1);
  EXPECT_EQ(k.shape.block[0], 256);
  EXPECT_EQ(k.shape.registers, 40u);
  EXPECT_EQ(k.shape.shared_static + k.shape.shared_dynamic, 1152);
  EXPECT_STREQ(k.name, "_Z4spinl");
  rec.p.end = 0;  // incomplete (a forced flush of a running kernel)
  EXPECT_FALSE(addscope::Impl::decode_kernel_record(&rec, 0, sink, &k));
  rec.p.end = rec.p.start;
  rec.p.kind = 1;  // a memcpy record
  EXPECT_FALSE(addscope::Impl::decode_kernel_record(&rec, 0, sink, &k));
}

// CUDA injection names the runtime by its file (no runtime call inside
// cuInit).
TEST(WaitsCupti, RuntimeVersionFromItsFileName) {
  using addscope::Impl::cuda_runtime_version_from_name;
  EXPECT_EQ(cuda_runtime_version_from_name("libcudart.so.11.0"), 11000);
  EXPECT_EQ(cuda_runtime_version_from_name(
                "/usr/lib/x86_64-linux-gnu/libcudart.so.11.8.89"),
            11080);
  EXPECT_EQ(cuda_runtime_version_from_name("/x/y/libcudart.so.13"), 13000);
  EXPECT_EQ(cuda_runtime_version_from_name("libcudart.so.12.6.77"), 12060);
  EXPECT_EQ(cuda_runtime_version_from_name("libcudart.so"), 0);
  EXPECT_EQ(cuda_runtime_version_from_name("libcudart.so.x"), 0);
  EXPECT_EQ(cuda_runtime_version_from_name("/a/libcudart.so.11.0/libfoo.so"),
            0);
  EXPECT_EQ(cuda_runtime_version_from_name("libcudart_static.a"), 0);
  EXPECT_EQ(cuda_runtime_version_from_name(nullptr), 0);
}

// CUDA injection (inside cuInit) learns the runtime's version from its file
// only; Kokkos Tools (outside it) asks the runtime. A Kokkos 3.4 program
// started both ways hung on the H200 when the tool asked inside cuInit.
TEST(WaitsCupti, RuntimeVersionWithoutAskingTheRuntime) {
  bool loaded = false;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) -> int {
        if (info->dlpi_name && std::strstr(info->dlpi_name, "libcudart.so."))
          *static_cast<bool*>(data) = true;
        return 0;
      },
      &loaded);
  if (loaded) GTEST_SKIP() << "a CUDA runtime is loaded in this process";
#ifndef ADDSCOPE_FAKE_CUDART
  GTEST_SKIP() << "no stand-in runtime in this build (a CUDA build)";
#else
  EXPECT_EQ(addscope::Impl::cuda_runtime_version(false), 0);
  EXPECT_EQ(addscope::Impl::cuda_runtime_version(true), 0);
  void* lib = dlopen(ADDSCOPE_FAKE_CUDART, RTLD_NOW | RTLD_GLOBAL);
  ASSERT_NE(lib, nullptr) << dlerror();
  auto asked =
      reinterpret_cast<int (*)()>(dlsym(lib, "addscope_fake_cudart_asked"));
  ASSERT_NE(asked, nullptr);
  EXPECT_EQ(addscope::Impl::cuda_runtime_version(false), 11000);
  EXPECT_EQ(asked(), 0) << "asked the runtime inside cuInit";
  EXPECT_EQ(addscope::Impl::cuda_runtime_version(true), 11080);
  EXPECT_EQ(asked(), 1);
  // (kept loaded: unloading would leave dlsym's answer to chance)
#endif
}

TEST(WaitsOutput, PathPlaceholders) {
  ::setenv("OMPI_COMM_WORLD_RANK", "3", 1);
  EXPECT_EQ(addscope::rank_from_environment(), 3);
  EXPECT_EQ(addscope::expand_output_path("w-%r-%p-%%.json"),
            "w-3-" + std::to_string(getpid()) + "-%.json");
  ::unsetenv("OMPI_COMM_WORLD_RANK");
  EXPECT_EQ(addscope::rank_from_environment(), -1);
  EXPECT_EQ(addscope::expand_output_path("w-%r.json"), "w-0.json");
  EXPECT_EQ(addscope::expand_output_path("plain%"), "plain%");
}

TEST(WaitsOutput, Format) {
  EXPECT_EQ(addscope::format_seconds(0.6401), "640.1 ms");
  EXPECT_EQ(addscope::format_seconds(6.5e-6), "6.5 us");
  EXPECT_EQ(addscope::format_seconds(1.5), "1.500 s");
  EXPECT_EQ(addscope::format_bytes(4), "4 B");
  EXPECT_EQ(addscope::format_bytes(40u << 20), "40.0 MiB");
}

// Clocks that make no sense (a kernel's start near 2^64 ns, an offset near
// -2^63) wrap modulo 2^64 like the clocks do: no signed overflow (UBSan,
// as in `cmake/dev.sh sanitize` or tests/fuzz, stops on one), and the
// record still decodes.
TEST(WaitsCupti, KernelRecordsWithClocksThatOverflowDecode) {
  namespace cupti = addscope::Impl::cupti;
  cupti::KernelRecordPrefix rec{};
  rec.kind = cupti::kActivityConcurrentKernel;
  rec.start = 0xfffffffffffffff0ull;
  rec.end = 0xfffffffffffffff8ull;
  rec.correlationId = 5;
  rec.name = "k";
  NsSink sink;
  addscope::Impl::DeviceKernelRecord k;
  const std::int64_t offset = std::numeric_limits<std::int64_t>::min() + 8;
  ASSERT_TRUE(addscope::Impl::decode_kernel_record(&rec, offset, sink, &k));
  // start - offset = 2^64 - 16 - (-2^63 + 8) = 2^63 - 24 (mod 2^64).
  const double expect_start = double(std::int64_t((1ull << 63) - 24)) * 1e-9;
  EXPECT_DOUBLE_EQ(k.start_s, expect_start);
  EXPECT_GE(k.end_s, k.start_s);
  EXPECT_EQ(k.correlation, 5u);
}

namespace {
// The seed's numba kernel as the H200's device named it.
const char kNumbaAdd[] =
    "_ZN8__main__3addB2v1B104cw51cXTLSUwv1sDUaKthqaNgoKmjgOR3W3Cw6igA9duC0hk"
    "wnNGiHEkYkrqQBFBTDEwCyQe21eqwcFW3UoDGjzpQEsgzrtUEAA_3d_3dE5ArrayIfLi1E1"
    "A7mutable7alignedE5ArrayIfLi1E1A7mutable7alignedE5ArrayIfLi1E1A7mutable"
    "7alignedE";
}  // namespace

// numba's kernels read as the function the program wrote: "add", not
// "__main__::add[abi:v1][abi:cw51c...](Array<float, 1, A, mutable,
// aligned>, ...)" (the seed's kernel on the H200, as the device named it).
TEST(WaitsOutput, NumbaKernelNamesReadAsTheFunction) {
  const std::string raw = kNumbaAdd;
  EXPECT_EQ(short_kernel_name(raw), "add");
  // Demangled already; a module other than the script keeps its name, as
  // Python writes it.
  EXPECT_EQ(short_kernel_name("__main__::add[abi:v1][abi:cw51cX](Array<float, "
                              "1, A, mutable, aligned>)"),
            "add");
  EXPECT_EQ(short_kernel_name("kernels::saxpy[abi:v12][abi:cw51c](float32, "
                              "Array<float, 1, C, mutable, aligned>)"),
            "kernels.saxpy");
  // A kernel defined inside a function (seen on the H200), a lambda's.
  EXPECT_EQ(short_kernel_name("with_numba::_3clocals_3e::spin[abi:v2][abi:"
                              "cw51c](Array<float, 1, C, mutable, aligned>, "
                              "int)"),
            "with_numba.<locals>.spin");
  EXPECT_EQ(short_kernel_name("__main__::_3clambda_3e[abi:v3](float32)"),
            "<lambda>");
  // Only an identifier between the escapes is one of Python's <names>.
  EXPECT_EQ(short_kernel_name("m::a_3cb::c_3e[abi:v1](int)"), "m.a_3cb.c_3e");
  // A C++ ABI tag is not numba's.
  EXPECT_EQ(short_kernel_name("f[abi:cxx11](int)"), "f[abi:cxx11](int)");
  EXPECT_EQ(short_kernel_name("[abi:v1]"), "[abi:v1]");
}

// The seed as a CUDA program without Kokkos (numba's add launched 1 x 1,
// then a 4-byte copy back that waits for it): the report speaks the
// program's words — its kernel as "add", the copy as itself, the device's
// kernels counted — and no Kokkos word anywhere.
TEST(WaitsOutput, ACudaProgramWithoutKokkosReadsWithoutKokkosWords) {
  addscope_test::WaitsSim s;
  s.at(0.0);
  s.t->on_launch(1);
  s.block(addscope::SyncApi::Memcpy, 1e-5, 0.7340, -1, 4, 3);
  addscope::Impl::DeviceKernelRecord r;
  r.correlation = 1;
  r.stream = 7;
  r.start_s = 2e-5;
  r.end_s = 0.7339;
  r.shape.grid[0] = r.shape.block[0] = 1;
  r.shape.grid[1] = r.shape.grid[2] = r.shape.block[1] = r.shape.block[2] = 1;
  const std::string numba = kNumbaAdd;
  r.name = numba.c_str();
  std::vector<addscope::Impl::DeviceKernelRecord> v{r};
  s.t->on_device_kernels(v);
  s.at(0.8);
  addscope::WaitsSnapshot w = s.done();
  w.front_door = "cuda-injection";
  ASSERT_EQ(w.waits.size(), 1u);
  EXPECT_EQ(w.waits[0].site, "cudaMemcpy D2H 4 B");
  ASSERT_EQ(w.waits[0].waited_for.size(), 1u);
  EXPECT_EQ(w.waits[0].waited_for[0].kernel, "add");
  std::ostringstream os;
  addscope::write_waits_report(os, w);
  const std::string t = os.str();
  for (const char* word : {"Kokkos", "deep_copy", "fence", "mirror",
                           "[abi:", "_ZN", "__main__", "0 kernels"})
    EXPECT_EQ(t.find(word), std::string::npos) << word << " in\n" << t;
  EXPECT_NE(t.find("1 kernel on 1 stream (733.9 ms of kernel time)"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("cudaMemcpy D2H 4 B waited"), std::string::npos) << t;
  EXPECT_NE(t.find("for add,"), std::string::npos) << t;
  // A Kokkos program's report keeps its words.
  w.front_door = "kokkos";
  std::ostringstream k;
  addscope::write_waits_report(k, w);
  EXPECT_NE(k.str().find("Kokkos' own fences"), std::string::npos) << k.str();
}

// A program without Kokkos names its waiting calls by its code, the line
// first ("train.py:21 (main) `total += loss.item()` → cudaStreamSynchronize"),
// said once per row; a Kokkos program keeps its label first, the line after.
TEST(WaitsOutput, ACallSiteOfAProgramWithoutKokkosLeadsWithItsLine) {
  addscope::CodeSite code;
  code.file = "train.py";
  code.line = 21;
  code.function = "main";
  code.language = "python";
  code.text = "total += loss.item()";
  addscope::WaitsSnapshot w = addscope_test::one_wait(
      "cudaStreamSynchronize", addscope::WaitClass::Hidden, 0.4, code);
  w.front_door = "cuda-injection";
  addscope::WaitShare ws;
  ws.kernel = ws.kernel_raw = "step_kernel";
  ws.wait_s = 0.4;
  w.waits[0].waited_for.push_back(ws);
  // The device idle in its round trip: that row too.
  addscope_test::idle_run(w, 2, 0.1);
  w.idle.sites.push_back(
      addscope_test::round_trip_row("cudaStreamSynchronize", 1, 0.1, code));
  std::ostringstream os;
  addscope::write_waits_report(os, w);
  const std::string t = os.str();
  EXPECT_NE(t.find("100.0%  train.py:21 (main) `total += loss.item()` "
                   "\xe2\x86\x92 cudaStreamSynchronize\n"),
            std::string::npos)
      << t;
  // The detail under it does not say the line again.
  EXPECT_NE(t.find("\n             cudaStreamSynchronize waited 400.0 ms for "
                   "step_kernel"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("round trip  train.py:21 (main) `total += loss.item()` "
                   "\xe2\x86\x92 cudaStreamSynchronize\n"),
            std::string::npos)
      << t;
  EXPECT_EQ(t.find("  at train.py:21"), std::string::npos) << t;
  // A Kokkos program: the label first, the line after.
  w.front_door = "kokkos";
  std::ostringstream k;
  addscope::write_waits_report(k, w);
  EXPECT_NE(k.str().find("100.0%  cudaStreamSynchronize  at train.py:21 "
                         "(main)\n"),
            std::string::npos)
      << k.str();
  EXPECT_NE(k.str().find("train.py:21 (main) `total += loss.item()`: "
                         "cudaStreamSynchronize waited 400.0 ms"),
            std::string::npos)
      << k.str();
}

// A CUDA program whose libcupti was not found: the tool saw nothing of the
// device, and the report says so and why — never "host backend" nor "no
// call waited" (seen on the H200 with every libcupti moved aside).
TEST(WaitsOutput, ACudaProgramWithoutCuptiIsUnseenNotHost) {
  addscope::WaitsSnapshot w;
  w.mode = addscope::WaitsMode::Host;
  w.front_door = "cuda-injection";
  w.device_source = "CUPTI not loaded: no libcupti found (looked at ...)";
  std::ostringstream os;
  addscope::write_waits_report(os, w);
  const std::string r = os.str();
  EXPECT_NE(r.find("the device unseen (CUPTI not loaded: no libcupti found"),
            std::string::npos)
      << r;
  EXPECT_EQ(r.find("host backend"), std::string::npos) << r;
  EXPECT_EQ(r.find("no call waited"), std::string::npos) << r;
  EXPECT_NE(r.find("need CUPTI"), std::string::npos) << r;
  // A Kokkos program on a host backend keeps its words.
  w.front_door = "kokkos-tools";
  std::ostringstream host;
  addscope::write_waits_report(host, w);
  EXPECT_NE(host.str().find("host backend"), std::string::npos) << host.str();
}

// A table cut short says how to see the rest in the words the user typed:
// the launcher's flags under addscope-waits, the variables otherwise, and
// "in the JSON" only when a JSON is written.
TEST(WaitsOutput, MoreRowsHintSpeaksTheWordsTheUserTyped) {
  addscope::WaitsReportOptions o;
  EXPECT_EQ(addscope::more_rows_hint(o, true),
            "(ADDSCOPE_WAITS_TOP, ADDSCOPE_WAITS_THRESHOLD; all with "
            "ADDSCOPE_WAITS_JSON=FILE)");
  o.json = true;
  EXPECT_EQ(addscope::more_rows_hint(o, false),
            "(ADDSCOPE_WAITS_TOP; all in the JSON)");
  o.launcher = true;
  EXPECT_EQ(addscope::more_rows_hint(o, true),
            "(--top, --threshold; all in the JSON)");
  o.json = false;
  EXPECT_EQ(addscope::more_rows_hint(o, false),
            "(--top; all with --json FILE)");
  // Read from the environment the launcher and --json set.
  const auto env = addscope::waits_options_from_environment(
      nullptr, [](const char* v) -> const char* {
        const std::string n = v;
        if (n == "ADDSCOPE_WAITS_LAUNCHER") return "1";
        if (n == "ADDSCOPE_WAITS_JSON") return "/tmp/w.json";
        return nullptr;
      });
  EXPECT_TRUE(env.launcher);
  EXPECT_TRUE(env.json);
  const auto none = addscope::waits_options_from_environment(
      nullptr, [](const char*) -> const char* { return nullptr; });
  EXPECT_FALSE(none.launcher);
  EXPECT_FALSE(none.json);
}

// A wait on many kernels (a training step's) names the three that cost it
// the most and counts the others, with what they cost, on one line; four
// are all named (counting one would save nothing).
TEST(WaitsOutput, AWaitOnManyKernelsNamesTheLongestThree) {
  for (const int n : {6, 4}) {
    addscope_test::WaitsSim s;
    std::vector<addscope_test::WaitsSim::Launched> ids;
    for (int i = 0; i < n; ++i)
      ids.push_back(
          s.launch("user::k" + std::to_string(i), i * 1e-6, i * 1e-6 + 5e-7));
    // Kernel i runs (i + 1) ms: the last launched cost the most.
    double d = 1e-5;
    for (int i = 0; i < n; ++i) {
      s.ran(ids[std::size_t(i)], 13, d, d + (i + 1) * 1e-3);
      d += (i + 1) * 1e-3;
    }
    s.block(addscope::SyncApi::DeviceSynchronize, 2e-5, d + 1e-5);
    s.at(d + 1e-3);
    const addscope::WaitsSnapshot w = s.done();
    ASSERT_EQ(w.waits.size(), 1u);
    ASSERT_EQ(w.waits[0].waited_for.size(), std::size_t(n));
    std::ostringstream os;
    addscope::write_waits_report(os, w);
    const std::string text = os.str();
    std::string line;
    for (std::istringstream in(text); std::getline(in, line);)
      if (line.find("waited") != std::string::npos &&
          line.find(" for user::") != std::string::npos)
        break;
    ASSERT_NE(line.find(" for user::"), std::string::npos) << text;
    for (int i = 0; i < n; ++i) {
      const bool named = i >= n - 3 || n == 4;
      EXPECT_EQ(
          line.find("user::k" + std::to_string(i) + " ") != std::string::npos,
          named)
          << i << " in " << line;
    }
    if (n == 6)
      EXPECT_NE(line.find("and 3 other kernels (6.0 ms)"), std::string::npos)
          << line;
    else
      EXPECT_EQ(line.find("other kernels"), std::string::npos) << line;
  }
}

// A process that is not the first of its run (or a forked child) writes
// only its own paths: with %p; with %r too when it is an MPI rank of its
// own (rank_apart), never a path another process writes.
TEST(WaitsOutput, ALaterProcessWritesOnlyThePathsThatAreItsOwn) {
  using addscope::Impl::ToolOutputs;
  addscope::WaitsReportOptions opt;
  char dir[] = "/tmp/addscope-outputs-XXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  const std::string d = dir;
  ::setenv("OMPI_COMM_WORLD_RANK", "1", 1);
  struct Case {
    const char* json;
    bool child, rank_apart;
    std::string want;  // "" : not written
  };
  const std::string pid = std::to_string(::getpid());
  const Case cases[] = {
      {"/w.json", false, false, "/w.json"},  // the first: as given
      {"/w.json", true, false, ""},
      {"/w.json", true, true, ""},
      {"/w.%p.json", true, false, "/w." + pid + ".json"},
      {"/w.%r.json", true, false, ""},  // a forked child: its parent's rank
      {"/w.%r.json", true, true, "/w.1.json"},
  };
  for (const Case& c : cases) {
    const std::string pattern = d + c.json;
    const ToolOutputs o = ToolOutputs::resolve(opt, pattern.c_str(), nullptr,
                                               c.child, nullptr, c.rank_apart);
    EXPECT_EQ(o.json, c.want.empty() ? "" : d + c.want)
        << pattern << " child " << c.child << " rank_apart " << c.rank_apart;
    const bool said = std::any_of(
        o.problems.begin(), o.problems.end(), [](const std::string& p) {
          return p.find("has no %p: this process") != std::string::npos;
        });
    EXPECT_EQ(said, c.want.empty()) << pattern;
  }
  ::unsetenv("OMPI_COMM_WORLD_RANK");
  ::rmdir(dir);
}
