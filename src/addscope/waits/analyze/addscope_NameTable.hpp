// addscope — the analyzer's names: every name a report, JSON or trace may
// print, interned once (ids are stable for the run), capped in count and
// bytes; each name's readable form ("launch of X", the short kernel name)
// and what the rules ask of it (a fence the program wrote?) computed once;
// and names made of others ("between 'A' and 'B'", "deep_copy dst<-src
// (Dst<-Src, 4 B)") made once, keyed exactly by their parts.
#ifndef ADDSCOPE_WAITS_ANALYZE_NAMETABLE_HPP
#define ADDSCOPE_WAITS_ANALYZE_NAMETABLE_HPP

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace addscope {
namespace Impl {

/// What kind of composite name a combo key stands for.
enum class Combo : std::uint8_t {
  After = 1,     // "after 'A'"
  Between,       // "between 'A' and 'B'"
  Before,        // "before 'B'"
  ApiCall,       // a blocking runtime call in words
  ApiCallNamed,  // ... under the call's own name
  InFence,       // "X in fence 'F'"
  InCall,        // "X in C"
  RuntimeSite,   // "X after 'A'"
  RegionPath,    // "outer > inner"
  RegionStart,   // "start of region R"
  RegionEnd,     // "end of region R"
  DeepCopySite,  // "deep_copy dst<-src (Dst<-Src)"
  DeepCopyWhat,  // "... , 4 B)"
  Allocate,      // "allocate label (Space, 4 B)"
  Deallocate,    // "deallocate label (Space, 4 B)"
};

class NameTable {
 public:
  enum Flag : std::uint8_t {
    kFlagsKnown = 1,
    kUserFence = 2,
    kResultFence = 4,
    kViewInit = 8,
  };

  NameTable(std::size_t max_names, std::size_t max_bytes);

  /// The id of `s` (0: ""; full_name() past the caps, counted).
  std::uint32_t intern(std::string_view s);
  const std::string& operator[](std::uint32_t id) const { return names_[id]; }
  std::uint32_t full_name() const { return full_; }
  std::uint32_t no_event_name() const { return no_event_; }
  std::uint32_t outside_kokkos_name() const { return outside_kokkos_; }

  /// The readable form of a kernel name (attribution/addscope_KernelName).
  std::uint32_t short_id(std::uint32_t id);
  /// "launch of <short>".
  std::uint32_t launch_name(std::uint32_t id);
  /// Flag bits of the name.
  std::uint8_t flags(std::uint32_t id);

  /// The composite name keyed (exactly) by (kind, a, b), made by `make()`
  /// the first time.
  template <class Make>
  std::uint32_t combo(Combo kind, std::uint64_t a, std::uint64_t b, Make make) {
    const Key k{kind, a, b};
    auto it = combos_.find(k);
    if (it != combos_.end()) return it->second;
    const std::uint32_t id = intern(make());
    if (id == full_) return id;  // not kept: the table is full
    if (combos_.size() >= 2 * max_names_) combos_.clear();  // a cache
    combos_.emplace(k, id);
    return id;
  }

  std::size_t size() const { return names_.size(); }
  std::size_t bytes() const { return bytes_; }
  std::uint64_t dropped() const { return dropped_; }

 private:
  struct Key {
    Combo kind;
    std::uint64_t a, b;
    bool operator==(const Key& o) const {
      return kind == o.kind && a == o.a && b == o.b;
    }
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      std::uint64_t h = std::uint64_t(k.kind) * 0x9E3779B97F4A7C15ull;
      h ^= k.a + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
      h ^= k.b + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
      return std::size_t(h);
    }
  };
  std::uint32_t add(std::string_view s);

  std::size_t max_names_, max_bytes_;
  std::deque<std::string> names_;  // stable: ids_ views into it
  std::unordered_map<std::string_view, std::uint32_t> ids_;
  std::size_t bytes_ = 0;
  std::uint64_t dropped_ = 0;
  std::vector<std::uint32_t> short_of_, launch_of_;
  std::vector<std::uint8_t> flags_of_;
  std::unordered_map<Key, std::uint32_t, KeyHash> combos_;
  std::uint32_t full_ = 0, no_event_ = 0, outside_kokkos_ = 0;
};

}  // namespace Impl
}  // namespace addscope

#endif
