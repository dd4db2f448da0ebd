// A program for the launcher's tests that starts "the tool" the way its
// front doors do, without Kokkos or CUDA: it calls announce_tool_start()
// (tool/addscope_ToolStart.hpp) as InitializeInjection would, then forks a
// child that announces as kokkosp_init_library would — two processes in
// which the tool started.
//   addscope-test-launcher-announce [exit-code]
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "addscope/waits/tool/addscope_ToolStart.hpp"

int main(int argc, char** argv) {
  using addscope::Impl::announce_tool_start;
  using addscope::Impl::FrontDoor;
  announce_tool_start(FrontDoor::CudaInjection);
  // A second front door of the same process: no second line.
  announce_tool_start(FrontDoor::KokkosTools, "20211015");
  const pid_t child = ::fork();
  if (child == 0) {
    announce_tool_start(FrontDoor::KokkosTools, "20211015");
    ::_exit(0);
  }
  int st = 0;
  if (child > 0) ::waitpid(child, &st, 0);
  std::printf("announced in %ld and %ld\n", long(::getpid()), long(child));
  return argc > 1 ? std::atoi(argv[1]) : 0;
}
