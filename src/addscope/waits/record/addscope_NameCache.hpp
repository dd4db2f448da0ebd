// addscope — a program thread's names, as its log refers to them: a small
// cache from text to a slot number, looked up by the text's address first
// and compared (never trusted: Kokkos passes the text of temporaries, whose
// addresses are reused for other names), then by a hash of the text. A new
// text takes the next slot in turn; its definition goes into the log
// (EventKind::NameDef) before the first record that uses it, so the
// analyzer always knows what a slot means at that point of the log.
// Writer-side only: one thread, no lock. Allocates only when a slot's text
// grows past what it held (not in steady state).
#ifndef ADDSCOPE_WAITS_RECORD_NAMECACHE_HPP
#define ADDSCOPE_WAITS_RECORD_NAMECACHE_HPP

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace addscope {
namespace Impl {

class NameCache {
 public:
  /// Slots per thread; slot 0 is the empty name and is never defined.
  static constexpr std::uint32_t kSlots = 1024;

  /// The slot holding `s`. `*is_new`: the slot was (re)assigned to `s` and
  /// must be defined in the log before it is used.
  std::uint32_t find(std::string_view s, bool* is_new);
  /// The hot path's look-up, inline: the slot of `s` when its address held
  /// this text last and its slot still does, else 0 (then find()).
  std::uint32_t hit(std::string_view s) const {
    const ByAddress& a = by_address_[address_index(s.data())];
    return a.p == s.data() && a.len == s.size() && holds(a.slot, s) ? a.slot
                                                                    : 0;
  }
  const std::string& text(std::uint32_t slot) const { return slots_[slot]; }
  /// Its definition could not be written: the next find() defines it again.
  void forget(std::uint32_t slot);

 private:
  static constexpr std::uint32_t kTable = 2048;  // per lookup table
  struct ByAddress {
    const char* p = nullptr;
    std::uint32_t len = 0;
    std::uint32_t slot = 0;
  };
  struct ByText {
    std::uint64_t hash = 0;
    std::uint32_t slot = 0;
  };
  static std::uint64_t hash(std::string_view s);
  static std::size_t address_index(const char* p) {
    const auto addr = reinterpret_cast<std::uintptr_t>(p);
    return ((addr >> 3) * 0x9E3779B97F4A7C15ull) >> 53 & (kTable - 1);
  }
  bool holds(std::uint32_t slot, std::string_view s) const {
    const std::string& t = slots_[slot];
    return slot != 0 && t.size() == s.size() &&
           std::memcmp(t.data(), s.data(), s.size()) == 0;
  }
  std::array<ByAddress, kTable> by_address_{};
  std::array<ByText, kTable> by_text_{};
  std::array<std::string, kSlots> slots_{};
  std::uint32_t next_ = 1;
};

}  // namespace Impl
}  // namespace addscope

#endif
