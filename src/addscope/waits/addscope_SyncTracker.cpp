#include "addscope/waits/addscope_SyncTracker.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <unordered_map>

#include "addscope/waits/attribution/addscope_Attribution.hpp"
#include "addscope/waits/attribution/addscope_KernelName.hpp"
#include "addscope/waits/device/addscope_CudaDevices.hpp"
#include "addscope/waits/output/addscope_ChromeTrace.hpp"
#include "addscope/waits/output/addscope_OutputPath.hpp"
#include "addscope/waits/output/addscope_WaitsReport.hpp"

namespace addscope {

// ---------------------------------------------------------------------------
// Clock

namespace {
std::int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
const std::int64_t& process_epoch_ns() {
  static const std::int64_t t0 = steady_ns();
  return t0;
}
}  // namespace

SteadyWaitsClock::SteadyWaitsClock() : epoch_ns_(process_epoch_ns()) {}
double SteadyWaitsClock::now() const {
  return double(steady_ns() - epoch_ns_) * 1e-9;
}
double SteadyWaitsClock::from_steady_ns(std::int64_t ns) const {
  return double(ns - epoch_ns_) * 1e-9;
}

const char* waits_mode_name(WaitsMode m) {
  switch (m) {
    case WaitsMode::Host:
      return "host";
    case WaitsMode::Device:
      return "device";
    case WaitsMode::KokkosOnly:
      return "kokkos-only";
  }
  return "unknown";
}

// ---------------------------------------------------------------------------
// State

namespace {
std::atomic<std::uint32_t> g_next_thread{0};
std::uint32_t this_thread_index() {
  thread_local const std::uint32_t idx = g_next_thread.fetch_add(1);
  return idx;
}
constexpr double kForever = std::numeric_limits<double>::infinity();
// Kernels launched with no fence seen yet, kept in Kokkos-only mode.
constexpr std::size_t kMaxPendingLaunches = 4096;
}  // namespace

struct SyncTracker::State {
  struct Share {
    std::uint32_t kernel;  // name id
    std::uint32_t stream;
    double wait_s;
  };
  struct Open {
    std::uint64_t id = 0;
    CallKind kind = CallKind::Step;
    std::uint32_t what = 0, site = 0;
    ExecId exec;
    double begin_s = 0;
    std::uint64_t own_launch = 0;  // its own kernels are its work, not waits
    std::array<std::uint32_t, 4> corr{};
    std::uint8_t ncorr = 0;
    bool blocked = false;  // a blocking runtime call happened inside
    bool bound = false;    // Kokkos-only waits: upper bounds
    std::uint32_t via = 0;
    std::vector<Share> shares;
  };
  struct Thread {
    std::vector<Open> stack;  // regions included
    std::vector<std::uint32_t> regions;
    std::uint32_t region_path = 0;
    int blocking_depth = 0;
    BlockingCall blocking;
    std::uint32_t blocking_via = 0;
    std::uint32_t last_event = 0;
    std::uint64_t last_launch = 0;  // the last asynchronous launch ended
    std::uint32_t last_launch_name = 0;
    bool last_event_was_launch = false;  // ... and nothing happened since
    // Runtime calls outside Kokkos calls, named by the events around them
    // once the next one comes.
    std::vector<std::uint64_t> awaiting_next_event;
    bool used = false;
    // Blocking calls attributed, in time order (one thread's do not
    // overlap), kept while a kernel not yet settled may have run during them.
    std::deque<BlockingCall> blocked;
  };
  struct LiveCall {  // finished; its blocking calls are not attributed yet
    std::uint64_t id = 0;
    CallKind kind = CallKind::Step;
    std::uint32_t what = 0, site = 0, regions = 0, context = 0, via = 0;
    SyncApi api = SyncApi::Other;
    std::uint32_t thread = 0;
    double begin_s = 0, end_s = 0;
    std::uint64_t own_launch = 0;
    bool bound = false;
    double via_wait_s = 0;
    std::uint32_t prev_event = 0;  // runtime calls: the Kokkos event before
    bool awaiting_next_event = false;
    std::vector<Share> shares;
  };
  struct LiveBlocking {
    BlockingCall b;
    std::uint32_t via = 0;
  };
  struct PendingCorr {
    std::uint64_t launch = 0;
    std::uint64_t owner_call = 0;  // outermost call open at the launch
    std::uint32_t name = 0;
    std::uint32_t thread = 0;
    ExecId exec;
    double launch_s = 0, launch_end_s = 0;
  };
  struct PendingLaunch {
    std::uint64_t launch;
    std::uint32_t name;
    ExecId exec;
    double launch_end_s;
  };

  explicit State(TrackerOptions o) : opt(std::move(o)), ledger(opt.limits) {
    clock = opt.clock ? opt.clock : std::make_shared<SteadyWaitsClock>();
    names.emplace_back();
    short_of.push_back(0);
  }

  TrackerOptions opt;
  std::shared_ptr<WaitsClock> clock;
  Ledger ledger;
  std::unique_ptr<Impl::ChromeTrace> trace;

  // Names, interned: ids are stable for the run.
  std::vector<std::string> names;
  std::unordered_map<std::string, std::uint32_t> name_ids;
  std::vector<std::uint32_t> short_of;  // id -> id of the readable form
  std::uint32_t intern(const std::string& s) {
    if (s.empty()) return 0;
    auto it = name_ids.find(s);
    if (it != name_ids.end()) return it->second;
    const auto id = std::uint32_t(names.size());
    names.push_back(s);
    short_of.push_back(0);
    name_ids.emplace(s, id);
    return id;
  }
  // Names made of two others ("after 'X'", "between 'A' and 'B'", ...),
  // made once: the hot paths only look them up.
  std::unordered_map<std::uint64_t, std::uint32_t> combos;
  template <class Make>
  std::uint32_t combo(std::uint32_t tag, std::uint32_t a, std::uint32_t b,
                      Make make) {
    const std::uint64_t key = (std::uint64_t(tag) << 58) ^
                              (std::uint64_t(a) << 29) ^ std::uint64_t(b);
    auto it = combos.find(key);
    if (it != combos.end()) return it->second;
    const std::uint32_t id = intern(make());
    combos.emplace(key, id);
    return id;
  }
  std::vector<std::uint32_t> launch_of;  // id -> id of "launch of <short>"
  std::uint32_t launch_name(std::uint32_t id) {
    if (launch_of.size() <= id) launch_of.resize(names.size() + 1, 0);
    if (launch_of[id] == 0) {
      const std::uint32_t l = intern("launch of " + names[short_id(id)]);
      if (launch_of.size() <= id) launch_of.resize(names.size() + 1, 0);
      launch_of[id] = l;
    }
    return launch_of[id];
  }
  std::uint32_t short_id(std::uint32_t id) {
    if (id == 0) return 0;
    if (short_of[id] == 0) {
      const std::uint32_t s = intern(short_kernel_name(names[id]));
      short_of[id] = s;
    }
    return short_of[id];
  }

  std::vector<std::unique_ptr<Thread>> threads;
  std::uint64_t threads_used = 0;
  Thread& thread(std::uint32_t idx) {
    while (threads.size() <= idx) threads.emplace_back(new Thread);
    Thread& t = *threads[idx];
    if (!t.used) {
      t.used = true;
      ++threads_used;
    }
    return t;
  }

  // Finished calls whose blocking calls are not attributed yet, by id, and
  // by end time (those still waiting for the next event to be named are
  // added to the index once named).
  std::unordered_map<std::uint64_t, LiveCall> live_calls;
  std::multimap<double, std::uint64_t> live_by_end;
  void add_live(LiveCall c) {
    const double end = c.end_s;
    const std::uint64_t id = c.id;
    const bool named = !c.awaiting_next_event;
    live_calls.emplace(id, std::move(c));
    if (named) live_by_end.emplace(end, id);
  }
  // Finished blocking calls, by begin time.
  std::multimap<double, LiveBlocking> blockings;
  std::map<std::uint32_t, PendingCorr> corr;  // correlation ids grow with time
  // Kernels recorded and not yet settled, by end time.
  std::multimap<double, DeviceKernel> device;
  std::deque<PendingLaunch> pending_launches;  // Kokkos-only mode

  std::uint64_t next_id = 1;
  std::size_t since_settle = 0;
  bool fed_by_tools = false;
  std::uint64_t kokkos_interface = 0;
  bool async_seen = false;
  bool device_times = false;       // kernel records will come
  bool device_times_ever = false;  // ... came at some point
  bool tools_started_source = false;
  int tracing_refs = 0;
  int keep_recent = 0;  // the library's front door reads recent waits
  std::unique_ptr<Impl::DeviceSource> source;
  bool source_running = false;
  std::string source_desc;
  std::uint64_t kernels_without_record = 0;
  std::map<std::uint64_t, ExecId> stream_exec;  // device<<32|stream -> instance
  std::vector<DeviceCapacity> devices;          // what each device can hold
  bool devices_queried = false;
  DeviceKind host_kind = DeviceKind::Unknown;     // a host space kernels ran on
  DeviceKind default_kind = DeviceKind::Unknown;  // Kokkos' default space

  // ---- helpers (mu_ held) -------------------------------------------------
  double now() const { return clock->now(); }

  void set_last_event(Thread& t, std::uint32_t what, bool launch) {
    for (auto id : t.awaiting_next_event) {
      auto it = live_calls.find(id);
      if (it == live_calls.end()) continue;
      LiveCall& c = it->second;
      c.context =
          intern((c.prev_event ? "between '" + names[c.prev_event] + "' and '"
                               : std::string("before '")) +
                 names[what] + "'");
      c.awaiting_next_event = false;
      live_by_end.emplace(c.end_s, c.id);
    }
    t.awaiting_next_event.clear();
    t.last_event = what;
    t.last_event_was_launch = launch;
  }
  // The outermost open call that is not a region, or null.
  static Open* outermost_call(Thread& t) {
    for (auto& o : t.stack)
      if (o.kind != CallKind::Region) return &o;
    return nullptr;
  }
  static Open* innermost_call(Thread& t) {
    for (auto it = t.stack.rbegin(); it != t.stack.rend(); ++it)
      if (it->kind != CallKind::Region) return &*it;
    return nullptr;
  }

  std::string region_path_of(const Thread& t) const {
    std::string p;
    for (auto r : t.regions) {
      if (!p.empty()) p += " > ";
      p += names[r];
    }
    return p;
  }

  // Kokkos-only: a fence or deep_copy returned, so the kernels it covers
  // had finished; the time it took bounds the wait.
  void kokkos_only_completion(Thread& t, const Open& call, double end_s) {
    if (pending_launches.empty()) return;
    const PendingLaunch* last = nullptr;
    std::deque<PendingLaunch> keep;
    for (const auto& p : pending_launches) {
      const bool covered =
          p.launch_end_s <= call.begin_s &&
          (call.kind != CallKind::Fence || call.exec.covers(p.exec));
      if (covered)
        last = &p;
      else
        keep.push_back(p);
    }
    if (last) {
      Open* owner = outermost_call(t);
      if (!owner) owner = const_cast<Open*>(&call);
      if (owner->shares.empty() && owner->own_launch != last->launch) {
        // The last kernel queued is the one the call waited for.
        owner->shares.push_back({last->name, 0, end_s - call.begin_s});
        owner->bound = true;
      }
    }
    pending_launches.swap(keep);
  }

  void finalize_call(std::uint64_t id, CallKind kind, std::uint32_t what,
                     std::uint32_t site, std::uint32_t regions,
                     std::uint32_t context, std::uint32_t via, SyncApi api,
                     std::uint32_t thread, double begin_s, double end_s,
                     bool bound, std::vector<Share>& shares) {
    const double dur = std::max(0.0, end_s - begin_s);
    // Merge the shares by kernel name, longest first.
    std::vector<Share> merged;
    if (shares.size() <= 1) {
      merged.swap(shares);
    } else {
      for (const auto& s : shares) {
        auto it =
            std::find_if(merged.begin(), merged.end(),
                         [&](const Share& m) { return m.kernel == s.kernel; });
        if (it == merged.end())
          merged.push_back(s);
        else
          it->wait_s += s.wait_s;
      }
      std::sort(
          merged.begin(), merged.end(),
          [](const Share& a, const Share& b) { return a.wait_s > b.wait_s; });
    }
    double wait = 0;
    for (const auto& s : merged) wait += s.wait_s;
    wait = std::min(wait, dur);
    const WaitClass cls =
        wait > 0 ? Impl::classify(kind, names[what], api) : WaitClass::None;
    ledger.add_call({kind, site ? site : what, regions},
                    names[site ? site : what], names[regions], thread, dur, cls,
                    wait);
    std::string args = "{}";
    if (wait > 0) {
      ledger.count_wait(cls, wait, thread);
      for (const auto& s : merged)
        if (s.wait_s > 0) {
          const std::uint32_t sh = short_id(s.kernel);
          ledger.add_kernel_wait(s.kernel, names[sh], names[s.kernel], cls,
                                 s.wait_s);
        }
      // The details (strings) only where they are kept or written.
      const bool recent = keep_recent > 0;
      if (recent || trace || ledger.wants_details(wait)) {
        CallRecord c;
        c.id = id;
        c.what = names[what];
        c.site = names[site ? site : what];
        c.kind = kind;
        c.wait_class = cls;
        c.thread = thread;
        c.regions = names[regions];
        c.context = names[context];
        c.via = names[via];
        c.begin_s = begin_s;
        c.end_s = end_s;
        c.wait_s = wait;
        c.wait_is_bound = bound;
        for (const auto& s : merged)
          if (s.wait_s > 0) {
            const std::uint32_t sh = short_id(s.kernel);
            c.waited_for.push_back(
                {names[sh], s.wait_s, names[s.kernel], s.stream});
          }
        if (trace) {
          nlohmann::json a = {{"wait_us", wait * 1e6},
                              {"class", wait_class_name(cls)},
                              {"waited_for", c.waited_for.front().kernel}};
          if (!c.via.empty()) a["via"] = c.via;
          if (!c.regions.empty()) a["regions"] = c.regions;
          args = a.dump();
        }
        ledger.keep_details(std::move(c), recent);
      }
    }
    if (trace)
      trace->host_slice(thread, names[what], call_kind_name(kind), begin_s,
                        end_s, args);
  }

  void finalize_live(LiveCall& c) {
    finalize_call(c.id, c.kind, c.what, c.site, c.regions, c.context, c.via,
                  c.api, c.thread, c.begin_s, c.end_s, c.bound, c.shares);
  }

  std::vector<DeviceKernel*> scratch_cands;
  std::vector<const DeviceKernel*> scratch_ccands;
  void attribute_blocking(LiveBlocking& lb) {
    BlockingCall& b = lb.b;
    std::vector<DeviceKernel*>& cands = scratch_cands;
    cands.clear();
    for (auto it = device.upper_bound(b.begin_s);
         it != device.end() && it->first <= b.end_s + Impl::kClockTolerance_s;
         ++it)
      if (Impl::awaits(b, it->second)) cands.push_back(&it->second);
    scratch_ccands.assign(cands.begin(), cands.end());
    const auto share = Impl::split_wait(b, scratch_ccands);
    // The thread sat here: what ran meanwhile was not overlapped by host
    // work (summed per kernel when it is settled).
    if (b.thread < threads.size()) threads[b.thread]->blocked.push_back(b);
    auto owner = live_calls.find(b.call);
    const bool own_call = owner != live_calls.end() &&
                          owner->second.kind == CallKind::Runtime &&
                          owner->second.begin_s == b.begin_s;
    if (trace && !own_call)
      trace->host_slice(b.thread, names[lb.via], "runtime", b.begin_s, b.end_s,
                        "{}");
    double total = 0;
    for (std::size_t i = 0; i < cands.size(); ++i) {
      if (share[i] <= 0) continue;
      DeviceKernel& k = *cands[i];
      k.waited_s += share[i];
      if (owner == live_calls.end()) continue;
      if ((k.owner_call != 0 && k.owner_call == b.call) ||
          (owner->second.own_launch != 0 &&
           k.launch == owner->second.own_launch))
        continue;  // a call waiting for its own kernel: its own work
      owner->second.shares.push_back({k.name, k.stream, share[i]});
      total += share[i];
      if (trace) {
        const double ke = std::min(k.end_s, b.end_s);
        const double kt =
            std::max(k.start_s, ke - std::min(0.5e-6, 0.5 * k.device_s()));
        const double margin = std::min(0.5e-6, 0.5 * (b.end_s - b.begin_s));
        const double ct =
            std::min(std::max(ke, b.begin_s + margin), b.end_s - margin);
        trace->flow(k.device, k.stream, kt, b.thread, ct);
      }
    }
    if (owner != live_calls.end() && total > owner->second.via_wait_s) {
      owner->second.via_wait_s = total;
      owner->second.via = lb.via;
    }
  }

  // When unsettled kernels began running after their launch returned (the
  // earliest of them bounds which blocking calls may still matter).
  std::multiset<double> device_from;
  static double from_of(const DeviceKernel& k) {
    return std::max(k.start_s, k.launch_end_s);
  }

  void finalize_kernel(DeviceKernel& k) {
    if (k.thread < threads.size()) {
      const auto& bl = threads[k.thread]->blocked;
      const double from = from_of(k);
      auto it = std::lower_bound(
          bl.begin(), bl.end(), from,
          [](const BlockingCall& b, double t) { return b.end_s < t; });
      for (; it != bl.end() && it->begin_s < k.end_s; ++it)
        k.blocked_s += Impl::blocked_during(*it, k);
    }
    auto f = device_from.find(from_of(k));
    if (f != device_from.end()) device_from.erase(f);
    const double ov = Impl::overlap_s(k);
    const std::uint32_t sh = short_id(k.name);
    ledger.add_device_kernel(k.name, names[sh], names[k.name], k, ov);
    const std::uint64_t skey = (std::uint64_t(k.device) << 32) | k.stream;
    if (k.exec.kind != DeviceKind::Unknown) stream_exec[skey] = k.exec;
    if (trace) {
      std::string sname = "stream " + std::to_string(k.stream);
      auto it = stream_exec.find(skey);
      if (it != stream_exec.end() && it->second.instance != 0)
        sname +=
            " (Kokkos instance " + std::to_string(it->second.instance) + ")";
      nlohmann::json a = {{"kernel", names[k.name]},
                          {"correlation", k.correlation},
                          {"waited_us", k.waited_s * 1e6},
                          {"overlap_us", ov * 1e6}};
      if (k.shape.known()) {
        a["grid"] = {k.shape.grid[0], k.shape.grid[1], k.shape.grid[2]};
        a["block"] = {k.shape.block[0], k.shape.block[1], k.shape.block[2]};
        a["shape"] = shape_short(k.shape);
        a["registers"] = k.shape.registers;
        a["shared_bytes"] = k.shape.shared_static + k.shape.shared_dynamic;
        for (const auto& d : devices)
          if (d.device == k.device && d.known()) {
            const Occupancy o = occupancy(d, k.shape);
            a["threads_in_flight"] = o.threads_in_flight;
            a["resident_threads"] = o.resident_threads;
            a["blocks_per_sm"] = o.blocks_per_sm;
            a["occupancy"] = o.theoretical;
          }
      }
      trace->device_slice(k.device, k.stream, sname, names[sh], k.start_s,
                          k.end_s, a.dump());
    }
  }

  // Attributes and forgets everything that can no longer change: blocking
  // calls begun before `w`, calls and kernels ended by `w`, where `w` is the
  // earliest moment something may still arrive for (an open call, an open
  // blocking call, a launched kernel without its device record).
  void settle(double limit) {
    since_settle = 0;
    double w = limit;
    if (w != kForever) {
      for (const auto& t : threads) {
        for (const auto& o : t->stack)
          if (o.kind != CallKind::Region) {
            w = std::min(w, o.begin_s);
            break;
          }
        if (t->blocking_depth > 0) w = std::min(w, t->blocking.begin_s);
      }
      if (!corr.empty()) w = std::min(w, corr.begin()->second.launch_s);
    } else {
      kernels_without_record += corr.size();
      corr.clear();
    }
    // In time order; each step costs what it processes (plus a log).
    while (!blockings.empty() && blockings.begin()->first < w) {
      attribute_blocking(blockings.begin()->second);
      blockings.erase(blockings.begin());
    }
    if (limit == kForever)
      for (auto& c : live_calls)
        if (c.second.awaiting_next_event)
          live_by_end.emplace(c.second.end_s, c.first);
    while (!live_by_end.empty() && live_by_end.begin()->first <= w) {
      auto it = live_calls.find(live_by_end.begin()->second);
      live_by_end.erase(live_by_end.begin());
      if (it == live_calls.end()) continue;
      finalize_live(it->second);
      live_calls.erase(it);
    }
    while (!device.empty() && device.begin()->first <= w) {
      finalize_kernel(device.begin()->second);
      device.erase(device.begin());
    }
    // Blocking calls that ended before every unsettled kernel ran.
    double keep_from = limit;
    if (!corr.empty())
      keep_from = std::min(keep_from, corr.begin()->second.launch_s);
    if (!device_from.empty())
      keep_from = std::min(keep_from, *device_from.begin());
    for (auto& t : threads)
      while (!t->blocked.empty() && t->blocked.front().end_s < keep_from)
        t->blocked.pop_front();
  }

  void maybe_settle() {
    if (++since_settle >= opt.settle_every) settle(now());
  }
};

// ---------------------------------------------------------------------------

SyncTracker& SyncTracker::global() {
  // Never destroyed: device sources may report until the process ends.
  static SyncTracker* t = [] {
    TrackerOptions o;
    const char* dev = std::getenv("ADDSCOPE_WAITS_DEVICE");
    const bool none = dev && std::string(dev) == "none";
    if (!none && Impl::cupti_source_built()) {
      o.make_device_source = [] { return Impl::make_cupti_source(); };
      o.query_devices = [] { return Impl::query_cuda_devices(); };
    }
    return new SyncTracker(std::move(o));
  }();
  return *t;
}

SyncTracker::SyncTracker() : SyncTracker(TrackerOptions()) {}

SyncTracker::SyncTracker(TrackerOptions options)
    : s_(new State(std::move(options))) {
  if (s_->opt.device_records_by_hand) {
    s_->device_times = s_->device_times_ever = true;
    s_->source_desc = "device records given by hand";
    if (s_->opt.query_devices) s_->devices = s_->opt.query_devices();
    s_->devices_queried = true;
  }
}

SyncTracker::~SyncTracker() {
  if (s_->source && s_->source_running) s_->source->stop();
}

double SyncTracker::now() const { return s_->now(); }

void SyncTracker::set_fed_by_kokkos_tools(bool on) {
  std::lock_guard<std::mutex> g(mu_);
  s_->fed_by_tools = on;
}
bool SyncTracker::fed_by_kokkos_tools() const {
  std::lock_guard<std::mutex> g(mu_);
  return s_->fed_by_tools;
}
void SyncTracker::set_kokkos_interface_version(std::uint64_t v) {
  std::lock_guard<std::mutex> g(mu_);
  s_->kokkos_interface = v;
}
void SyncTracker::set_default_device(const std::string& type_name) {
  const std::string t = demangle(type_name);  // "Kokkos::OpenMP"
  DeviceKind k = DeviceKind::Unknown;
  for (DeviceKind c :
       {DeviceKind::Serial, DeviceKind::OpenMP, DeviceKind::Cuda,
        DeviceKind::HIP, DeviceKind::HPX, DeviceKind::Threads, DeviceKind::SYCL,
        DeviceKind::OpenMPTarget, DeviceKind::OpenACC})
    if (t == std::string("Kokkos::") + device_kind_name(c) ||
        t == std::string("Kokkos::Experimental::") + device_kind_name(c))
      k = c;
  std::lock_guard<std::mutex> g(mu_);
  s_->default_kind = k;
}

// ---- device source ---------------------------------------------------------

void SyncTracker::ensure_device(DeviceKind kind) {
  if (!is_async(kind)) return;
  {
    std::lock_guard<std::mutex> g(mu_);
    s_->async_seen = true;
    // The Kokkos Tools front door traces the device for the whole run; the
    // library's front door only within start/stop_device_tracing().
    if (!s_->fed_by_tools || s_->tools_started_source) return;
    s_->tools_started_source = true;
  }
  start_device_tracing();
}

void SyncTracker::device_seen(DeviceKind kind) { ensure_device(kind); }

bool SyncTracker::start_device_tracing() {
  Impl::DeviceSource* src = nullptr;
  {
    std::lock_guard<std::mutex> g(mu_);
    ++s_->keep_recent;
    if (s_->opt.device_records_by_hand) return true;
    ++s_->tracing_refs;
    if (s_->source_running) return s_->device_times;
    if (!s_->source) {
      if (!s_->opt.make_device_source) {
        const char* dev = std::getenv("ADDSCOPE_WAITS_DEVICE");
        s_->source_desc = dev && std::string(dev) == "none"
                              ? "ADDSCOPE_WAITS_DEVICE=none"
                              : "no device source";
        return false;
      }
      s_->source = s_->opt.make_device_source();
      if (!s_->source) {
        s_->source_desc = "built without CUPTI";
        return false;
      }
    }
    src = s_->source.get();
  }
  // Outside the lock: the source may report while it starts.
  const bool ok = src->start(*this);
  std::vector<DeviceCapacity> devices;
  bool query = false;
  {
    std::lock_guard<std::mutex> g(mu_);
    query = ok && !s_->devices_queried && s_->opt.query_devices;
    s_->devices_queried = s_->devices_queried || query;
  }
  if (query) devices = s_->opt.query_devices();
  std::lock_guard<std::mutex> g(mu_);
  if (query) s_->devices = std::move(devices);
  s_->source_running = ok;
  s_->device_times = ok;
  s_->device_times_ever = s_->device_times_ever || ok;
  s_->source_desc = src->description();
  return ok;
}

void SyncTracker::stop_device_tracing() {
  Impl::DeviceSource* src = nullptr;
  {
    std::lock_guard<std::mutex> g(mu_);
    if (s_->keep_recent > 0) --s_->keep_recent;
    if (s_->opt.device_records_by_hand || s_->tracing_refs == 0) return;
    if (--s_->tracing_refs > 0 || s_->tools_started_source) return;
    if (!s_->source_running) return;
    src = s_->source.get();
  }
  src->stop();  // delivers what is pending
  std::lock_guard<std::mutex> g(mu_);
  s_->source_running = false;
  s_->device_times = false;
  s_->settle(s_->now());
}

void SyncTracker::flush() {
  Impl::DeviceSource* src = nullptr;
  {
    std::lock_guard<std::mutex> g(mu_);
    if (s_->source_running) src = s_->source.get();
  }
  if (src) src->flush();
  std::lock_guard<std::mutex> g(mu_);
  s_->settle(s_->now());
}

void SyncTracker::finish() {
  Impl::DeviceSource* src = nullptr;
  {
    std::lock_guard<std::mutex> g(mu_);
    if (s_->source_running) src = s_->source.get();
  }
  if (src) src->stop();  // delivers every record, then stops watching
  std::lock_guard<std::mutex> g(mu_);
  if (src) {
    s_->source_running = false;
    s_->device_times = false;
  }
  s_->settle(kForever);
  if (s_->trace) s_->trace->close();
}

// ---- host events
// ---------------------------------------------------------------

std::uint64_t SyncTracker::kernel_begin(const std::string& name, ExecId exec) {
  ensure_device(exec.kind);
  std::lock_guard<std::mutex> g(mu_);
  State& s = *s_;
  if (exec.kind == DeviceKind::OpenMP || exec.kind == DeviceKind::Threads ||
      exec.kind == DeviceKind::HPX)
    s.host_kind = exec.kind;
  // Kokkos 3.x reports a scalar View's initialization with device id 0
  // (Serial) whatever space runs it: a host space, named in snapshot()
  // (a device launch inside it makes it a device kernel, see on_launch).
  if (exec.kind == DeviceKind::Serial && s.kokkos_interface < 20211015 &&
      name.rfind("Kokkos::View::initialization [", 0) == 0)
    exec.kind = DeviceKind::Unknown;
  State::Thread& t = s.thread(this_thread_index());
  State::Open o;
  o.id = s.next_id++;
  o.kind = is_async(exec.kind) ? CallKind::Launch : CallKind::HostKernel;
  o.what = s.intern(name);
  o.exec = exec;
  o.own_launch = o.id;
  o.begin_s = s.now();
  t.stack.push_back(std::move(o));
  return t.stack.back().id;
}

void SyncTracker::kernel_end(std::uint64_t id) {
  std::lock_guard<std::mutex> g(mu_);
  State& s = *s_;
  const std::uint32_t ti = this_thread_index();
  State::Thread& t = s.thread(ti);
  const double now = s.now();
  auto it = std::find_if(t.stack.rbegin(), t.stack.rend(),
                         [&](const State::Open& o) { return o.id == id; });
  if (it == t.stack.rend()) return;  // unmatched: ignore
  State::Open o = std::move(*it);
  t.stack.erase(std::next(it).base());
  if (o.kind == CallKind::HostKernel) {
    const std::uint32_t sh = s.short_id(o.what);
    s.ledger.add_host_kernel(o.what, s.names[sh], s.names[o.what],
                             now - o.begin_s, o.exec.kind);
    if (o.blocked && s.device_times) {
      State::LiveCall c;
      c.id = o.id;
      c.kind = o.kind;
      c.what = c.site = sh;
      c.regions = t.region_path;
      c.thread = ti;
      c.begin_s = o.begin_s;
      c.end_s = now;
      s.add_live(std::move(c));
    } else {
      s.finalize_call(o.id, o.kind, sh, sh, t.region_path, 0, 0, SyncApi::Other,
                      ti, o.begin_s, now, false, o.shares);
    }
    s.set_last_event(t, sh, false);
    s.maybe_settle();
    return;
  }
  {
    const std::uint32_t sh = s.short_id(o.what);
    s.ledger.add_launch(o.what, s.names[sh], s.names[o.what], o.exec.kind);
  }
  if (s.device_times) {
    for (std::uint8_t i = 0; i < o.ncorr; ++i) {
      auto c = s.corr.find(o.corr[i]);
      if (c != s.corr.end()) c->second.launch_end_s = now;
    }
  } else {
    s.pending_launches.push_back({o.id, o.what, o.exec, now});
    if (s.pending_launches.size() > kMaxPendingLaunches)
      s.pending_launches.pop_front();
  }
  const std::uint32_t what = s.launch_name(o.what);
  if (o.blocked && s.device_times) {
    State::LiveCall c;
    c.id = o.id;
    c.kind = CallKind::Launch;
    c.what = what;
    c.site = what;
    c.regions = t.region_path;
    c.thread = ti;
    c.begin_s = o.begin_s;
    c.end_s = now;
    c.own_launch = o.own_launch;
    s.add_live(std::move(c));
  } else {
    s.finalize_call(o.id, CallKind::Launch, what, what, t.region_path, 0, o.via,
                    SyncApi::Other, ti, o.begin_s, now, o.bound, o.shares);
  }
  s.set_last_event(t, what, true);
  t.last_launch = o.id;
  t.last_launch_name = o.what;
  s.maybe_settle();
}

std::uint64_t SyncTracker::call_begin(CallKind kind, const std::string& what,
                                      ExecId exec, const std::string& site) {
  ensure_device(exec.kind);
  std::lock_guard<std::mutex> g(mu_);
  State& s = *s_;
  State::Thread& t = s.thread(this_thread_index());
  State::Open o;
  o.id = s.next_id++;
  o.kind = kind;
  o.what = s.intern(what);
  o.site = site.empty() ? o.what : s.intern(site);
  o.exec = exec;
  o.begin_s = s.now();
  // The fence Kokkos makes for a reduction's host result waits for that
  // reduction: its own work.
  if (kind == CallKind::Fence && t.last_event_was_launch &&
      Impl::fence_completes_launch(what, s.names[t.last_launch_name]))
    o.own_launch = t.last_launch;
  t.stack.push_back(std::move(o));
  return t.stack.back().id;
}

void SyncTracker::call_end(std::uint64_t id) {
  std::lock_guard<std::mutex> g(mu_);
  State& s = *s_;
  const std::uint32_t ti = this_thread_index();
  State::Thread& t = s.thread(ti);
  const double now = s.now();
  auto it = std::find_if(t.stack.rbegin(), t.stack.rend(),
                         [&](const State::Open& o) { return o.id == id; });
  if (it == t.stack.rend()) return;
  State::Open o = std::move(*it);
  t.stack.erase(std::next(it).base());
  if (!s.device_times && s.async_seen &&
      (o.kind == CallKind::Fence || o.kind == CallKind::DeepCopy))
    s.kokkos_only_completion(t, o, now);
  if (o.blocked && s.device_times) {
    State::LiveCall c;
    c.id = o.id;
    c.kind = o.kind;
    c.what = o.what;
    c.site = o.site;
    c.regions = t.region_path;
    c.thread = ti;
    c.begin_s = o.begin_s;
    c.end_s = now;
    c.own_launch = o.own_launch;
    c.shares = std::move(o.shares);
    s.add_live(std::move(c));
  } else {
    s.finalize_call(o.id, o.kind, o.what, o.site, t.region_path, 0, o.via,
                    SyncApi::Other, ti, o.begin_s, now, o.bound, o.shares);
  }
  s.set_last_event(t, o.what, false);
  s.maybe_settle();
}

void SyncTracker::region_push(const std::string& name) {
  std::lock_guard<std::mutex> g(mu_);
  State& s = *s_;
  State::Thread& t = s.thread(this_thread_index());
  State::Open o;
  o.id = s.next_id++;
  o.kind = CallKind::Region;
  o.what = s.intern(name);
  o.begin_s = s.now();
  t.stack.push_back(o);
  t.regions.push_back(o.what);
  t.region_path = s.intern(s.region_path_of(t));
  s.set_last_event(t, s.intern("start of region " + name), false);
}

void SyncTracker::region_pop() {
  std::lock_guard<std::mutex> g(mu_);
  State& s = *s_;
  const std::uint32_t ti = this_thread_index();
  State::Thread& t = s.thread(ti);
  auto it = std::find_if(
      t.stack.rbegin(), t.stack.rend(),
      [](const State::Open& o) { return o.kind == CallKind::Region; });
  if (it == t.stack.rend()) return;
  const State::Open o = *it;
  t.stack.erase(std::next(it).base());
  if (!t.regions.empty()) t.regions.pop_back();
  t.region_path = s.intern(s.region_path_of(t));
  const double now = s.now();
  if (s.trace)
    s.trace->host_slice(ti, "region " + s.names[o.what], "region", o.begin_s,
                        now, "{}");
  s.set_last_event(t, s.intern("end of region " + s.names[o.what]), false);
}

void SyncTracker::instant(CallKind kind, const std::string& what) {
  (void)kind;
  std::lock_guard<std::mutex> g(mu_);
  State& s = *s_;
  State::Thread& t = s.thread(this_thread_index());
  s.set_last_event(t, s.intern(what), false);
}

// ---- device sink
// ---------------------------------------------------------------

void SyncTracker::on_launch(std::uint32_t correlation) {
  std::lock_guard<std::mutex> g(mu_);
  State& s = *s_;
  const std::uint32_t ti = this_thread_index();
  State::Thread& t = s.thread(ti);
  State::PendingCorr p;
  p.thread = ti;
  p.launch_s = p.launch_end_s = s.now();
  for (auto it = t.stack.rbegin(); it != t.stack.rend(); ++it) {
    if (it->kind == CallKind::HostKernel) {
      // A device launch inside a "host" kernel: Kokkos 3.4 reports View
      // initialization with a Serial device id. It is a device launch.
      it->kind = CallKind::Launch;
      it->exec.kind = DeviceKind::Cuda;
    }
    if (it->kind != CallKind::Launch) continue;
    p.launch = it->id;
    p.name = it->what;
    p.exec = it->exec;
    if (it->ncorr < it->corr.size()) it->corr[it->ncorr++] = correlation;
    break;
  }
  // Kernels launched inside a call are that call's own work.
  if (const State::Open* outer = State::outermost_call(t))
    p.owner_call = outer->id;
  s.corr[correlation] = p;
}

void SyncTracker::on_launch_failed(std::uint32_t correlation) {
  std::lock_guard<std::mutex> g(mu_);
  s_->corr.erase(correlation);
}

void SyncTracker::on_slow_launch(double begin_s, double end_s) {
  Impl::BlockingBegin b;
  b.api = SyncApi::Launch;
  on_blocking_begin(b);
  {
    std::lock_guard<std::mutex> g(mu_);
    State::Thread& t = s_->thread(this_thread_index());
    if (t.blocking_depth == 1 && t.blocking.api == SyncApi::Launch)
      t.blocking.begin_s = begin_s;
  }
  on_blocking_end_at(end_s);
}

namespace {
std::string describe_api(const Impl::BlockingBegin& b) {
  std::string d = sync_api_name(b.api);
  if (b.api == SyncApi::Memcpy || b.api == SyncApi::MemcpyAsync) {
    static const char* kinds[] = {"", " H2H", " H2D", " D2H", " D2D"};
    if (b.copy_kind > 0 && b.copy_kind <= 4) d += kinds[b.copy_kind];
    d += " " + format_bytes(b.bytes);
  }
  if (!b.all_streams) d += " (stream " + std::to_string(b.stream) + ")";
  return d;
}
}  // namespace

void SyncTracker::on_blocking_begin(const Impl::BlockingBegin& bb) {
  std::lock_guard<std::mutex> g(mu_);
  State& s = *s_;
  const std::uint32_t ti = this_thread_index();
  State::Thread& t = s.thread(ti);
  if (t.blocking_depth++ > 0) return;  // nested inside another: ignore
  BlockingCall& b = t.blocking;
  b = BlockingCall();
  b.thread = ti;
  b.api = bb.api;
  b.begin_s = s.now();
  b.all_streams = bb.all_streams;
  b.device = bb.device;
  b.stream = bb.stream;
  b.bytes = bb.bytes;
  b.copy_kind = bb.copy_kind;
  // What blocked, in words (made once per distinct kind of call).
  std::uint32_t api = 0;
  if (bb.api == SyncApi::Memcpy || bb.api == SyncApi::MemcpyAsync) {
    api = s.intern(describe_api(bb));
  } else {
    api = s.combo(4, std::uint32_t(bb.api) | (bb.all_streams ? 0x100u : 0u),
                  bb.stream, [&] { return describe_api(bb); });
  }
  State::Open* outer = State::outermost_call(t);
  std::uint32_t via = api;
  if (outer) {
    outer->blocked = true;
    b.call = outer->id;
    State::Open* inner = State::innermost_call(t);
    if (inner && inner != outer) {
      const bool fence = inner->kind == CallKind::Fence;
      via = s.combo(fence ? 5 : 6, api, inner->what, [&] {
        return s.names[api] + " in " +
               (fence ? "fence '" + s.names[inner->what] + "'"
                      : s.names[inner->what]);
      });
    }
  } else {
    b.call = s.next_id++;  // a call of its own
  }
  t.blocking_via = via;
}

void SyncTracker::on_blocking_end() { on_blocking_end_at(-1); }

void SyncTracker::on_blocking_end_at(double end_s) {
  std::lock_guard<std::mutex> g(mu_);
  State& s = *s_;
  const std::uint32_t ti = this_thread_index();
  State::Thread& t = s.thread(ti);
  if (t.blocking_depth == 0 || --t.blocking_depth > 0) return;
  BlockingCall b = t.blocking;
  b.end_s = end_s >= 0 ? end_s : s.now();
  if (!State::outermost_call(t)) {
    State::LiveCall c;
    c.id = b.call;
    c.kind = CallKind::Runtime;
    c.what = t.blocking_via;
    c.prev_event = t.last_event;
    c.context =
        t.last_event
            ? s.combo(1, t.last_event, 0,
                      [&] { return "after '" + s.names[t.last_event] + "'"; })
            : s.intern("before any Kokkos event");
    c.site = s.combo(7, c.what, c.context, [&] {
      return s.names[c.what] + " " + s.names[c.context];
    });
    c.awaiting_next_event = true;
    if (t.awaiting_next_event.size() >= 64) {  // runtime calls in a row
      auto old = s.live_calls.find(t.awaiting_next_event.front());
      if (old != s.live_calls.end()) {
        old->second.awaiting_next_event = false;
        s.live_by_end.emplace(old->second.end_s, old->first);
      }
      t.awaiting_next_event.erase(t.awaiting_next_event.begin());
    }
    t.awaiting_next_event.push_back(c.id);
    c.regions = t.region_path;
    c.api = b.api;
    c.thread = ti;
    c.begin_s = b.begin_s;
    c.end_s = b.end_s;
    s.add_live(std::move(c));
  }
  s.blockings.emplace(b.begin_s, State::LiveBlocking{b, t.blocking_via});
  s.maybe_settle();
}

void SyncTracker::on_device_kernels(
    std::vector<Impl::DeviceKernelRecord>& rec) {
  std::lock_guard<std::mutex> g(mu_);
  State& s = *s_;
  for (auto& r : rec) {
    DeviceKernel k;
    k.correlation = r.correlation;
    k.device = r.device;
    k.stream = r.stream;
    k.start_s = r.start_s;
    k.end_s = std::max(r.end_s, r.start_s);
    k.shape = r.shape;
    auto it = s.corr.find(r.correlation);
    if (it != s.corr.end()) {
      const auto& p = it->second;
      k.launch = p.launch;
      k.owner_call = p.owner_call;
      k.name = p.name ? p.name : s.intern(r.name);
      k.thread = p.thread;
      k.exec = p.exec;
      k.launch_s = p.launch_s;
      k.launch_end_s = p.launch_end_s;
      s.corr.erase(it);
    } else {
      // Launched before tracing began, or by a call we do not watch.
      k.name = s.intern(r.name);
      k.launch_s = k.launch_end_s = k.start_s;
    }
    s.device_from.insert(State::from_of(k));
    s.device.emplace(k.end_s, k);
  }
  s.settle(s.now());
}

double SyncTracker::seconds_from_steady_ns(std::int64_t ns) const {
  return s_->clock->from_steady_ns(ns);
}

// ---- results
// -------------------------------------------------------------------

std::uint64_t SyncTracker::mark() const {
  std::lock_guard<std::mutex> g(mu_);
  return s_->next_id;
}

std::vector<CallRecord> SyncTracker::waits_since(std::uint64_t m) const {
  std::lock_guard<std::mutex> g(mu_);
  return s_->ledger.waits_since(m);
}

std::size_t SyncTracker::pending_records() const {
  std::lock_guard<std::mutex> g(mu_);
  const State& s = *s_;
  return s.corr.size() + s.device.size() + s.live_calls.size() +
         s.blockings.size() + s.pending_launches.size();
}

WaitsSnapshot SyncTracker::snapshot() const {
  std::lock_guard<std::mutex> g(mu_);
  const State& s = *s_;
  WaitsSnapshot w;
  w.mode = s.device_times_ever
               ? WaitsMode::Device
               : (s.async_seen ? WaitsMode::KokkosOnly : WaitsMode::Host);
  w.device_source = s.source_desc;
  w.kokkos_fences =
      s.kokkos_interface == 0 ? -1 : (s.kokkos_interface >= 20211015 ? 1 : 0);
  w.rank = rank_from_environment();
  w.epoch_unix_s = std::chrono::duration<double>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count() -
                   s.now();
  w.devices = s.devices;
  w.totals = s.ledger.totals();
  w.threads_seen = s.threads_used;
  w.waits = s.ledger.top_waits();
  w.kernels = s.ledger.kernels();
  // Host kernels Kokkos did not place ran on the host space other kernels
  // ran on, else on Kokkos' default space if that is a host space.
  const DeviceKind host = s.host_kind != DeviceKind::Unknown ? s.host_kind
                          : !is_async(s.default_kind)        ? s.default_kind
                                                      : DeviceKind::Unknown;
  for (auto& k : w.kernels)
    if (k.device_kind == DeviceKind::Unknown) k.device_kind = host;
  w.sites = s.ledger.sites();
  w.streams = s.ledger.streams();
  for (auto& st : w.streams) {
    auto it = s.stream_exec.find((std::uint64_t(st.device) << 32) | st.stream);
    if (it != s.stream_exec.end()) st.exec = it->second;
  }
  w.threads = s.ledger.threads();
  w.kernels_without_device_record = s.kernels_without_record;
  if (s.trace) {
    w.trace_path = s.trace->path();
    w.trace_events_dropped = s.trace->dropped();
  }
  return w;
}

void SyncTracker::write_report(std::ostream& os) const {
  write_waits_report(os, snapshot());
}

std::string SyncTracker::report_json() const { return waits_json(snapshot()); }

bool SyncTracker::open_trace(const std::string& path, std::string* error) {
  std::lock_guard<std::mutex> g(mu_);
  std::unique_ptr<Impl::ChromeTrace> t(new Impl::ChromeTrace(path, 2000000));
  if (!t->ok()) {
    if (error) *error = "cannot open '" + path + "' for writing";
    return false;
  }
  s_->trace = std::move(t);
  return true;
}

void SyncTracker::close_trace() {
  std::lock_guard<std::mutex> g(mu_);
  if (s_->trace) s_->trace->close();
}

}  // namespace addscope
