#include "addscope/waits/addscope_SyncTracker.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <iostream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <unordered_map>

#include "addscope/waits/attribution/addscope_Attribution.hpp"
#include "addscope/waits/attribution/addscope_KernelName.hpp"
#include "addscope/waits/device/addscope_CudaDevices.hpp"
#include "addscope/waits/output/addscope_ChromeTrace.hpp"
#include "addscope/core/addscope_OutputPath.hpp"
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
    case WaitsMode::Callbacks:
      return "callbacks";
  }
  return "unknown";
}

// ---------------------------------------------------------------------------
// Threads: an index per host thread, and a hook that tells every tracker the
// thread used when it exits (so that its state is let go).

namespace {
std::atomic<std::uint32_t> g_next_thread{0};
std::uint32_t this_thread_index() {
  thread_local const std::uint32_t idx = g_next_thread.fetch_add(1);
  return idx;
}
std::atomic<std::uint64_t> g_next_serial{1};
// Never destroyed: threads may exit during the static destruction.
std::mutex& registry_mutex() {
  static std::mutex* m = new std::mutex;
  return *m;
}
std::unordered_map<std::uint64_t, SyncTracker*>& registry() {
  static auto* r = new std::unordered_map<std::uint64_t, SyncTracker*>;
  return *r;
}
constexpr double kForever = std::numeric_limits<double>::infinity();
}  // namespace

namespace Impl {
class ThreadExitWatch {
 public:
  ~ThreadExitWatch() {
    const std::uint32_t idx = this_thread_index();
    std::lock_guard<std::mutex> g(registry_mutex());
    for (auto serial : serials_) {
      auto it = registry().find(serial);
      if (it != registry().end()) it->second->on_thread_exit(idx);
    }
  }
  // A thread watched by many trackers (tests make one after another)
  // keeps the 16 it used last: an older one keeps this thread's state
  // until it is destroyed.
  void watch(std::uint64_t serial) {
    if (!serials_.empty() && serials_.back() == serial) return;
    auto it = std::find(serials_.begin(), serials_.end(), serial);
    if (it != serials_.end()) serials_.erase(it);
    if (serials_.size() >= 16) serials_.erase(serials_.begin());
    serials_.push_back(serial);
  }

 private:
  std::vector<std::uint64_t> serials_;
};
}  // namespace Impl

namespace {
void watch_this_thread(std::uint64_t serial) {
  thread_local Impl::ThreadExitWatch w;
  w.watch(serial);
}

// A queue of records kept in the order of a time key (they arrive nearly in
// that order: inserting is a push at the back, or a short move).
template <class T>
class TimeQueue {
 public:
  struct Item {
    double key;
    T value;
  };
  void insert(double key, T value) {
    if (q_.empty() || !(key < q_.back().key)) {
      q_.push_back({key, std::move(value)});
      return;
    }
    auto it =
        std::upper_bound(q_.begin(), q_.end(), key,
                         [](double k, const Item& i) { return k < i.key; });
    q_.insert(it, {key, std::move(value)});
  }
  bool empty() const { return q_.empty(); }
  std::size_t size() const { return q_.size(); }
  Item& front() { return q_.front(); }
  void pop_front() { q_.pop_front(); }
  // The first item whose key is greater than `key`.
  typename std::deque<Item>::iterator upper_bound(double key) {
    return std::upper_bound(q_.begin(), q_.end(), key,
                            [](double k, const Item& i) { return k < i.key; });
  }
  typename std::deque<Item>::iterator begin() { return q_.begin(); }
  typename std::deque<Item>::iterator end() { return q_.end(); }
  typename std::deque<Item>::const_iterator begin() const { return q_.begin(); }
  typename std::deque<Item>::const_iterator end() const { return q_.end(); }

 private:
  std::deque<Item> q_;
};

// What a name is, as the rules ask, computed once per name.
enum NameFlag : std::uint8_t {
  kFlagsKnown = 1,
  kUserFence = 2,
  kResultFence = 4,
  kViewInit = 8,
};
}  // namespace

// ---------------------------------------------------------------------------
// State

struct SyncTracker::State {
  struct Share {
    std::uint32_t kernel;  // name id
    std::uint32_t stream;
    double wait_s;
  };
  // What a wait is charged to: an open call, or a finished one whose
  // blocking calls are not all attributed yet.
  struct Charge {
    std::uint64_t id = 0;
    CallKind kind = CallKind::Step;
    double begin_s = 0;
    std::uint64_t own_launch = 0;  // its own kernels are its work, not waits
    bool bound = false;            // waits without device times: upper bounds
    std::uint32_t via = 0;         // where it blocked the longest
    double via_wait_s = 0;
    std::vector<Share> shares;
  };
  struct Open : Charge {
    std::uint32_t what = 0, site = 0;
    ExecId exec;
    std::array<std::uint32_t, 4> corr{};
    std::uint8_t ncorr = 0;
    bool blocked = false;  // a blocking runtime call happened inside
    // Callbacks-only mode: the stream its launch went to.
    bool lane_known = false;
    std::uint32_t lane_device = 0, lane_stream = 0;
  };
  struct LiveCall : Charge {  // finished; blocking calls not all attributed
    std::uint32_t what = 0, site = 0, regions = 0, context = 0;
    SyncApi api = SyncApi::Other;
    std::uint32_t thread = 0;
    double end_s = 0;
    std::uint32_t prev_event = 0;  // runtime calls: the Kokkos event before
    bool awaiting_next_event = false;
  };
  struct Thread {
    std::uint32_t index = 0;
    std::vector<Open> stack;                  // regions included
    std::vector<std::uint32_t> region_paths;  // path id per kept region
    std::uint32_t region_path = 0;
    std::uint64_t regions_ignored = 0;  // pushes past the depth cap, open
    int blocking_depth = 0;
    BlockingCall blocking;
    std::uint32_t blocking_via = 0;
    std::uint32_t last_event = 0;
    // The last event was an instant (an allocation), kept as text: interned
    // only if a runtime call needs it for its context.
    std::string instant;
    bool instant_pending = false;
    std::uint64_t last_launch = 0;  // the last asynchronous launch ended
    std::uint32_t last_launch_name = 0;
    bool last_event_was_launch = false;  // ... and nothing happened since
    // Runtime calls outside Kokkos calls, named by the events around them
    // once the next one comes.
    std::vector<std::uint64_t> awaiting_next_event;
    // Blocking calls attributed, in time order (one thread's do not
    // overlap), kept while a kernel not yet settled may have run during them.
    std::deque<BlockingCall> blocked;
    bool exited = false;
    // The names this thread used last (kernels repeat): found by a compare
    // instead of a hash.
    std::array<std::pair<std::string_view, std::uint32_t>, 8> recent_names{};
    std::uint8_t next_recent = 0;
  };
  struct LiveBlocking {
    BlockingCall b;
    std::uint32_t via = 0;
  };
  struct PendingCorr {
    std::uint32_t correlation = 0;
    bool done = false;  // its record came (erased from the front lazily)
    std::uint64_t launch = 0;
    std::uint64_t owner_call = 0;  // outermost call open at the launch
    std::uint32_t name = 0;
    std::uint32_t thread = 0;
    ExecId exec;
    double launch_s = 0, launch_end_s = 0;
  };
  // Launches not known finished, without device records (Kokkos-only and
  // callbacks-only modes), by lane: a Kokkos instance, or a device stream.
  struct PendingLaunch {
    std::uint64_t launch = 0, owner_call = 0;
    std::uint32_t name = 0;
    double launch_end_s = 0;
  };
  struct Lane {
    ExecId exec;  // Kokkos-only
    bool stream_known = false;
    std::uint32_t device = 0, stream = 0;  // callbacks-only
    std::deque<PendingLaunch> q;
  };

  explicit State(TrackerOptions o)
      : opt(std::move(o)), lim(opt.tracker_limits), ledger(opt.limits) {
    clock = opt.clock ? opt.clock : std::make_shared<SteadyWaitsClock>();
    add_name("");
    full_name = add_name("(name table full)");
    no_event_name = add_name("before any Kokkos event");
    outside_kokkos_name = add_name("(a kernel launched outside Kokkos)");
  }

  TrackerOptions opt;
  TrackerLimits lim;
  std::shared_ptr<WaitsClock> clock;
  Ledger ledger;
  std::unique_ptr<Impl::ChromeTrace> trace;
  WaitsDropped dropped;

  // ---- names, interned: ids are stable for the run --------------------------
  std::deque<std::string> names;  // stable: name_ids views into it
  std::unordered_map<std::string_view, std::uint32_t> name_ids;
  std::size_t name_bytes = 0;
  std::vector<std::uint32_t> short_of;   // id -> id of the readable form
  std::vector<std::uint32_t> launch_of;  // id -> id of "launch of <short>"
  std::vector<std::uint8_t> flags_of;    // id -> NameFlag bits
  std::uint32_t full_name = 0, no_event_name = 0, outside_kokkos_name = 0;

  std::uint32_t add_name(std::string_view s) {
    const auto id = std::uint32_t(names.size());
    names.emplace_back(s);
    name_ids.emplace(std::string_view(names.back()), id);
    name_bytes += s.size();
    short_of.push_back(0);
    launch_of.push_back(0);
    flags_of.push_back(0);
    return id;
  }
  std::uint32_t intern(std::string_view s) {
    if (s.empty()) return 0;
    auto it = name_ids.find(s);
    if (it != name_ids.end()) return it->second;
    if (names.size() >= lim.names || name_bytes + s.size() > lim.name_bytes) {
      ++dropped.names;
      return full_name;
    }
    return add_name(s);
  }
  // A thread's names: the ones it used last are found without hashing.
  std::uint32_t intern(Thread& t, std::string_view s) {
    for (const auto& r : t.recent_names)
      if (r.second != 0 && r.first.size() == s.size() &&
          std::memcmp(r.first.data(), s.data(), s.size()) == 0)
        return r.second;
    const std::uint32_t id = intern(s);
    if (id != 0 && id != full_name) {
      t.recent_names[t.next_recent] = {std::string_view(names[id]), id};
      t.next_recent = std::uint8_t((t.next_recent + 1) % t.recent_names.size());
    }
    return id;
  }
  // Names made of others ("after 'X'", "between 'A' and 'B'", region
  // paths, ...), made once: the hot paths only look them up.
  std::unordered_map<std::uint64_t, std::uint32_t> combos;
  template <class Make>
  std::uint32_t combo(std::uint32_t tag, std::uint32_t a, std::uint32_t b,
                      Make make) {
    const std::uint64_t key = (std::uint64_t(tag) << 58) ^
                              (std::uint64_t(a) << 29) ^ std::uint64_t(b);
    auto it = combos.find(key);
    if (it != combos.end()) return it->second;
    const std::uint32_t id = intern(make());
    if (id == full_name) return id;  // not kept: the table is full
    if (combos.size() >= 2 * lim.names) combos.clear();  // a cache
    combos.emplace(key, id);
    return id;
  }
  std::uint32_t launch_name(std::uint32_t id) {
    if (launch_of[id] == 0) {
      const std::uint32_t l = intern("launch of " + names[short_id(id)]);
      launch_of[id] = l;
    }
    return launch_of[id];
  }
  std::uint32_t short_id(std::uint32_t id) {
    if (id == 0 || id == full_name) return id;
    if (short_of[id] == 0) {
      const std::uint32_t s = intern(short_kernel_name(names[id]));
      short_of[id] = s;
    }
    return short_of[id];
  }
  std::uint8_t flags(std::uint32_t id) {
    std::uint8_t& f = flags_of[id];
    if (!(f & kFlagsKnown)) {
      const std::string& n = names[id];
      f = kFlagsKnown;
      if (Impl::is_user_fence(n)) f |= kUserFence;
      if (Impl::is_result_fence(n)) f |= kResultFence;
      if (n.rfind("Kokkos::View::initialization", 0) == 0) f |= kViewInit;
    }
    return f;
  }
  // Impl::classify, from the name's flags.
  WaitClass classify(CallKind kind, std::uint32_t what, SyncApi api) {
    switch (kind) {
      case CallKind::Fence:
        return flags(what) & (kUserFence | kResultFence) ? WaitClass::Explicit
                                                         : WaitClass::Hidden;
      case CallKind::Runtime:
        return is_synchronization(api) ? WaitClass::Explicit
                                       : WaitClass::Hidden;
      default:
        return WaitClass::Hidden;
    }
  }
  // Impl::fence_completes_launch, from the names' flags.
  bool fence_completes_launch(std::uint32_t fence, std::uint32_t launch) {
    if (flags(fence) & kResultFence) return true;
    return (flags(fence) & kViewInit) && (flags(launch) & kViewInit);
  }

  // ---- threads -------------------------------------------------------------
  std::unordered_map<std::uint32_t, std::unique_ptr<Thread>> threads;
  Thread* last_thread = nullptr;  // the one used last
  std::uint64_t threads_used = 0, serial = 0;
  std::size_t exited_threads = 0;
  Thread& thread(std::uint32_t idx) {
    if (last_thread && last_thread->index == idx) return *last_thread;
    auto it = threads.find(idx);
    if (it == threads.end()) {
      it = threads.emplace(idx, std::unique_ptr<Thread>(new Thread)).first;
      it->second->index = idx;
      ++threads_used;
      watch_this_thread(serial);
    }
    last_thread = it->second.get();
    return *last_thread;
  }
  Thread* find_thread(std::uint32_t idx) {
    auto it = threads.find(idx);
    return it == threads.end() ? nullptr : it->second.get();
  }
  // Pushes an open call or region; past the cap the oldest goes.
  void push_open(Thread& t, Open o) {
    if (t.stack.size() >= lim.open_per_thread && !t.stack.empty()) {
      if (t.stack.front().kind == CallKind::Region) {
        ++dropped.unpopped_regions;
        if (!t.region_paths.empty())
          t.region_paths.erase(t.region_paths.begin());
      } else {
        ++dropped.unended_calls;
      }
      t.stack.erase(t.stack.begin());
    }
    t.stack.push_back(std::move(o));
  }

  // ---- records awaiting attribution
  // ------------------------------------------ Finished calls whose blocking
  // calls are not attributed yet, by id, and by end time (those still waiting
  // for the next event to be named are added to the index once named).
  std::unordered_map<std::uint64_t, LiveCall> live_calls;
  TimeQueue<std::uint64_t> live_by_end;
  void add_live(LiveCall c) {
    const double end = c.end_s;
    const std::uint64_t id = c.id;
    const bool named = !c.awaiting_next_event;
    live_calls.emplace(id, std::move(c));
    if (named) live_by_end.insert(end, id);
  }
  // Finished blocking calls, by begin time.
  TimeQueue<LiveBlocking> blockings;
  // Launches awaiting their device record, by correlation id (which grows
  // with time); entries whose record came are dropped from the front.
  std::deque<PendingCorr> corr;
  std::size_t corr_live = 0;
  PendingCorr* find_corr(std::uint32_t c) {
    auto it = std::lower_bound(corr.begin(), corr.end(), c,
                               [](const PendingCorr& p, std::uint32_t v) {
                                 return p.correlation < v;
                               });
    if (it == corr.end() || it->correlation != c || it->done) return nullptr;
    return &*it;
  }
  void add_corr(PendingCorr p) {
    if (corr.empty() || corr.back().correlation < p.correlation) {
      corr.push_back(p);
    } else {
      auto it = std::lower_bound(corr.begin(), corr.end(), p.correlation,
                                 [](const PendingCorr& q, std::uint32_t v) {
                                   return q.correlation < v;
                                 });
      if (it != corr.end() && it->correlation == p.correlation) {
        if (!it->done) --corr_live;
        *it = p;
      } else {
        corr.insert(it, p);
      }
    }
    ++corr_live;
  }
  void done_corr(PendingCorr* p) {
    p->done = true;
    --corr_live;
    while (!corr.empty() && corr.front().done) corr.pop_front();
  }
  // Kernels recorded and not yet settled, by end time.
  TimeQueue<DeviceKernel> device;
  // Launches not known finished (no device records), by lane.
  std::vector<Lane> lanes;
  std::size_t pending_launch_count = 0;

  std::uint64_t next_id = 1;
  std::size_t since_settle = 0;
  bool fed_by_tools = false;
  std::uint64_t kokkos_interface = 0;
  bool async_seen = false;
  bool device_times = false;       // kernel records will come
  bool device_times_ever = false;  // ... came at some point
  bool callbacks_only = false;     // launches and blocking calls, no records
  bool callbacks_ever = false;
  bool tools_started_source = false;
  int tracing_refs = 0;
  int keep_recent = 0;  // the library's front door reads recent waits
  std::unique_ptr<Impl::DeviceSource> source;
  bool source_running = false;
  std::string source_desc;
  std::uint64_t kernels_without_record = 0;
  std::unordered_map<std::uint64_t, ExecId> stream_exec;  // dev<<32|stream
  std::vector<DeviceCapacity> devices;  // what each device can hold
  bool devices_queried = false;
  DeviceKind host_kind = DeviceKind::Unknown;     // a host space kernels ran on
  DeviceKind default_kind = DeviceKind::Unknown;  // Kokkos' default space

  std::size_t pending_total() const {
    return corr_live + device.size() + live_calls.size() + blockings.size() +
           pending_launch_count;
  }

  // ---- helpers (mu_ held) -------------------------------------------------
  double now() const { return clock->now(); }

  void set_last_event(Thread& t, std::uint32_t what, bool launch) {
    for (auto id : t.awaiting_next_event) {
      auto it = live_calls.find(id);
      if (it == live_calls.end()) continue;
      LiveCall& c = it->second;
      c.context = c.prev_event
                      ? combo(2, c.prev_event, what,
                              [&] {
                                return "between '" + names[c.prev_event] +
                                       "' and '" + names[what] + "'";
                              })
                      : combo(3, what, 0,
                              [&] { return "before '" + names[what] + "'"; });
      c.awaiting_next_event = false;
      live_by_end.insert(c.end_s, c.id);
    }
    t.awaiting_next_event.clear();
    t.last_event = what;
    t.last_event_was_launch = launch;
    t.instant_pending = false;
  }
  // The thread's last event, interned now if it was an instant.
  std::uint32_t last_event(Thread& t) {
    if (t.instant_pending) {
      t.last_event = intern(t.instant);
      t.instant_pending = false;
    }
    return t.last_event;
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
  // The call a wait is charged to: a finished call awaiting attribution,
  // or a call still open on `thread`.
  Charge* charge_of(std::uint64_t id, std::uint32_t thread) {
    auto it = live_calls.find(id);
    if (it != live_calls.end()) return &it->second;
    if (Thread* t = find_thread(thread))
      for (auto& o : t->stack)
        if (o.id == id) return &o;
    return nullptr;
  }

  // ---- launches without device records (Kokkos-only, callbacks-only) -------
  Lane& lane_for(const ExecId& exec, bool stream_known, std::uint32_t device,
                 std::uint32_t stream, bool by_stream) {
    for (auto& l : lanes) {
      if (by_stream
              ? (l.stream_known == stream_known && l.device == device &&
                 l.stream == stream)
              : (l.exec.kind == exec.kind && l.exec.device == exec.device &&
                 l.exec.instance == exec.instance))
        return l;
    }
    if (lanes.size() >= lim.streams) return lanes.front();  // merged
    Lane l;
    l.exec = exec;
    l.stream_known = stream_known;
    l.device = device;
    l.stream = stream;
    lanes.push_back(std::move(l));
    return lanes.back();
  }
  void push_pending(Lane& l, const PendingLaunch& p) {
    if (pending_launch_count >= lim.pending_launches) {
      Lane* from = &l;
      if (from->q.empty())
        for (auto& o : lanes)
          if (!o.q.empty()) from = &o;
      if (!from->q.empty()) {
        from->q.pop_front();
        --pending_launch_count;
        ++dropped.pending_launches;
      }
    }
    l.q.push_back(p);
    ++pending_launch_count;
  }
  // Launches covered by `covers` that returned by `before_s` are finished
  // now; returns the last of them (null if none).
  template <class Covers>
  bool complete_launches(Covers covers, double before_s, PendingLaunch* last) {
    bool any = false;
    for (auto& l : lanes) {
      if (!covers(l)) continue;
      while (!l.q.empty() && l.q.front().launch_end_s <= before_s) {
        if (!any || l.q.front().launch_end_s >= last->launch_end_s)
          *last = l.q.front();
        any = true;
        l.q.pop_front();
        --pending_launch_count;
      }
    }
    return any;
  }

  // Kokkos-only: a fence or deep_copy returned, so the kernels it covers
  // had finished; the time it took bounds the wait.
  void kokkos_only_completion(Thread& t, const Open& call, double end_s) {
    if (pending_launch_count == 0) return;
    PendingLaunch last;
    const bool any = complete_launches(
        [&](const Lane& l) {
          return call.kind != CallKind::Fence || call.exec.covers(l.exec);
        },
        call.begin_s, &last);
    if (!any) return;
    Charge* owner = outermost_call(t);
    if (!owner) owner = const_cast<Open*>(&call);
    if (owner->shares.empty() && owner->own_launch != last.launch) {
      // The last kernel queued is the one the call waited for.
      owner->shares.push_back({last.name, 0, end_s - call.begin_s});
      owner->bound = true;
    }
  }

  // Callbacks-only: a blocking runtime call returned, so the launches on
  // the streams it waits for had finished; it waited up to its whole time
  // for the last of them (unless that was its call's own kernel).
  void callbacks_completion(const BlockingCall& b, Charge* owner) {
    if (pending_launch_count == 0) return;
    PendingLaunch last;
    const bool any = complete_launches(
        [&](const Lane& l) {
          return l.device == b.device &&
                 (b.all_streams || !l.stream_known || l.stream == b.stream);
        },
        b.begin_s, &last);
    if (!any || !owner || b.api == SyncApi::Launch) return;
    if (last.owner_call == b.call ||
        (owner->own_launch != 0 && last.launch == owner->own_launch))
      return;  // its own kernel: its work
    const double wait = b.end_s - b.begin_s;
    owner->shares.push_back({last.name, 0, wait});
    owner->bound = true;
    if (wait > owner->via_wait_s) {
      owner->via_wait_s = wait;
      owner->via = 0;  // set by the caller
    }
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
        wait > 0 ? classify(kind, what, api) : WaitClass::None;
    ledger.add_call({kind, site ? site : what, regions},
                    names[site ? site : what], names[regions], thread, dur, cls,
                    wait);
    std::string args;
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
          args =
              a.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        }
        ledger.keep_details(std::move(c), recent);
      }
    }
    if (trace)
      trace->host_slice(thread, names[what], call_kind_name(kind), begin_s,
                        end_s, args.empty() ? "{}" : args);
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
         it != device.end() && it->key <= b.end_s + Impl::kClockTolerance_s;
         ++it)
      if (Impl::awaits(b, it->value)) cands.push_back(&it->value);
    scratch_ccands.assign(cands.begin(), cands.end());
    const auto share = Impl::split_wait(b, scratch_ccands);
    // The thread sat here: what ran meanwhile was not overlapped by host
    // work (summed per kernel when it is settled).
    if (Thread* t = find_thread(b.thread)) t->blocked.push_back(b);
    Charge* owner = charge_of(b.call, b.thread);
    const bool own_call = owner && owner->kind == CallKind::Runtime &&
                          owner->begin_s == b.begin_s;
    if (trace && !own_call)
      trace->host_slice(b.thread, names[lb.via], "runtime", b.begin_s, b.end_s,
                        "{}");
    double total = 0;
    for (std::size_t i = 0; i < cands.size(); ++i) {
      if (share[i] <= 0) continue;
      DeviceKernel& k = *cands[i];
      k.waited_s += share[i];
      if (!owner) continue;
      if ((k.owner_call != 0 && k.owner_call == b.call) ||
          (owner->own_launch != 0 && k.launch == owner->own_launch))
        continue;  // a call waiting for its own kernel: its own work
      owner->shares.push_back({k.name, k.stream, share[i]});
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
    if (owner && total > owner->via_wait_s) {
      owner->via_wait_s = total;
      owner->via = lb.via;
    }
  }

  // When a kernel began running after its launch returned.
  static double from_of(const DeviceKernel& k) {
    return std::max(k.start_s, k.launch_end_s);
  }

  void finalize_kernel(DeviceKernel& k) {
    if (Thread* t = find_thread(k.thread)) {
      const auto& bl = t->blocked;
      const double from = from_of(k);
      auto it = std::lower_bound(
          bl.begin(), bl.end(), from,
          [](const BlockingCall& b, double v) { return b.end_s < v; });
      for (; it != bl.end() && it->begin_s < k.end_s; ++it)
        k.blocked_s += Impl::blocked_during(*it, k);
    }
    const double ov = Impl::overlap_s(k);
    const std::uint32_t sh = short_id(k.name);
    ledger.add_device_kernel(k.name, names[sh], names[k.name], k, ov);
    const std::uint64_t skey = (std::uint64_t(k.device) << 32) | k.stream;
    if (k.exec.kind != DeviceKind::Unknown &&
        (stream_exec.size() < lim.streams || stream_exec.count(skey)))
      stream_exec[skey] = k.exec;
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
      trace->device_slice(
          k.device, k.stream, sname, names[sh], k.start_s, k.end_s,
          a.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    }
  }

  // Attributes and forgets everything that can no longer change: blocking
  // calls begun before `w`, calls and kernels ended by `w`, where `w` is the
  // earliest moment something may still arrive for (an open blocking call,
  // a launched kernel without its device record). A call still open does
  // not hold anything back: waits found for it are kept in it until it
  // ends. `force`: past the cap on records held, settle up to `limit`
  // whatever is still to come (counted).
  void settle(double limit, bool force = false) {
    since_settle = 0;
    double w = limit;
    if (w != kForever) {
      for (const auto& kv : threads)
        if (kv.second->blocking_depth > 0)
          w = std::min(w, kv.second->blocking.begin_s);
      if (corr_live > 0)
        for (const auto& p : corr)
          if (!p.done) {
            w = std::min(w, p.launch_s);
            break;
          }
    } else {
      kernels_without_record += corr_live;
      corr.clear();
      corr_live = 0;
    }
    const double pinned = w;
    if (force) w = limit;
    // In time order; each step costs what it processes.
    while (!blockings.empty() && blockings.front().key < w) {
      if (force && !(blockings.front().key < pinned)) ++dropped.settled_early;
      LiveBlocking lb = std::move(blockings.front().value);
      blockings.pop_front();
      attribute_blocking(lb);
    }
    if (limit == kForever)
      for (auto& c : live_calls)
        if (c.second.awaiting_next_event) {
          c.second.awaiting_next_event = false;
          live_by_end.insert(c.second.end_s, c.first);
        }
    while (!live_by_end.empty() && live_by_end.front().key <= w) {
      const std::uint64_t id = live_by_end.front().value;
      live_by_end.pop_front();
      auto it = live_calls.find(id);
      if (it == live_calls.end()) continue;
      finalize_live(it->second);
      live_calls.erase(it);
    }
    while (!device.empty() && device.front().key <= w) {
      DeviceKernel k = device.front().value;
      device.pop_front();
      finalize_kernel(k);
    }
    // Blocking calls that ended before every unsettled kernel ran.
    double keep_from = limit;
    if (corr_live > 0)
      for (const auto& p : corr)
        if (!p.done) {
          keep_from = std::min(keep_from, p.launch_s);
          break;
        }
    for (const auto& k : device)
      keep_from = std::min(keep_from, from_of(k.value));
    for (auto it = threads.begin(); it != threads.end();) {
      Thread& t = *it->second;
      while (!t.blocked.empty() && t.blocked.front().end_s < keep_from)
        t.blocked.pop_front();
      // A thread that exited, with nothing left that refers to it.
      if (t.exited && t.blocked.empty() && t.stack.empty() &&
          t.blocking_depth == 0 && t.awaiting_next_event.empty()) {
        if (last_thread == &t) last_thread = nullptr;
        it = threads.erase(it);
        --exited_threads;
      } else {
        ++it;
      }
    }
  }

  // Past the cap: launches whose record never came are given up (oldest
  // first), and what is held is settled with what has arrived.
  void enforce_cap() {
    if (pending_total() <= lim.pending_records) return;
    while (corr_live > lim.pending_records / 2 && !corr.empty()) {
      if (!corr.front().done) {
        ++kernels_without_record;
        --corr_live;
      }
      corr.pop_front();
    }
    settle(now(), true);
    // Records that claim to end later than now (a clock gone wrong).
    while (pending_total() > lim.pending_records && !device.empty()) {
      DeviceKernel k = device.front().value;
      device.pop_front();
      finalize_kernel(k);
      ++dropped.settled_early;
    }
  }

  void maybe_settle() {
    if (++since_settle >= opt.settle_every) {
      settle(now());
      enforce_cap();
    }
  }

  // A call of the stack ends: attribute it, or keep it until its blocking
  // calls are.
  void end_open(Thread& t, Open& o, double now_s) {
    const std::uint32_t ti = t.index;
    if (!device_times && async_seen && !callbacks_only &&
        (o.kind == CallKind::Fence || o.kind == CallKind::DeepCopy))
      kokkos_only_completion(t, o, now_s);
    const bool keep = o.blocked && device_times;
    if (o.kind == CallKind::HostKernel) {
      const std::uint32_t sh = short_id(o.what);
      ledger.add_host_kernel(o.what, names[sh], names[o.what],
                             now_s - o.begin_s, o.exec.kind);
      o.what = o.site = sh;
    } else if (o.kind == CallKind::Launch) {
      const std::uint32_t sh = short_id(o.what);
      ledger.add_launch(o.what, names[sh], names[o.what], o.exec.kind);
      if (device_times) {
        for (std::uint8_t i = 0; i < o.ncorr; ++i)
          if (PendingCorr* c = find_corr(o.corr[i])) c->launch_end_s = now_s;
      } else if (async_seen) {
        PendingLaunch p;
        p.launch = o.id;
        p.owner_call = o.id;
        p.name = o.what;
        p.launch_end_s = now_s;
        if (callbacks_only) {
          if (o.lane_known || o.ncorr > 0)
            push_pending(lane_for(o.exec, o.lane_known, o.lane_device,
                                  o.lane_stream, true),
                         p);
        } else {
          push_pending(lane_for(o.exec, false, 0, 0, false), p);
        }
      }
      const std::uint32_t l = launch_name(o.what);
      t.last_launch = o.id;
      t.last_launch_name = o.what;
      o.what = o.site = l;
    }
    const std::uint32_t what = o.what;
    if (keep) {
      LiveCall c;
      static_cast<Charge&>(c) = std::move(static_cast<Charge&>(o));
      c.what = o.what;
      c.site = o.site;
      c.regions = t.region_path;
      c.thread = ti;
      c.end_s = now_s;
      add_live(std::move(c));
    } else {
      finalize_call(o.id, o.kind, o.what, o.site, t.region_path, 0, o.via,
                    SyncApi::Other, ti, o.begin_s, now_s, o.bound, o.shares);
    }
    set_last_event(t, what, o.kind == CallKind::Launch);
    maybe_settle();
  }
};

// ---------------------------------------------------------------------------

SyncTracker& SyncTracker::global() {
  // Never destroyed: device sources may report until the process ends.
  static SyncTracker* t = [] {
    TrackerOptions o;
    const char* dev = std::getenv("ADDSCOPE_WAITS_DEVICE");
    std::string mode = dev && *dev ? dev : "cupti";
    if (mode != "cupti" && mode != "callbacks" && mode != "none") {
      std::cerr << "addscope waits: ADDSCOPE_WAITS_DEVICE='" << mode
                << "' is invalid; allowed: cupti, callbacks, none; using "
                   "cupti\n";
      mode = "cupti";
    }
    if (mode != "none" && Impl::cupti_source_built()) {
      const auto m = mode == "callbacks" ? Impl::CuptiMode::Callbacks
                                         : Impl::CuptiMode::Full;
      o.make_device_source = [m] { return Impl::make_cupti_source(m); };
      o.query_devices = [] { return Impl::query_cuda_devices(); };
    }
    return new SyncTracker(std::move(o));
  }();
  return *t;
}

SyncTracker::SyncTracker() : SyncTracker(TrackerOptions()) {}

SyncTracker::SyncTracker(TrackerOptions options)
    : s_(new State(std::move(options))), serial_(g_next_serial++) {
  s_->serial = serial_;
  if (s_->opt.device_records_by_hand) {
    s_->device_times = s_->device_times_ever = true;
    s_->source_desc = "device records given by hand";
    if (s_->opt.query_devices) s_->devices = s_->opt.query_devices();
    s_->devices_queried = true;
  } else if (s_->opt.callbacks_by_hand) {
    s_->callbacks_only = s_->callbacks_ever = true;
    s_->source_desc = "device callbacks given by hand";
  }
  std::lock_guard<std::mutex> g(registry_mutex());
  registry()[serial_] = this;
}

SyncTracker::~SyncTracker() {
  {
    std::lock_guard<std::mutex> g(registry_mutex());
    registry().erase(serial_);
  }
  if (s_->source && s_->source_running) s_->source->stop();
}

double SyncTracker::now() const { return s_->now(); }

void SyncTracker::set_fed_by_kokkos_tools(bool on) {
  std::lock_guard<std::mutex> g(mu_);
  s_->fed_by_tools = on;
  device_settled_ = false;
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

void SyncTracker::on_thread_exit(std::uint32_t idx) {
  std::lock_guard<std::mutex> g(mu_);
  State& s = *s_;
  State::Thread* t = s.find_thread(idx);
  if (!t || t->exited) return;
  // What it left open never ends.
  for (const auto& o : t->stack) {
    if (o.kind == CallKind::Region)
      ++s.dropped.unpopped_regions;
    else
      ++s.dropped.unended_calls;
  }
  s.dropped.unpopped_regions += t->regions_ignored;
  t->stack.clear();
  t->region_paths.clear();
  t->regions_ignored = 0;
  if (t->blocking_depth > 0) ++s.dropped.unended_calls;
  t->blocking_depth = 0;
  // Runtime calls awaiting the next event keep the context they have.
  for (auto id : t->awaiting_next_event) {
    auto it = s.live_calls.find(id);
    if (it == s.live_calls.end()) continue;
    it->second.awaiting_next_event = false;
    s.live_by_end.insert(it->second.end_s, id);
  }
  t->awaiting_next_event.clear();
  t->exited = true;
  ++s.exited_threads;
  if (s.last_thread == t) s.last_thread = nullptr;
}

// ---- device source ---------------------------------------------------------

void SyncTracker::ensure_device(DeviceKind kind) {
  if (!is_async(kind) || device_settled_.load(std::memory_order_acquire))
    return;
  {
    std::lock_guard<std::mutex> g(mu_);
    s_->async_seen = true;
    // The Kokkos Tools front door traces the device for the whole run; the
    // library's front door only within start/stop_device_tracing().
    if (!s_->fed_by_tools || s_->tools_started_source) {
      if (s_->tools_started_source || !s_->fed_by_tools)
        device_settled_.store(true, std::memory_order_release);
      return;
    }
    s_->tools_started_source = true;
  }
  start_device_tracing();
  device_settled_.store(true, std::memory_order_release);
}

void SyncTracker::device_seen(DeviceKind kind) { ensure_device(kind); }

bool SyncTracker::start_device_tracing() {
  Impl::DeviceSource* src = nullptr;
  {
    std::lock_guard<std::mutex> g(mu_);
    ++s_->keep_recent;
    if (s_->opt.device_records_by_hand || s_->opt.callbacks_by_hand)
      return s_->device_times;
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
  const bool records = ok && src->kernel_records();
  s_->source_running = ok;
  s_->device_times = records;
  s_->device_times_ever = s_->device_times_ever || records;
  s_->callbacks_only = ok && !records;
  s_->callbacks_ever = s_->callbacks_ever || s_->callbacks_only;
  s_->source_desc = src->description();
  return records;
}

void SyncTracker::stop_device_tracing() {
  Impl::DeviceSource* src = nullptr;
  {
    std::lock_guard<std::mutex> g(mu_);
    if (s_->keep_recent > 0) --s_->keep_recent;
    if (s_->opt.device_records_by_hand || s_->opt.callbacks_by_hand ||
        s_->tracing_refs == 0)
      return;
    if (--s_->tracing_refs > 0 || s_->tools_started_source) return;
    if (!s_->source_running) return;
    src = s_->source.get();
  }
  src->stop();  // delivers what is pending
  std::lock_guard<std::mutex> g(mu_);
  s_->source_running = false;
  s_->device_times = false;
  s_->callbacks_only = false;
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
    s_->callbacks_only = false;
  }
  s_->settle(kForever);
  if (s_->trace) s_->trace->close();
}

// ---- host events
// ---------------------------------------------------------------

std::uint64_t SyncTracker::kernel_begin(std::string_view name, ExecId exec) {
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
  o.what = s.intern(t, name);
  o.exec = exec;
  o.own_launch = o.id;
  o.begin_s = s.now();
  const std::uint64_t id = o.id;
  s.push_open(t, std::move(o));
  return id;
}

void SyncTracker::kernel_end(std::uint64_t id) { call_end(id); }

std::uint64_t SyncTracker::call_begin(CallKind kind, std::string_view what,
                                      ExecId exec, std::string_view site) {
  ensure_device(exec.kind);
  std::lock_guard<std::mutex> g(mu_);
  State& s = *s_;
  State::Thread& t = s.thread(this_thread_index());
  State::Open o;
  o.id = s.next_id++;
  o.kind = kind;
  o.what = s.intern(t, what);
  o.site = site.empty() ? o.what : s.intern(t, site);
  o.exec = exec;
  o.begin_s = s.now();
  // The fence Kokkos makes for a reduction's host result waits for that
  // reduction: its own work.
  if (kind == CallKind::Fence && t.last_event_was_launch &&
      s.fence_completes_launch(o.what, t.last_launch_name))
    o.own_launch = t.last_launch;
  const std::uint64_t id = o.id;
  s.push_open(t, std::move(o));
  return id;
}

void SyncTracker::call_end(std::uint64_t id) {
  std::lock_guard<std::mutex> g(mu_);
  State& s = *s_;
  State::Thread& t = s.thread(this_thread_index());
  const double now = s.now();
  auto it =
      std::find_if(t.stack.rbegin(), t.stack.rend(), [&](const State::Open& o) {
        return o.id == id && o.kind != CallKind::Region;
      });
  if (it == t.stack.rend()) {  // unmatched: ignore
    ++s.dropped.unmatched_ends;
    return;
  }
  State::Open o = std::move(*it);
  t.stack.erase(std::next(it).base());
  s.end_open(t, o, now);
}

bool SyncTracker::call_end_innermost(CallKind kind) {
  std::lock_guard<std::mutex> g(mu_);
  State& s = *s_;
  State::Thread& t = s.thread(this_thread_index());
  const double now = s.now();
  auto it = std::find_if(t.stack.rbegin(), t.stack.rend(),
                         [&](const State::Open& o) { return o.kind == kind; });
  if (it == t.stack.rend()) {
    ++s.dropped.unmatched_ends;
    return false;
  }
  State::Open o = std::move(*it);
  t.stack.erase(std::next(it).base());
  s.end_open(t, o, now);
  return true;
}

void SyncTracker::region_push(std::string_view name) {
  std::lock_guard<std::mutex> g(mu_);
  State& s = *s_;
  State::Thread& t = s.thread(this_thread_index());
  const std::uint32_t n = s.intern(t, name);
  if (t.region_paths.size() >= s.lim.region_depth) {
    ++t.regions_ignored;
    ++s.dropped.regions_too_deep;
  } else {
    State::Open o;
    o.id = s.next_id++;
    o.kind = CallKind::Region;
    o.what = n;
    o.begin_s = s.now();
    const std::uint32_t parent = t.region_path;
    t.region_path = s.combo(8, parent, n, [&] {
      return parent ? s.names[parent] + " > " + s.names[n] : s.names[n];
    });
    t.region_paths.push_back(t.region_path);
    s.push_open(t, std::move(o));
  }
  s.set_last_event(
      t, s.combo(9, n, 0, [&] { return "start of region " + s.names[n]; }),
      false);
}

void SyncTracker::region_pop() {
  std::lock_guard<std::mutex> g(mu_);
  State& s = *s_;
  const std::uint32_t ti = this_thread_index();
  State::Thread& t = s.thread(ti);
  if (t.regions_ignored > 0) {  // the innermost push was past the cap
    --t.regions_ignored;
    return;
  }
  auto it = std::find_if(
      t.stack.rbegin(), t.stack.rend(),
      [](const State::Open& o) { return o.kind == CallKind::Region; });
  if (it == t.stack.rend()) {
    ++s.dropped.unmatched_ends;
    return;
  }
  const State::Open o = *it;
  t.stack.erase(std::next(it).base());
  if (!t.region_paths.empty()) t.region_paths.pop_back();
  t.region_path = t.region_paths.empty() ? 0 : t.region_paths.back();
  const double now = s.now();
  if (s.trace)
    s.trace->host_slice(ti, "region " + s.names[o.what], "region", o.begin_s,
                        now, "{}");
  s.set_last_event(t,
                   s.combo(10, o.what, 0,
                           [&] { return "end of region " + s.names[o.what]; }),
                   false);
}

void SyncTracker::instant(CallKind kind, std::string_view what) {
  (void)kind;
  std::lock_guard<std::mutex> g(mu_);
  State& s = *s_;
  State::Thread& t = s.thread(this_thread_index());
  if (!t.awaiting_next_event.empty()) {  // it names runtime calls: now
    s.set_last_event(t, s.intern(what), false);
    return;
  }
  t.instant.assign(what.data(), what.size());
  t.instant_pending = true;
  t.last_event_was_launch = false;
}

// ---- device sink
// ---------------------------------------------------------------

void SyncTracker::on_launch(const Impl::LaunchBegin& l) {
  std::lock_guard<std::mutex> g(mu_);
  State& s = *s_;
  const std::uint32_t ti = this_thread_index();
  State::Thread& t = s.thread(ti);
  State::PendingCorr p;
  p.correlation = l.correlation;
  p.thread = ti;
  p.launch_s = p.launch_end_s = s.now();
  State::Open* launch = nullptr;
  for (auto it = t.stack.rbegin(); it != t.stack.rend(); ++it) {
    if (it->kind == CallKind::HostKernel) {
      // A device launch inside a "host" kernel: Kokkos 3.4 reports View
      // initialization with a Serial device id. It is a device launch.
      it->kind = CallKind::Launch;
      it->exec.kind = DeviceKind::Cuda;
    }
    if (it->kind != CallKind::Launch) continue;
    launch = &*it;
    p.launch = it->id;
    p.name = it->what;
    p.exec = it->exec;
    if (it->ncorr < it->corr.size()) it->corr[it->ncorr++] = l.correlation;
    break;
  }
  // Kernels launched inside a call are that call's own work.
  if (const State::Open* outer = State::outermost_call(t))
    p.owner_call = outer->id;
  if (s.callbacks_only) {
    // No record will come: the launch is pending until a blocking call
    // that covers its stream returns.
    if (launch) {
      if (!launch->lane_known) {
        launch->lane_known = l.stream_known;
        launch->lane_device = l.device;
        launch->lane_stream = l.stream;
      }
    } else {
      State::PendingLaunch q;
      q.owner_call = p.owner_call;
      q.name = s.outside_kokkos_name;
      q.launch_end_s = p.launch_s;
      s.async_seen = true;
      s.push_pending(
          s.lane_for(ExecId(), l.stream_known, l.device, l.stream, true), q);
    }
    return;
  }
  if (!s.device_times) return;
  s.add_corr(p);
}

void SyncTracker::on_launch_failed(std::uint32_t correlation) {
  std::lock_guard<std::mutex> g(mu_);
  if (State::PendingCorr* p = s_->find_corr(correlation)) s_->done_corr(p);
}

void SyncTracker::on_slow_launch(double begin_s, double end_s) {
  if (!std::isfinite(begin_s) || !std::isfinite(end_s) || end_s < begin_s)
    return;
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
  const std::uint64_t key = (std::uint64_t(bb.api) << 4) |
                            std::uint64_t(bb.copy_kind & 7) |
                            (bb.all_streams ? 8u : 0u);
  std::uint32_t api = 0;
  if (bb.api == SyncApi::Memcpy || bb.api == SyncApi::MemcpyAsync) {
    const std::uint32_t bytes_lo = std::uint32_t(bb.bytes);
    const std::uint32_t k2 =
        std::uint32_t(key) ^ (bb.all_streams ? 0 : (bb.stream << 12));
    api = bb.bytes >> 32
              ? s.intern(describe_api(bb))
              : s.combo(11, k2, bytes_lo, [&] { return describe_api(bb); });
  } else {
    api = s.combo(4, std::uint32_t(key), bb.stream,
                  [&] { return describe_api(bb); });
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
  if (t.blocking_depth == 0) {
    ++s.dropped.unmatched_ends;
    return;
  }
  if (--t.blocking_depth > 0) return;
  BlockingCall b = t.blocking;
  b.end_s = end_s >= 0 ? std::max(end_s, b.begin_s) : s.now();
  State::Charge* owner = nullptr;
  if (!State::outermost_call(t)) {
    State::LiveCall c;
    c.id = b.call;
    c.kind = CallKind::Runtime;
    c.what = t.blocking_via;
    const std::uint32_t last = s.last_event(t);
    c.prev_event = last;
    c.context = last ? s.combo(1, last, 0,
                               [&] { return "after '" + s.names[last] + "'"; })
                     : s.no_event_name;
    c.site = s.combo(7, c.what, c.context, [&] {
      return s.names[c.what] + " " + s.names[c.context];
    });
    c.awaiting_next_event = true;
    if (t.awaiting_next_event.size() >= 64) {  // runtime calls in a row
      auto old = s.live_calls.find(t.awaiting_next_event.front());
      if (old != s.live_calls.end()) {
        old->second.awaiting_next_event = false;
        s.live_by_end.insert(old->second.end_s, old->first);
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
    owner = &s.live_calls.find(b.call)->second;
  } else {
    owner = s.charge_of(b.call, ti);
  }
  if (s.callbacks_only) {
    // No kernel records: the wait is bounded here, at once.
    const double before = owner ? owner->via_wait_s : 0;
    s.callbacks_completion(b, owner);
    if (owner && owner->via_wait_s > before) owner->via = t.blocking_via;
    if (s.trace && !(owner && owner->kind == CallKind::Runtime &&
                     owner->begin_s == b.begin_s))
      s.trace->host_slice(ti, s.names[t.blocking_via], "runtime", b.begin_s,
                          b.end_s, "{}");
  } else if (s.device_times) {
    s.blockings.insert(b.begin_s, State::LiveBlocking{b, t.blocking_via});
  }
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
    if (!std::isfinite(k.start_s) || !std::isfinite(k.end_s)) continue;
    k.shape = r.shape;
    if (State::PendingCorr* p = s.find_corr(r.correlation)) {
      k.launch = p->launch;
      k.owner_call = p->owner_call;
      k.name = p->name ? p->name : s.intern(r.name ? r.name : "");
      k.thread = p->thread;
      k.exec = p->exec;
      k.launch_s = p->launch_s;
      k.launch_end_s = p->launch_end_s;
      s.done_corr(p);
    } else {
      // Launched before tracing began, or by a call we do not watch.
      k.name = s.intern(r.name ? r.name : "");
      k.launch_s = k.launch_end_s = k.start_s;
    }
    s.device.insert(k.end_s, k);
  }
  s.settle(s.now());
  s.enforce_cap();
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
  return s_->pending_total();
}

TrackerFootprint SyncTracker::footprint() const {
  std::lock_guard<std::mutex> g(mu_);
  const State& s = *s_;
  TrackerFootprint f;
  f.names = s.names.size();
  f.name_bytes = s.name_bytes;
  f.threads = s.threads.size();
  for (const auto& kv : s.threads) {
    f.open += kv.second->stack.size();
    f.blocked_history += kv.second->blocked.size();
  }
  f.pending_records = s.pending_total();
  f.pending_launches = s.pending_launch_count;
  return f;
}

WaitsSnapshot SyncTracker::snapshot() const {
  std::lock_guard<std::mutex> g(mu_);
  const State& s = *s_;
  WaitsSnapshot w;
  w.mode =
      s.device_times_ever
          ? WaitsMode::Device
          : (s.callbacks_ever && s.async_seen
                 ? WaitsMode::Callbacks
                 : (s.async_seen ? WaitsMode::KokkosOnly : WaitsMode::Host));
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
    w.trace_write_failed = s.trace->write_failed();
  }
  w.dropped = s.dropped;
  // Calls and regions still open now will not end before the report.
  for (const auto& kv : s.threads) {
    for (const auto& o : kv.second->stack) {
      if (o.kind == CallKind::Region)
        ++w.dropped.unpopped_regions;
      else
        ++w.dropped.unended_calls;
    }
    w.dropped.unpopped_regions += kv.second->regions_ignored;
    if (kv.second->blocking_depth > 0) ++w.dropped.unended_calls;
  }
  if (s.source) w.dropped.device_records = s.source->records_dropped();
  const LedgerDropped& ld = s.ledger.dropped();
  w.dropped.kernels = ld.kernels;
  w.dropped.sites = ld.sites;
  w.dropped.streams = ld.streams;
  w.dropped.threads = ld.threads;
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
