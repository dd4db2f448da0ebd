#include "addscope/waits/record/addscope_StackCapture.hpp"

#include <link.h>
#include <sched.h>

#include <atomic>

#include "addscope/waits/record/addscope_StackMemo.hpp"

#ifdef ADDSCOPE_HAVE_LIBUNWIND
#define UNW_LOCAL_ONLY
#include <libunwind.h>
#else
#include <execinfo.h>
#endif

namespace addscope {
namespace Impl {

namespace {
// The tool's own shared library's code: [g_tool_lo, g_tool_hi), set once
// by prepare_stack_capture(); empty where the tool is in the executable.
std::uintptr_t g_tool_lo = 0, g_tool_hi = 0;

int find_tool_code(dl_phdr_info* info, std::size_t, void*) {
  const auto here = reinterpret_cast<std::uintptr_t>(&tool_frames);
  std::uintptr_t lo = ~std::uintptr_t(0), hi = 0;
  bool mine = false;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X)) continue;
    const std::uintptr_t a = info->dlpi_addr + ph.p_vaddr;
    const std::uintptr_t b = a + ph.p_memsz;
    if (here >= a && here < b) mine = true;
    if (a < lo) lo = a;
    if (b > hi) hi = b;
  }
  if (!mine) return 0;
  // The executable's own entry has no name: the tool is the program's.
  if (info->dlpi_name && info->dlpi_name[0]) {
    g_tool_lo = lo;
    g_tool_hi = hi;
  }
  return 1;
}

// fork(): a thread inside the unwinder holds its locks; the child, which
// has only the forking thread, would find them held for good. The gate
// is closed before fork() and captures under way drain first (both
// sequentially consistent: a capture either sees the gate closed or is
// counted before the drain reads the count).
std::atomic<bool> g_fork_gate{false};
std::atomic<int> g_capturing{0};

// A capture under way, counted while it lasts; not admitted while the gate
// is closed (then it takes no stack). The first check keeps captures off
// the count while the gate is closed (the drain then ends at once); the
// second is the one that decides.
class CaptureTurn {
 public:
  CaptureTurn() {
    if (g_fork_gate.load(std::memory_order_relaxed)) return;
    g_capturing.fetch_add(1);
    if (g_fork_gate.load()) {
      g_capturing.fetch_sub(1);
      return;
    }
    admitted_ = true;
  }
  ~CaptureTurn() {
    if (admitted_) g_capturing.fetch_sub(1);
  }
  CaptureTurn(const CaptureTurn&) = delete;
  CaptureTurn& operator=(const CaptureTurn&) = delete;
  bool admitted() const { return admitted_; }

 private:
  bool admitted_ = false;
};

#if defined(ADDSCOPE_HAVE_LIBUNWIND) && defined(__x86_64__)
#define ADDSCOPE_STACK_MEMO 1
// A stack taken a second time at one place (among the thread's last four
// unwound) is kept with its slots; from the third time on it is read from
// them (addscope_StackMemo.hpp).
thread_local StackMemo t_memo;
thread_local std::uint64_t t_memo_hits = 0;

// One step of `c` up to the caller: its return address and the slot it
// sits in (a frame's stack pointer is its callee's canonical frame address,
// with the return address in the 8 bytes below it, checked). 1: a step; 0:
// the outermost frame was reached; -1: the slot cannot be told (a signal
// frame, an unwinder error, a slot that does not hold the address).
int step_with_slot(unw_cursor_t* c, std::uint64_t* ip, std::uint64_t* slot) {
  const int r = unw_step(c);
  if (r == 0) return 0;
  unw_word_t pc = 0, sp = 0;
  if (r < 0 || unw_is_signal_frame(c) > 0 ||
      unw_get_reg(c, UNW_REG_IP, &pc) != 0 ||
      unw_get_reg(c, UNW_REG_SP, &sp) != 0 || sp < 8 ||
      *reinterpret_cast<const std::uint64_t*>(sp - 8) != pc)
    return -1;
  *ip = pc;
  *slot = sp - 8;
  return 1;
}

// Where each of `pcs` (the return addresses capture_stack() just took, its
// caller's first) sits in this thread's stack, by libunwind's own steps.
// False where a step cannot tell its slot or disagrees with `pcs`.
__attribute__((noinline)) bool slots_of(const std::uint64_t* pcs,
                                        std::uint32_t n, std::uint64_t* slots) {
  unw_context_t uc;
  unw_cursor_t c;
  if (unw_getcontext(&uc) != 0 || unw_init_local(&c, &uc) != 0) return false;
  // This function, then capture_stack(), then pcs[0]'s frame.
  if (unw_step(&c) <= 0) return false;
  for (std::uint32_t i = 0; i < n; ++i) {
    std::uint64_t ip = 0;
    if (step_with_slot(&c, &ip, &slots[i]) != 1 || ip != pcs[i]) return false;
  }
  return true;
}
#endif
}  // namespace

std::uint64_t stack_memo_hits() {
#ifdef ADDSCOPE_STACK_MEMO
  return t_memo_hits;
#else
  return 0;
#endif
}

std::uint32_t capture_stack(std::uint64_t* pcs, std::uint32_t max) {
  if (max == 0) return 0;
  const CaptureTurn turn;
  if (!turn.admitted()) return 0;
#ifdef ADDSCOPE_STACK_MEMO
  std::uint64_t sp;
  asm volatile("mov %%rsp, %0" : "=r"(sp));
  std::uint32_t kept = 0;
  if (t_memo.find(sp, max, pcs, &kept)) {
    ++t_memo_hits;
    return kept;
  }
#endif
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
#ifdef ADDSCOPE_STACK_MEMO
  // A stack unwound before at this place: kept with its slots (found
  // once: unwinding step by step costs more than a capture).
  if (t_memo.seen_again(sp, max, pcs, k)) {
    std::uint64_t slots[kMaxStackFrames];
    if (slots_of(pcs, k, slots)) t_memo.keep(sp, max, pcs, slots, k);
  }
#endif
  return k;
}

bool have_stack_slots() {
#ifdef ADDSCOPE_STACK_MEMO
  return true;
#else
  return false;
#endif
}

std::uint32_t capture_stack_slots(std::uint64_t* pcs, std::uint64_t* slots,
                                  std::uint32_t max) {
#ifdef ADDSCOPE_STACK_MEMO
  if (max == 0) return 0;
  const CaptureTurn turn;
  if (!turn.admitted()) return 0;
  std::uint32_t k = 0;
  unw_context_t uc;
  unw_cursor_t c;
  if (max > kMaxStackFrames) max = kMaxStackFrames;
  if (unw_getcontext(&uc) == 0 && unw_init_local(&c, &uc) == 0) {
    // The first step is to this function's caller.
    while (k < max) {
      const int r = step_with_slot(&c, &pcs[k], &slots[k]);
      if (r == 0) break;  // the outermost frame
      if (r < 0) {
        k = 0;
        break;
      }
      ++k;
    }
  }
  return k;
#else
  (void)pcs;
  (void)slots;
  (void)max;
  return 0;
#endif
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

std::uint32_t tool_frames(const std::uint64_t* pcs, std::uint32_t n) {
  std::uint32_t k = 0;
  while (k < n && pcs[k] >= g_tool_lo && pcs[k] < g_tool_hi) ++k;
  return k;
}

void prepare_stack_capture() {
  if (g_tool_hi == 0) dl_iterate_phdr(find_tool_code, nullptr);
#ifdef ADDSCOPE_HAVE_LIBUNWIND
  // Each thread its own cache of unwinding rules: no lock on a capture.
  unw_set_caching_policy(unw_local_addr_space, UNW_CACHE_PER_THREAD);
#endif
  std::uint64_t pcs[4];
  capture_stack(pcs, 4);
}

}  // namespace Impl
}  // namespace addscope
