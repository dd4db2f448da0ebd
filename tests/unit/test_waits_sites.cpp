// The program's own line of code (site/): which frame of a stack is the
// program's (rules on synthetic frames), and real stacks of this test binary
// symbolized from its debug info (this file is compiled with -g).
#include <dlfcn.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "addscope/waits/model/addscope_CodeSite.hpp"
#include "addscope/waits/output/addscope_WaitsReport.hpp"
#include "addscope/waits/record/addscope_StackCapture.hpp"
#include "addscope/waits/record/addscope_StackMemo.hpp"
#include "addscope/waits/record/addscope_ThreadLog.hpp"
#include "addscope/waits/site/addscope_SiteResolver.hpp"
#include "addscope/waits/site/addscope_SiteRules.hpp"
#include "addscope/waits/site/addscope_SnapshotSites.hpp"
#include "addscope/waits/site/addscope_Symbolizer.hpp"
#include "child_process.hpp"
#include "waits_sim.hpp"

using addscope::CallKind;
using addscope::CodeSite;
using addscope::site_text;
using addscope::SyncApi;
using addscope::Impl::capture_stack;
using addscope::Impl::choose_program_frame;
using addscope::Impl::is_foreign_module;
using addscope::Impl::is_foreign_source;
using addscope::Impl::short_function;
using addscope::Impl::SiteResolver;
using addscope::Impl::SourceFrame;
using addscope_test::cuda;
using addscope_test::WaitsSim;

namespace {
SourceFrame frame(std::string module, std::string file, int line,
                  std::string function) {
  SourceFrame f;
  f.module = std::move(module);
  f.file = std::move(file);
  f.line = line;
  f.function = std::move(function);
  return f;
}
}  // namespace

// ---- rules on synthetic frames
// --------------------------------------------------

TEST(WaitsSites, ForeignModulesAreTheToolsTheRuntimesAndTheFrameworks) {
  for (const char* m :
       {"/opt/addscope/lib/libaddscope_waits.so",
        "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
        "/usr/local/cuda/lib64/libcudart.so.13", "/x/libcupti.so.13",
        "/p/lib/libkokkoscore.so.4.6", "/lib/x86_64-linux-gnu/libc.so.6",
        "/usr/lib/x86_64-linux-gnu/libstdc++.so.6",
        "/usr/lib/x86_64-linux-gnu/libgomp.so.1",
        "/venv/lib/python3.12/site-packages/cupy/_core/core.so",
        "/usr/lib/python3/dist-packages/numpy/core/x.so",
        "/usr/lib/x86_64-linux-gnu/libpython3.11.so.1.0",
        "/usr/lib/x86_64-linux-gnu/libmpi.so.40",
        // the driver's mappings, which libdw lists as modules: on the H100
        // every stack taken inside a CUPTI callback of a Kokkos program
        // named one as the program's line (nvidiactl+0x487d162)
        "/dev/nvidiactl", "/dev/nvidia0", "/dev/nvidia-uvm", "[vdso]", ""})
    EXPECT_TRUE(is_foreign_module(m)) << m;
  for (const char* m : {"/home/u/app/build/solver", "/home/u/lib/libphysics.so",
                        "/home/u/app/a.out", "/opt/lib/libcudaish_app.so"})
    EXPECT_FALSE(is_foreign_module(m)) << m;
}

TEST(WaitsSites, ForeignSourcesAreKokkosTheStandardLibraryAndTheTool) {
  for (const char* f :
       {"/p/include/Kokkos_Parallel.hpp", "/p/include/impl/Kokkos_Tools.hpp",
        "/p/include/KokkosExp_MDRangePolicy.hpp",
        "/p/include/KokkosBlas1_axpby.hpp",
        "/s/kokkos/core/src/Kokkos_Core.cpp",
        "/p/include/desul/atomics/Lock_Array.hpp",
        "/usr/include/c++/12/bits/std_function.h",
        "/opt/gcc/include/c++/13/functional",
        "/w/addscope/src/addscope/waits/tool/addscope_ToolCallbacks.cpp",
        "/usr/local/cuda/targets/x86_64-linux/include/crt/device_functions.h",
        "crt/host_runtime.h", "/usr/local/cuda/include/cuda_runtime.h",
        "/tmp/tmpxft_000017e7_00000000-6_seed_cuda.cudafe1.stub.c"})
    EXPECT_TRUE(is_foreign_source(f)) << f;
  for (const char* f :
       {"/home/u/app/main.cpp", "solver/step.cpp", "",
        "/home/u/kokkos_app/main.cpp", "/home/u/crt.cpp",
        "/home/u/proj/crt/solver.cpp", "/home/u/cuda_app/seed.cu"})
    EXPECT_FALSE(is_foreign_source(f)) << f;
}

TEST(WaitsSites, ForeignFunctionsAreTheCudaRuntimesAndKokkos) {
  for (const char* f :
       {"cudaMemcpy", "cudaStreamSynchronize", "cuLaunchKernel",
        "cuMemcpyDtoH_v2", "cudart::cudaApiMemcpy", "__cudart1042",
        "Kokkos::Impl::cuda_device_synchronize",
        "void Kokkos::parallel_for<Kokkos::RangePolicy<>, F>",
        "KokkosBlas::axpby", "desul::Impl::init_lock_arrays",
        "__cudaLaunchKernel_helper", "__cudaPushCallConfiguration",
        "__device_stub__Z3addPKfS0_Pfx"})
    EXPECT_TRUE(addscope::Impl::is_foreign_function(f)) << f;
  for (const char* f : {"main", "cuda_helpers::run", "custom", "cub", "step",
                        "void solver::step<double>", "kokkos_app_main", ""})
    EXPECT_FALSE(addscope::Impl::is_foreign_function(f)) << f;
  // nvcc links the CUDA runtime statically: its frames are in the program's
  // module, without debug info; the program's own frame is the next one.
  const std::vector<SourceFrame> stack = {
      frame("/t/libcupti.so.13", "", 0, ""),
      frame("/usr/lib/libcuda.so.1", "", 0, ""),
      frame("/app/seed", "", 0, "cudaMemcpy"),
      frame("/app/seed", "/app/seed.cpp", 134, "main")};
  EXPECT_EQ(choose_program_frame(stack), 3);
}

TEST(WaitsSites, TheInnermostFrameOfTheProgramsOwnIsChosen) {
  // A fence in a loop: the tool, Kokkos' library, Kokkos' inlined header,
  // then the program's function (inlined into main), then main.
  const std::vector<SourceFrame> stack = {
      frame("/t/libaddscope_waits.so", "", 0, "kokkosp_begin_fence"),
      frame("/k/libkokkoscore.so", "/k/Kokkos_Tools.cpp", 80, "beginFence"),
      frame("/app/solver", "/k/include/Kokkos_Core.hpp", 210, "fence"),
      frame("/app/solver", "/app/step.hpp", 12, "step"),
      frame("/app/solver", "/app/main.cpp", 40, "main")};
  EXPECT_EQ(choose_program_frame(stack), 3);
  // No program frame at all.
  const std::vector<SourceFrame> none = {
      frame("/t/libaddscope_waits.so", "", 0, ""),
      frame("/usr/lib/libc.so.6", "", 0, "__libc_start_main")};
  EXPECT_EQ(choose_program_frame(none), -1);
  // A <<<...>>> launch: CUDA's header, nvcc's stub, then its wrapper (the
  // kernel's name at its definition line), then the launch in main.
  const std::vector<SourceFrame> cuda = {
      frame("/app/seed",
            "/usr/local/cuda/targets/x86_64-linux/include/crt/"
            "device_functions.h",
            2963, "__cudaLaunchKernel_helper"),
      frame("/app/seed", "/tmp/tmpxft_17e7-6_seed.cudafe1.stub.c", 13,
            "__device_stub__Z3addPKfS0_Pfx"),
      frame("/app/seed", "/src/seed.cu", 26, "add"),
      frame("/app/seed", "/src/seed.cu", 127, "main")};
  EXPECT_EQ(choose_program_frame(cuda), 3);
  // A stripped program: its module alone makes it the program's.
  const std::vector<SourceFrame> stripped = {
      frame("/k/libkokkoscore.so", "", 0, ""), frame("/app/solver", "", 0, "")};
  EXPECT_EQ(choose_program_frame(stripped), 1);
}

// A function's name beside its line: demangled, no parameters, and no
// "(anonymous namespace)::" (nvcc gives such functions a linkage name that
// says it; g++'s debug info does not, so the stacks below cannot show it).
TEST(WaitsSites, AFunctionsNameHasNoParametersAndNoAnonymousNamespace) {
  EXPECT_EQ(short_function("_ZN12_GLOBAL__N_112capture_hereEv"),
            "capture_here");
  EXPECT_EQ(short_function("_ZN3app12_GLOBAL__N_14stepEi"), "app::step");
  EXPECT_EQ(short_function("_ZNK3Foo3runEi"), "Foo::run");
  EXPECT_EQ(short_function("main"), "main");
  EXPECT_EQ(short_function("Foo::operator()(int) const"), "Foo::operator()");
  EXPECT_EQ(short_function("main::{lambda(int)#1}::operator()(int) const"),
            "main::{lambda(int)#1}::operator()");
  EXPECT_EQ(short_function("std::vector<int, std::allocator<int> >::size() const"),
            "std::vector<int, std::allocator<int> >::size");
  EXPECT_EQ(short_function(""), "");
  EXPECT_EQ(short_function(nullptr), "");
}

TEST(WaitsSites, ASiteReadsAsALineElseAsAModuleAndOffset) {
  CodeSite s;
  EXPECT_EQ(site_text(s), "");
  s.file = "/home/u/app/src/main.cpp";
  s.line = 42;
  s.function = "main";
  EXPECT_EQ(site_text(s), "src/main.cpp:42 (main)");
  EXPECT_EQ(site_text(s, 0), "/home/u/app/src/main.cpp:42 (main)");
  s.file = "main.cpp";
  EXPECT_EQ(site_text(s), "main.cpp:42 (main)");
  CodeSite m;
  m.module = "/home/u/app/solver";
  m.offset = 0x1a2b;
  EXPECT_EQ(site_text(m), "solver+0x1a2b");
  EXPECT_EQ(addscope::site_prefix(m), "solver+0x1a2b: ");
  s.text = "v = out[2]";
  EXPECT_EQ(addscope::site_prefix(s), "main.cpp:42 (main) `v = out[2]`: ");
  EXPECT_EQ(addscope::site_prefix(CodeSite()), "");
}

// A call at a line, the line first: the line's text and the package
// function it called between them when known; the call alone without one.
TEST(WaitsSites, ACallReadsAsTheCodeThatMadeIt) {
  using addscope::code_then_call;
  const std::string to = " \xe2\x86\x92 ";  // an arrow
  CodeSite s;
  EXPECT_EQ(code_then_call(s, "cudaStreamSynchronize"),
            "cudaStreamSynchronize");
  s.file = "train.py";
  s.line = 21;
  s.function = "main";
  EXPECT_EQ(code_then_call(s, "cudaStreamSynchronize"),
            "train.py:21 (main)" + to + "cudaStreamSynchronize");
  s.text = "total += step().item()";
  EXPECT_EQ(code_then_call(s, "cudaStreamSynchronize"),
            "train.py:21 (main) `total += step().item()`" + to +
                "cudaStreamSynchronize");
  s.called = "Event.synchronize";
  EXPECT_EQ(code_then_call(s, "cudaEventSynchronize"),
            "train.py:21 (main) `total += step().item()`" + to +
                "Event.synchronize" + to + "cudaEventSynchronize");
  s.called = "?";  // a package frame whose name was unreadable
  EXPECT_EQ(code_then_call(s, "x"),
            "train.py:21 (main) `total += step().item()`" + to + "x");
  CodeSite m;
  m.module = "/app/solver";
  m.offset = 0x10;
  EXPECT_EQ(code_then_call(m, "cudaMemcpy D2H 4 B"),
            "solver+0x10" + to + "cudaMemcpy D2H 4 B");
}

// ---- real stacks of this binary
// -------------------------------------------------

namespace {
int g_capture_line = 0;
// The site a capture here resolves to must be this function's line.
__attribute__((noinline)) std::vector<std::uint64_t> capture_here() {
  std::uint64_t pcs[addscope::Impl::kMaxStackFrames];
  g_capture_line = __LINE__ + 1;
  const std::uint32_t n = capture_stack(pcs, addscope::Impl::kMaxStackFrames);
  asm volatile("" ::: "memory");  // keep the call a call, not a tail call
  return std::vector<std::uint64_t>(pcs, pcs + n);
}
__attribute__((noinline)) std::vector<std::uint64_t> one_level_down(int* line) {
  *line = __LINE__ + 1;
  std::vector<std::uint64_t> s = capture_here();
  asm volatile("" ::: "memory");
  return s;
}
}  // namespace

// A Python kernel's `def` line (numba's @cuda.jit), found in the file it
// was launched from: once, by its plain name; nothing where the file
// defines it twice, does not define it, cannot be read, or the name is not
// a Python name.
TEST(WaitsSites, APythonKernelsDefLineIsFoundInItsLaunchFile) {
  const std::string path =
      ::testing::TempDir() + "def_line_" + std::to_string(::getpid()) + ".py";
  {
    std::ofstream f(path);
    f << "from numba import cuda\n"
         "@cuda.jit\n"
         "def add(x, y, out):  # the kernel\n"
         "    pass\n"
         "def add2(x):\n"
         "    pass\n"
         "class K:\n"
         "    def twice (self):\n"
         "        pass\n"
         "    def twice(self, x):\n"
         "        pass\n"
         "add[1, 1](1, 2, 3)\n";
  }
  SiteResolver r;
  const CodeSite d = r.python_def(path, "add");
  EXPECT_EQ(d.line, 3);
  EXPECT_EQ(d.file, path);
  EXPECT_EQ(d.function, "add");
  EXPECT_EQ(d.language, "python");
  EXPECT_EQ(d.text, "def add(x, y, out):  # the kernel");
  EXPECT_EQ(r.python_def(path, "add2").line, 5);
  EXPECT_FALSE(r.python_def(path, "twice").known());  // defined twice
  EXPECT_FALSE(r.python_def(path, "ad").known());
  EXPECT_FALSE(r.python_def(path, "cupy_multiply__float32").known());
  EXPECT_FALSE(r.python_def(path, "add(float const*)").known());
  EXPECT_FALSE(r.python_def(path, "").known());
  EXPECT_FALSE(r.python_def(path + ".gone", "add").known());
  // When the report's sites are resolved: a kernel launched at a Python line
  // of that file gets its def line, in the kernels table and the JSON.
  addscope::Impl::StackTable stacks;
  const std::vector<std::string> names = {"", path, "main", "add", "fill"};
  const std::vector<std::uint64_t> py = {addscope::Impl::kPythonFrameTag, 1, 2,
                                         12, 0};
  addscope::WaitsSnapshot w;
  w.mode = addscope::WaitsMode::Device;
  for (const char* name : {"add", "fill", "outer.<locals>.add2"}) {
    addscope::KernelStats k;
    k.name = k.raw_name = name;
    k.launches = 1;
    k.launch_stack = stacks.intern(py.data(), std::uint32_t(py.size()));
    w.kernels.push_back(k);
  }
  addscope::Impl::resolve_sites(w, stacks, r,
                                [&](std::uint32_t id) { return names.at(id); });
  EXPECT_EQ(w.kernels[0].launched_at.line, 12);
  EXPECT_EQ(w.kernels[0].defined_at.line, 3);
  EXPECT_FALSE(w.kernels[1].defined_at.known());  // no def fill( there
  EXPECT_EQ(w.kernels[2].defined_at.line, 5);  // a nested kernel, by its name
  std::ostringstream os;
  addscope::write_waits_report(os, w);
  EXPECT_NE(os.str().find("add  [def at " + site_text(w.kernels[0].defined_at) +
                          "; launched at " +
                          site_text(w.kernels[0].launched_at) + "]"),
            std::string::npos)
      << os.str();
  EXPECT_NE(site_text(w.kernels[0].defined_at).find(":3 (add)"),
            std::string::npos);
  const nlohmann::json j = nlohmann::json::parse(addscope::waits_json(w));
  EXPECT_EQ(j["kernels"][0]["defined_at"]["line"], 3) << j["kernels"].dump();
  std::remove(path.c_str());
}

TEST(WaitsSites, ACapturedStackResolvesToThisFilesLine) {
  int outer_line = 0;
  const std::vector<std::uint64_t> stack = one_level_down(&outer_line);
  ASSERT_GE(stack.size(), 3u);
  SiteResolver r;
  const CodeSite& s = r.resolve(stack);
#ifdef ADDSCOPE_TEST_HAVE_LIBDW
  EXPECT_NE(s.file.find("test_waits_sites.cpp"), std::string::npos) << s.file;
  EXPECT_EQ(s.line, g_capture_line) << site_text(s);
  EXPECT_EQ(s.function, "capture_here");
  EXPECT_EQ(s.language, "c++");
  // The line's own text, read from this file.
  EXPECT_EQ(s.text.rfind("const std::uint32_t n = capture_stack(pcs", 0), 0u)
      << s.text;
  // Its first frame cut off: the caller's line.
  const std::vector<std::uint64_t> outer(stack.begin() + 1, stack.end());
  EXPECT_EQ(r.resolve(outer).line, outer_line) << site_text(r.resolve(outer));
#else
  EXPECT_NE(s.module.find("addscope-waits-tests"), std::string::npos);
#endif
  // An address in no module: nothing known, no crash.
  EXPECT_FALSE(r.resolve({0x10}).known());
  EXPECT_FALSE(r.resolve({}).known());
}

// fork() while another thread is inside the unwinder: the child (only the
// forking thread) captures a stack at once and exits; a lock the other
// thread held at fork() would keep it waiting until it is killed.
// A kept stack is read back only while every return address is still in
// its slot, at the same stack pointer, for the same most frames.
TEST(WaitsSites, AKeptStackIsReadOnlyWhileEachReturnAddressIsInItsSlot) {
  addscope::Impl::StackMemo m;
  std::uint64_t stack[8] = {0x1111, 0x2222, 0x3333, 0x4444};
  const std::uint64_t pcs[3] = {0x1111, 0x2222, 0x4444};
  const std::uint64_t slots[3] = {std::uint64_t(&stack[0]),
                                  std::uint64_t(&stack[1]),
                                  std::uint64_t(&stack[3])};
  std::uint64_t out[addscope::Impl::kMaxStackFrames] = {};
  std::uint32_t n = 99;
  EXPECT_FALSE(m.find(0x7000, 32, out, &n));  // nothing kept yet
  // Worth keeping once unwound a second time at one place.
  EXPECT_FALSE(m.seen_again(0x7000, 32, pcs, 3));
  EXPECT_FALSE(m.seen_again(0x7008, 32, pcs, 3));
  EXPECT_FALSE(m.seen_again(0x7000, 32, pcs, 2));
  EXPECT_TRUE(m.seen_again(0x7000, 32, pcs, 3));
  EXPECT_FALSE(m.seen_again(0x7000, 32, pcs, 3));  // noted anew
  m.keep(0x7000, 32, pcs, slots, 3);
  ASSERT_TRUE(m.find(0x7000, 32, out, &n));
  EXPECT_EQ(n, 3u);
  EXPECT_EQ(out[0], 0x1111u);
  EXPECT_EQ(out[2], 0x4444u);
  EXPECT_FALSE(m.find(0x7008, 32, out, &n));  // another stack pointer
  EXPECT_FALSE(m.find(0x7000, 8, out, &n));   // another most frames
  stack[2] = 0x9999;                          // not a slot: no matter
  EXPECT_TRUE(m.find(0x7000, 32, out, &n));
  stack[3] = 0x4445;  // the outermost caller changed
  EXPECT_FALSE(m.find(0x7000, 32, out, &n));
  stack[3] = 0x4444;
  stack[0] = 0;  // the innermost
  EXPECT_FALSE(m.find(0x7000, 32, out, &n));
  stack[0] = 0x1111;
  // Four kept at most, the oldest given up first.
  for (std::uint64_t sp = 0x8000; sp < 0x8000 + 4 * 16; sp += 16)
    m.keep(sp, 32, pcs, slots, 3);
  EXPECT_FALSE(m.find(0x7000, 32, out, &n));
  EXPECT_TRUE(m.find(0x8000, 32, out, &n));
  EXPECT_TRUE(m.find(0x8030, 32, out, &n));
}

namespace {
// Two lines of one function, each capturing through the same helper: the
// same stack pointer, the same return address into the helper, another
// into this function.
__attribute__((noinline)) std::vector<std::uint64_t> capture_at(int which) {
  std::vector<std::uint64_t> s;
  if (which == 0)
    s = capture_here();
  else
    s = capture_here();
  asm volatile("" ::: "memory");
  return s;
}
}  // namespace

// A stack taken again at one place is read without unwinding, and is the
// stack unwinding gives; a capture from another line at the same stack
// pointer is that line's.
TEST(WaitsSites, AStackTakenAgainIsTheSameStackAndAnotherLinesIsItsOwn) {
  std::vector<std::uint64_t> first[2];
  const std::uint64_t hits = addscope::Impl::stack_memo_hits();
  for (int round = 0; round < 8; ++round)
    for (int which : {0, 1}) {
      // One call here for every round: the stacks differ only inside.
      const std::vector<std::uint64_t> s = capture_at(which);
      if (round == 0)
        first[which] = s;
      else
        EXPECT_EQ(s, first[which]) << "round " << round << ", line " << which;
    }
  ASSERT_GE(first[0].size(), 3u);
  ASSERT_EQ(first[0].size(), first[1].size());
  EXPECT_EQ(first[0][0], first[1][0]);  // into capture_here, from one call
  EXPECT_NE(first[0][1], first[1][1]);  // into capture_at, from two lines
#if defined(ADDSCOPE_TEST_HAVE_LIBUNWIND) && defined(__x86_64__)
  // Each line's stack kept at its second unwinding: read back from the
  // third round on (6 rounds x 2 lines).
  EXPECT_EQ(addscope::Impl::stack_memo_hits() - hits, 12u);
#else
  (void)hits;
#endif
}

TEST(WaitsSites, AForkWhileAnotherThreadUnwindsLeavesTheChildAbleToUnwind) {
  std::atomic<bool> stop{false};
  std::atomic<std::uint64_t> taken{0};
  auto unwind = [&] {
    std::uint64_t pcs[addscope::Impl::kMaxStackFrames];
    while (!stop)
      if (capture_stack(pcs, addscope::Impl::kMaxStackFrames) > 0) ++taken;
  };
  std::thread unwinders[2] = {std::thread(unwind), std::thread(unwind)};
  int hung = 0, empty = 0;
  for (int k = 0; k < 1000; ++k) {
    addscope::Impl::hold_stack_capture_for_fork();
    const pid_t pid = ::fork();
    if (pid == 0) {
      addscope::Impl::release_stack_capture_after_fork(true);
      std::uint64_t pcs[addscope::Impl::kMaxStackFrames];
      _exit(capture_stack(pcs, addscope::Impl::kMaxStackFrames) > 0 ? 0 : 3);
    }
    addscope::Impl::release_stack_capture_after_fork(false);
    ASSERT_GT(pid, 0);
    // 10 s for a child that unwinds once, then it is killed as hung.
    int st = 0;
    if (!addscope_test::wait_or_kill(pid, 10.0, &st))
      ++hung;
    else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
      ++empty;
    if (hung) break;
  }
  stop = true;
  for (std::thread& u : unwinders) u.join();
  EXPECT_EQ(hung, 0) << "a child hung in the unwinder";
  EXPECT_EQ(empty, 0) << "a child took no stack";
  EXPECT_GT(taken.load(), 0u) << "the other thread never unwound";
}

namespace {
// A tracker whose device records the test gives by hand, sites on or off.
addscope::TrackerOptions by_hand(bool sites) {
  addscope::TrackerOptions o;
  o.device_records_by_hand = true;
  o.sites = sites;
  return o;
}
}  // namespace

// ---- the tracker: stacks taken on the program's thread, resolved at the
// report
// ----------------------------------------------------------------------------

namespace {
int g_launch_line = 0, g_fence_line = 0;
// The program: a kernel launched (its first launch: a stack is taken) ...
__attribute__((noinline)) WaitsSim::Launched program_launches(WaitsSim& s) {
  s.at(1.0);
  g_launch_line = __LINE__ + 1;
  const std::uint64_t id = s.t->kernel_begin("user::k", cuda());
  s.t->on_launch(1);
  s.at(1.0 + 1e-6);
  s.t->kernel_end(id);
  asm volatile("" ::: "memory");
  return {id, 1};
}
// ... then a fence that waits 0.1 s for it, and one of 5 us that waits for
// nothing (no stack taken: too short to be a wait worth reporting).
__attribute__((noinline)) void program_fences(WaitsSim& s) {
  s.at(1.00001);
  const std::uint64_t f = s.t->call_begin(CallKind::Fence, "Kokkos::fence: G");
  s.block(SyncApi::DeviceSynchronize, 1.00002, 1.1);
  s.at(1.1001);
  g_fence_line = __LINE__ + 1;
  s.t->call_end(f);
  s.at(1.2);
  const std::uint64_t g = s.t->call_begin(CallKind::Fence, "Kokkos::fence: S");
  s.at(1.200005);
  s.t->call_end(g);
  asm volatile("" ::: "memory");
}
}  // namespace

TEST(WaitsSites, AWaitAndTheKernelItWaitedForAreAtTheProgramsLines) {
  for (const bool sites : {true, false}) {
    WaitsSim s(by_hand(sites));
    const WaitsSim::Launched l = program_launches(s);
    s.ran(l, 7, 1.00001, 1.1);
    program_fences(s);
    const addscope::WaitsSnapshot w = s.done();
    ASSERT_EQ(w.waits.size(), 1u);
    const addscope::CallRecord& c = w.waits[0];
    ASSERT_EQ(c.what, "Kokkos::fence: G");
    ASSERT_EQ(w.kernels.size(), 1u);
    const CodeSite& k = w.kernels[0].launched_at;
    // The tool's own cost of the lines: two stacks taken (the kernel's
    // first launch, the fence long enough to be a wait; the 5 us one
    // takes none), timed on this thread.
    std::ostringstream report;
    addscope::write_waits_report(report, w);
    const std::string cost_line = "  the program's lines: 2 stacks taken, ";
    if (!sites) {
      EXPECT_FALSE(c.code.known()) << site_text(c.code);
      EXPECT_FALSE(k.known()) << site_text(k);
      EXPECT_EQ(w.sites_cost.taken, 0u);
      EXPECT_EQ(w.sites_cost.seconds, 0.0);
      EXPECT_EQ(report.str().find("the program's lines:"), std::string::npos)
          << report.str();
      continue;
    }
    EXPECT_EQ(w.sites_cost.taken, 2u);
    EXPECT_GT(w.sites_cost.seconds, 0.0);
    EXPECT_LT(w.sites_cost.seconds, 0.5);
    EXPECT_NE(report.str().find(cost_line), std::string::npos) << report.str();
#ifdef ADDSCOPE_TEST_HAVE_LIBDW
    EXPECT_EQ(c.code.line, g_fence_line) << site_text(c.code);
    EXPECT_EQ(c.code.function, "program_fences");
    EXPECT_NE(c.code.file.find("test_waits_sites.cpp"), std::string::npos);
    EXPECT_EQ(k.line, g_launch_line) << site_text(k);
    EXPECT_EQ(k.function, "program_launches");
    // Launched once: "launched at" its line, no "first".
    std::ostringstream os;
    addscope::write_waits_report(os, w);
    EXPECT_NE(
        os.str().find("for user::k, launched at unit/test_waits_sites.cpp:" +
                      std::to_string(g_launch_line) +
                      " (program_launches) as 1 x 1"),
        std::string::npos)
        << os.str();
    EXPECT_EQ(os.str().find("first at"), std::string::npos) << os.str();
    EXPECT_EQ(os.str().find("first launched"), std::string::npos) << os.str();
    for (const auto& st : w.sites) {
      if (st.site == "Kokkos::fence: G")
        EXPECT_EQ(st.code.line, g_fence_line) << site_text(st.code);
      if (st.site == "Kokkos::fence: S")
        EXPECT_FALSE(st.code.known()) << site_text(st.code);
    }
#else
    EXPECT_TRUE(c.code.known());
    EXPECT_TRUE(k.known());
#endif
  }
}

namespace {
// `n` fences at one line, each long enough to be a wait worth its line.
__attribute__((noinline)) void fences_at_one_line(WaitsSim& s, int n) {
  for (int i = 0; i < n; ++i) {
    const double t = 2.0 + 0.01 * i;
    s.at(t);
    const std::uint64_t f =
        s.t->call_begin(CallKind::Fence, "Kokkos::fence: L");
    s.at(t + 0.001);
    s.t->call_end(f);
  }
  asm volatile("" ::: "memory");
}
}  // namespace

TEST(WaitsSites, TheLinesCostSaysWhichStacksWereUnwoundAndWhichReadAgain) {
  WaitsSim s(by_hand(true));
  fences_at_one_line(s, 6);
  const addscope::WaitsSnapshot w = s.done();
  const addscope::WaitsSitesCost& c = w.sites_cost;
  EXPECT_EQ(c.taken, 6u);
  std::ostringstream report;
  addscope::write_waits_report(report, w);
  const std::string r = report.str();
  EXPECT_NE(r.find("  the program's lines: 6 stacks taken, "),
            std::string::npos)
      << r;
  const nlohmann::json j = nlohmann::json::parse(addscope::waits_json(w));
#if defined(ADDSCOPE_TEST_HAVE_LIBUNWIND) && defined(__x86_64__)
  // Unwound at the first two (the second keeps where its addresses sit),
  // read from there at the next four.
  EXPECT_EQ(c.read_again, 4u);
  EXPECT_GT(c.read_again_seconds, 0.0);
  EXPECT_LT(c.read_again_seconds, c.seconds);
  EXPECT_NE(r.find(" each: 2 unwound, "), std::string::npos) << r;
  EXPECT_NE(r.find(", 4 read again at a place taken before, "),
            std::string::npos)
      << r;
  EXPECT_EQ(j.at("sites_cost").at("read_again"), 4);
#else
  EXPECT_EQ(c.read_again, 0u);
  EXPECT_EQ(r.find("read again"), std::string::npos) << r;
  EXPECT_EQ(j.at("sites_cost").at("read_again"), 0);
#endif
  EXPECT_DOUBLE_EQ(j.at("sites_cost").at("read_again_seconds").get<double>(),
                   c.read_again_seconds);
}

// The trace is written while the program runs: its native stacks are
// symbolized then, so the wait's slice and the kernel's name the program's
// C++ lines, as the report does (with sites off: no line).
TEST(WaitsSites, TheTraceNamesTheProgramsCppLines) {
  for (const bool sites : {true, false}) {
    const std::string path = ::testing::TempDir() + "sites_trace_" +
                             std::to_string(::getpid()) + ".json";
    WaitsSim s(by_hand(sites));
    ASSERT_TRUE(s.t->open_trace(path));
    const WaitsSim::Launched l = program_launches(s);
    s.ran(l, 7, 1.00001, 1.1);
    program_fences(s);
    s.done();
    std::ifstream in(path);
    const nlohmann::json j = nlohmann::json::parse(in);
    std::remove(path.c_str());
    std::string code, launched;
    for (const auto& e : j) {
      const nlohmann::json a = e.value("args", nlohmann::json::object());
      if (!a.is_object()) continue;
      if (a.contains("code")) code = a["code"];
      if (a.contains("launched_at")) launched = a["launched_at"];
    }
    if (!sites) {
      EXPECT_EQ(code + launched, "");
      continue;
    }
#ifdef ADDSCOPE_TEST_HAVE_LIBDW
    EXPECT_NE(code.find("test_waits_sites.cpp:" + std::to_string(g_fence_line) +
                        " (program_fences)"),
              std::string::npos)
        << code;
    EXPECT_NE(
        launched.find("test_waits_sites.cpp:" + std::to_string(g_launch_line) +
                      " (program_launches)"),
        std::string::npos)
        << launched;
#else
    EXPECT_NE(code.find("addscope-waits-tests"), std::string::npos) << code;
    EXPECT_NE(launched.find("addscope-waits-tests"), std::string::npos)
        << launched;
#endif
  }
}

// A launch held back behind a kernel (CUDA's lazy module loading, a full
// queue: PyTorch's .item() on the H200) is a wait at the program's line.
namespace {
int g_slow_launch_line = 0;
__attribute__((noinline)) void program_launch_held(WaitsSim& s) {
  g_slow_launch_line = __LINE__ + 1;
  s.t->on_slow_launch(2.0, 2.4, 9);
  asm volatile("" ::: "memory");
}
}  // namespace

TEST(WaitsSites, ALaunchHeldBackIsAtItsLine) {
  addscope::TrackerOptions o;
  o.device_records_by_hand = true;
  WaitsSim s(o);
  const WaitsSim::Launched l = program_launches(s);
  s.ran(l, 7, 1.00001, 2.399);  // the held launch returns when it ends
  program_launch_held(s);
  const addscope::WaitsSnapshot w = s.done();
  ASSERT_FALSE(w.waits.empty());
  const addscope::CallRecord& c = w.waits[0];
  EXPECT_GT(c.wait_s, 0.3);
#ifdef ADDSCOPE_TEST_HAVE_LIBDW
  EXPECT_EQ(c.code.line, g_slow_launch_line)
      << c.what << " " << site_text(c.code);
  EXPECT_EQ(c.code.function, "program_launch_held");
#else
  EXPECT_TRUE(c.code.known());
#endif
}

// A stack record that fills its chunk to the last record, its event in the
// next chunk: the reader reads both (the chunk is published whole).
TEST(WaitsSites, AStackAtTheEndOfAChunkIsRead) {
  using addscope::Impl::ChunkPool;
  using addscope::Impl::EventKind;
  using addscope::Impl::EventRecord;
  using addscope::Impl::kChunkRecords;
  using addscope::Impl::ThreadLog;
  ChunkPool pool(8);
  ThreadLog log(pool, 0);
  const std::uint64_t pcs[7] = {1, 2, 3, 4, 5, 6, 7};  // 1 + 1 records
  for (std::uint32_t i = 0; i + 2 < kChunkRecords; ++i) {
    EventRecord* r = log.reserve();
    r->kind = EventKind::RegionPop;
    r->t = 1.0;
    log.commit(1.0);
  }
  log.stack(pcs, 7, 2.0);
  EventRecord* r = log.reserve();  // the next chunk
  r->kind = EventKind::CallEnd;
  r->id = 42;
  r->t = 2.0;
  log.commit(2.0);
  std::uint32_t pops = 0;
  const EventRecord* e = nullptr;
  while ((e = log.peek()) && e->kind == EventKind::RegionPop) {
    log.pop();
    ++pops;
  }
  EXPECT_EQ(pops, kChunkRecords - 2);
  ASSERT_NE(e, nullptr);
  ASSERT_EQ(e->kind, EventKind::Stack);
  std::uint64_t got[8] = {};
  EXPECT_EQ(log.pop_stack(got, 8), 7u);
  EXPECT_EQ(got[6], 7u);
  e = log.peek();
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->kind, EventKind::CallEnd);
  EXPECT_EQ(log.take_stack(e->t), 0u);  // no id was set by a reader here
}

// A call inlined into another: a frame of its own, at its line, then its
// caller at the line of the inlined call (how Kokkos' templates, inlined
// into the program's function, are seen through).
namespace {
int g_inlined_line = 0, g_inlined_call_line = 0;
inline __attribute__((always_inline)) std::vector<std::uint64_t>
inlined_capture() {
  std::uint64_t pcs[addscope::Impl::kMaxStackFrames];
  g_inlined_line = __LINE__ + 1;
  const std::uint32_t n = capture_stack(pcs, addscope::Impl::kMaxStackFrames);
  return std::vector<std::uint64_t>(pcs, pcs + n);
}
__attribute__((noinline)) std::vector<std::uint64_t> calls_inlined() {
  g_inlined_call_line = __LINE__ + 1;
  std::vector<std::uint64_t> s = inlined_capture();
  asm volatile("" ::: "memory");
  return s;
}
}  // namespace

TEST(WaitsSites, AnInlinedCallIsAFrameOfItsOwn) {
  const std::vector<std::uint64_t> stack = calls_inlined();
  ASSERT_FALSE(stack.empty());
  addscope::Impl::Symbolizer sym;
  const auto& frames = sym.frames_at(stack[0]);
#ifdef ADDSCOPE_TEST_HAVE_LIBDW
  ASSERT_GE(frames.size(), 2u);
  EXPECT_EQ(frames[0].function, "inlined_capture");
  EXPECT_EQ(frames[0].line, g_inlined_line);
  EXPECT_EQ(frames[1].function, "calls_inlined");
  EXPECT_EQ(frames[1].line, g_inlined_call_line);
  EXPECT_NE(frames[1].file.find("test_waits_sites.cpp"), std::string::npos);
#else
  EXPECT_EQ(frames.size(), 1u);
#endif
}

// Code in anonymous memory between two mappings of one device file: libdw
// lists the device file as one module spanning both and the hole between
// (the CUDA driver maps /dev/nvidiactl many times; on the H100 a return
// address in such a hole, inside every CUPTI callback's stack of a Kokkos
// program, read as the program's line "nvidiactl+0x487d162"). Read as that
// file, never as a line or function of the program's, and never chosen as
// the program's frame.
TEST(WaitsSites, CodeBetweenMappingsOfADeviceFileIsNeverTheProgramsFrame) {
  const std::size_t page = std::size_t(::sysconf(_SC_PAGESIZE));
  char* base =
      static_cast<char*>(::mmap(nullptr, 3 * page, PROT_READ | PROT_EXEC,
                                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  ASSERT_NE(base, MAP_FAILED);
  const int fd = ::open("/dev/zero", O_RDONLY);
  ASSERT_GE(fd, 0);
  for (std::size_t at : {std::size_t(0), 2 * page})
    ASSERT_NE(
        ::mmap(base + at, page, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0),
        MAP_FAILED);
  ::close(fd);
  std::vector<SourceFrame> frames;
  {
    addscope::Impl::Symbolizer sym;
    for (std::size_t at : {page + 17, std::size_t(17)})  // the hole, the file
      frames.push_back(
          sym.frames_at(reinterpret_cast<std::uint64_t>(base + at)).at(0));
  }
  ::munmap(base, 3 * page);
  for (const SourceFrame& f : frames) {
    EXPECT_TRUE(f.file.empty()) << f.file;
    EXPECT_TRUE(f.function.empty()) << f.function;
    EXPECT_EQ(f.line, 0);
    // libdw names the device file; without libdw nothing names the address.
    EXPECT_TRUE(f.module.empty() || f.module == "/dev/zero") << f.module;
  }
  // Beneath them, a frame of the program's: that one is the site.
  SourceFrame program;
  program.module = "/home/u/app/solver";
  program.file = "/home/u/app/solver.cpp";
  program.line = 12;
  program.function = "main";
  EXPECT_EQ(choose_program_frame({frames[0], frames[1], program}), 2);
}

// A frame in a file deleted since it was loaded (a library rebuilt while the
// program runs: a new file at its old path). Its line is read from the very
// file mapped (/proc/self/map_files), where the kernel lets the process open
// it; else the site is its mapped path, marked deleted, and an offset —
// never a line of the new file.
namespace {
// Whether /proc/self/map_files opens a mapping of `mapped` (a path as
// /proc/self/maps writes it).
bool mapping_opens(const std::string& mapped) {
  std::ifstream maps("/proc/self/maps");
  for (std::string l; std::getline(maps, l);) {
    if (l.size() < mapped.size() ||
        l.compare(l.size() - mapped.size(), mapped.size(), mapped) != 0)
      continue;
    unsigned long lo = 0, hi = 0;
    if (std::sscanf(l.c_str(), "%lx-%lx", &lo, &hi) != 2) continue;
    char link[64];
    std::snprintf(link, sizeof link, "/proc/self/map_files/%lx-%lx", lo, hi);
    const int fd = ::open(link, O_RDONLY);
    if (fd >= 0) ::close(fd);
    return fd >= 0;
  }
  return false;
}
}  // namespace

TEST(WaitsSites, AFrameInADeletedFileKeepsItsLineWhereItsMappingCanBeRead) {
  char dir[] = "/tmp/addscope-deleted-XXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  const std::string copy = std::string(dir) + "/libdeleted.so";
  {
    std::ifstream in(ADDSCOPE_TEST_DELETED_LIB, std::ios::binary);
    std::ofstream out(copy, std::ios::binary);
    out << in.rdbuf();
  }
  void* lib = ::dlopen(copy.c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(lib, nullptr) << ::dlerror();
  using LineFn = int (*)();
  const auto fn =
      reinterpret_cast<LineFn>(::dlsym(lib, "addscope_test_deleted_line"));
  ASSERT_NE(fn, nullptr);
  const int line = fn();
  // The new build at the old path: not an ELF file, lines of nothing.
  ASSERT_EQ(::unlink(copy.c_str()), 0);
  std::ofstream(copy) << "a new build\n";
  const bool readable = mapping_opens(copy + " (deleted)");
  SourceFrame f;
  {
    addscope::Impl::Symbolizer sym;
    f = sym.frames_at(reinterpret_cast<std::uint64_t>(fn) + 1).at(0);
  }
  ::dlclose(lib);
  std::remove(copy.c_str());
  ::rmdir(dir);
#ifdef ADDSCOPE_TEST_HAVE_LIBDW
  if (readable) {
    EXPECT_EQ(f.line, line);
    EXPECT_NE(f.file.find("deleted_lib.cpp"), std::string::npos) << f.file;
    EXPECT_EQ(f.function, "addscope_test_deleted_line");
  } else {
    EXPECT_EQ(f.line, 0);
    EXPECT_EQ(f.module, copy + " (deleted)");
    EXPECT_GT(f.offset, 0u);
  }
#else
  (void)readable;
  (void)line;
  EXPECT_EQ(f.line, 0);
  EXPECT_EQ(f.module, copy);  // the dynamic linker's name for it
#endif
}

// One call site at two lines is two rows, each with its own calls and its
// own longest wait; one line reached from two callers (two stacks) is one.
namespace {
int g_line_a = 0, g_line_b = 0;
__attribute__((noinline)) void fence_at_a(WaitsSim& s, double t0, double t1) {
  s.at(t0);
  const std::uint64_t f = s.t->call_begin(CallKind::Fence, "Kokkos::fence: G");
  s.block(SyncApi::DeviceSynchronize, t0 + 1e-6, t1);
  s.at(t1 + 1e-6);
  g_line_a = __LINE__ + 1;
  s.t->call_end(f);
  asm volatile("" ::: "memory");
}
__attribute__((noinline)) void fence_at_b(WaitsSim& s, double t0, double t1) {
  s.at(t0);
  const std::uint64_t f = s.t->call_begin(CallKind::Fence, "Kokkos::fence: G");
  s.block(SyncApi::DeviceSynchronize, t0 + 1e-6, t1);
  s.at(t1 + 1e-6);
  g_line_b = __LINE__ + 1;
  s.t->call_end(f);
  asm volatile("" ::: "memory");
}
__attribute__((noinline)) void first_caller(WaitsSim& s, double t0, double t1) {
  fence_at_a(s, t0, t1);
  asm volatile("" ::: "memory");
}
__attribute__((noinline)) void second_caller(WaitsSim& s, double t0,
                                             double t1) {
  fence_at_a(s, t0, t1);
  asm volatile("" ::: "memory");
}
}  // namespace

TEST(WaitsSites, OneCallAtTwoLinesIsTwoSites) {
  for (const bool sites : {true, false}) {
    WaitsSim s(by_hand(sites));
    // Three kernels, each waited for by one fence (one of Kokkos' own, by
    // its name: hidden): at line a (0.1 s, from
    // the first caller), at line b (0.05 s), at line a again (0.03 s, from
    // the second caller).
    const auto k1 = s.launch("user::k1", 1.0, 1.000001);
    s.ran(k1, 7, 1.00001, 1.1);
    first_caller(s, 1.00002, 1.1);
    const auto k2 = s.launch("user::k2", 1.2, 1.200001);
    s.ran(k2, 7, 1.20001, 1.25);
    fence_at_b(s, 1.20002, 1.25);
    const auto k3 = s.launch("user::k3", 1.3, 1.300001);
    s.ran(k3, 7, 1.30001, 1.33);
    second_caller(s, 1.30002, 1.33);
    s.at(1.4);
    const addscope::WaitsSnapshot w = s.done();
    std::vector<const addscope::SiteStats*> rows;
    for (const auto& st : w.sites)
      if (st.site == "Kokkos::fence: G") rows.push_back(&st);
    if (!sites) {
      ASSERT_EQ(rows.size(), 1u);
      EXPECT_EQ(rows[0]->hidden_calls, 3u);
      continue;
    }
    ASSERT_EQ(rows.size(), 2u);
    // Longest first: line a's two waits (0.13 s), then line b's.
    EXPECT_EQ(rows[0]->hidden_calls, 2u);
    EXPECT_EQ(rows[1]->hidden_calls, 1u);
    EXPECT_NEAR(rows[0]->wait_hidden_s, 0.13, 1e-3);
    EXPECT_NEAR(rows[1]->wait_hidden_s, 0.05, 1e-3);
#ifdef ADDSCOPE_TEST_HAVE_LIBDW
    EXPECT_EQ(rows[0]->code.line, g_line_a) << site_text(rows[0]->code);
    EXPECT_EQ(rows[1]->code.line, g_line_b) << site_text(rows[1]->code);
    // In the text, each row's longest call is its own line's.
    std::ostringstream os;
    addscope::write_waits_report(os, w);
    const std::string t = os.str();
    const std::string a = "test_waits_sites.cpp:" + std::to_string(g_line_a);
    const std::string b = "test_waits_sites.cpp:" + std::to_string(g_line_b);
    // The rows end in their line; their longest call's line leads with it.
    const std::size_t row_a = t.find(a + " (fence_at_a)\n");
    const std::size_t row_b = t.find(b + " (fence_at_b)\n");
    ASSERT_NE(row_a, std::string::npos) << t;
    ASSERT_NE(row_b, std::string::npos) << t;
    EXPECT_LT(row_a, row_b) << t;
    const std::size_t longest_a = t.find(a + " (fence_at_a) `", row_a);
    EXPECT_LT(longest_a, row_b) << t;
    EXPECT_NE(t.find(b + " (fence_at_b) `", row_b), std::string::npos) << t;
#else
    EXPECT_TRUE(rows[0]->code.known());
#endif
  }
}

// A kernel launched by CUDA directly (numba, CuPy, PyTorch, <<<...>>>): its
// first launch on a thread takes the program's line, named by the kernel's
// symbol, which the device's record of it carries.
namespace {
// Each launch at its own place, a launch at a place seen before without a
// stack (record/addscope_LaunchPlaces.hpp): x86-64 with libunwind; else a
// launch is at its kernel's (or shape's) first launch's line.
#if defined(ADDSCOPE_TEST_HAVE_LIBUNWIND) && defined(__x86_64__)
constexpr bool kLaunchPlaces = true;
#else
constexpr bool kLaunchPlaces = false;
#endif
int g_cuda_launch_line = 0;
const char kSymbol[] = "_Z3addPKfS0_Pfx";
// The device's record of launch `corr`: grid x block (one-dimensional) on
// `stream`.
addscope::Impl::DeviceKernelRecord ran(std::uint32_t corr, std::uint32_t stream,
                                       double start, double end,
                                       const char* symbol = kSymbol,
                                       int grid = 1, int block = 1) {
  addscope::Impl::DeviceKernelRecord r;
  r.correlation = corr;
  r.stream = stream;
  r.start_s = start;
  r.end_s = end;
  r.shape.grid[0] = grid;
  r.shape.block[0] = block;
  r.shape.grid[1] = r.shape.grid[2] = r.shape.block[1] = r.shape.block[2] = 1;
  r.name = symbol;
  return r;
}
// A function of the program's that launches `symbol` through CUDA at its
// own line (kept in `line`): one per line a test names; as grid x block
// (0 x 0: a launch whose shape the source did not read).
#define ADDSCOPE_TEST_LAUNCHER_AS(fn, line, sym, grid, block)           \
  __attribute__((noinline)) void fn(WaitsSim& s, std::uint32_t corr) {  \
    addscope::Impl::LaunchBegin l;                                      \
    l.correlation = corr;                                               \
    l.symbol = sym;                                                     \
    const std::uint32_t g[3] = {grid, 1, 1}, b[3] = {block, 1, 1};      \
    if (grid > 0) l.shape_key = addscope::Impl::launch_shape_key(g, b); \
    line = __LINE__;                                                    \
    s.t->on_launch(l);                                                  \
    asm volatile("" ::: "memory");                                      \
  }
#define ADDSCOPE_TEST_LAUNCHER(fn, line, sym) \
  ADDSCOPE_TEST_LAUNCHER_AS(fn, line, sym, 0u, 0u)
ADDSCOPE_TEST_LAUNCHER(program_launches_cuda, g_cuda_launch_line, kSymbol)
}  // namespace

TEST(WaitsSites, AKernelLaunchedByCudaIsAtItsLaunchLine) {
  for (const bool sites : {true, false}) {
    WaitsSim s(by_hand(sites));
    s.at(1.0);
    program_launches_cuda(s, 1);
    s.at(1.0001);
    program_launches_cuda(s, 2);
    s.block(SyncApi::Memcpy, 1.0002, 1.5, -1, 4, 3);
    std::vector<addscope::Impl::DeviceKernelRecord> v;
    for (std::uint32_t i = 0; i < 2; ++i)
      v.push_back(
          ran(i + 1, 7, 1.00005 + i * 0.25, 1.00005 + i * 0.25 + 0.249));
    s.t->on_device_kernels(v);
    s.at(1.6);
    const addscope::WaitsSnapshot w = s.done();
    ASSERT_EQ(w.kernels.size(), 1u);
    const CodeSite& k = w.kernels[0].launched_at;
    if (!sites) {
      EXPECT_FALSE(k.known()) << site_text(k);
      continue;
    }
#ifdef ADDSCOPE_TEST_HAVE_LIBDW
    EXPECT_EQ(k.line, g_cuda_launch_line) << site_text(k);
    EXPECT_EQ(k.function, "program_launches_cuda");
    std::ostringstream os;
    addscope::write_waits_report(os, w);
    // Launched twice at one line: the wait at the launch it waited for
    // where launches are placed, else at the first launch, and says so.
    const std::string line = std::to_string(g_cuda_launch_line);
    const std::string at =
        kLaunchPlaces
            ? "launched at unit/test_waits_sites.cpp:" + line +
                  " (program_launches_cuda) as 1 x 1"
            : "launched as 1 x 1, first at unit/test_waits_sites.cpp:" + line;
    EXPECT_NE(os.str().find(at), std::string::npos) << os.str();
    // The JSON at both ends: the wait's line and the launch's.
    const nlohmann::json j = nlohmann::json::parse(addscope::waits_json(w));
    ASSERT_FALSE(j["waits"].empty());
    const auto& wf = j["waits"][0]["waited_for"];
    ASSERT_FALSE(wf.empty()) << j["waits"][0].dump();
    EXPECT_EQ(wf[0]["launched_at"]["line"], g_cuda_launch_line) << wf.dump();
    EXPECT_EQ(wf[0]["launched_at"]["function"], "program_launches_cuda");
    EXPECT_TRUE(j["waits"][0]["code"].is_object());
#else
    EXPECT_TRUE(k.known());
#endif
  }
}

// One kernel launched in two shapes at two lines (a full grid, then 1 x 1
// elsewhere): each shape is at its own line — the starved one's in the
// headline, the starved section and the JSON — not both at the kernel's
// first launch.
namespace {
int g_full_line = 0, g_starved_line = 0;
// Device records given by hand, on a synthetic H200 (launch shapes judged).
addscope::TrackerOptions on_an_h200(bool sites = true) {
  addscope::TrackerOptions o = by_hand(sites);
  o.query_devices = [] {
    return std::vector<addscope::DeviceCapacity>{addscope_test::h200()};
  };
  return o;
}
ADDSCOPE_TEST_LAUNCHER_AS(program_launches_full, g_full_line, kSymbol, 1056u,
                          256u)
ADDSCOPE_TEST_LAUNCHER_AS(program_launches_starved, g_starved_line, kSymbol, 1u,
                          1u)
}  // namespace

TEST(WaitsSites, AKernelLaunchedInTwoShapesIsAtEachShapesLine) {
  for (const bool sites : {true, false}) {
    WaitsSim s(on_an_h200(sites));
    s.at(1.0);
    program_launches_full(s, 1);
    s.at(1.001);
    program_launches_full(s, 2);
    s.at(1.00102);  // right after: no host code between (no stack for it)
    program_launches_starved(s, 3);
    s.block(SyncApi::Memcpy, 1.003, 1.6, -1, 4, 3);
    std::vector<addscope::Impl::DeviceKernelRecord> v{
        ran(1, 7, 1.0001, 1.0005, kSymbol, 1056, 256),
        ran(2, 7, 1.0011, 1.0015, kSymbol, 1056, 256),
        ran(3, 7, 1.0016, 1.55, kSymbol, 1, 1)};
    s.t->on_device_kernels(v);
    s.at(1.7);
    addscope::WaitsSnapshot w = s.done();
    ASSERT_EQ(w.kernels.size(), 1u);
    const auto& shapes = w.kernels[0].shapes;
    ASSERT_EQ(shapes.size(), 2u);
    const addscope::ShapeStats& full =
        shapes[0].shape.grid[0] == 1056 ? shapes[0] : shapes[1];
    const addscope::ShapeStats& one =
        shapes[0].shape.grid[0] == 1 ? shapes[0] : shapes[1];
    ASSERT_EQ(one.shape.grid[0], 1);
    if (!sites) {
      EXPECT_FALSE(full.launched_at.known()) << site_text(full.launched_at);
      EXPECT_FALSE(one.launched_at.known()) << site_text(one.launched_at);
      continue;
    }
#ifdef ADDSCOPE_TEST_HAVE_LIBDW
    EXPECT_EQ(full.launched_at.line, g_full_line)
        << site_text(full.launched_at);
    EXPECT_EQ(one.launched_at.line, g_starved_line)
        << site_text(one.launched_at);
    EXPECT_EQ(one.launched_at.function, "program_launches_starved");
    // The kernel as a whole: its first launch.
    EXPECT_EQ(w.kernels[0].launched_at.line, g_full_line);
    std::ostringstream os;
    addscope::write_waits_report(os, w);
    const std::string t = os.str();
    const std::string starved_at =
        "unit/test_waits_sites.cpp:" + std::to_string(g_starved_line);
    // The headline's starved launch and the starved section's row.
    const std::size_t ran_as =
        t.find(starved_at + " (program_launches_starved)");
    ASSERT_NE(ran_as, std::string::npos) << t;
    EXPECT_NE(t.find("ran as 1 x 1", ran_as), std::string::npos) << t;
    EXPECT_NE(t.find("; launched at " + starved_at), std::string::npos) << t;
    // The run's end closes the thread's last interval after the run: not
    // late.
    EXPECT_EQ(t.find("after their time"), std::string::npos) << t;
    // The kernels table's row shows the shape with the most time, and its
    // line.
    const std::size_t row = t.find("[STARVED; +1 other shape");
    ASSERT_NE(row, std::string::npos) << t;
    EXPECT_EQ(t.find("launched at " + starved_at, row),
              t.find("launched at", row))
        << t;
    const nlohmann::json j = nlohmann::json::parse(addscope::waits_json(w));
    int seen = 0;
    for (const auto& e : j["kernels"][0]["shapes"]) {
      const int line = e["grid"][0] == 1 ? g_starved_line : g_full_line;
      EXPECT_EQ(e["launched_at"]["line"], line) << e.dump();
      ++seen;
    }
    EXPECT_EQ(seen, 2);
#else
    EXPECT_TRUE(one.launched_at.known());
#endif
  }
}

// Each wait names the launch it waited for: that launch's line where a
// stack was taken at it (a launch in a new shape; one after long host
// code), else its shape's first launch's — and that launch's shape, not
// the kernel's first.
namespace {
int g_starved_again_line = 0;
ADDSCOPE_TEST_LAUNCHER_AS(program_launches_starved_again, g_starved_again_line,
                          kSymbol, 1u, 1u)
}  // namespace

TEST(WaitsSites, AWaitNamesTheLineAndShapeOfTheLaunchItWaitedFor) {
  WaitsSim s(on_an_h200());
  s.at(1.0);
  program_launches_full(s, 1);
  s.at(1.00002);
  program_launches_starved(s, 2);  // a new shape: its stack
  s.block(SyncApi::Memcpy, 1.00004, 1.3, -1, 4, 3);
  s.at(1.30001);
  program_launches_full(s, 3);  // seen, right after a call: no stack
  s.block(SyncApi::Memcpy, 1.30002, 1.4, -1, 4, 3);
  s.at(1.5);
  program_launches_starved_again(s, 4);  // after 100 ms of host code
  s.block(SyncApi::Memcpy, 1.50001, 1.7, -1, 4, 3);
  // One wait for two launches of the kernel: named by the longer one's.
  s.at(1.70001);
  program_launches_full(s, 5);
  s.at(1.70002);
  program_launches_starved(s, 6);
  s.block(SyncApi::Memcpy, 1.70003, 1.9, -1, 4, 3);
  std::vector<addscope::Impl::DeviceKernelRecord> v{
      ran(1, 7, 1.00001, 1.00003, kSymbol, 1056, 256),
      ran(2, 7, 1.00005, 1.25, kSymbol, 1, 1),
      ran(3, 7, 1.30003, 1.35, kSymbol, 1056, 256),
      ran(4, 7, 1.50002, 1.65, kSymbol, 1, 1),
      ran(5, 7, 1.70004, 1.71, kSymbol, 1056, 256),
      ran(6, 7, 1.71, 1.85, kSymbol, 1, 1)};
  s.t->on_device_kernels(v);
  s.at(2.0);
  const addscope::WaitsSnapshot w = s.done();
  const nlohmann::json j = nlohmann::json::parse(addscope::waits_json(w));
  ASSERT_EQ(j["waits"].size(), 4u) << j["waits"].dump();
  auto waited = [&](std::size_t i) -> const nlohmann::json& {
    return j["waits"][i]["waited_for"][0];
  };
  for (std::size_t i = 0; i < 4; ++i)
    ASSERT_FALSE(j["waits"][i]["waited_for"].empty()) << j["waits"].dump();
  EXPECT_EQ(waited(0)["launched_as"], "1 x 1");
  EXPECT_EQ(waited(0)["starved"], true);
  EXPECT_EQ(waited(1)["launched_as"], "1,056 x 256") << waited(1).dump();
  EXPECT_EQ(waited(1)["starved"], false);
  EXPECT_EQ(waited(2)["launched_as"], "1 x 1");
  ASSERT_EQ(j["waits"][3]["waited_for"].size(), 1u);
  EXPECT_EQ(waited(3)["launched_as"], "1 x 1") << waited(3).dump();
  const std::string line1 = j["waits"][1]["line"];
  EXPECT_EQ(line1.find("other shapes"), std::string::npos) << line1;
  EXPECT_EQ(line1.find("starved"), std::string::npos) << line1;
#ifdef ADDSCOPE_TEST_HAVE_LIBDW
  EXPECT_EQ(waited(0)["launched_at"]["line"], g_starved_line)
      << waited(0).dump();
  // Its own launch's line where launches are placed, else its shape's first
  // launch, one of two there.
  EXPECT_EQ(waited(1)["launched_at"]["line"], g_full_line) << waited(1).dump();
  EXPECT_NE(
      line1.find(kLaunchPlaces ? "launched at unit/test_waits_sites.cpp:" +
                                     std::to_string(g_full_line) +
                                     " (program_launches_full) as 1,056 x 256"
                               : ", first at unit/test_waits_sites.cpp:" +
                                     std::to_string(g_full_line)),
      std::string::npos)
      << line1;
  // Its own line, not its shape's first launch's.
  EXPECT_EQ(waited(2)["launched_at"]["line"], g_starved_again_line)
      << waited(2).dump();
  const std::string line2 = j["waits"][2]["line"];
  EXPECT_NE(line2.find("launched at unit/test_waits_sites.cpp:" +
                       std::to_string(g_starved_again_line) +
                       " (program_launches_starved_again) as 1 x 1 (starved)"),
            std::string::npos)
      << line2;
#endif
}

// Each launch at its own line: a kernel launched once on nothing (to load
// its module), then in a loop elsewhere, is waited for at the loop's line;
// the loop's launches after its first take no stack (its place is read
// back from the stack slots, record/addscope_LaunchPlaces.hpp). Two lines
// that launch one kernel in turn are each at its own place.
namespace {
int g_load_line = 0, g_loop_line = 0, g_turn_line = 0;
ADDSCOPE_TEST_LAUNCHER(program_loads_module, g_load_line, kSymbol)
ADDSCOPE_TEST_LAUNCHER(program_launches_in_a_loop, g_loop_line, kSymbol)
ADDSCOPE_TEST_LAUNCHER(program_launches_in_turn, g_turn_line, kSymbol)
}  // namespace

TEST(WaitsSites, EachLaunchIsAtItsOwnLineAndOneAtALineSeenBeforeTakesNoStack) {
  for (const bool turns : {false, true}) {
    WaitsSim s(on_an_h200());
    s.at(1.0);
    program_loads_module(s, 1);
    std::vector<addscope::Impl::DeviceKernelRecord> v{
        ran(1, 7, 1.000001, 1.000002)};
    // Launches 10 us apart (no host code between them to take a stack).
    double t = 1.00005;
    for (std::uint32_t i = 0; i < 6; ++i, t += 10e-6) {
      s.at(t);
      if (turns && i % 2 == 0)
        program_launches_in_turn(s, 2 + i);
      else
        program_launches_in_a_loop(s, 2 + i);
      v.push_back(ran(2 + i, 7, t + 1e-6, t + 2e-6));
    }
    // The loop's last launch runs long; the read waits for it.
    v.back() = ran(7, 7, t - 9e-6, 1.3);
    s.block(SyncApi::Memcpy, t, 1.3 + 1e-6, -1, 4, 3);
    s.t->on_device_kernels(v);
    s.at(1.4);
    const addscope::WaitsSnapshot w = s.done();
    // The kernel's first launch, the first at each line of the loop, the
    // read: not one a launch.
    EXPECT_EQ(w.sites_cost.taken, kLaunchPlaces ? (turns ? 4u : 3u) : 2u)
        << "turns " << turns;
    ASSERT_EQ(w.waits.size(), 1u);
    ASSERT_FALSE(w.waits[0].waited_for.empty());
    ASSERT_EQ(w.kernels.size(), 1u);
#ifdef ADDSCOPE_TEST_HAVE_LIBDW
    EXPECT_EQ(w.kernels[0].launched_at.line, g_load_line)
        << site_text(w.kernels[0].launched_at);
    const CodeSite& at = w.waits[0].waited_for[0].launched_at;
    if (!kLaunchPlaces) {
      EXPECT_FALSE(at.known()) << site_text(at);
      continue;
    }
    EXPECT_EQ(at.line, g_loop_line) << site_text(at);
    std::ostringstream os;
    addscope::write_waits_report(os, w);
    const std::string r = os.str();
    const std::string loop =
        "unit/test_waits_sites.cpp:" + std::to_string(g_loop_line) +
        " (program_launches_in_a_loop)";
    EXPECT_NE(r.find("for add(float const*, float const*, float*, long long), "
                     "launched at " +
                     loop + " as 1 x 1 (starved)"),
              std::string::npos)
        << r;
    // The shape's line: where its launches took the most time, of several
    // places ("mostly"), in the headline, the starved section and the JSON.
    ASSERT_EQ(w.kernels[0].shapes.size(), 1u);
    EXPECT_EQ(w.kernels[0].shapes[0].launched_at.line, g_loop_line);
    EXPECT_NE(r.find("    mostly launched at " + loop + " `"),
              std::string::npos)
        << r;
    EXPECT_NE(r.find("; mostly launched at " + loop + "\n"), std::string::npos)
        << r;
#endif
  }
}

// Without launch places only some launches have a stack (the first, one
// after long host code): the shape stays at its first launch's line,
// "first launched at", never "mostly" on the few whose place is known.
TEST(WaitsSites, WithoutPlacesAShapeIsAtItsFirstLaunchsLine) {
  addscope::TrackerOptions o = on_an_h200();
  o.launch_places = false;
  WaitsSim s(o);
  s.at(1.0);
  program_loads_module(s, 1);
  std::vector<addscope::Impl::DeviceKernelRecord> v{
      ran(1, 7, 1.000001, 1.000002)};
  double t = 1.00005;
  for (std::uint32_t i = 0; i < 4; ++i, t += 10e-6) {
    s.at(t);
    program_launches_in_a_loop(s, 2 + i);  // no stack of its own
    v.push_back(ran(2 + i, 7, t + 1e-6, t + 2e-6));
  }
  s.at(t + 200e-6);  // after long host code: a stack
  program_launches_in_a_loop(s, 6);
  v.push_back(ran(6, 7, t + 201e-6, 1.3));
  s.block(SyncApi::Memcpy, t + 202e-6, 1.3 + 1e-6, -1, 4, 3);
  s.t->on_device_kernels(v);
  s.at(1.4);
  const addscope::WaitsSnapshot w = s.done();
  EXPECT_FALSE(w.launch_places);
  ASSERT_EQ(w.kernels.size(), 1u);
  ASSERT_EQ(w.kernels[0].shapes.size(), 1u);
#ifdef ADDSCOPE_TEST_HAVE_LIBDW
  EXPECT_EQ(w.kernels[0].shapes[0].launched_at.line, g_load_line)
      << site_text(w.kernels[0].shapes[0].launched_at);
  std::ostringstream os;
  addscope::write_waits_report(os, w);
  const std::string r = os.str();
  EXPECT_NE(r.find("; first launched at unit/test_waits_sites.cpp:" +
                   std::to_string(g_load_line) + " (program_loads_module)\n"),
            std::string::npos)
      << r;
  EXPECT_EQ(r.find("mostly"), std::string::npos) << r;
#endif
}

// The same through Kokkos: a kernel label launched at two lines (Kokkos'
// own launches take their place at its begin callback).
namespace {
int g_kokkos_first_line = 0, g_kokkos_loop_line = 0;
#define ADDSCOPE_TEST_KOKKOS_LAUNCHER(fn, line)                        \
  __attribute__((noinline)) void fn(WaitsSim& s, std::uint32_t corr) { \
    line = __LINE__;                                                   \
    const std::uint64_t id = s.t->kernel_begin("user::k", cuda());     \
    s.t->on_launch(corr);                                              \
    s.t->kernel_end(id);                                               \
    asm volatile("" ::: "memory");                                     \
  }
ADDSCOPE_TEST_KOKKOS_LAUNCHER(program_kokkos_first, g_kokkos_first_line)
ADDSCOPE_TEST_KOKKOS_LAUNCHER(program_kokkos_loop, g_kokkos_loop_line)
}  // namespace

TEST(WaitsSites, AKokkosKernelLaunchedAtTwoLinesIsWaitedForAtTheOneItRanFrom) {
  WaitsSim s(by_hand(true));
  s.at(1.0);
  program_kokkos_first(s, 1);
  s.ran({0, 1}, 7, 1.000001, 1.000002);
  double t = 1.00005;
  for (std::uint32_t i = 0; i < 4; ++i, t += 10e-6) {
    s.at(t);
    program_kokkos_loop(s, 2 + i);
    s.ran({0, 2 + i}, 7, t + 1e-6, i == 3 ? 1.3 : t + 2e-6);
  }
  s.at(t);
  const std::uint64_t f = s.t->call_begin(CallKind::Fence, "Kokkos::fence: F");
  s.block(SyncApi::DeviceSynchronize, t + 1e-6, 1.3 + 1e-6);
  s.at(1.3 + 2e-6);
  s.t->call_end(f);
  s.at(1.4);
  const addscope::WaitsSnapshot w = s.done();
  // The first launch, the loop's first, the fence.
  EXPECT_EQ(w.sites_cost.taken, kLaunchPlaces ? 3u : 2u);
  // The JSON says whether launches were placed.
  EXPECT_EQ(w.launch_places, kLaunchPlaces);
  EXPECT_EQ(nlohmann::json::parse(addscope::waits_json(w))["launch_places"],
            kLaunchPlaces);
  ASSERT_EQ(w.waits.size(), 1u);
  ASSERT_FALSE(w.waits[0].waited_for.empty());
#ifdef ADDSCOPE_TEST_HAVE_LIBDW
  ASSERT_EQ(w.kernels.size(), 1u);
  EXPECT_EQ(w.kernels[0].launched_at.line, g_kokkos_first_line)
      << site_text(w.kernels[0].launched_at);
  const CodeSite& at = w.waits[0].waited_for[0].launched_at;
  if (kLaunchPlaces) {
    EXPECT_EQ(at.line, g_kokkos_loop_line) << site_text(at);
    EXPECT_EQ(at.function, "program_kokkos_loop");
  } else {
    EXPECT_FALSE(at.known()) << site_text(at);
  }
#endif
}

// A kernel launched from more places in turn than a thread keeps (six
// lines, one stack pointer: one set of four) would take a stack at every
// launch: once most launches miss, the thread stops placing them.
namespace {
int g_rot_line[6] = {};
ADDSCOPE_TEST_LAUNCHER(program_rot0, g_rot_line[0], kSymbol)
ADDSCOPE_TEST_LAUNCHER(program_rot1, g_rot_line[1], kSymbol)
ADDSCOPE_TEST_LAUNCHER(program_rot2, g_rot_line[2], kSymbol)
ADDSCOPE_TEST_LAUNCHER(program_rot3, g_rot_line[3], kSymbol)
ADDSCOPE_TEST_LAUNCHER(program_rot4, g_rot_line[4], kSymbol)
ADDSCOPE_TEST_LAUNCHER(program_rot5, g_rot_line[5], kSymbol)
}  // namespace

TEST(WaitsSites, LaunchesFromMorePlacesThanAThreadKeepsStopTakingStacks) {
  void (*const lines[6])(WaitsSim&, std::uint32_t) = {
      program_rot0, program_rot1, program_rot2,
      program_rot3, program_rot4, program_rot5};
  WaitsSim s(by_hand(true));
  const std::uint32_t n = 1200;
  for (std::uint32_t i = 0; i < n; ++i) {
    s.at(1.0 + 10e-6 * i);  // 10 us apart: no host code between them
    lines[i % 6](s, i + 1);
  }
  s.at(2.0);
  const addscope::WaitsSnapshot w = s.done();
  if (!kLaunchPlaces) {
    EXPECT_EQ(w.sites_cost.taken, 1u);  // the kernel's first launch
    return;
  }
  // Each launch missed (six places in a set of four) until 256 had; then
  // none is placed (the first launch's stack was taken as a place).
  EXPECT_GE(w.sites_cost.taken, 256u);
  EXPECT_LE(w.sites_cost.taken, 260u);
}

// The device idle because the program synchronized, in a call of its own
// (a CUDA program: no Kokkos call around it): each idle row of round trips
// is at the program's line — the same call at two lines is two rows, the
// what-if names the line; without sites, one row as before.
namespace {
int g_block_line_a = 0, g_block_line_b = 0;
__attribute__((noinline)) void program_blocks_at_a(WaitsSim& s, double t0,
                                                   double t1, int stream = -1) {
  addscope::Impl::BlockingBegin b;  // the device, or one stream
  b.api = stream < 0 ? SyncApi::DeviceSynchronize : SyncApi::StreamSynchronize;
  b.all_streams = stream < 0;
  b.stream = stream < 0 ? 0 : std::uint32_t(stream);
  s.at(t0);
  s.t->on_blocking_begin(b);
  s.at(t1);
  g_block_line_a = __LINE__ + 1;
  s.t->on_blocking_end();
  asm volatile("" ::: "memory");
}
__attribute__((noinline)) void program_blocks_at_b(WaitsSim& s, double t0,
                                                   double t1, int stream = -1) {
  addscope::Impl::BlockingBegin b;  // the device, or one stream
  b.api = stream < 0 ? SyncApi::DeviceSynchronize : SyncApi::StreamSynchronize;
  b.all_streams = stream < 0;
  b.stream = stream < 0 ? 0 : std::uint32_t(stream);
  s.at(t0);
  s.t->on_blocking_begin(b);
  s.at(t1);
  g_block_line_b = __LINE__ + 1;
  s.t->on_blocking_end();
  asm volatile("" ::: "memory");
}
}  // namespace

// One line's synchronize on several streams (a CuPy program with a stream
// per thread): one row at that line, named without a stream, its calls
// summed; each wait keeps its stream. Without sites, a row per stream.
TEST(WaitsSites, AStreamSuffixComesOffOnlyAtTheEnd) {
  using addscope::without_stream_suffix;
  EXPECT_EQ(without_stream_suffix("cudaStreamSynchronize" +
                                  addscope::stream_suffix(13)),
            "cudaStreamSynchronize");
  EXPECT_EQ(without_stream_suffix("cudaMemcpyAsync D2H 4 B (stream 7)"),
            "cudaMemcpyAsync D2H 4 B");
  for (const char* same :
       {"cudaDeviceSynchronize", "", "(stream )", "x (stream 7x)",
        "x (stream 7) in fence 'Kokkos::fence: G'", "x (stream -1)",
        "x (stream 7"})
    EXPECT_EQ(without_stream_suffix(same), same);
}

TEST(WaitsSites, OneLinesCallOnSeveralStreamsIsOneSite) {
  for (const bool sites : {true, false}) {
    WaitsSim s(by_hand(sites));
    const double launch[3] = {1.0, 1.11, 1.21};
    const int stream[3] = {13, 14, 13};
    for (int i = 0; i < 3; ++i) {
      s.at(launch[i]);
      program_launches_cuda(s, std::uint32_t(i + 1));
      program_blocks_at_a(s, launch[i] + 1e-4, launch[i] + 0.09, stream[i]);
    }
    std::vector<addscope::Impl::DeviceKernelRecord> v;
    for (int i = 0; i < 3; ++i)
      v.push_back(ran(std::uint32_t(i + 1), std::uint32_t(stream[i]),
                      launch[i] + 5e-5, launch[i] + 0.0899));
    s.t->on_device_kernels(v);
    s.at(1.4);
    const addscope::WaitsSnapshot w = s.done();
    std::vector<const addscope::SiteStats*> rows;
    for (const auto& st : w.sites)
      if (st.site.rfind("cudaStreamSynchronize", 0) == 0) rows.push_back(&st);
    if (!sites) {
      ASSERT_EQ(rows.size(), 2u);
      EXPECT_EQ(rows[0]->site, "cudaStreamSynchronize (stream 13)");
      EXPECT_EQ(rows[0]->calls, 2u);
      EXPECT_EQ(rows[1]->site, "cudaStreamSynchronize (stream 14)");
      continue;
    }
    ASSERT_EQ(rows.size(), 1u) << rows[1]->site;
    EXPECT_EQ(rows[0]->site, "cudaStreamSynchronize");
    EXPECT_EQ(rows[0]->calls, 3u);
    EXPECT_EQ(rows[0]->explicit_calls, 3u);
    EXPECT_NEAR(rows[0]->wait_explicit_s, 3 * 0.0898, 1e-3);
    // Each wait keeps its own stream.
    std::set<std::string> whats;
    for (const auto& c : w.waits) whats.insert(c.site);
    EXPECT_EQ(whats,
              (std::set<std::string>{"cudaStreamSynchronize (stream 13)",
                                     "cudaStreamSynchronize (stream 14)"}));
    // In the text: the row once, its longest call below it with its stream.
    std::ostringstream os;
    addscope::write_waits_report(os, w);
    const std::string t = os.str();
    const std::size_t row = t.find("cudaStreamSynchronize  at ");
    ASSERT_NE(row, std::string::npos) << t;
    const std::size_t longest = t.find("longest: ", row);
    ASSERT_NE(longest, std::string::npos) << t;
    EXPECT_GT(t.find("(stream 1", row), longest) << t;
    // The idle rows too: one row of round trips at the line, two calls.
    std::vector<const addscope::IdleSiteStats*> idle;
    for (const auto& r : w.idle.sites)
      if (r.cause == addscope::IdleCause::SyncRoundTrip) idle.push_back(&r);
    ASSERT_EQ(idle.size(), 1u) << t;
    EXPECT_EQ(idle[0]->site, "cudaStreamSynchronize");
    EXPECT_EQ(idle[0]->calls, 2u);
#ifdef ADDSCOPE_TEST_HAVE_LIBDW
    EXPECT_EQ(rows[0]->code.line, g_block_line_a) << site_text(rows[0]->code);
    EXPECT_EQ(idle[0]->code.line, g_block_line_a) << site_text(idle[0]->code);
#endif
  }
}

TEST(WaitsSites, AnIdleRoundTripIsAtItsLine) {
  for (const bool sites : {true, false}) {
    WaitsSim s(by_hand(sites));
    // One kernel launched four times; the program synchronizes after the
    // first three: at line a, at a again, at b.
    const double launch[4] = {1.0, 1.11, 1.21, 1.31};
    s.at(launch[0]);
    program_launches_cuda(s, 1);
    program_blocks_at_a(s, 1.0001, 1.1);
    s.at(launch[1]);
    program_launches_cuda(s, 2);
    program_blocks_at_a(s, 1.1101, 1.2);
    s.at(launch[2]);
    program_launches_cuda(s, 3);
    program_blocks_at_b(s, 1.2101, 1.3);
    s.at(launch[3]);
    program_launches_cuda(s, 4);
    std::vector<addscope::Impl::DeviceKernelRecord> v;
    for (std::uint32_t i = 0; i < 4; ++i)
      v.push_back(
          ran(i + 1, 7, launch[i] + 5e-5, launch[i] + (i < 3 ? 0.0899 : 0.01)));
    s.t->on_device_kernels(v);
    s.at(1.4);
    const addscope::WaitsSnapshot w = s.done();
    std::vector<const addscope::IdleSiteStats*> rows;
    for (const auto& r : w.idle.sites)
      if (r.cause == addscope::IdleCause::SyncRoundTrip) rows.push_back(&r);
    if (!sites) {
      ASSERT_EQ(rows.size(), 1u);
      EXPECT_EQ(rows[0]->calls, 3u);
      EXPECT_FALSE(rows[0]->code.known());
      continue;
    }
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0]->calls, 2u);  // line a: two round trips, most idle
    EXPECT_EQ(rows[1]->calls, 1u);
    // Each gap: from a kernel's end to the next one's start.
    EXPECT_NEAR(rows[0]->idle_s, 0.02015 + 0.01015, 1e-6);
    EXPECT_NEAR(rows[1]->idle_s, 0.01015, 1e-6);
    // The what-if reads the merged rows: line a's two.
    ASSERT_FALSE(w.idle.what_if.empty());
    EXPECT_EQ(w.idle.what_if[0].top.calls, 2u);
#ifdef ADDSCOPE_TEST_HAVE_LIBDW
    EXPECT_EQ(rows[0]->code.line, g_block_line_a) << site_text(rows[0]->code);
    EXPECT_EQ(rows[1]->code.line, g_block_line_b) << site_text(rows[1]->code);
    std::ostringstream os;
    addscope::write_waits_report(os, w);
    const std::string t = os.str();
    const std::string a =
        "  at unit/test_waits_sites.cpp:" + std::to_string(g_block_line_a) +
        " (program_blocks_at_a)\n";
    // In the idle rows (the waits' call sites name the line too).
    const std::size_t idle = t.find("  idle by call site:\n");
    const std::size_t what_if = t.find("  what if:\n");
    ASSERT_NE(idle, std::string::npos) << t;
    ASSERT_NE(what_if, std::string::npos) << t;
    const std::size_t row = t.find(a, idle);
    EXPECT_LT(row, what_if) << t;
    EXPECT_NE(t.find("round trips at unit/test_waits_sites.cpp:" +
                     std::to_string(g_block_line_a) +
                     " (program_blocks_at_a) left the device idle"),
              std::string::npos)
        << t;
    // The headline: line a synchronizes in a loop; what that cost the
    // device is its round trips' idle time.
    EXPECT_NE(t.find("2 calls waited 179.6 ms in all (explicit), 89.8 ms "
                     "each on average; the device sat idle 30.3 ms in "
                     "their round trips\n"),
              std::string::npos)
        << t;
#else
    EXPECT_TRUE(rows[0]->code.known());
#endif
  }
}

// Idle rows named by a kernel (start-up before its first run, the launch
// latency before a later one) are at the kernel's first launch line, as
// the kernels table has it.
namespace {
int g_second_launch_line = 0;
const char kSymbol2[] = "_Z4add2PKfS0_Pfx";
ADDSCOPE_TEST_LAUNCHER(program_launches_second, g_second_launch_line, kSymbol2)
}  // namespace

TEST(WaitsSites, AKernelsIdleRowsAreAtItsLaunchLine) {
  for (const bool sites : {true, false}) {
    WaitsSim s(by_hand(sites));
    // add at 1.0; add2 first at 1.2 (start-up before it), again at 1.4.
    const double launch[3] = {1.0, 1.2, 1.4};
    s.at(launch[0]);
    program_launches_cuda(s, 1);
    s.at(launch[1]);
    program_launches_second(s, 2);
    s.at(launch[2]);
    program_launches_second(s, 3);
    std::vector<addscope::Impl::DeviceKernelRecord> v;
    for (std::uint32_t i = 0; i < 3; ++i)
      v.push_back(ran(i + 1, 7, launch[i] + 5e-5, launch[i] + 0.1,
                      i == 0 ? kSymbol : kSymbol2));
    s.t->on_device_kernels(v);
    s.at(1.6);
    const addscope::WaitsSnapshot w = s.done();
    const addscope::IdleSiteStats* start_up = nullptr;
    for (const auto& r : w.idle.sites)
      if (r.cause == addscope::IdleCause::StartUp) start_up = &r;
    ASSERT_NE(start_up, nullptr);
    EXPECT_EQ(start_up->site.rfind("add2(", 0), 0u) << start_up->site;
    EXPECT_NEAR(start_up->idle_s, 0.1 + 5e-5, 1e-9);
    if (!sites) {
      EXPECT_FALSE(start_up->code.known());
      continue;
    }
#ifdef ADDSCOPE_TEST_HAVE_LIBDW
    EXPECT_EQ(start_up->code.line, g_second_launch_line)
        << site_text(start_up->code);
    std::ostringstream os;
    addscope::write_waits_report(os, w);
    const std::string t = os.str();
    const std::string at = "launched at unit/test_waits_sites.cpp:" +
                           std::to_string(g_second_launch_line) +
                           " (program_launches_second)";
    const std::size_t idle = t.find("  idle by call site:\n");
    ASSERT_NE(idle, std::string::npos) << t;
    const std::size_t row = t.find("the first run of add2(", idle);
    ASSERT_NE(row, std::string::npos) << t;
    // Said once, on the row.
    const std::string line = t.substr(row, t.find('\n', row) - row);
    EXPECT_NE(line.find(at), std::string::npos) << line;
    EXPECT_EQ(line.find("launched at"), line.rfind("launched at")) << line;
#else
    EXPECT_TRUE(start_up->code.known());
#endif
  }
}

namespace {
// The args of a trace's slices named `name` (a prefix), in order.
std::vector<nlohmann::json> trace_args(const std::string& path,
                                       const std::string& name) {
  std::ifstream in(path);
  const nlohmann::json j = nlohmann::json::parse(in);
  std::vector<nlohmann::json> out;
  for (const auto& e : j)
    if (e.value("ph", "") == "X" && e.value("name", "").rfind(name, 0) == 0 &&
        e.contains("args"))
      out.push_back(e["args"]);
  return out;
}
}  // namespace

// A Kokkos call's round trips are at its line too (its label first): the
// blocked time inside it waits for the call's end, where its stack is taken
// (a deep_copy's: its fence, then its copy).
namespace {
int g_kokkos_fence_line = 0;
__attribute__((noinline)) void program_fences_then_goes_on(WaitsSim& s) {
  s.at(1.00002);
  const std::uint64_t f = s.t->call_begin(CallKind::Fence, "Kokkos::fence: G");
  s.block(SyncApi::DeviceSynchronize, 1.00003, 1.0502);
  s.block(SyncApi::Memcpy, 1.05022, 1.05025, -1, 4, 2);
  s.at(1.0503);
  s.t->footprint();  // the analyzer drains before the call ends
  g_kokkos_fence_line = __LINE__ + 1;
  s.t->call_end(f);
  asm volatile("" ::: "memory");
}
}  // namespace

TEST(WaitsSites, AKokkosCallsRoundTripIsAtItsLine) {
  for (const bool sites : {true, false}) {
    WaitsSim s(by_hand(sites));
    const std::string path = ::testing::TempDir() + "round_trip_trace_" +
                             std::to_string(::getpid()) + ".json";
    ASSERT_TRUE(s.t->open_trace(path));
    const WaitsSim::Launched l = program_launches(s);
    s.ran(l, 7, 1.00001, 1.05);
    program_fences_then_goes_on(s);
    s.next_corr = 2;
    const WaitsSim::Launched l2 = s.launch("user::k", 1.06, 1.06001);
    s.ran(l2, 7, 1.0601, 1.07);
    s.at(1.1);
    const addscope::WaitsSnapshot w = s.done();
    std::string code;  // the trace's round-trip slices
    for (const auto& a : trace_args(path, "idle: synchronization round trip"))
      code += a["code"].is_string() ? a["code"].get<std::string>() : "null";
    std::remove(path.c_str());
    std::vector<const addscope::IdleSiteStats*> rows;
    for (const auto& r : w.idle.sites)
      if (r.cause == addscope::IdleCause::SyncRoundTrip) rows.push_back(&r);
    std::ostringstream os;
    addscope::write_waits_report(os, w);
    ASSERT_EQ(rows.size(), 1u) << os.str();
    EXPECT_EQ(rows[0]->site, "Kokkos::fence: G");
    EXPECT_NEAR(rows[0]->idle_s, 0.0101, 1e-6) << os.str();
    EXPECT_EQ(w.idle.dropped.overlapping_intervals, 0u) << os.str();
    if (!sites) {
      EXPECT_FALSE(rows[0]->code.known()) << site_text(rows[0]->code);
      EXPECT_EQ(code, "null");
      continue;
    }
#ifdef ADDSCOPE_TEST_HAVE_LIBDW
    EXPECT_NE(code.find("test_waits_sites.cpp:" +
                        std::to_string(g_kokkos_fence_line) +
                        " (program_fences_then_goes_on)"),
              std::string::npos)
        << code;
    EXPECT_EQ(rows[0]->code.line, g_kokkos_fence_line)
        << site_text(rows[0]->code);
    EXPECT_EQ(rows[0]->code.function, "program_fences_then_goes_on");
    EXPECT_NE(os.str().find("Kokkos::fence: G  at unit/test_waits_sites.cpp:" +
                            std::to_string(g_kokkos_fence_line) +
                            " (program_fences_then_goes_on)"),
              std::string::npos)
        << os.str();
#else
    EXPECT_TRUE(rows[0]->code.known());
#endif
  }
}

// A Kokkos call's own work (not blocked: its host side) that left the
// device idle is at the call's line too.
namespace {
int g_own_work_line = 0;
__attribute__((noinline)) void program_works_in_a_kokkos_call(WaitsSim& s) {
  s.at(1.04);
  const std::uint64_t c = s.t->call_begin(CallKind::Fence, "Kokkos::fence: H");
  s.at(1.06);
  g_own_work_line = __LINE__ + 1;
  s.t->call_end(c);
  asm volatile("" ::: "memory");
}
}  // namespace

TEST(WaitsSites, AKokkosCallsOwnWorkIsAtItsLine) {
  addscope::TrackerOptions o;
  o.device_records_by_hand = true;
  WaitsSim s(o);
  const std::string path = ::testing::TempDir() + "own_work_trace_" +
                           std::to_string(::getpid()) + ".json";
  ASSERT_TRUE(s.t->open_trace(path));
  const WaitsSim::Launched l = program_launches(s);
  s.ran(l, 7, 1.00001, 1.05);
  program_works_in_a_kokkos_call(s);
  s.next_corr = 2;
  const WaitsSim::Launched l2 = s.launch("user::k", 1.07, 1.07001);
  s.ran(l2, 7, 1.0701, 1.08);
  s.at(1.1);
  const addscope::WaitsSnapshot w = s.done();
  std::string code;
  for (const auto& a : trace_args(path, "idle: host code"))
    code += a["code"].is_string() ? a["code"].get<std::string>() : "null";
  std::remove(path.c_str());
  std::ostringstream os;
  addscope::write_waits_report(os, w);
  std::vector<const addscope::IdleSiteStats*> rows;
  for (const auto& r : w.idle.sites)
    if (r.cause == addscope::IdleCause::HostCode) rows.push_back(&r);
  ASSERT_EQ(rows.size(), 1u) << os.str();
  EXPECT_EQ(rows[0]->site, "Kokkos::fence: H") << os.str();
  EXPECT_NEAR(rows[0]->idle_s, 0.02, 1e-6) << os.str();
#ifdef ADDSCOPE_TEST_HAVE_LIBDW
  const std::string at =
      "unit/test_waits_sites.cpp:" + std::to_string(g_own_work_line) +
      " (program_works_in_a_kokkos_call)";
  EXPECT_EQ(rows[0]->code.line, g_own_work_line) << site_text(rows[0]->code);
  EXPECT_NE(os.str().find("in Kokkos::fence: H's own work at " + at),
            std::string::npos)
      << os.str();
  EXPECT_NE(code.find(at), std::string::npos) << code;
#else
  EXPECT_TRUE(rows[0]->code.known());
#endif
}

// What is held for a Kokkos call's line waits at most 0.1 s behind the
// analyzer: a call that goes on long after its last blocking call (its own
// work) lets its round trip go without a line, and nothing is lost.
TEST(WaitsSites, ARoundTripHeldTooLongGoesWithoutItsLine) {
  addscope::TrackerOptions o;
  o.device_records_by_hand = true;
  WaitsSim s(o);
  const WaitsSim::Launched l = program_launches(s);
  s.ran(l, 7, 1.00001, 1.05);
  s.at(1.00002);
  const std::uint64_t f = s.t->call_begin(CallKind::Fence, "Kokkos::fence: G");
  s.block(SyncApi::DeviceSynchronize, 1.00003, 1.0502);
  for (double t = 1.1; t < 1.35; t += 0.05) {  // its own work, drained
    s.at(t);
    s.t->footprint();
  }
  s.at(1.4);
  s.t->call_end(f);
  s.next_corr = 2;
  const WaitsSim::Launched l2 = s.launch("user::k", 1.41, 1.41001);
  s.ran(l2, 7, 1.4101, 1.42);
  s.at(1.5);
  const addscope::WaitsSnapshot w = s.done();
  std::ostringstream os;
  addscope::write_waits_report(os, w);
  double round_trip = 0;
  for (const auto& r : w.idle.sites) {
    if (r.cause == addscope::IdleCause::SyncRoundTrip) {
      round_trip += r.idle_s;
      EXPECT_FALSE(r.code.known()) << site_text(r.code);
    }
  }
  // The gap from 1.05 to 1.4101: the round trip's, the whole gap.
  EXPECT_NEAR(round_trip, 0.3601, 1e-6) << os.str();
  EXPECT_EQ(w.idle.dropped.overlapping_intervals, 0u) << os.str();
}

// A Kokkos call still open when the run ends (its copy ran, the call never
// returned): what was held for its line goes to the blame at the end, so its
// round trip is still charged (without a line).
TEST(WaitsSites, WhatIsHeldGoesAtTheRunsEnd) {
  addscope::TrackerOptions o;
  o.device_records_by_hand = true;
  WaitsSim s(o);
  const WaitsSim::Launched l = program_launches(s);
  s.ran(l, 7, 1.00001, 1.05);
  s.at(1.01);
  s.t->call_begin(CallKind::DeepCopy, "deep_copy r_h<-r (Host<-Cuda)");
  s.block(SyncApi::DeviceSynchronize, 1.011, 1.0502);
  s.block(SyncApi::Memcpy, 1.0503, 1.0506, 7, 4, 3, 5);  // its copy, 4 B back
  s.copied(5, 7, 1.0504, 1.0505, 4);
  s.at(1.1);  // the run ends inside the call
  const addscope::WaitsSnapshot w = s.done();
  std::ostringstream os;
  addscope::write_waits_report(os, w);
  double round_trip = 0, unknown = 0;
  for (const auto& k : w.idle.causes) {
    if (k.cause == addscope::IdleCause::SyncRoundTrip) round_trip = k.idle_s;
    if (k.cause == addscope::IdleCause::Unknown) unknown = k.idle_s;
  }
  EXPECT_NEAR(round_trip, 0.0004, 1e-7) << os.str();
  EXPECT_EQ(unknown, 0.0) << os.str();
}

// Host code that left the device idle is at the line it ran up to: the
// launch after it, when it ran long (host_code_site_min_s); a short stretch
// (a framework's own time between launches) takes no stack.
namespace {
int g_host_code_line = 0, g_soon_line = 0;
ADDSCOPE_TEST_LAUNCHER(program_launches_after_host, g_host_code_line, kSymbol)
ADDSCOPE_TEST_LAUNCHER(program_launches_soon, g_soon_line, kSymbol)
}  // namespace

TEST(WaitsSites, HostCodeIsAtTheLineItRanUpTo) {
  for (const bool sites : {true, false}) {
    // The host code rule alone: launches not placed each.
    addscope::TrackerOptions o = by_hand(sites);
    o.launch_places = false;
    WaitsSim s(o);
    EXPECT_FALSE(s.t->snapshot().launch_places);
    const std::string path = ::testing::TempDir() + "host_code_trace_" +
                             std::to_string(::getpid()) + ".json";
    ASSERT_TRUE(s.t->open_trace(path));
    // A copy in first: the thread's timeline begins (a host-to-device one).
    s.block(SyncApi::Memcpy, 0.99, 0.995, -1, 4, 1);
    s.at(1.0);
    program_launches_cuda(s, 1);  // its first launch: a stack of its own
    s.at(1.00008);
    program_launches_soon(s, 2);  // 80 us of host code: none
    s.at(1.2);
    program_launches_after_host(s, 3);  // 0.2 s of host code
    std::vector<addscope::Impl::DeviceKernelRecord> v;
    v.push_back(ran(1, 7, 1.00001, 1.00005));
    v.push_back(ran(2, 7, 1.00009, 1.1));  // host code 1.00005 - 1.00008
    v.push_back(ran(3, 7, 1.2001, 1.3));   // host code 1.1 - 1.2
    s.t->on_device_kernels(v);
    s.at(1.4);
    const addscope::WaitsSnapshot w = s.done();
    // The trace's idle slices of host code and its host slice: the long
    // stretch up to its line (the short one: null).
    std::string code, up_to;
    for (const auto& a : trace_args(path, "idle: host code"))
      if (a["code"].is_string()) code += a["code"].get<std::string>() + ";";
    for (const auto& a : trace_args(path, "host code (device idle)"))
      if (a["up_to"].is_string()) up_to += a["up_to"].get<std::string>() + ";";
    std::remove(path.c_str());
    std::vector<const addscope::IdleSiteStats*> rows;
    for (const auto& r : w.idle.sites)
      if (r.cause == addscope::IdleCause::HostCode) rows.push_back(&r);
    if (!sites) {
      EXPECT_EQ(code + up_to, "");
      ASSERT_EQ(rows.size(), 1u);
      EXPECT_FALSE(rows[0]->code.known()) << site_text(rows[0]->code);
      continue;
    }
    std::ostringstream dbg;
    addscope::write_waits_report(dbg, w);
    ASSERT_EQ(rows.size(), 2u) << dbg.str();
    EXPECT_NEAR(rows[0]->idle_s, 0.1, 1e-6);
    EXPECT_NEAR(rows[1]->idle_s, 0.00003, 1e-6);
    EXPECT_FALSE(rows[1]->code.known()) << site_text(rows[1]->code);
    // The launch latency after each: at the launch that ended the gap where
    // its stack was taken, else at the kernel's first launch.
    std::vector<const addscope::IdleSiteStats*> latency;
    for (const auto& r : w.idle.sites)
      if (r.cause == addscope::IdleCause::LaunchLatency) latency.push_back(&r);
    ASSERT_EQ(latency.size(), 2u) << dbg.str();
#ifdef ADDSCOPE_TEST_HAVE_LIBDW
    EXPECT_EQ((std::set<int>{latency[0]->code.line, latency[1]->code.line}),
              (std::set<int>{g_cuda_launch_line, g_host_code_line}))
        << dbg.str();
    EXPECT_EQ(rows[0]->code.line, g_host_code_line) << site_text(rows[0]->code);
    EXPECT_EQ(rows[0]->code.function, "program_launches_after_host");
    const std::string at =
        "test_waits_sites.cpp:" + std::to_string(g_host_code_line) +
        " (program_launches_after_host);";
    EXPECT_EQ(
        code.size() > at.size() ? code.substr(code.size() - at.size()) : code,
        at);
    EXPECT_EQ(std::count(code.begin(), code.end(), ';'), 1) << code;
    EXPECT_NE(up_to.find(at), std::string::npos) << up_to;
    std::ostringstream os;
    addscope::write_waits_report(os, w);
    EXPECT_NE(os.str().find("up to unit/test_waits_sites.cpp:" +
                            std::to_string(g_host_code_line) +
                            " (program_launches_after_host)"),
              std::string::npos)
        << os.str();
#else
    EXPECT_TRUE(rows[0]->code.known());
#endif
  }
}

// A synchronization the device did not sit idle for (another stream kept
// it busy throughout) cost the device nothing, and the headline says so;
// without the program's line it says nothing of it.
TEST(WaitsSites, AWaitThatLeftTheDeviceBusyCostItNothing) {
  for (const bool sites : {true, false}) {
    WaitsSim s(by_hand(sites));
    // The loop of the test above on stream 7, each launch synchronized on
    // its stream at line a, beside one long kernel on stream 8.
    const double launch[3] = {1.0, 1.11, 1.21};
    s.at(launch[0]);
    program_launches_cuda(s, 1);
    s.at(launch[0] + 2e-5);
    program_launches_cuda(s, 4);
    program_blocks_at_a(s, 1.0001, 1.1, 7);
    s.at(launch[1]);
    program_launches_cuda(s, 2);
    program_blocks_at_a(s, 1.1101, 1.2, 7);
    s.at(launch[2]);
    program_launches_cuda(s, 3);
    std::vector<addscope::Impl::DeviceKernelRecord> v;
    for (std::uint32_t i = 0; i < 3; ++i)
      v.push_back(ran(i + 1, 7, launch[i] + 5e-5, launch[i] + 0.0899));
    v.push_back(ran(4, 8, launch[0] + 6e-5, 1.3));
    s.t->on_device_kernels(v);
    s.at(1.4);
    const addscope::WaitsSnapshot w = s.done();
    std::ostringstream os;
    addscope::write_waits_report(os, w);
    const std::string t = os.str();
    const std::string busy =
        "the device stayed busy through them: they cost "
        "it no idle time";
#ifdef ADDSCOPE_TEST_HAVE_LIBDW
    if (sites) {
      EXPECT_NE(t.find("2 calls waited"), std::string::npos) << t;
      EXPECT_NE(t.find(busy), std::string::npos) << t;
      continue;
    }
#endif
    EXPECT_EQ(t.find(busy), std::string::npos) << t;
  }
}
