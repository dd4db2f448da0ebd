#include "addscope/waits/attribution/addscope_Ledger.hpp"

#include <algorithm>
#include <cstring>

namespace addscope {

namespace {
bool longer_wait(const CallRecord& a, const CallRecord& b) {
  return a.wait_s != b.wait_s ? a.wait_s > b.wait_s : a.id < b.id;
}
// The keys of the "(other ...)" entries past a cap.
constexpr std::uint32_t kOtherKernels = 0xffffffffu;
const Ledger::SiteKey kOtherSites{CallKind::Step, ~0u, ~0u, ~0u};
constexpr std::uint64_t kOtherStreams = ~std::uint64_t(0);
constexpr std::uint32_t kOtherThreads = 0xffffffffu;
}  // namespace

Ledger::Ledger(Limits limits) : limits_(limits) {}

void Ledger::add_call(const SiteKey& key, const std::string& site,
                      const std::string& regions, std::uint32_t thread,
                      double duration_s, WaitClass cls, double wait_s) {
  ++totals_.calls;
  SiteStats* found = last_site_ && key == last_site_key_ ? last_site_ : nullptr;
  if (!found) found = &site_entry(key, site, regions);
  // The same counts whether the entry was the last one used or not.
  SiteStats& s = *found;
  ++s.calls;
  s.duration_s += duration_s;
  if (wait_s > 0 && cls == WaitClass::Hidden) {
    s.wait_hidden_s += wait_s;
    ++s.hidden_calls;
  }
  if (wait_s > 0 && cls == WaitClass::Explicit) {
    s.wait_explicit_s += wait_s;
    ++s.explicit_calls;
  }
  s.max_wait_s = std::max(s.max_wait_s, wait_s);
  ++this->thread(thread).calls;
}

void Ledger::merge_site(SiteStats& into, const SiteStats& from) {
  into.calls += from.calls;
  into.duration_s += from.duration_s;
  into.wait_hidden_s += from.wait_hidden_s;
  into.wait_explicit_s += from.wait_explicit_s;
  into.hidden_calls += from.hidden_calls;
  into.explicit_calls += from.explicit_calls;
  if (from.max_wait_s > into.max_wait_s) {
    into.max_wait_s = from.max_wait_s;
    into.stack = from.stack;
  }
}

SiteStats& Ledger::site_entry(const SiteKey& key, const std::string& site,
                              const std::string& regions) {
  auto it = sites_.find(key);
  if (it == sites_.end() && sites_.size() >= limits_.sites) {
    ++dropped_.sites;
    it = sites_.find(kOtherSites);
    if (it == sites_.end()) {
      SiteStats s;
      s.kind = CallKind::Step;
      s.site = "(other call sites)";
      it = sites_.emplace(kOtherSites, std::move(s)).first;
    }
  }
  if (it == sites_.end()) {
    SiteStats s;
    s.kind = key.kind;
    s.site = site;
    s.regions = regions;
    s.stack = key.stack;
    it = sites_.emplace(key, std::move(s)).first;
  }
  SiteStats& s = it->second;
  if (it->first == key) {
    last_site_key_ = key;
    last_site_ = &s;
  }
  return s;
}

ThreadStats& Ledger::thread(std::uint32_t id) {
  if (last_thread_ && id == last_thread_id_) return *last_thread_;
  const std::uint32_t asked = id;
  auto it = threads_.find(id);
  if (it == threads_.end()) {
    if (threads_.size() >= limits_.threads) {
      ++dropped_.threads;
      id = kOtherThreads;
      it = threads_.find(id);
    }
    if (it == threads_.end()) it = threads_.emplace(id, ThreadStats()).first;
    it->second.thread = id;
  }
  if (it->first == asked) {
    last_thread_id_ = asked;
    last_thread_ = &it->second;
  }
  return it->second;
}

void Ledger::count_wait(WaitClass cls, double wait_s, std::uint32_t thread) {
  if (wait_s <= 0) return;
  ThreadStats& t = this->thread(thread);
  if (cls == WaitClass::Hidden) {
    ++totals_.hidden_calls;
    totals_.hidden_s += wait_s;
    t.wait_hidden_s += wait_s;
  } else if (cls == WaitClass::Explicit) {
    ++totals_.explicit_calls;
    totals_.explicit_s += wait_s;
    t.wait_explicit_s += wait_s;
  }
}

bool Ledger::wants_details(double wait_s) const {
  return limits_.top_waits > 0 &&
         (top_.size() < limits_.top_waits || wait_s > top_.front().wait_s);
}

void Ledger::keep_details(CallRecord c, bool recent) {
  if (c.wait_s <= 0) return;
  if (recent && limits_.recent_waits > 0) {
    if (recent_.size() >= limits_.recent_waits) recent_.pop_front();
    recent_.push_back(c);
  }
  if (limits_.top_waits == 0) return;
  // A min-heap on the wait: the shortest kept wait is dropped first.
  auto cmp = [](const CallRecord& a, const CallRecord& b) {
    return longer_wait(a, b);
  };
  if (top_.size() < limits_.top_waits) {
    top_.push_back(std::move(c));
    std::push_heap(top_.begin(), top_.end(), cmp);
  } else if (longer_wait(c, top_.front())) {
    std::pop_heap(top_.begin(), top_.end(), cmp);
    top_.back() = std::move(c);
    std::push_heap(top_.begin(), top_.end(), cmp);
  }
}

KernelStats& Ledger::kernel(std::uint32_t id, const std::string& name,
                            const std::string& raw) {
  if (last_kernel_ && id == last_kernel_id_) return *last_kernel_;
  auto it = kernels_.find(id);
  if (it == kernels_.end() && kernels_.size() >= limits_.kernels) {
    ++dropped_.kernels;
    it = kernels_.find(kOtherKernels);
    if (it == kernels_.end()) {
      KernelStats k;
      k.name = k.raw_name = "(other kernels)";
      it = kernels_.emplace(kOtherKernels, std::move(k)).first;
    }
  }
  if (it == kernels_.end()) {
    KernelStats k;
    k.name = name;
    k.raw_name = raw;
    it = kernels_.emplace(id, std::move(k)).first;
  }
  if (it->first == id) {
    last_kernel_id_ = id;
    last_kernel_ = &it->second;
  }
  return it->second;
}

void Ledger::add_kernel_wait(std::uint32_t id, const std::string& name,
                             const std::string& raw, WaitClass cls,
                             double wait_s) {
  KernelStats& k = kernel(id, name, raw);
  if (cls == WaitClass::Explicit)
    k.waited_explicit_s += wait_s;
  else
    k.waited_hidden_s += wait_s;
}

namespace {
// A launch of shape `s` at stack `stack` (0: its place not known) that ran
// `t` seconds. The shape's line: while every launch's place is known, the
// place of the most time; else its first place (its first launch that
// took a stack), as without places.
void count_place(ShapeStats& s, std::uint32_t stack, double t) {
  ShapeStats::Place* p = nullptr;
  if (stack != 0) {
    for (std::uint32_t i = 0; i < s.nplaces && !p; ++i)
      if (s.places[i].stack == stack) p = &s.places[i];
    if (!p && s.nplaces < ShapeStats::kPlaces) {
      p = &s.places[s.nplaces++];
      p->stack = stack;
    }
  }
  if (!p) {
    ++s.unplaced;
    if (s.nplaces > 0) s.launch_stack = s.places[0].stack;
    return;
  }
  ++p->launches;
  p->device_s += t;
  if (s.unplaced > 0) {
    s.launch_stack = s.places[0].stack;
    return;
  }
  const ShapeStats::Place* best = p;
  for (std::uint32_t i = 0; i < s.nplaces; ++i)
    if (s.places[i].stack == s.launch_stack &&
        s.places[i].device_s >= p->device_s)
      best = &s.places[i];
  s.launch_stack = best->stack;
}
}  // namespace

void Ledger::add_device_kernel(std::uint32_t id, const std::string& name,
                               const std::string& raw, const DeviceKernel& d,
                               double overlap_s) {
  KernelStats& k = kernel(id, name, raw);
  const double t = d.device_s();
  ++k.launches;
  k.device_s += t;
  k.device_max_s = std::max(k.device_max_s, t);
  k.overlap_s += overlap_s;
  k.times.add(t);
  k.shape = d.shape;
  k.stream = d.stream;
  k.device_kind =
      d.exec.kind != DeviceKind::Unknown ? d.exec.kind : DeviceKind::Cuda;
  if (d.shape.known()) {
    auto it = std::find_if(
        k.shapes.begin(), k.shapes.end(), [&](const ShapeStats& s) {
          return s.device == d.device && same_shape(s.shape, d.shape);
        });
    ShapeStats* s = nullptr;
    if (it != k.shapes.end()) {
      s = &*it;
    } else if (k.shapes.size() < KernelStats::kMaxShapes) {
      k.shapes.push_back(ShapeStats());
      s = &k.shapes.back();
      s->shape = d.shape;
      s->device = d.device;
    } else {
      s = &k.other_shapes;
    }
    ++s->launches;
    s->device_s += t;
    if (s != &k.other_shapes) count_place(*s, d.launch_stack, t);
  }
  ++totals_.device_kernels;
  totals_.device_busy_s += t;
  totals_.overlap_s += overlap_s;
  std::uint64_t skey = (std::uint64_t(d.device) << 32) | d.stream;
  auto st = streams_.find(skey);
  if (st == streams_.end() && streams_.size() >= limits_.streams) {
    ++dropped_.streams;
    skey = kOtherStreams;  // device and stream 0xffffffff: "other streams"
    st = streams_.find(skey);
  }
  if (st == streams_.end()) {
    st = streams_.emplace(skey, StreamStats()).first;
    st->second.device = std::uint32_t(skey >> 32);
    st->second.stream = std::uint32_t(skey);
  }
  StreamStats& s = st->second;
  if (d.exec.kind != DeviceKind::Unknown) s.exec = d.exec;
  ++s.kernels;
  s.busy_s += t;
}

void Ledger::add_launch(std::uint32_t id, const std::string& name,
                        const std::string& raw, DeviceKind where) {
  KernelStats& k = kernel(id, name, raw);
  ++k.calls;
  if (where != DeviceKind::Unknown && k.device_kind == DeviceKind::Unknown)
    k.device_kind = where;
  ++totals_.launches;
}

void Ledger::add_host_kernel(std::uint32_t id, const std::string& name,
                             const std::string& raw, double duration_s,
                             DeviceKind where) {
  KernelStats& k = kernel(id, name, raw);
  ++k.calls;
  ++k.launches;
  k.device_s += duration_s;
  k.times.add(duration_s);
  if (where != DeviceKind::Unknown) k.device_kind = where;
  k.device_max_s = std::max(k.device_max_s, duration_s);
  ++totals_.host_kernels;
}

std::vector<CallRecord> Ledger::top_waits() const {
  std::vector<CallRecord> v(top_.begin(), top_.end());
  std::sort(v.begin(), v.end(), longer_wait);
  return v;
}

std::vector<CallRecord> Ledger::waits_since(std::uint64_t first_id) const {
  std::vector<CallRecord> v;
  for (const auto& c : recent_)
    if (c.id >= first_id) v.push_back(c);
  std::sort(v.begin(), v.end(), longer_wait);
  return v;
}

std::vector<KernelStats> Ledger::kernels() const {
  std::vector<KernelStats> v;
  for (const auto& kv : kernels_) v.push_back(kv.second);
  std::sort(v.begin(), v.end(), [](const KernelStats& a, const KernelStats& b) {
    return a.device_s != b.device_s ? a.device_s > b.device_s : a.name < b.name;
  });
  return v;
}

std::vector<SiteStats> Ledger::sites() const {
  std::vector<SiteStats> v;
  for (const auto& kv : sites_) v.push_back(kv.second);
  sort_sites(v);
  return v;
}

void Ledger::sort_sites(std::vector<SiteStats>& v) {
  std::sort(v.begin(), v.end(), [](const SiteStats& a, const SiteStats& b) {
    const double wa = a.wait_hidden_s + a.wait_explicit_s;
    const double wb = b.wait_hidden_s + b.wait_explicit_s;
    if (wa != wb) return wa > wb;
    if (a.duration_s != b.duration_s) return a.duration_s > b.duration_s;
    if (a.site != b.site) return a.site < b.site;
    return a.stack < b.stack;
  });
}

std::vector<StreamStats> Ledger::streams() const {
  std::vector<StreamStats> v;
  for (const auto& kv : streams_) v.push_back(kv.second);
  std::sort(v.begin(), v.end(), [](const StreamStats& a, const StreamStats& b) {
    return a.device != b.device ? a.device < b.device : a.stream < b.stream;
  });
  return v;
}

std::vector<ThreadStats> Ledger::threads() const {
  std::vector<ThreadStats> v;
  for (const auto& kv : threads_) v.push_back(kv.second);
  std::sort(v.begin(), v.end(), [](const ThreadStats& a, const ThreadStats& b) {
    return a.thread < b.thread;
  });
  return v;
}

}  // namespace addscope
