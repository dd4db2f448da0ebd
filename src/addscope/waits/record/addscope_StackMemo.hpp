// addscope — a thread's recent stacks, each with where its return addresses
// sit in the thread's stack, so that a stack taken again at the same place
// is read without unwinding it (a wait in a loop: the same line each time).
//
// The rule: a capture whose stack pointer is a kept stack's, and whose
// stack still holds each of that stack's return addresses in the slot it
// was found in, is that stack. By induction from the innermost frame: the
// same code at the same stack pointer has its return address in the same
// slot (a frame's size follows from its code), and the same return address
// there is the same caller, at the same stack pointer. Frames sized at run
// time (alloca, variable-length arrays) break the step: there a slot could
// hold the old address by chance; the tool's own callers and the device
// runtimes have none.
#ifndef ADDSCOPE_WAITS_RECORD_STACKMEMO_HPP
#define ADDSCOPE_WAITS_RECORD_STACKMEMO_HPP

#include <cstdint>
#include <cstring>

#include "addscope/waits/record/addscope_StackCapture.hpp"

namespace addscope {
namespace Impl {

class StackMemo {
 public:
  static constexpr std::uint32_t kEntries = 4;

  /// A kept stack taken at stack pointer `sp` with at most `max` frames
  /// whose return addresses are all still in place: into `pcs` (its
  /// length in `*n`); false when none is.
  bool find(std::uint64_t sp, std::uint32_t max, std::uint64_t* pcs,
            std::uint32_t* n) const {
    for (const Entry& e : kept_) {
      if (e.n == 0 || e.sp != sp || e.max != max) continue;
      std::uint32_t i = 0;
      while (i < e.n && *reinterpret_cast<const volatile std::uint64_t*>(
                            e.slots[i]) == e.pcs[i])
        ++i;
      if (i != e.n) continue;
      std::memcpy(pcs, e.pcs, e.n * sizeof(std::uint64_t));
      *n = e.n;
      return true;
    }
    return false;
  }

  /// A stack of `n` return addresses just unwound at `sp`: true when the
  /// same one was unwound there before (among the last kEntries), worth
  /// keeping with its slots (keep()); else it is noted.
  bool seen_again(std::uint64_t sp, std::uint32_t max, const std::uint64_t* pcs,
                  std::uint32_t n) {
    if (n == 0 || n > kMaxStackFrames) return false;
    for (Entry& e : seen_)
      if (e.n == n && e.sp == sp && e.max == max &&
          std::memcmp(e.pcs, pcs, n * sizeof(std::uint64_t)) == 0) {
        e.n = 0;
        return true;
      }
    put(seen_, &next_seen_, sp, max, pcs, n);
    return false;
  }

  /// Keeps a stack of `n` (1 to kMaxStackFrames) return addresses taken at
  /// `sp`, each `pcs[i]` read from the stack slot at address `slots[i]`
  /// (above `sp`, in this thread's stack), in place of the oldest.
  void keep(std::uint64_t sp, std::uint32_t max, const std::uint64_t* pcs,
            const std::uint64_t* slots, std::uint32_t n) {
    if (n == 0 || n > kMaxStackFrames) return;
    Entry& e = put(kept_, &next_kept_, sp, max, pcs, n);
    std::memcpy(e.slots, slots, n * sizeof(std::uint64_t));
  }

 private:
  struct Entry {
    std::uint64_t sp = 0;
    std::uint32_t max = 0, n = 0;
    std::uint64_t pcs[kMaxStackFrames];
    std::uint64_t slots[kMaxStackFrames];
  };
  // In place of the ring's oldest.
  static Entry& put(Entry* ring, std::uint32_t* next, std::uint64_t sp,
                    std::uint32_t max, const std::uint64_t* pcs,
                    std::uint32_t n) {
    Entry& e = ring[*next];
    *next = (*next + 1) % kEntries;
    e.sp = sp;
    e.max = max;
    e.n = n;
    std::memcpy(e.pcs, pcs, n * sizeof(std::uint64_t));
    return e;
  }
  Entry kept_[kEntries];
  Entry seen_[kEntries];
  std::uint32_t next_kept_ = 0, next_seen_ = 0;
};

}  // namespace Impl
}  // namespace addscope

#endif
