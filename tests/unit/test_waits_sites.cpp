// The program's own line of code (site/): which frame of a stack is the
// program's (rules on synthetic frames), and real stacks of this test binary
// symbolized from its debug info (this file is compiled with -g).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "addscope/waits/model/addscope_CodeSite.hpp"
#include "addscope/waits/record/addscope_StackCapture.hpp"
#include "addscope/waits/site/addscope_SiteResolver.hpp"
#include "addscope/waits/site/addscope_SiteRules.hpp"

using addscope::CodeSite;
using addscope::site_text;
using addscope::Impl::capture_stack;
using addscope::Impl::choose_program_frame;
using addscope::Impl::is_foreign_module;
using addscope::Impl::is_foreign_source;
using addscope::Impl::SiteResolver;
using addscope::Impl::SourceFrame;

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
        "/usr/lib/x86_64-linux-gnu/libmpi.so.40", ""})
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
        "/w/addscope/src/addscope/waits/tool/addscope_ToolCallbacks.cpp"})
    EXPECT_TRUE(is_foreign_source(f)) << f;
  for (const char* f : {"/home/u/app/main.cpp", "solver/step.cpp", "",
                        "/home/u/kokkos_app/main.cpp"})
    EXPECT_FALSE(is_foreign_source(f)) << f;
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
  // A stripped program: its module alone makes it the program's.
  const std::vector<SourceFrame> stripped = {
      frame("/k/libkokkoscore.so", "", 0, ""), frame("/app/solver", "", 0, "")};
  EXPECT_EQ(choose_program_frame(stripped), 1);
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
