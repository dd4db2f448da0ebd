// addscope — the calling thread's return addresses, innermost first: what a
// program thread records where the program's own line of code is wanted
// (a call that waited, a kernel's first launch). No lock, no allocation in
// steady state (libunwind's per-thread cache; glibc's backtrace() where
// libunwind is absent, made ready by prepare_stack_capture()). The
// addresses are symbolized later, when a report is made
// (site/addscope_SiteResolver.hpp).
#ifndef ADDSCOPE_WAITS_RECORD_STACKCAPTURE_HPP
#define ADDSCOPE_WAITS_RECORD_STACKCAPTURE_HPP

#include <cstdint>

namespace addscope {
namespace Impl {

/// The most addresses one capture keeps: the tool's own frames, the device
/// runtime's and Kokkos' come first, the program's own after them.
constexpr std::uint32_t kMaxStackFrames = 32;

/// Up to `max` return addresses of the calling thread into `pcs`, innermost
/// first, this function's own caller first; how many. A stack taken a
/// second time at one place is read from where its return addresses sit
/// from then on, without unwinding (addscope_StackMemo.hpp; x86-64 with
/// libunwind).
std::uint32_t capture_stack(std::uint64_t* pcs, std::uint32_t max);

/// How many of this thread's captures were read from a kept stack.
std::uint64_t stack_memo_hits();

/// Whether capture_stack_slots() can tell where addresses sit (x86-64 with
/// libunwind).
bool have_stack_slots();
/// As capture_stack(), with the stack slot each address was read from
/// (`slots[i]`, in this thread's stack) by the unwinder's own steps: the
/// way to tell later, by a few loads, that the thread is at the same place
/// again (record/addscope_LaunchPlaces.hpp). Unwinds every time (slower
/// than capture_stack()); 0 where the slots cannot be told (a signal frame
/// on the way, no libunwind, not x86-64).
std::uint32_t capture_stack_slots(std::uint64_t* pcs, std::uint64_t* slots,
                                  std::uint32_t max);

/// How many of `pcs` (`n` return addresses, innermost first) lie in the
/// tool's own shared library, from the innermost: the tool's frames above
/// a capture, never the program's line, left out of what a log records.
/// None where the tool is part of the program's own executable (its unit
/// tests) or before prepare_stack_capture().
std::uint32_t tool_frames(const std::uint64_t* pcs, std::uint32_t n);

/// The calling function's stack pointer.
#if defined(__x86_64__)
#define ADDSCOPE_STACK_POINTER(sp) asm volatile("mov %%rsp, %0" : "=r"(sp))
#else
#define ADDSCOPE_STACK_POINTER(sp) ((sp) = 0)
#endif

/// fork(): stops new captures (they take no stack meanwhile) and waits for
/// those under way — a thread inside the unwinder at fork() would leave its
/// lock held in the child for good.
void hold_stack_capture_for_fork();
/// After fork(), in the parent and in the child (`child`): captures take
/// stacks again.
void release_stack_capture_after_fork(bool child);

/// Loads what the unwinder loads on its first use (outside any callback).
void prepare_stack_capture();

}  // namespace Impl
}  // namespace addscope

#endif
