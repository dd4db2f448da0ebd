// A forked child awaited with a deadline: a child that hangs (a lock held at
// fork() by another thread, say) is killed and reported, so the test fails
// instead of hanging CI.
#ifndef ADDSCOPE_TEST_CHILD_PROCESS_HPP
#define ADDSCOPE_TEST_CHILD_PROCESS_HPP

#include <sys/types.h>
#include <sys/wait.h>

#include <chrono>
#include <csignal>
#include <thread>

namespace addscope_test {

/// Waits up to `seconds` for child `pid` to end; its wait status in
/// `*status`. Returns false, the child killed (SIGKILL) and reaped, if it had
/// not ended by then.
inline bool wait_or_kill(pid_t pid, double seconds, int* status) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  for (;;) {
    const pid_t got = ::waitpid(pid, status, WNOHANG);
    if (got == pid) return true;
    if (got < 0) return false;  // not our child: nothing to wait for
    if (std::chrono::steady_clock::now() >= deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, status, 0);
  return false;
}

}  // namespace addscope_test

#endif  // ADDSCOPE_TEST_CHILD_PROCESS_HPP
