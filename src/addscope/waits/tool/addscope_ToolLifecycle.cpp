#include "addscope/waits/tool/addscope_ToolLifecycle.hpp"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <string>

#include "addscope/waits/addscope_SyncTracker.hpp"
#include "addscope/waits/addscope_WaitsSettings.hpp"
#include "addscope/waits/device/addscope_DeviceSource.hpp"

namespace addscope {
namespace Impl {

namespace {

SyncTracker* g_tracker = nullptr;
LifecycleHooks g_hooks;
// The abort handler waits on this pipe for the analyzer's thread.
int g_done[2] = {-1, -1};
constexpr int kSignals[] = {SIGTERM, SIGINT, SIGHUP, SIGABRT};

// A program without Kokkos has no Kokkos::finalize() to miss.
bool kokkos_program() { return g_tracker && g_tracker->kokkos_seen(); }
void exit_hook() {
  if (g_hooks.finish)
    g_hooks.finish(kokkos_program()
                       ? "the program ended without Kokkos::finalize(); "
                         "report written at exit"
                       : "the program ended; report written at exit");
}
void quick_exit_hook() {
  if (g_hooks.finish)
    g_hooks.finish(kokkos_program()
                       ? "the program ended by std::quick_exit() without "
                         "Kokkos::finalize(); report written then"
                       : "the program ended by std::quick_exit(); report "
                         "written then");
}

// Async-signal-safe: posts the signal to the analyzer's thread (and, for
// abort, waits a bounded time for it to have written everything).
void on_signal(int sig) {
  const int saved = errno;
  if (g_tracker) g_tracker->post_signal(sig);
  if (sig == SIGABRT && g_done[0] >= 0) {
    pollfd p{g_done[0], POLLIN, 0};
    ::poll(&p, 1, int(kAbortWait_s * 1000));
  }
  errno = saved;
}

void prepare() {
  if (g_tracker) g_tracker->prepare_fork();
}
void parent() {
  if (g_tracker) g_tracker->after_fork_parent();
}
void child() {
  if (!g_tracker) return;
  g_tracker->after_fork_child();
  if (g_hooks.after_fork_child) g_hooks.after_fork_child();
}

}  // namespace

void on_posted_signal(int sig) {
  const char* note = "killed by a signal; report written then";
  switch (sig) {
    case SIGTERM:
      note = "the program got SIGTERM; report written then";
      break;
    case SIGINT:
      note = "the program got SIGINT; report written then";
      break;
    case SIGHUP:
      note = "the program got SIGHUP; report written then";
      break;
    case SIGABRT:
      note =
          "the program aborted (abort(), or an uncaught exception); "
          "report written then";
      break;
  }
  if (g_hooks.finish) g_hooks.finish(note);
  if (sig == SIGABRT) {
    // abort() goes on in its own thread once the handler returns.
    if (g_done[1] >= 0) {
      const char c = 1;
      (void)!::write(g_done[1], &c, 1);
    }
    return;
  }
  // As the signal would have ended the process without the tool.
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  ::sigaction(sig, &dfl, nullptr);
  ::kill(::getpid(), sig);
}

void install_lifecycle(SyncTracker& tracker, LifecycleHooks hooks) {
  static std::atomic<bool> once{false};
  if (once.exchange(true)) return;
  g_tracker = &tracker;
  g_hooks = hooks;
  std::atexit(exit_hook);
  std::at_quick_exit(quick_exit_hook);
  // And again at the first CUDA call CUPTI shows: exit hooks run in the
  // reverse order of their registration, and one registered before the
  // CUDA runtime's would run after CUDA tore itself down — with CUPTI's
  // records, buffers and callbacks half gone (a Kokkos program returning
  // from main without Kokkos::finalize crashed in its exit so). The report
  // is written once, by whichever runs first.
  set_cuda_started_hook([] {
    const char* v = waits_setting("ADDSCOPE_WAITS_EXIT_HOOK_AT_CUDA");
    if (!v || std::string(v) != "0") std::atexit(exit_hook);
  });
  if (::pipe2(g_done, O_CLOEXEC) != 0) g_done[0] = g_done[1] = -1;
  // Only where the program left the default action: its own handlers
  // (Python's SIGINT, an MPI launcher's) stay as they are.
  for (int sig : kSignals) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0) continue;
    if (old.sa_handler != SIG_DFL || (old.sa_flags & SA_SIGINFO)) continue;
    struct sigaction sa {};
    sa.sa_handler = &on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    ::sigaction(sig, &sa, nullptr);
  }
  ::pthread_atfork(&prepare, &parent, &child);
}

}  // namespace Impl
}  // namespace addscope
