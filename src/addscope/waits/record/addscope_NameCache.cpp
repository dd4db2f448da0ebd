#include "addscope/waits/record/addscope_NameCache.hpp"

#include <cstring>

namespace addscope {
namespace Impl {

std::uint64_t NameCache::hash(std::string_view s) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (const char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return h;
}

std::uint32_t NameCache::find(std::string_view s, bool* is_new) {
  *is_new = false;
  if (s.empty()) return 0;
  const auto addr = reinterpret_cast<std::uintptr_t>(s.data());
  ByAddress& a =
      by_address_[((addr >> 3) * 0x9E3779B97F4A7C15ull) >> 53 & (kTable - 1)];
  if (a.p == s.data() && a.len == s.size() && holds(a.slot, s)) return a.slot;
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
