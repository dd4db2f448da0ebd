#include "addscope/waits/record/addscope_NameCache.hpp"

#include <cstring>

namespace addscope {
namespace Impl {

std::uint64_t NameCache::hash(std::string_view s) {
  // Eight bytes a step (a name's text is hashed on every miss by address:
  // Kokkos passes the labels of temporaries): multiply-xorshift mixing.
  constexpr std::uint64_t kMul = 0x9E3779B97F4A7C15ull;
  std::uint64_t h = 1469598103934665603ull ^ (s.size() * kMul);
  const char* p = s.data();
  std::size_t n = s.size();
  for (; n >= 8; p += 8, n -= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * kMul;
    h ^= h >> 29;
  }
  if (n) {
    std::uint64_t w = 0;
    std::memcpy(&w, p, n);
    h = (h ^ w) * kMul;
    h ^= h >> 29;
  }
  return h;
}

std::uint32_t NameCache::find(std::string_view s, bool* is_new) {
  *is_new = false;
  if (s.empty()) return 0;
  if (const std::uint32_t slot = hit(s)) return slot;
  const std::uint64_t h = hash(s);
  ByText& t = by_text_[h & (kTable - 1)];
  std::uint32_t slot = 0;
  if (t.hash == h && holds(t.slot, s)) {
    slot = t.slot;
  } else {
    slot = next_;
    next_ = next_ + 1 == kSlots ? 1 : next_ + 1;
    slots_[slot].assign(s.data(), s.size());
    t.hash = h;
    t.slot = slot;
    *is_new = true;
  }
  ByAddress& a = by_address_[address_index(s.data())];
  a.p = s.data();
  a.len = std::uint32_t(s.size());
  a.slot = slot;
  return slot;
}

void NameCache::forget(std::uint32_t slot) {
  if (slot != 0 && slot < kSlots) slots_[slot].clear();  // holds() fails now
}

}  // namespace Impl
}  // namespace addscope
