// addscope — the stacks the program threads captured (record/
// addscope_StackCapture.hpp), interned: an id per distinct stack, 0 for
// none. Capped: stacks past kMaxStacks get no id (counted). The analyzer's
// (one thread at a time, under its lock).
#ifndef ADDSCOPE_WAITS_ANALYZE_STACKTABLE_HPP
#define ADDSCOPE_WAITS_ANALYZE_STACKTABLE_HPP

#include <cstdint>
#include <map>
#include <vector>

namespace addscope {
namespace Impl {

/// A stack ending in {kPythonFrameTag, file, function, line, called} (name
/// ids but the line) carries the program's own Python line after its
/// native addresses, and the package function that line called (0: none,
/// it called native code directly).
constexpr std::uint64_t kPythonFrameTag = 0xffffffffffffff01ull;
constexpr std::size_t kPythonTailSize = 5;

/// The Python line a stack ends in.
struct PythonTail {
  std::uint32_t file = 0, function = 0, called = 0;  ///< name ids
  int line = 0;
};
/// True when `stack` ends in a Python line (then `*out` holds it).
inline bool python_tail(const std::vector<std::uint64_t>& stack,
                        PythonTail* out) {
  const std::size_t n = stack.size();
  if (n < kPythonTailSize || stack[n - kPythonTailSize] != kPythonFrameTag)
    return false;
  out->file = std::uint32_t(stack[n - 4]);
  out->function = std::uint32_t(stack[n - 3]);
  out->line = int(stack[n - 2]);
  out->called = std::uint32_t(stack[n - 1]);
  return true;
}
/// The native addresses of `stack` (those before its Python line).
inline std::size_t native_depth(const std::vector<std::uint64_t>& stack) {
  PythonTail t;
  return python_tail(stack, &t) ? stack.size() - kPythonTailSize : stack.size();
}

class StackTable {
 public:
  static constexpr std::size_t kMaxStacks = 4096;
  /// The id of the stack `pcs[0..n)` (0 when n is 0 or past the cap).
  std::uint32_t intern(const std::uint64_t* pcs, std::uint32_t n) {
    if (n == 0) return 0;
    std::vector<std::uint64_t> key(pcs, pcs + n);
    auto it = ids_.find(key);
    if (it != ids_.end()) return it->second;
    if (stacks_.size() >= kMaxStacks) {
      ++dropped_;
      return 0;
    }
    stacks_.push_back(key);
    const auto id = std::uint32_t(stacks_.size());
    ids_.emplace(std::move(key), id);
    return id;
  }
  /// Stack `id`'s addresses (none for 0 or an unknown id).
  const std::vector<std::uint64_t>& operator[](std::uint32_t id) const {
    static const std::vector<std::uint64_t> kNone;
    return id == 0 || id > stacks_.size() ? kNone : stacks_[id - 1];
  }
  std::size_t size() const { return stacks_.size(); }
  std::uint64_t dropped() const { return dropped_; }

 private:
  std::vector<std::vector<std::uint64_t>> stacks_;
  std::map<std::vector<std::uint64_t>, std::uint32_t> ids_;
  std::uint64_t dropped_ = 0;
};

}  // namespace Impl
}  // namespace addscope

#endif
