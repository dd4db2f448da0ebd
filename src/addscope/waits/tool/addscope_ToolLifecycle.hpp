// addscope — how the waits tool ends, whatever ends the program:
//   * Kokkos::finalize, exit() or a return from main (atexit), quick_exit
//     (at_quick_exit): the report, JSON and trace are written then;
//   * SIGTERM, SIGINT, SIGHUP (where the program left them to their default
//     action): the handler only posts the signal to the analyzer's thread,
//     which writes everything, then restores the default action and raises
//     the signal again — the exit status is the signal's, as without the
//     tool;
//   * abort() (an uncaught exception too): the handler asks the analyzer's
//     thread to write everything and waits for it (at most kAbortWait_s),
//     then abort goes on;
//   * SIGKILL, _exit(): nothing can run; the trace on disk ends at an event
//     boundary (output/addscope_ChromeTrace.hpp) and opens as it is;
//   * fork(): the child starts with a fresh, empty state (its outputs:
//     tool/addscope_ToolOutputs.hpp), no deadlock whatever the tool's threads
//     held at the fork (every lock is taken across it).
#ifndef ADDSCOPE_WAITS_TOOL_TOOLLIFECYCLE_HPP
#define ADDSCOPE_WAITS_TOOL_TOOLLIFECYCLE_HPP

namespace addscope {
class SyncTracker;
namespace Impl {

constexpr double kAbortWait_s = 2.0;

struct LifecycleHooks {
  /// Writes the report, JSON and trace once (later calls wait for the
  /// first to finish, then return). `note`: why now (null: Kokkos::finalize).
  void (*finish)(const char* note) = nullptr;
  /// In a child after fork(), once the tracker is reset: the tool's own
  /// state (outputs, the analyzer's thread).
  void (*after_fork_child)() = nullptr;
};

/// Registers the exit hooks, the signal handlers and the fork handlers for
/// `tracker` (once per process).
void install_lifecycle(SyncTracker& tracker, LifecycleHooks hooks);

/// The analyzer's thread, for a posted signal: finish, then end the
/// process as the signal would have.
void on_posted_signal(int sig);

}  // namespace Impl
}  // namespace addscope

#endif
