// The waits tool saying that it started (tool/addscope_ToolStart): the line
// it appends to the launcher's ADDSCOPE_WAITS_STARTED file, once per
// process, never through a link, never hanging on a FIFO; and the
// ADDSCOPE_WAITS_VERBOSE line on stderr.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "addscope/waits/tool/addscope_ToolStart.hpp"
#include "child_process.hpp"

using addscope::Impl::announce_tool_start;
using addscope::Impl::FrontDoor;
using addscope::Impl::reset_tool_start_for_testing;

namespace {

std::string slurp(const std::string& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// A fresh folder, the variables unset, the announcement forgotten.
struct Fixture {
  std::string dir;
  Fixture() {
    char t[] = "/tmp/addscope-toolstart-XXXXXX";
    dir = ::mkdtemp(t);
    ::unsetenv("ADDSCOPE_WAITS_STARTED");
    ::unsetenv("ADDSCOPE_WAITS_VERBOSE");
    reset_tool_start_for_testing();
  }
  ~Fixture() {
    ::unsetenv("ADDSCOPE_WAITS_STARTED");
    ::unsetenv("ADDSCOPE_WAITS_VERBOSE");
    reset_tool_start_for_testing();
    std::system(("rm -rf '" + dir + "'").c_str());
  }
  std::string file(const std::string& name, const std::string& text = "") {
    const std::string p = dir + "/" + name;
    std::ofstream(p) << text;
    return p;
  }
};

// stderr of `f`, through a file.
template <class F>
std::string stderr_of(const std::string& dir, F&& f) {
  const std::string p = dir + "/stderr";
  std::fflush(stderr);
  const int saved = ::dup(2);
  const int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  ::dup2(fd, 2);
  ::close(fd);
  f();
  std::fflush(stderr);
  ::dup2(saved, 2);
  ::close(saved);
  return slurp(p);
}

std::string pid() { return std::to_string(long(::getpid())); }

}  // namespace

TEST(WaitsToolStart, AppendsOneLinePerProcessToTheLaunchersFile) {
  Fixture f;
  const std::string p = f.file("started", "earlier line\n");
  ::setenv("ADDSCOPE_WAITS_STARTED", p.c_str(), 1);
  EXPECT_TRUE(announce_tool_start(FrontDoor::KokkosTools, "20211015"));
  EXPECT_EQ(slurp(p), "earlier line\nkokkos " + pid() + " 20211015\n");
  // The second front door of the same process: nothing more.
  EXPECT_FALSE(announce_tool_start(FrontDoor::CudaInjection));
  EXPECT_FALSE(announce_tool_start(FrontDoor::KokkosTools, "x"));
  EXPECT_EQ(slurp(p), "earlier line\nkokkos " + pid() + " 20211015\n");
  reset_tool_start_for_testing();
  EXPECT_TRUE(announce_tool_start(FrontDoor::CudaInjection));
  EXPECT_EQ(slurp(p), "earlier line\nkokkos " + pid() +
                          " 20211015\ncuda-injection " + pid() + "\n");
}

TEST(WaitsToolStart, AForkedChildAnnouncesItself) {
  Fixture f;
  const std::string p = f.file("started");
  ::setenv("ADDSCOPE_WAITS_STARTED", p.c_str(), 1);
  ASSERT_TRUE(announce_tool_start(FrontDoor::KokkosTools));
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const bool again = announce_tool_start(FrontDoor::CudaInjection);
    ::_exit(again ? 0 : 1);
  }
  int st = 0;
  ASSERT_TRUE(addscope_test::wait_or_kill(child, 10.0, &st)) << "child hung";
  EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  EXPECT_EQ(slurp(p), "kokkos " + pid() + "\ncuda-injection " +
                          std::to_string(long(child)) + "\n");
}

TEST(WaitsToolStart, OneLineEvenWhenTheDetailHasControlCharacters) {
  Fixture f;
  const std::string p = f.file("started");
  ::setenv("ADDSCOPE_WAITS_STARTED", p.c_str(), 1);
  EXPECT_TRUE(announce_tool_start(FrontDoor::KokkosTools, "a\nb\tc"));
  EXPECT_EQ(slurp(p), "kokkos " + pid() + " a b c\n");
}

TEST(WaitsToolStart, NeverCreatesFollowsALinkOrHangs) {
  Fixture f;
  // No file: nothing is created.
  const std::string missing = f.dir + "/missing";
  ::setenv("ADDSCOPE_WAITS_STARTED", missing.c_str(), 1);
  EXPECT_TRUE(announce_tool_start(FrontDoor::KokkosTools));
  struct stat st;
  EXPECT_NE(::lstat(missing.c_str(), &st), 0);
  // A link: not followed, its target untouched.
  reset_tool_start_for_testing();
  const std::string target = f.file("target", "precious");
  const std::string link = f.dir + "/link";
  ASSERT_EQ(::symlink(target.c_str(), link.c_str()), 0);
  ::setenv("ADDSCOPE_WAITS_STARTED", link.c_str(), 1);
  EXPECT_TRUE(announce_tool_start(FrontDoor::KokkosTools));
  EXPECT_EQ(slurp(target), "precious");
  // A FIFO nobody reads: no hang, nothing written.
  reset_tool_start_for_testing();
  const std::string fifo = f.dir + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  ::setenv("ADDSCOPE_WAITS_STARTED", fifo.c_str(), 1);
  EXPECT_TRUE(announce_tool_start(FrontDoor::CudaInjection));
  // A folder, an empty value, no variable: nothing, no failure.
  reset_tool_start_for_testing();
  ::setenv("ADDSCOPE_WAITS_STARTED", f.dir.c_str(), 1);
  EXPECT_TRUE(announce_tool_start(FrontDoor::CudaInjection));
  reset_tool_start_for_testing();
  ::setenv("ADDSCOPE_WAITS_STARTED", "", 1);
  EXPECT_TRUE(announce_tool_start(FrontDoor::CudaInjection));
  reset_tool_start_for_testing();
  ::unsetenv("ADDSCOPE_WAITS_STARTED");
  EXPECT_TRUE(announce_tool_start(FrontDoor::CudaInjection));
}

TEST(WaitsToolStart, VerboseSaysHowTheToolCameIn) {
  Fixture f;
  // Quiet by default, and with 0.
  EXPECT_EQ(stderr_of(f.dir,
                      [] { announce_tool_start(FrontDoor::KokkosTools, "1"); }),
            "");
  reset_tool_start_for_testing();
  ::setenv("ADDSCOPE_WAITS_VERBOSE", "0", 1);
  EXPECT_EQ(stderr_of(f.dir,
                      [] { announce_tool_start(FrontDoor::KokkosTools, "1"); }),
            "");
  reset_tool_start_for_testing();
  ::setenv("ADDSCOPE_WAITS_VERBOSE", "1", 1);
  EXPECT_EQ(stderr_of(f.dir,
                      [] {
                        announce_tool_start(FrontDoor::KokkosTools, "20211015");
                      }),
            "addscope waits: loaded into PID " + pid() +
                " via Kokkos Tools (interface 20211015)\n");
  // Once per process.
  EXPECT_EQ(
      stderr_of(f.dir, [] { announce_tool_start(FrontDoor::CudaInjection); }),
      "");
  reset_tool_start_for_testing();
  EXPECT_EQ(
      stderr_of(f.dir, [] { announce_tool_start(FrontDoor::CudaInjection); }),
      "addscope waits: loaded into PID " + pid() +
          " via CUDA injection (CUDA_INJECTION64_PATH)\n");
  // A value that is neither 0 nor 1: named, and taken as 0.
  reset_tool_start_for_testing();
  ::setenv("ADDSCOPE_WAITS_VERBOSE", "yes", 1);
  EXPECT_EQ(
      stderr_of(f.dir, [] { announce_tool_start(FrontDoor::KokkosTools); }),
      "addscope waits: ADDSCOPE_WAITS_VERBOSE='yes' is invalid; "
      "allowed: 0, 1 (using 0)\n");
}
