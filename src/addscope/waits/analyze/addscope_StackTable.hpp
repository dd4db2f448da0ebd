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

/// A stack ending in {kPythonFrameTag, file, function, line} (name ids and a
/// line) carries the program's own Python line after its native addresses.
constexpr std::uint64_t kPythonFrameTag = 0xffffffffffffff01ull;

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
