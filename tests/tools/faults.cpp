// What real programs do to a Kokkos Tools library, one case per run. Plain
// Kokkos (it knows nothing of addscope); tests/tools/waits_check.cpp says
// what the waits tool must report for each.
// Usage: addscope-test-faults CASE [N]
//   regions      3 pops with nothing pushed, then N (10000) regions pushed
//                and never popped, a kernel in each
//   throw        a host kernel throws (caught by the program, which goes
//                on): its end callback never comes
//   names        N (100000) kernels, each with a label of its own
//   threads      N (16) threads at once, each 2000 x (kernel, deep_copy,
//                allocation)
//   unfenced     N (1000) kernels, never fenced, then Kokkos::finalize
//   host_only    host execution space and host memory only (never the GPU)
//   exit_return  returns from main without Kokkos::finalize
//   exit_exit    std::exit(0) with Views alive, no Kokkos::finalize
//   exit_quick   std::quick_exit(0), no Kokkos::finalize
//   exit_abort   std::abort(): the report is lost (not covered)
//   plain        a few kernels and copies (for bad output paths)
//   signal       kernels in a region, then raise(SIG) with SIG = N (15:
//                SIGTERM, 2: SIGINT, 1: SIGHUP) while Kokkos is running:
//                the process dies of it, as without a tool
//   fork         kernels, then N (3) children forked while the tool works,
//                each running kernels of its own ("faults::child") on a
//                host space and exiting with std::exit; the parent waits
//                for them, then more kernels ("faults::parent")
//   chdir        a kernel, then chdir("/") and more kernels: outputs given
//                as relative paths stay where they were resolved
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <Kokkos_Core.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using Host = Kokkos::DefaultHostExecutionSpace;

// A kernel and a one-element copy to the host, on the default space.
void kernel_and_copy(const char* label, Kokkos::View<float*> v) {
  Kokkos::parallel_for(
      label, Kokkos::RangePolicy<Space>(0, v.extent_int(0)),
      KOKKOS_LAMBDA(int i) { v(i) += 1.0f; });
  auto h = Kokkos::create_mirror_view(Kokkos::subview(v, std::make_pair(0, 1)));
  Kokkos::deep_copy(h, Kokkos::subview(v, std::make_pair(0, 1)));
}

#ifdef KOKKOS_ENABLE_SERIAL
using Serial = Kokkos::Serial;
#else
using Serial = Host;
#endif

// One of the threads of the "threads" case. Kokkos 3.x's OpenMP instance
// belongs to the thread that initialized Kokkos: other threads initialize
// and copy with Serial (host) or the device's own instance.
void thread_body(int t) {
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  Space exec;
  Kokkos::View<float*> w(Kokkos::view_alloc(exec, "faults::w"), 64);
  for (int i = 0; i < 2000; ++i) {
    Kokkos::parallel_for(
        "faults::thread_kernel", Kokkos::RangePolicy<Space>(exec, 0, 64),
        KOKKOS_LAMBDA(int j) { w(j) += 1.0f; });
    Kokkos::View<float*, Kokkos::HostSpace> h(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "faults::h"), 64);
    Kokkos::deep_copy(exec, h, w);
    exec.fence();
  }
#else
  Serial exec;
  Kokkos::View<float*, Kokkos::HostSpace> w(
      Kokkos::view_alloc(exec, "faults::w"), 64);
  for (int i = 0; i < 2000; ++i) {
    Kokkos::parallel_for("faults::thread_kernel",
                         Kokkos::RangePolicy<Serial>(exec, 0, 64),
                         [=](int j) { w(j) += 1.0f; });
    Kokkos::View<float*, Kokkos::HostSpace> h(
        Kokkos::view_alloc(exec, "faults::h"), 64);
    Kokkos::deep_copy(exec, h, w);
  }
#endif
  (void)t;
}

struct Thrower {
  int at;
  void operator()(int i) const {
    if (i == at) throw std::runtime_error("faults: thrown from a kernel");
  }
};

}  // namespace

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  const std::string c = argc > 1 ? argv[1] : "";
  const long n = argc > 2 ? std::atol(argv[2]) : -1;
  int rc = 0;
  if (c == "host_only") {
    Kokkos::View<float*, Kokkos::HostSpace> h("faults::host", 1000);
    for (int i = 0; i < 100; ++i) {
      Kokkos::parallel_for("faults::host_kernel",
                           Kokkos::RangePolicy<Host>(0, 1000),
                           [=](int j) { h(j) += 1.0f; });
      Kokkos::View<float*, Kokkos::HostSpace> c2("faults::host_copy", 1000);
      Kokkos::deep_copy(c2, h);
    }
    // A kernel long enough to time from here (milliseconds): the
    // tool's host time for it must be what this program measured around it.
    Kokkos::View<double*, Kokkos::HostSpace> big("faults::big", 1 << 22);
    double timed_s = 0;
    for (int i = 0; i < 20; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      Kokkos::parallel_for("faults::host_timed",
                           Kokkos::RangePolicy<Host>(0, 1 << 22),
                           [=](int j) { big(j) = big(j) * 0.5 + double(j); });
      timed_s +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
              .count();
    }
    std::printf(
        "host_only: faults::host_timed 20 calls, timed by the program "
        "%.9f s\n",
        timed_s);
  } else {
    Kokkos::View<float*> v("faults::v", 1000);
    if (c == "regions") {
      for (int i = 0; i < 3; ++i) Kokkos::Profiling::popRegion();
      const long regions = n > 0 ? n : 10000;
      for (long i = 0; i < regions; ++i) {
        Kokkos::Profiling::pushRegion("faults::step " + std::to_string(i));
        Kokkos::parallel_for("faults::in_region",
                             Kokkos::RangePolicy<Space>(0, 1),
                             KOKKOS_LAMBDA(int){});
      }
      kernel_and_copy("faults::after", v);
    } else if (c == "throw") {
      int caught = 0;
      for (int i = 0; i < 3; ++i) {
        try {
          // Serial where it is enabled: an exception may not leave an
          // OpenMP parallel region.
          Kokkos::parallel_for("faults::thrower",
                               Kokkos::RangePolicy<Serial>(0, 10), Thrower{5});
        } catch (const std::runtime_error&) {
          ++caught;
        }
      }
      kernel_and_copy("faults::after", v);
      std::printf("faults: caught %d\n", caught);
      rc = caught == 3 ? 0 : 1;
    } else if (c == "names") {
      const long kernels = n > 0 ? n : 100000;
      for (long i = 0; i < kernels; ++i)
        Kokkos::parallel_for("faults::kernel " + std::to_string(i),
                             Kokkos::RangePolicy<Space>(0, 1),
                             KOKKOS_LAMBDA(int){});
      Kokkos::fence();
    } else if (c == "threads") {
      const int threads = n > 0 ? int(n) : 16;
      std::vector<std::thread> ts;
      for (int t = 0; t < threads; ++t) ts.emplace_back(thread_body, t);
      for (auto& th : ts) th.join();
    } else if (c == "unfenced") {
      const long kernels = n > 0 ? n : 1000;
      for (long i = 0; i < kernels; ++i)
        Kokkos::parallel_for(
            "faults::unfenced", Kokkos::RangePolicy<Space>(0, v.extent_int(0)),
            KOKKOS_LAMBDA(int j) { v(j) += 1.0f; });
      // no fence: Kokkos::finalize follows
    } else if (c == "exit_return" || c == "exit_exit" || c == "exit_quick" ||
               c == "exit_abort") {
      Kokkos::Profiling::pushRegion("faults::before_exit");
      for (int i = 0; i < 10; ++i) kernel_and_copy("faults::before_exit", v);
      std::fflush(stdout);
      if (c == "exit_exit") std::exit(0);
      if (c == "exit_quick") std::quick_exit(0);
      if (c == "exit_abort") std::abort();
      return 0;  // exit_return: no Kokkos::finalize
    } else if (c == "signal") {
      const int sig = n > 0 ? int(n) : SIGTERM;
      Kokkos::Profiling::pushRegion("faults::before_signal");
      for (int i = 0; i < 10; ++i) kernel_and_copy("faults::before_signal", v);
      std::fflush(stdout);
      ::raise(sig);  // the tool writes, then the signal ends the process
      // (the default action ends the process before this)
      ::pause();
    } else if (c == "fork") {
      const long children = n > 0 ? n : 3;
      for (int i = 0; i < 10; ++i) kernel_and_copy("faults::before_fork", v);
      std::vector<pid_t> pids;
      for (long k = 0; k < children; ++k) {
        // Kernels right before: the tool's analyzer is busy at the fork.
        for (int i = 0; i < 50; ++i)
          Kokkos::parallel_for("faults::before_fork",
                               Kokkos::RangePolicy<Space>(0, 1),
                               KOKKOS_LAMBDA(int){});
        std::fflush(stdout);
        const pid_t pid = ::fork();
        if (pid == 0) {
          // Neither the device runtime nor the OpenMP runtime's threads
          // survive a fork: Serial host work only.
          Kokkos::View<float*, Kokkos::HostSpace> h(
              Kokkos::view_alloc(Serial(), "faults::child_view"), 100);
          for (int i = 0; i < 20; ++i)
            Kokkos::parallel_for("faults::child",
                                 Kokkos::RangePolicy<Serial>(0, 100),
                                 [=](int j) { h(j) += 1.0f; });
          std::exit(0);  // its report, JSON and trace: at exit
        }
        if (pid > 0) pids.push_back(pid);
      }
      for (pid_t pid : pids) {
        int st = 0;
        ::waitpid(pid, &st, 0);
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) rc = 1;
      }
      for (int i = 0; i < 10; ++i) kernel_and_copy("faults::parent", v);
      std::printf("faults: %zu children\n", pids.size());
    } else if (c == "chdir") {
      kernel_and_copy("faults::before_chdir", v);
      if (::chdir("/") != 0) rc = 1;
      for (int i = 0; i < 5; ++i) kernel_and_copy("faults::after_chdir", v);
    } else if (c == "plain") {
      for (int i = 0; i < 10; ++i) kernel_and_copy("faults::plain", v);
    } else {
      std::fprintf(
          stderr,
          "addscope-test-faults: CASE='%s' is unknown; allowed: "
          "regions, throw, names, threads, unfenced, host_only, "
          "exit_return, exit_exit, exit_quick, exit_abort, plain, signal, "
          "fork, chdir\n",
          c.c_str());
      rc = 2;
    }
  }
  Kokkos::finalize();
  return rc;
}
