#include "addscope/waits/attribution/addscope_IdleBlame.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace addscope {

namespace {

using Ns = IdleBlame::Ns;
constexpr Ns kNoNs = std::numeric_limits<Ns>::min();
constexpr Ns kMaxNs = std::numeric_limits<Ns>::max();
constexpr std::size_t kNone = ~std::size_t(0);
constexpr std::uint32_t kOtherSite = 0xffffffffu;
constexpr std::uint32_t kOtherStream = 0xffffffffu;

// Whole nanoseconds: sums are exact (a run of 10^4 s is 10^13 ns).
// Round to the nearest nanosecond (half away from zero, as llround), inline:
// the analyzer converts every record's times.
Ns to_ns(double s) {
  const double x = s * 1e9;
  if (!(x < 9e18 && x > -9e18))  // out of range, or NaN: as far as it goes
    return x < 0 ? std::numeric_limits<Ns>::min()
                 : std::numeric_limits<Ns>::max();
  return static_cast<Ns>(x < 0 ? x - 0.5 : x + 0.5);
}
double to_s(Ns ns) { return double(ns) * 1e-9; }
bool finite_time(double s) { return std::isfinite(s) && std::fabs(s) < 1e9; }

bool longer(const IdleBlame::Gap& a, const IdleBlame::Gap& b) {
  const Ns la = a.end - a.begin, lb = b.end - b.begin;
  return la != lb ? la > lb : a.begin < b.begin;
}

std::size_t idx(IdleCause c) { return static_cast<std::size_t>(c); }
std::size_t idx(HostState s) { return static_cast<std::size_t>(s); }

}  // namespace

std::size_t IdleBlame::SiteKeyHash::operator()(const SiteKey& k) const {
  std::uint64_t h = (std::uint64_t(k.cause) << 56) ^
                    (std::uint64_t(k.site) * 0x9e3779b97f4a7c15ull);
  h ^= (std::uint64_t(k.region) << 32 | k.before) * 0xc2b2ae3d27d4eb4full;
  h ^= (std::uint64_t(k.after) << 32 | k.stack) * 0x165667b19e3779f9ull;
  return static_cast<std::size_t>(h ^ (h >> 29));
}

IdleBlame::IdleBlame(Limits limits) : limits_(limits) {}

void IdleBlame::add_activity(const DeviceActivity& a) {
  if (!finite_time(a.start_s) || !finite_time(a.end_s) || a.end_s < a.start_s) {
    ++dropped_.bad_times;
    return;
  }
  Act x;
  x.start = to_ns(a.start_s);
  x.end = to_ns(a.end_s);
  x.launch =
      a.launch_s >= 0 && finite_time(a.launch_s) ? to_ns(a.launch_s) : kNoNs;
  if (x.start < watermark_) {
    ++dropped_.late_activities;
    return;
  }
  x.seq = seq_++;
  x.device = a.device;
  x.stream = a.stream;
  x.name = a.name;
  x.thread = a.thread;
  x.launch_stack = a.launch_stack;
  x.kind = a.kind;
  acts_.push_back(x);
}

void IdleBlame::add_host_interval(const HostInterval& h) {
  if (!finite_time(h.begin_s) || !finite_time(h.end_s) || h.end_s < h.begin_s ||
      idx(h.state) >= kHostStates) {
    ++dropped_.bad_times;
    return;
  }
  Iv v;
  v.begin = to_ns(h.begin_s);
  v.end = to_ns(h.end_s);
  if (v.end == v.begin) return;  // nothing done: it covers no time
  // After the run's end (the thread's last interval, closed when the
  // tracker stops): no gap of the run lies in it; not late, nothing to do.
  if (run_bounds_ && v.begin >= run_end_) return;
  if (v.begin < watermark_) {
    ++dropped_.late_intervals;
    return;
  }
  v.seq = seq_++;
  v.call = h.call;
  v.thread = h.thread;
  v.site = h.site;
  v.region = h.region;
  v.before = h.before;
  v.after = h.after;
  v.stack = h.stack;
  v.state = h.state;
  ivs_.push_back(v);
}

void IdleBlame::advance(double watermark_s) {
  if (std::isnan(watermark_s)) return;
  if (watermark_s >= 1e9) return finish();
  const Ns w = to_ns(watermark_s);
  if (w <= watermark_) return;
  watermark_ = w;
  replay(w);
}

void IdleBlame::finish() {
  watermark_ = kMaxNs;
  replay(kMaxNs);
}

double IdleBlame::watermark_s() const {
  if (watermark_ == kMaxNs) return HUGE_VAL;
  if (watermark_ == std::numeric_limits<Ns>::min()) return -HUGE_VAL;
  return to_s(watermark_);
}

void IdleBlame::set_run_bounds(double begin_s, double end_s) {
  if (!finite_time(begin_s) || !finite_time(end_s) || end_s < begin_s) return;
  run_begin_ = to_ns(begin_s);
  run_end_ = to_ns(end_s);
  run_bounds_ = true;
}

void IdleBlame::set_gap_listener(GapListener listener) {
  listener_ = std::move(listener);
}

void IdleBlame::replay(Ns w) {
  // Activities at one instant: the one launched first ends the gap.
  const auto by_act = [](const Act& a, const Act& b) {
    if (a.start != b.start) return a.start < b.start;
    const bool ka = a.launch != kNoNs, kb = b.launch != kNoNs;
    if (ka != kb) return ka;
    if (a.launch != b.launch) return a.launch < b.launch;
    // Then whatever makes the order independent of the arrival order.
    if (a.stream != b.stream) return a.stream < b.stream;
    if (a.thread != b.thread) return a.thread < b.thread;
    if (a.end != b.end) return a.end < b.end;
    if (a.name != b.name) return a.name < b.name;
    if (a.kind != b.kind) return a.kind < b.kind;
    return a.seq < b.seq;
  };
  const auto by_iv = [](const Iv& a, const Iv& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.seq < b.seq;
  };
  // What is pending arrives nearly in order: sorted whole only when it is
  // not (what stays after `w` stays sorted for the next time).
  if (!std::is_sorted(acts_.begin(), acts_.end(), by_act))
    std::sort(acts_.begin(), acts_.end(), by_act);
  if (!std::is_sorted(ivs_.begin(), ivs_.end(), by_iv))
    std::sort(ivs_.begin(), ivs_.end(), by_iv);
  const auto act_mid = std::partition_point(
      acts_.begin(), acts_.end(), [w](const Act& a) { return a.start < w; });
  const auto iv_mid = std::partition_point(
      ivs_.begin(), ivs_.end(), [w](const Iv& v) { return v.begin < w; });
  // In time order. At one instant a host interval goes first; the order
  // does not change a charge (an interval beginning at a gap's end adds
  // nothing to it), it only has to be one order.
  auto a = acts_.begin();
  auto v = ivs_.begin();
  while (a != act_mid || v != iv_mid) {
    if (v != iv_mid && (a == act_mid || v->begin <= a->start))
      replay_interval(*v++);
    else
      replay_activity(*a++);
  }
  acts_.erase(acts_.begin(), act_mid);
  ivs_.erase(ivs_.begin(), iv_mid);
}

std::size_t IdleBlame::thread_index(std::uint32_t thread, bool create) {
  if (thread == kUnknownThread) return kNone;
  auto it = thread_of_.find(thread);
  if (it != thread_of_.end()) return it->second;
  if (!create) return kNone;
  if (threads_.size() >= limits_.threads) return kNone;
  const std::size_t i = threads_.size();
  threads_.emplace_back();
  thread_of_.emplace(thread, i);
  return i;
}

IdleBlame::Dev* IdleBlame::device(std::uint32_t id) {
  for (Dev& d : devices_)
    if (d.id == id) return &d;
  if (devices_.size() >= limits_.devices) return nullptr;
  devices_.emplace_back();
  devices_.back().id = id;
  return &devices_.back();
}

IdleBlame::Stream& IdleBlame::stream(std::uint32_t device,
                                     std::uint32_t stream) {
  std::uint64_t key = (std::uint64_t(device) << 32) | stream;
  auto it = streams_.find(key);
  if (it == streams_.end() && streams_.size() >= limits_.streams) {
    ++dropped_.streams;
    key = (std::uint64_t(device) << 32) | kOtherStream;
    it = streams_.find(key);
    if (it == streams_.end()) {
      Stream s;
      s.device = device;
      s.stream = kOtherStream;
      s.other = true;
      it = streams_.emplace(key, s).first;
    }
  }
  if (it == streams_.end()) {
    Stream s;
    s.device = device;
    s.stream = stream;
    it = streams_.emplace(key, s).first;
  }
  return it->second;
}

IdleBlame::SiteAgg& IdleBlame::site(const SiteKey& k) {
  auto it = sites_.find(k);
  if (it != sites_.end()) return it->second;
  if (sites_.size() >= limits_.sites) {
    ++dropped_.sites;
    const SiteKey other{k.cause, kOtherSite, kOtherSite, 0, 0, 0};
    return sites_[other];
  }
  return sites_[k];
}

IdleBlame::RegionAgg& IdleBlame::region(std::uint32_t id) {
  auto it = regions_.find(id);
  if (it != regions_.end()) return it->second;
  if (regions_.size() >= limits_.regions) {
    ++dropped_.regions;
    return regions_[kOtherRegion];
  }
  return regions_[id];
}

void IdleBlame::replay_interval(const Iv& in) {
  const std::size_t x = thread_index(in.thread, true);
  if (x == kNone) {
    ++dropped_.threads;
    return;
  }
  Thread& t = threads_[x];
  Iv v = in;
  if (t.has_last && v.begin < t.last.end) {  // overlaps the one before
    ++dropped_.overlapping_intervals;
    v.begin = t.last.end;
    if (v.begin >= v.end) return;
  }
  for (Dev& d : devices_) {
    if (!d.started) continue;
    // Everything starting before v.begin has been replayed: the device
    // has been idle since its last end.
    if (!d.open && d.u_e < v.begin) open_gap(d);
    if (!d.open) continue;
    if (d.acc.size() <= x) d.acc.resize(x + 1);
    Acc& a = d.acc[x];
    if (a.epoch != d.epoch) init_acc(a, d, t);
    a.state_ns[idx(v.state)] += v.end - v.begin;  // v.begin > d.g0
    a.last_end = v.end;
    a.last_state = static_cast<std::uint8_t>(v.state);
    if (v.state == HostState::Launch) {
      if (a.first_launch < 0) a.first_launch = v.begin;
      a.last_launch_b = v.begin;
      a.last_launch_e = v.end;
    }
  }
  RegionAgg& r = region(v.region);
  r.host_ns += v.end - v.begin;
  if (r.thread == kUnknownThread)
    r.thread = v.thread;
  else if (r.thread != v.thread)
    r.one_thread = false;
  t.last = v;
  t.has_last = true;
}

void IdleBlame::open_gap(Dev& d) {
  d.open = true;
  d.g0 = d.u_e;
  ++d.epoch;
}

void IdleBlame::init_acc(Acc& a, const Dev& d, const Thread& t) const {
  a = Acc();
  a.epoch = d.epoch;
  a.last_end = d.g0;
  // The thread's last interval began at or before the gap's start (any
  // later one would have found the gap open).
  if (t.has_last && t.last.begin <= d.g0 && t.last.end >= d.g0) {
    a.covered = true;
    a.at = t.last;
    a.state_ns[idx(t.last.state)] += t.last.end - d.g0;
    a.last_end = t.last.end;
    a.last_state = static_cast<std::uint8_t>(t.last.state);
    if (t.last.state == HostState::Launch) {
      a.last_launch_b = t.last.begin;
      a.last_launch_e = t.last.end;
    }
  }
}

void IdleBlame::replay_activity(const Act& a) {
  Dev* dp = device(a.device);
  if (!dp) {
    ++dropped_.devices;
    return;
  }
  Dev& d = *dp;
  ++d.activities;
  // Start-up: the device's first kernel, each name's first run.
  bool first_kernel = false, first_run = false;
  if (a.kind == DeviceWork::Kernel) {
    first_kernel = !d.kernel_seen;
    d.kernel_seen = true;
    if (a.name != 0 && d.ran.find(a.name) == d.ran.end()) {
      if (d.ran.size() < limits_.kernels) {
        d.ran.insert(a.name);
        first_run = true;
      } else {
        ++dropped_.kernels;
      }
    }
  }
  Stream& s = stream(a.device, a.stream);
  ++s.activities;
  if (!s.started) {
    s.started = true;
    s.u_s = a.start;
    s.u_e = a.end;
  } else if (a.start > s.u_e) {
    s.busy += s.u_e - s.u_s;
    s.u_s = a.start;
    s.u_e = a.end;
  } else {
    s.u_e = std::max(s.u_e, a.end);
  }
  if (!d.started) {
    d.started = true;
    d.first = d.u_s = a.start;
    d.u_e = a.end;
    return;
  }
  if (a.start <= d.u_e) {  // touches or overlaps: still busy, no gap
    d.u_e = std::max(d.u_e, a.end);
    return;
  }
  if (!d.open) open_gap(d);
  close_gap(d, a, first_kernel, first_run);
  d.busy += d.u_e - d.u_s;
  d.u_s = a.start;
  d.u_e = a.end;
  d.open = false;
}

void IdleBlame::close_gap(Dev& d, const Act& a, bool first_kernel,
                          bool first_run) {
  Gap g{};
  g.begin = d.g0;
  g.end = a.start;
  g.device = d.id;
  g.stream = a.stream;
  g.thread = a.thread;
  g.next = a.name;
  g.next_stack = a.launch_stack;
  g.next_kind = a.kind;
  g.split = g.end;
  g.state_known = false;
  // A thread not seen in a host interval yet (or past the cap): known, its
  // state unknown.
  const std::size_t x = thread_index(a.thread, false);
  Acc* acc = nullptr;
  Acc unseen;
  if (x == kNone && a.thread != kUnknownThread) {
    unseen.epoch = d.epoch;
    unseen.last_end = g.end;
    acc = &unseen;
  } else if (x != kNone) {
    if (d.acc.size() <= x) d.acc.resize(x + 1);
    acc = &d.acc[x];
    if (acc->epoch != d.epoch) init_acc(*acc, d, threads_[x]);
    // Only the thread's last interval can reach past the gap's end.
    if (acc->last_end > g.end)
      acc->state_ns[acc->last_state] -= acc->last_end - g.end;
    acc->last_end = g.end;
    g.state_known = acc->covered;
    if (acc->covered) g.at = acc->at;
  }
  auto one = [&](IdleCause c) {
    g.pieces = 1;
    g.cause[0] = c;
  };
  if (!acc) {
    one(IdleCause::Unknown);
  } else if (a.launch != kNoNs && a.launch < g.begin) {
    // Launched before the device went idle: still being launched (launch
    // latency), or already in the runtime's hands.
    const bool in_its_launch =
        acc->covered && acc->at.state == HostState::Launch &&
        acc->at.begin <= a.launch && a.launch <= acc->at.end;
    one(in_its_launch ? IdleCause::LaunchLatency : IdleCause::Submitted);
  } else if (!acc->covered) {
    one(IdleCause::Unknown);
  } else {
    switch (acc->at.state) {
      case HostState::Blocked:
        one(IdleCause::SyncRoundTrip);
        break;
      case HostState::Mpi:
        one(IdleCause::Communication);
        break;
      case HostState::Launch:
        one(IdleCause::LaunchLatency);
        break;
      case HostState::Program:
      case HostState::KokkosOwn: {
        Ns l;
        if (a.launch != kNoNs) {
          const bool held = acc->last_launch_b >= 0 &&
                            acc->last_launch_b <= a.launch &&
                            a.launch <= acc->last_launch_e;
          l = held ? acc->last_launch_b : a.launch;
        } else {
          l = acc->first_launch >= 0 ? acc->first_launch : g.end;
        }
        l = std::min(std::max(l, g.begin), g.end);
        if (l == g.begin) {
          one(IdleCause::LaunchLatency);
        } else if (l == g.end) {
          one(IdleCause::HostCode);
        } else {
          g.pieces = 2;
          g.cause[0] = IdleCause::HostCode;
          g.cause[1] = IdleCause::LaunchLatency;
          g.split = l;
        }
        break;
      }
    }
  }
  // Start-up (see the header): the device's first kernel takes the whole
  // gap; a kernel's first run the parts no blocked or busy host call
  // explains.
  if (first_kernel) {
    one(IdleCause::StartUp);
    g.split = g.end;
  } else if (first_run) {
    for (std::size_t i = 0; i < g.pieces; ++i)
      if (g.cause[i] == IdleCause::HostCode ||
          g.cause[i] == IdleCause::LaunchLatency ||
          g.cause[i] == IdleCause::Unknown)
        g.cause[i] = IdleCause::StartUp;
    if (g.pieces == 2 && g.cause[0] == g.cause[1]) {
      g.pieces = 1;
      g.split = g.end;
    }
  }
  ++d.gaps;
  charge(d, g, acc);
}

void IdleBlame::charge(Dev& d, const Gap& g, const Acc* acc) {
  ++gaps_;
  for (std::size_t i = 0; i < g.pieces; ++i) {
    const Ns b = i == 0 ? g.begin : g.split;
    const Ns e = i + 1 == g.pieces ? g.end : g.split;
    const IdleCause c = g.cause[i];
    d.cause_ns[idx(c)] += e - b;
    ++d.cause_gaps[idx(c)];
    charge_piece(g, c, e - b, acc);
  }
  RegionAgg& r = region(g.state_known ? g.at.region : 0);
  ++r.gaps;
  keep_longest(g);
  if (listener_) listener_(record(g));
}

void IdleBlame::charge_piece(const Gap& g, IdleCause c, Ns ns, const Acc* acc) {
  SiteKey k{static_cast<std::uint8_t>(c), 0, 0, 0, 0, 0};
  k.region = g.state_known ? g.at.region : 0;
  const bool whole =
      c == IdleCause::SyncRoundTrip || c == IdleCause::Communication;
  if (whole) {
    k.site = g.at.site;
    k.stack = g.at.stack;
  } else if (c == IdleCause::HostCode) {
    if (g.at.state == HostState::KokkosOwn) {
      k.site = g.at.site;
      k.stack = g.at.stack;  // the Kokkos call's line, where one was taken
    } else {
      // The program's code: between the calls around it, up to the line
      // that launched the next work (where a stack was taken there).
      k.before = g.at.before;
      k.after = g.at.after;
      k.stack = g.next_stack;
    }
  } else {
    // Named by the next work, at the line that launched it where a stack
    // was taken there (the report falls back to its first launch's).
    k.site = g.next;
    k.stack = g.next_stack;
  }
  SiteAgg& s = site(k);
  CauseAgg& ca = causes_[idx(c)];
  ++s.gaps;
  ++ca.gaps;
  s.ns += ns;
  ca.ns += ns;
  s.max_ns = std::max(s.max_ns, ns);
  // A round trip's fence and copy in one deep_copy are one call.
  bool new_call = true;
  if (whole && g.at.call != 0) {
    new_call = !(s.last_call == g.at.call && s.last_call_thread == g.thread);
    s.last_call = g.at.call;
    s.last_call_thread = g.thread;
  }
  if (new_call) {
    ++s.calls;
    ++ca.calls;
  }
  if (whole && acc) {
    Ns known = 0;
    for (std::size_t i = 0; i < kHostStates; ++i) {
      const Ns v = std::max<Ns>(0, acc->state_ns[i]);
      s.state_ns[i] += v;
      ca.state_ns[i] += v;
      known += v;
    }
    const Ns rest = std::max<Ns>(0, ns - known);
    s.state_ns[kHostStateUnknown] += rest;
    ca.state_ns[kHostStateUnknown] += rest;
  }
  RegionAgg& r = region(k.region);
  r.ns += ns;
  r.cause_ns[idx(c)] += ns;
}

void IdleBlame::keep_longest(const Gap& g) {
  if (limits_.longest == 0) return;
  // A min-heap on the length: the shortest kept gap is dropped first.
  if (longest_.size() < limits_.longest) {
    longest_.push_back(g);
    std::push_heap(longest_.begin(), longest_.end(), longer);
  } else if (longer(g, longest_.front())) {
    std::pop_heap(longest_.begin(), longest_.end(), longer);
    longest_.back() = g;
    std::push_heap(longest_.begin(), longest_.end(), longer);
  }
}

IdleGapRecord IdleBlame::record(const Gap& g) const {
  IdleGapRecord r;
  r.device = g.device;
  r.stream = g.stream;
  r.thread = g.thread;
  r.begin_s = to_s(g.begin);
  r.end_s = to_s(g.end);
  r.pieces = g.pieces;
  for (std::size_t i = 0; i < g.pieces; ++i) {
    r.piece[i].cause = g.cause[i];
    r.piece[i].begin_s = to_s(i == 0 ? g.begin : g.split);
    r.piece[i].end_s = to_s(i + 1 == g.pieces ? g.end : g.split);
  }
  r.next_kind = g.next_kind;
  r.next = g.next;
  r.next_stack = g.next_stack;
  r.state_known = g.state_known;
  if (g.state_known) {
    r.state = g.at.state;
    r.call = g.at.call;
    r.site = g.at.site;
    r.region = g.at.region;
    r.before = g.at.before;
    r.after = g.at.after;
    r.stack = g.at.stack;
    r.host_begin_s = to_s(g.at.begin);
    r.host_end_s = to_s(g.at.end);
  }
  return r;
}

IdleInterval idle_interval(
    const IdleGapRecord& r,
    const std::function<std::string(std::uint32_t)>& name_of) {
  auto name = [&](std::uint32_t id) -> std::string {
    return id == 0 || !name_of ? std::string() : name_of(id);
  };
  IdleInterval x;
  x.device = r.device;
  x.stream = r.stream;
  x.thread = r.thread;
  x.thread_known = r.thread != kUnknownThread;
  x.begin_s = r.begin_s;
  x.end_s = r.end_s;
  double longest_piece = -1;
  for (std::size_t i = 0; i < r.pieces && i < 2; ++i) {
    x.pieces.push_back(r.piece[i]);
    const double len = r.piece[i].end_s - r.piece[i].begin_s;
    if (len > longest_piece) {
      longest_piece = len;
      x.cause = r.piece[i].cause;
    }
  }
  x.next_kind = r.next_kind;
  x.next = name(r.next);
  x.state_known = r.state_known;
  x.state = r.state;
  if (r.state_known) {
    x.site = name(r.site);
    x.region = name(r.region);
    x.before = name(r.before);
    x.after = name(r.after);
    x.host_begin_s = r.host_begin_s;
    x.host_end_s = r.host_end_s;
  }
  return x;
}

IdleFootprint IdleBlame::footprint() const {
  IdleFootprint f;
  f.pending = acts_.size() + ivs_.size();
  f.devices = devices_.size();
  f.streams = streams_.size();
  f.threads = threads_.size();
  for (const Dev& d : devices_) f.accumulators += d.acc.size();
  f.sites = sites_.size();
  f.regions = regions_.size();
  f.longest = longest_.size();
  for (const Dev& d : devices_) f.kernels += d.ran.size();
  return f;
}

IdleSummary IdleBlame::summary(const NameOf& name_of) const {
  auto name = [&](std::uint32_t id) -> std::string {
    return id == 0 || !name_of ? std::string() : name_of(id);
  };
  IdleSummary s;
  s.dropped = dropped_;
  s.gaps = gaps_;
  if (run_bounds_) {
    s.run_begin_s = to_s(run_begin_);
    s.run_end_s = to_s(run_end_);
  }
  std::vector<const Dev*> devs;
  for (const Dev& d : devices_)
    if (d.started) devs.push_back(&d);
  std::sort(devs.begin(), devs.end(),
            [](const Dev* a, const Dev* b) { return a->id < b->id; });
  Ns span = 0, busy = 0, idle = 0, startup = 0, tail = 0;
  for (const Dev* d : devs) {
    IdleDeviceStats x;
    x.device = d->id;
    x.activities = d->activities;
    x.gaps = d->gaps;
    x.first_s = to_s(d->first);
    x.last_s = to_s(d->u_e);
    const Ns dspan = d->u_e - d->first;
    const Ns dbusy = d->busy + (d->u_e - d->u_s);
    Ns didle = 0;
    for (std::size_t c = 0; c < kIdleCauses; ++c) {
      x.cause_s[c] = to_s(d->cause_ns[c]);
      x.cause_gaps[c] = d->cause_gaps[c];
      didle += d->cause_ns[c];
    }
    x.span_s = to_s(dspan);
    x.busy_s = to_s(dbusy);
    x.idle_s = to_s(didle);
    if (run_bounds_) {
      const Ns su = std::max<Ns>(0, d->first - run_begin_);
      const Ns ta = std::max<Ns>(0, run_end_ - d->u_e);
      x.startup_s = to_s(su);
      x.tail_s = to_s(ta);
      startup += su;
      tail += ta;
    }
    span += dspan;
    busy += dbusy;
    idle += didle;
    s.devices.push_back(x);
  }
  s.any_activity = !devs.empty();
  s.span_s = to_s(span);
  s.busy_s = to_s(busy);
  s.idle_s = to_s(idle);
  if (run_bounds_ && s.any_activity) {
    s.startup_s = to_s(startup);
    s.tail_s = to_s(tail);
  }

  for (const auto& kv : streams_) {
    const Stream& st = kv.second;
    if (!st.started) continue;
    IdleStreamStats x;
    x.device = st.device;
    x.stream = st.stream;
    x.other = st.other;
    x.activities = st.activities;
    const Ns sbusy = st.busy + (st.u_e - st.u_s);
    Ns dspan = 0;
    for (const Dev* d : devs)
      if (d->id == st.device) dspan = d->u_e - d->first;
    x.busy_s = to_s(sbusy);
    x.idle_s = to_s(std::max<Ns>(0, dspan - sbusy));
    s.streams.push_back(x);
  }
  std::sort(s.streams.begin(), s.streams.end(),
            [](const IdleStreamStats& a, const IdleStreamStats& b) {
              if (a.device != b.device) return a.device < b.device;
              if (a.other != b.other) return b.other;
              return a.stream < b.stream;
            });

  for (std::size_t c = 0; c < kIdleCauses; ++c) {
    IdleCauseStats x;
    x.cause = static_cast<IdleCause>(c);
    x.idle_s = to_s(causes_[c].ns);
    x.gaps = causes_[c].gaps;
    x.calls = causes_[c].calls;
    for (std::size_t i = 0; i <= kHostStates; ++i)
      x.state_s[i] = to_s(causes_[c].state_ns[i]);
    s.causes.push_back(x);
  }
  std::stable_sort(s.causes.begin(), s.causes.end(),
                   [](const IdleCauseStats& a, const IdleCauseStats& b) {
                     return a.idle_s > b.idle_s;
                   });

  for (const auto& kv : sites_) {
    const SiteKey& k = kv.first;
    const SiteAgg& a = kv.second;
    IdleSiteStats x;
    x.cause = static_cast<IdleCause>(k.cause);
    x.other = k.site == kOtherSite && k.region == kOtherSite;
    if (x.other) {
      x.site = "(other call sites)";
    } else {
      x.site = name(k.site);
      x.region = name(k.region);
      x.before = name(k.before);
      x.after = name(k.after);
      x.stack = k.stack;
    }
    x.gaps = a.gaps;
    x.calls = a.calls;
    x.idle_s = to_s(a.ns);
    x.max_s = to_s(a.max_ns);
    for (std::size_t i = 0; i <= kHostStates; ++i)
      x.state_s[i] = to_s(a.state_ns[i]);
    s.sites.push_back(std::move(x));
  }
  sort_idle_sites(s.sites);

  for (const auto& kv : regions_) {
    const RegionAgg& a = kv.second;
    IdleRegionStats x;
    x.other = kv.first == kOtherRegion;
    x.region = x.other ? "(other regions)" : name(kv.first);
    x.gaps = a.gaps;
    x.idle_s = to_s(a.ns);
    for (std::size_t c = 0; c < kIdleCauses; ++c)
      x.cause_s[c] = to_s(a.cause_ns[c]);
    x.host_s = to_s(a.host_ns);
    x.one_thread = a.one_thread;
    s.regions.push_back(std::move(x));
  }
  std::sort(s.regions.begin(), s.regions.end(),
            [](const IdleRegionStats& a, const IdleRegionStats& b) {
              if (a.idle_s != b.idle_s) return a.idle_s > b.idle_s;
              return a.region < b.region;
            });

  fill_idle_what_if(s);

  std::vector<Gap> kept(longest_);
  std::sort(kept.begin(), kept.end(), longer);
  for (const Gap& g : kept) s.longest.push_back(idle_interval(record(g), name));
  return s;
}

}  // namespace addscope
