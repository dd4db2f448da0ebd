#include "addscope/waits/analyze/addscope_HostThreads.hpp"

namespace addscope {
namespace Impl {

HostThread& HostThreads::get(std::uint32_t idx) {
  if (last_ && last_->index == idx) return *last_;
  auto it = threads_.find(idx);
  if (it == threads_.end()) {
    it = threads_.emplace(idx, std::unique_ptr<HostThread>(new HostThread))
             .first;
    it->second->index = idx;
    ++used_;
  }
  last_ = it->second.get();
  return *last_;
}

HostThread* HostThreads::find(std::uint32_t idx) {
  if (last_ && last_->index == idx) return last_;
  auto it = threads_.find(idx);
  return it == threads_.end() ? nullptr : it->second.get();
}

void HostThreads::push_open(HostThread& t, Open o) {
  if (t.stack.size() >= open_cap_ && !t.stack.empty()) {
    if (t.stack.front().kind == CallKind::Region) {
      ++dropped_.unpopped_regions;
      if (!t.region_paths.empty()) t.region_paths.erase(t.region_paths.begin());
    } else {
      ++dropped_.unended_calls;
    }
    t.stack.erase(t.stack.begin());
  }
  t.stack.push_back(std::move(o));
}

void HostThreads::count_left_open(const HostThread& t,
                                  WaitsDropped& into) const {
  for (const auto& o : t.stack) {
    if (o.kind == CallKind::Region)
      ++into.unpopped_regions;
    else
      ++into.unended_calls;
  }
  into.unpopped_regions += t.regions_ignored;
  if (t.blocking_depth > 0) ++into.unended_calls;
}

}  // namespace Impl
}  // namespace addscope
