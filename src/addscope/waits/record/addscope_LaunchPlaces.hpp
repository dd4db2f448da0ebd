// addscope — where a thread last launched each of its kernels, so that a
// launch at the place of the one before costs a few loads, not a stack:
// each launch is then at its own line (a kernel launched once on nothing
// to load its module, then 20,000 times in a loop, is at the loop's line).
//
// A place is the stack above the launching function's frame, kept with the
// slot each return address sat in (capture_stack_slots()); a launch is at
// that place again when the launching function's stack pointer is the
// same and every slot still holds its address — the rule of
// record/addscope_StackMemo.hpp, which this applies to one entry per kernel.
// The native stack alone cannot tell two Python lines apart (the
// interpreter's frames are the same): in a Python process the caller makes
// the program's Python place (python_place(), `python_files`) part of the
// key.
#ifndef ADDSCOPE_WAITS_RECORD_LAUNCHPLACES_HPP
#define ADDSCOPE_WAITS_RECORD_LAUNCHPLACES_HPP

#include <cstdint>
#include <cstring>

#include "addscope/waits/record/addscope_PythonFrames.hpp"
#include "addscope/waits/record/addscope_StackCapture.hpp"

namespace addscope {
namespace Impl {

class LaunchPlaces {
 public:
  /// Places kept at once: kWays per set, a place in the set its kernel and
  /// stack pointer pick (a kernel launched at two lines in turn is at
  /// both); the oldest of a set is pushed out, and takes a stack at its
  /// next launch.
  static constexpr std::uint32_t kSets = 16, kWays = 4;

  /// Whether places are worth keeping on this thread: not once the slots
  /// could not be told kMaxFailures times (an unwinder's step it cannot
  /// check), nor while most launches come from places not kept (more
  /// places than fit: each would take a stack) — then a launch is placed
  /// as without places (its kernel's, or shape's, first launch).
  static constexpr std::uint32_t kMaxFailures = 8;
  bool usable() const {
    return failures_ < kMaxFailures &&
           !(misses_ >= 256 && misses_ * 4 > launches_);
  }
  /// The slots of a new place could not be told.
  void failed() { ++failures_; }

  /// The Python files this thread's launches were seen in (a Python
  /// process's places: python_place()).
  PythonFiles python_files;

  /// The place kept for `key` (a kernel, never 0) that the launching
  /// function, whose stack pointer is `sp`, is at again; 0 if none (a
  /// miss: the caller takes a stack and keep()s it).
  std::uint32_t same(std::uint64_t key, std::uint64_t sp) {
    ++launches_;
    const Entry* set = &entries_[index(key, sp) * kWays];
    for (std::uint32_t w = 0; w < kWays; ++w) {
      const Entry& e = set[w];
      if (e.place == 0 || e.key != key || e.sp != sp) continue;
      std::uint32_t i = 0;
      while (i < e.n && *reinterpret_cast<const volatile std::uint64_t*>(
                            e.slots[i]) == e.pcs[i])
        ++i;
      if (i == e.n) return e.place;
    }
    ++misses_;
    return 0;
  }

  /// Keeps the place of a launch of `key` by the function whose stack
  /// pointer is `sp`: of the `n` return addresses `pcs` found at `slots`,
  /// those above `sp` (the launching function's and its callers'; below it
  /// are the tool's own frames, gone once they return). Returns the new
  /// place's number (never 0), or 0 when none could be kept.
  std::uint32_t keep(std::uint64_t key, std::uint64_t sp,
                     const std::uint64_t* pcs, const std::uint64_t* slots,
                     std::uint32_t n) {
    if (key == 0 || sp == 0 || n > kMaxStackFrames) return 0;
    Entry& e = claim(key, sp);
    for (std::uint32_t i = 0; i < n; ++i)
      if (slots[i] > sp) {
        e.pcs[e.n] = pcs[i];
        e.slots[e.n] = slots[i];
        ++e.n;
      }
    if (e.n == 0) {
      ++failures_;
      return 0;
    }
    return number(e, key, sp);
  }
  /// Keeps a place that `key` alone tells, at `sp`, with no slots to check:
  /// a Python program's launch, whose key holds its Python line (the line
  /// is its place; its native frames are not read).
  std::uint32_t keep(std::uint64_t key, std::uint64_t sp) {
    if (key == 0 || sp == 0) return 0;
    return number(claim(key, sp), key, sp);
  }

 private:
  struct Entry {
    std::uint64_t key = 0, sp = 0;
    std::uint32_t place = 0, n = 0;
    std::uint64_t pcs[kMaxStackFrames];
    std::uint64_t slots[kMaxStackFrames];
  };
  // The way of (key, sp)'s set in turn, emptied.
  Entry& claim(std::uint64_t key, std::uint64_t sp) {
    const std::uint32_t set = index(key, sp);
    Entry& e = entries_[set * kWays + next_way_[set]];
    next_way_[set] = (next_way_[set] + 1) % kWays;
    e.place = 0;
    e.n = 0;
    return e;
  }
  // A new place's number in `e`.
  std::uint32_t number(Entry& e, std::uint64_t key, std::uint64_t sp) {
    e.key = key;
    e.sp = sp;
    if (++next_place_ == 0) ++next_place_;
    e.place = next_place_;
    return e.place;
  }
  static std::uint32_t index(std::uint64_t key, std::uint64_t sp) {
    return std::uint32_t(((key ^ (sp >> 3)) * 0x9e3779b97f4a7c15ull) >> 60) %
           kSets;
  }
  Entry entries_[kSets * kWays];
  std::uint8_t next_way_[kSets] = {};
  std::uint32_t next_place_ = 0;
  std::uint32_t failures_ = 0;
  std::uint64_t launches_ = 0, misses_ = 0;
};

}  // namespace Impl
}  // namespace addscope

#endif
