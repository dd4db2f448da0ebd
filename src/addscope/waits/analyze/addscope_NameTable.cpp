#include "addscope/waits/analyze/addscope_NameTable.hpp"

#include "addscope/waits/attribution/addscope_Attribution.hpp"
#include "addscope/waits/attribution/addscope_KernelName.hpp"

namespace addscope {
namespace Impl {

NameTable::NameTable(std::size_t max_names, std::size_t max_bytes)
    : max_names_(max_names), max_bytes_(max_bytes) {
  add("");
  full_ = add("(name table full)");
  no_event_ = add("before any Kokkos event");
  outside_kokkos_ = add("(a kernel launched outside Kokkos)");
}

std::uint32_t NameTable::add(std::string_view s) {
  const auto id = std::uint32_t(names_.size());
  names_.emplace_back(s);
  ids_.emplace(std::string_view(names_.back()), id);
  bytes_ += s.size();
  short_of_.push_back(0);
  launch_of_.push_back(0);
  flags_of_.push_back(0);
  return id;
}

std::uint32_t NameTable::intern(std::string_view s) {
  if (s.empty()) return 0;
  auto it = ids_.find(s);
  if (it != ids_.end()) return it->second;
  if (names_.size() >= max_names_ || bytes_ + s.size() > max_bytes_) {
    ++dropped_;
    return full_;
  }
  return add(s);
}

std::uint32_t NameTable::short_id(std::uint32_t id) {
  if (id == 0 || id == full_) return id;
  if (short_of_[id] == 0) {
    const std::uint32_t s = intern(short_kernel_name(names_[id]));
    short_of_[id] = s;
  }
  return short_of_[id];
}

std::uint32_t NameTable::launch_name(std::uint32_t id) {
  if (launch_of_[id] == 0) {
    const std::uint32_t l = intern("launch of " + names_[short_id(id)]);
    launch_of_[id] = l;
  }
  return launch_of_[id];
}

std::uint8_t NameTable::flags(std::uint32_t id) {
  std::uint8_t& f = flags_of_[id];
  if (!(f & kFlagsKnown)) {
    const std::string& n = names_[id];
    f = kFlagsKnown;
    if (is_user_fence(n)) f |= kUserFence;
    if (is_result_fence(n)) f |= kResultFence;
    if (n.rfind("Kokkos::View::initialization", 0) == 0) f |= kViewInit;
  }
  return f;
}

}  // namespace Impl
}  // namespace addscope
