// addscope — the waits tracker's front doors, on the program's threads:
// each event stamped and appended to the thread's own log (no lock, no
// allocation in steady state, no text), nothing more.
#include <chrono>
#include <cmath>

#include "addscope/waits/addscope_SyncTracker.hpp"
#include "addscope/waits/addscope_TrackerParts.hpp"
#include "addscope/waits/record/addscope_PythonFrames.hpp"
#include "addscope/waits/record/addscope_StackCapture.hpp"

namespace addscope {

using Impl::keeps_places;
using Impl::no_names;
using Impl::record;
using Impl::set_exec;

namespace {
// Where this thread is in the program: its native stack and, in a Python
// program, its own Python line (names cached by the log; a NameDef goes
// first when one is new).
struct Site {
  std::uint64_t pcs[Impl::kMaxStackFrames];
  std::uint32_t depth = 0;
  std::uint32_t py_file = 0, py_function = 0, py_called = 0;
  int py_line = 0;
  // `slots`: each address's stack slot too (capture_stack_slots(), for a
  // launch's place); false when they could not be told (then the stack is
  // taken as usual).
  bool take(ThreadLog& log, std::uint64_t* slots = nullptr) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::uint64_t hits = Impl::stack_memo_hits();
    depth = slots ? Impl::capture_stack_slots(pcs, slots, Impl::kMaxStackFrames)
                  : 0;
    const bool with_slots = depth > 0;
    if (!with_slots) depth = Impl::capture_stack(pcs, Impl::kMaxStackFrames);
    const bool again = Impl::stack_memo_hits() != hits;
    const auto t1 = std::chrono::steady_clock::now();
    Impl::PythonText room;  // another thread's text, copied until named
    name_python(log, &room);
    const auto t2 = std::chrono::steady_clock::now();
    log.site_taken(
        ns(t2 - t0),
        again ? ThreadLog::StackRead::Again : ThreadLog::StackRead::Unwound,
        Impl::python_version() != 0 ? ns(t2 - t1) : 0);
    return with_slots;
  }
  // The program's Python line alone, no native stack: a Python program's
  // launch at a place of its own (its line is what the report names).
  void take_python(ThreadLog& log) {
    const auto t0 = std::chrono::steady_clock::now();
    name_python(log, nullptr);
    const std::uint64_t took = ns(std::chrono::steady_clock::now() - t0);
    log.site_taken(took, ThreadLog::StackRead::None, took);
  }
  // The program's Python line, named in the log (another thread's read
  // through copies into `room`; none: this thread's own only).
  void name_python(ThreadLog& log, Impl::PythonText* room) {
    Impl::PythonSite ps;
    if (!Impl::python_site(&ps, room)) return;
    py_file = log.name(ps.file);
    py_function = log.name(ps.function);
    py_line = ps.line;
    if (!ps.called.empty()) py_called = log.name(ps.called);
  }
  static std::uint64_t ns(std::chrono::steady_clock::duration d) {
    return std::uint64_t(
        std::chrono::duration_cast<std::chrono::nanoseconds>(d).count());
  }
  // For the record stamped `t` that follows.
  void write(ThreadLog& log, double t) const {
    // The tool's own frames are never the program's line: not recorded.
    const std::uint32_t tool = Impl::tool_frames(pcs, depth);
    log.stack(pcs + tool, depth - tool, t);
    if (py_file) log.python_site(py_file, py_function, py_line, py_called, t);
  }
};

void capture_site(ThreadLog& log, double t) {
  Site s;
  s.take(log);
  s.write(log, t);
}

// A launch of `key` by the function whose stack pointer is `sp`: the
// number of its place (0: none), a stack taken into `site` when it is a new
// one. `want`: a stack is wanted anyway (a kernel's first launch, ...).
// In a Python process the place is where the program's own Python code is
// (the interpreter's native frames are the same at every line): the key
// holds it, and the site is that line alone (the report names it, whatever
// the native frames); a thread with no line of the program's own has no
// place.
std::uint32_t place_launch(ThreadLog& log, Impl::LaunchPlaces* places,
                           std::uint64_t key, std::uint64_t sp, bool want,
                           Site& site) {
  if (places && !places->usable()) places = nullptr;
  bool python = false;
  if (places && Impl::python_version() != 0) {
    std::uint64_t line = 0;
    python = Impl::python_place(places->python_files, &line);
    if (python)
      key = (key ^ (line * 0x9e3779b97f4a7c15ull)) | 1;
    else
      places = nullptr;
  }
  std::uint32_t place = places ? places->same(key, sp) : 0;
  if (places && place == 0) {
    if (python) {
      site.take_python(log);
      place = places->keep(key, sp);
    } else {
      std::uint64_t slots[Impl::kMaxStackFrames];
      if (site.take(log, slots))
        place = places->keep(key, sp, site.pcs, slots, site.depth);
      else
        places->failed();
    }
  } else if (want) {
    if (python)
      site.take_python(log);
    else
      site.take(log);
  }
  return place;
}

// A call's end (its id; 0: the innermost): its stack when it lasted long
// enough to be a wait worth reporting. `kind` the end record's.
void record_end(Impl::TrackerParts& p, EventKind kind, std::uint64_t id,
                CallKind sub, bool blocking) {
  ThreadLog* log = p.logs.this_thread();
  if (!log) return;
  log->begin();
  const double t = p.now();
  const double begin = log->close_call(id);
  // A blocking runtime call inside a Kokkos call: that call's end takes it.
  if (p.opt.sites && begin >= 0 && t - begin >= p.opt.site_min_s &&
      !(blocking && log->open_calls() > 0))
    capture_site(*log, t);
  if (EventRecord* r = log->reserve()) {
    r->kind = kind;
    r->id = id;
    r->sub = std::uint8_t(sub);
    r->t = t;
    log->commit(t);
  }
  log->end();
}
}  // namespace

// ---- host events
// -------------------------------------------------------------

std::uint64_t SyncTracker::kernel_begin(std::string_view name, ExecId exec) {
  ensure_device(exec.kind);
  Parts& p = *p_;
  const std::uint64_t id = p.next_id.fetch_add(1, std::memory_order_relaxed);
  ThreadLog* log = p.logs.this_thread();
  if (log) {
    log->begin();
    const std::uint32_t n = log->name(name);
    const bool first = p.opt.sites && log->first_use(n);
    // The site before the timestamp: taken once a kernel name and thread,
    // and a device kernel's at each new place it is launched from.
    Site site;
    std::uint32_t place = 0;
    if (is_async(exec.kind) && keeps_places(p)) {
      std::uint64_t sp;
      ADDSCOPE_STACK_POINTER(sp);
      place = place_launch(*log, log->places(), (std::uint64_t(n) << 32) | 1,
                           sp, first, site);
    } else if (first) {
      site.take(*log);
    }
    const double t = p.now();
    site.write(*log, t);
    if (EventRecord* r = log->reserve()) {
      r->kind = EventKind::KernelBegin;
      r->id = id;
      r->name = n;
      r->site = place;
      set_exec(*r, exec);
      r->t = t;
      log->commit(t);
    }
    log->end();
  }
  // After the tool's own work: what the device runtime does next belongs to
  // this call.
  if (Impl::DeviceSource* s = p.push.load(std::memory_order_acquire))
    s->push_call(id);
  return id;
}

void SyncTracker::kernel_end(std::uint64_t id) {
  Parts& p = *p_;
  // Before the tool's own work: the call ends now.
  if (Impl::DeviceSource* s = p.push.load(std::memory_order_acquire))
    s->pop_call();
  record(p.logs, p, no_names, [&](EventRecord& r) {
    r.kind = EventKind::CallEnd;
    r.id = id;
  });
}

std::uint64_t SyncTracker::call_begin(CallKind kind, std::string_view what,
                                      ExecId exec, std::string_view site) {
  ensure_device(exec.kind);
  Parts& p = *p_;
  const std::uint64_t id = p.next_id.fetch_add(1, std::memory_order_relaxed);
  std::uint32_t w = 0, s = 0;
  record(
      p.logs, p,
      [&](ThreadLog& l) {
        w = l.name(what);
        s = site.empty() ? 0 : l.name(site);
      },
      [&](EventRecord& r) {
        r.kind = EventKind::CallBegin;
        r.sub = std::uint8_t(kind);
        r.id = id;
        r.name = w;
        r.site = s;
        set_exec(r, exec);
      },
      id);
  return id;
}

std::uint64_t SyncTracker::deep_copy_begin(std::string_view dst,
                                           std::string_view src,
                                           std::string_view dst_space,
                                           std::string_view src_space,
                                           std::uint64_t bytes) {
  device_seen(device_kind_of_space(dst_space));
  device_seen(device_kind_of_space(src_space));
  Parts& p = *p_;
  const std::uint64_t id = p.next_id.fetch_add(1, std::memory_order_relaxed);
  std::uint32_t d = 0, s = 0, ds = 0, ss = 0;
  record(
      p.logs, p,
      [&](ThreadLog& l) {
        d = l.name(dst);
        s = l.name(src);
        ds = l.name(dst_space);
        ss = l.name(src_space);
      },
      [&](EventRecord& r) {
        r.kind = EventKind::DeepCopyBegin;
        r.id = id;
        r.name = d;
        r.site = s;
        r.device = ds;
        r.stream = ss;
        r.u64 = bytes;
      },
      id);
  if (Impl::DeviceSource* src_ = p.push.load(std::memory_order_acquire))
    src_->push_call(id);
  return id;
}

void SyncTracker::call_end(std::uint64_t id) {
  record_end(*p_, EventKind::CallEnd, id, CallKind::Step, false);
}

void SyncTracker::call_end_innermost(CallKind kind) {
  Parts& p = *p_;
  if (kind == CallKind::DeepCopy)
    if (Impl::DeviceSource* s = p.push.load(std::memory_order_acquire))
      s->pop_call();
  record_end(p, EventKind::CallEndInnermost, 0, kind, false);
}

void SyncTracker::region_push(std::string_view name) {
  Parts& p = *p_;
  std::uint32_t n = 0;
  record(
      p.logs, p, [&](ThreadLog& l) { n = l.name(name); },
      [&](EventRecord& r) {
        r.kind = EventKind::RegionPush;
        r.name = n;
      });
}

void SyncTracker::region_pop() {
  Parts& p = *p_;
  record(p.logs, p, no_names,
         [&](EventRecord& r) { r.kind = EventKind::RegionPop; });
}

void SyncTracker::instant(CallKind kind, std::string_view label,
                          std::string_view space, std::uint64_t bytes) {
  Parts& p = *p_;
  std::uint32_t l = 0, s = 0;
  record(
      p.logs, p,
      [&](ThreadLog& log) {
        l = log.name(label);
        s = log.name(space);
      },
      [&](EventRecord& r) {
        r.kind = EventKind::Instant;
        r.sub = std::uint8_t(kind);
        r.name = l;
        r.site = s;
        r.u64 = bytes;
      });
}

// ---- the device source's callbacks (program threads)
// ----------------------------

void SyncTracker::on_launch(const Impl::LaunchBegin& l) {
  Parts& p = *p_;
  ThreadLog* log = p.logs.this_thread();
  if (!log) return;
  log->begin();
  const double t = p.now();
  // A kernel's first launch on this thread outside Kokkos' calls (Kokkos'
  // own launches take theirs at kernel_begin), and its first in each
  // shape (a 1 x 1 launch at one line, a full grid at another): where the
  // program launched it, named by the kernel's symbol.
  // The launches after the first cost one table look-up (no name read).
  // After long host code (the program's own, outside Kokkos' calls): the
  // line it ran up to.
  // Each launch at its place (a few loads at one seen before; a stack at a
  // new one).
  std::uint32_t named = 0, place = 0;
  if (p.opt.sites && log->open_calls() == 0) {
    bool want = false;
    if (l.symbol && *l.symbol && !log->launch_seen(l.symbol, l.shape_key)) {
      const std::uint32_t slot = log->name(l.symbol);
      const bool first = log->first_use(slot);
      const bool new_shape = log->first_shape(slot, l.shape_key);
      if (first || new_shape) {
        named = slot;
        want = true;
      }
    }
    if (!want && t - log->last_committed_t() >= p.opt.host_code_site_min_s)
      want = true;
    Site site;
    if (l.symbol && keeps_places(p)) {
      std::uint64_t sp;
      ADDSCOPE_STACK_POINTER(sp);
      const std::uint64_t key =
          ((std::uint64_t(reinterpret_cast<std::uintptr_t>(l.symbol)) ^
            l.shape_key)
           << 1) |
          1;
      place = place_launch(*log, log->places(), key, sp, want, site);
    } else if (want) {
      site.take(*log);
    }
    site.write(*log, t);
  }
  if (EventRecord* r = log->reserve()) {
    r->kind = EventKind::Launch;
    r->name = named;
    r->site = place;
    r->correlation = l.correlation;
    r->device = l.device;
    r->stream = l.stream;
    r->flags = l.stream_known ? EventRecord::kStreamKnown : 0;
    r->t = t;
    log->commit(t);
  }
  log->end();
}

void SyncTracker::on_launch_failed(std::uint32_t correlation) {
  Parts& p = *p_;
  record(p.logs, p, no_names, [&](EventRecord& r) {
    r.kind = EventKind::LaunchFailed;
    r.correlation = correlation;
  });
}

void SyncTracker::on_slow_launch(double begin_s, double end_s,
                                 std::uint32_t correlation) {
  // A record is merged in time order at its end: one that ends at NaN or
  // infinity could never be merged and would stall its thread's log (the
  // analyzer ignores the other nonsense times).
  if (!std::isfinite(end_s)) return;
  Parts& p = *p_;
  ThreadLog* log = p.logs.this_thread();
  if (!log) return;
  log->begin();
  // Its own id: a blocking call of its own (outside every call), never
  // merged with another slow launch's.
  const std::uint64_t id = p.next_id.fetch_add(1, std::memory_order_relaxed);
  // A launch held back long enough to be a wait: where it was launched.
  if (p.opt.sites && end_s - begin_s >= p.opt.site_min_s)
    capture_site(*log, end_s);
  if (EventRecord* r = log->reserve()) {
    r->kind = EventKind::SlowLaunch;
    r->id = id;
    r->correlation = correlation;
    r->set_u64_time(begin_s);
    r->t = end_s;
    log->commit(r->t);
  }
  log->end();
}

void SyncTracker::on_blocking_begin(const Impl::BlockingBegin& b) {
  Parts& p = *p_;
  // Its own id, should it be a call of its own (outside every call).
  const std::uint64_t id = p.next_id.fetch_add(1, std::memory_order_relaxed);
  std::uint32_t n = 0;
  record(
      p.logs, p,
      [&](ThreadLog& l) {
        if (b.name) n = l.name(b.name);
      },
      [&](EventRecord& r) {
        r.kind = EventKind::BlockingBegin;
        r.id = id;
        r.sub = std::uint8_t(b.api);
        r.flags = b.all_streams ? EventRecord::kAllStreams : 0;
        r.device = b.device;
        r.stream = b.stream;
        r.u64 = b.bytes;
        r.copy_kind = std::uint8_t(b.copy_kind);
        r.correlation = b.correlation;
        r.name = n;
      },
      id);
}

void SyncTracker::on_blocking_end() {
  record_end(*p_, EventKind::BlockingEnd, 0, CallKind::Step, true);
}

double SyncTracker::seconds_from_steady_ns(std::int64_t ns) const {
  return p_->clock->from_steady_ns(ns);
}

void SyncTracker::on_device_kernels(std::vector<Impl::DeviceKernelRecord>& k) {
  std::lock_guard<std::mutex> g(p_->analyzer.mutex());
  p_->analyzer.drain_locked(nullptr, false);  // what came before them
  p_->analyzer.on_device_kernels(k);
  p_->analyzer.drain_locked(nullptr, false);
}

void SyncTracker::on_device_copies(std::vector<Impl::DeviceCopyRecord>& c) {
  std::lock_guard<std::mutex> g(p_->analyzer.mutex());
  p_->analyzer.drain_locked(nullptr, false);  // what came before them
  p_->analyzer.on_device_copies(c);
  p_->analyzer.drain_locked(nullptr, false);
}

void SyncTracker::on_external_correlation(std::uint32_t correlation,
                                          std::uint64_t call_id) {
  std::lock_guard<std::mutex> g(p_->analyzer.mutex());
  p_->analyzer.on_external_correlation(correlation, call_id);
}

}  // namespace addscope
