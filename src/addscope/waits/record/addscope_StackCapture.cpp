#include "addscope/waits/record/addscope_StackCapture.hpp"

#include <sched.h>

#include <atomic>

#ifdef ADDSCOPE_HAVE_LIBUNWIND
#define UNW_LOCAL_ONLY
#include <libunwind.h>
#else
#include <execinfo.h>
#endif

namespace addscope {
namespace Impl {

namespace {
// fork(): a thread inside the unwinder holds its locks; the child, which
// has only the forking thread, would find them held for good. The gate
// is closed before fork() and captures under way drain first (both
// sequentially consistent: a capture either sees the gate closed or is
// counted before the drain reads the count).
std::atomic<bool> g_fork_gate{false};
std::atomic<int> g_capturing{0};
}  // namespace

std::uint32_t capture_stack(std::uint64_t* pcs, std::uint32_t max) {
  // The first check keeps captures off the count while the gate is closed
  // (the drain then ends at once); the second is the one that decides.
  if (max == 0 || g_fork_gate.load(std::memory_order_relaxed)) return 0;
  g_capturing.fetch_add(1);
  if (g_fork_gate.load()) {
    g_capturing.fetch_sub(1);
    return 0;
  }
  void* buf[kMaxStackFrames + 1];
  const int want = int(max < kMaxStackFrames ? max : kMaxStackFrames) + 1;
#ifdef ADDSCOPE_HAVE_LIBUNWIND
  const int n = unw_backtrace(buf, want);
#else
  const int n = backtrace(buf, want);
#endif
  // buf[0] is this function itself.
  std::uint32_t k = 0;
  for (int i = 1; i < n; ++i)
    pcs[k++] = reinterpret_cast<std::uint64_t>(buf[i]);
  g_capturing.fetch_sub(1);
  return k;
}

void hold_stack_capture_for_fork() {
  g_fork_gate.store(true);
  while (g_capturing.load() != 0) ::sched_yield();
}

void release_stack_capture_after_fork(bool child) {
  // In the child the threads counted at fork() (between their count and
  // the gate's check) do not exist.
  if (child) g_capturing.store(0);
  g_fork_gate.store(false);
}

void prepare_stack_capture() {
#ifdef ADDSCOPE_HAVE_LIBUNWIND
  // Each thread its own cache of unwinding rules: no lock on a capture.
  unw_set_caching_policy(unw_local_addr_space, UNW_CACHE_PER_THREAD);
#endif
  std::uint64_t pcs[4];
  capture_stack(pcs, 4);
}

}  // namespace Impl
}  // namespace addscope
