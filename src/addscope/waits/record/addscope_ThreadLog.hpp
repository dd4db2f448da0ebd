// addscope — a program thread's event log: records appended by the thread
// that owns it, without a lock, into chunks of kChunkRecords; read in order
// by the analyzer, which gives each chunk it has read whole back to the
// pool. The writer takes the pool's lock only to swap a full chunk (once per
// kChunkRecords records). Single writer, single reader.
//
// Overflow: when the pool has no chunk left (its cap reached: the analyzer
// is behind), the writer wakes the analyzer and waits at most kOverflowWait
// for one; then the record is dropped and counted (`dropped`), and later
// ones are dropped at once until a chunk is free again: the program is
// never blocked longer than that. (The analyzer is woken before that, as
// soon as half the cap is out.)
//
// The analyzer's watermark (analyze/addscope_Analyzer.cpp) needs to know
// whether a writer is between taking its timestamp and committing: `busy`
// is set, with a full fence, before the timestamp is taken and cleared after
// the commit.
#ifndef ADDSCOPE_WAITS_RECORD_THREADLOG_HPP
#define ADDSCOPE_WAITS_RECORD_THREADLOG_HPP

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "addscope/waits/record/addscope_EventRecord.hpp"
#include "addscope/waits/record/addscope_LaunchPlaces.hpp"
#include "addscope/waits/record/addscope_NameCache.hpp"

namespace addscope {
namespace Impl {

constexpr std::uint32_t kChunkRecords = 1024;  // 64 KiB a chunk

struct LogChunk {
  std::atomic<std::uint32_t> count{0};  ///< records committed
  std::atomic<LogChunk*> next{nullptr};
  /// A record a cache line (64 bytes), none beside the count the writer
  /// stores at every commit.
  alignas(64) EventRecord rec[kChunkRecords];
};

/// The chunks of every log of a tracker: recycled, capped.
class ChunkPool {
 public:
  explicit ChunkPool(std::size_t max_chunks) : max_(max_chunks) {}
  ~ChunkPool();
  ChunkPool(const ChunkPool&) = delete;
  ChunkPool& operator=(const ChunkPool&) = delete;
  /// A cleared chunk, or null at the cap (`force`: past the cap too: a
  /// new log's first chunk).
  LogChunk* take(bool force = false);
  void give(LogChunk* c);
  std::size_t allocated() const;
  /// Half the cap is out and few chunks are free: time to drain.
  bool low() const;
  /// A chunk for a stack: null, never waited for, at the cap and also while
  /// the pool keeps the rest for events (three quarters of the cap out and
  /// at most an eighth free), asked and taken under one lock.
  LogChunk* take_unless_kept();
  /// Called (outside the lock) when a writer found the pool empty.
  void set_wake(void (*wake)(void*), void* arg) {
    wake_ = wake;
    wake_arg_ = arg;
  }
  void wake() const {
    if (wake_) wake_(wake_arg_);
  }
  /// Fork: the child's copy of the lock may be held by a thread that does
  /// not exist there.
  std::mutex& mutex() { return mu_; }

 private:
  LogChunk* take_chunk(bool force, bool unless_kept);
  mutable std::mutex mu_;
  std::vector<LogChunk*> free_;
  std::size_t allocated_ = 0, max_;
  void (*wake_)(void*) = nullptr;
  void* wake_arg_ = nullptr;
};

/// What a thread's log let go, and what naming lines cost its thread.
struct LogCounters {
  std::uint64_t events_dropped = 0, stacks_dropped = 0;
  std::uint64_t sites_taken = 0, site_ns = 0;
  /// Of those, the ones whose stack was read again from where an earlier
  /// one at the same place sat (no unwinding: record/addscope_StackMemo.hpp).
  std::uint64_t sites_again = 0, site_again_ns = 0;
  /// Of all sites' time, reading the program's Python lines.
  std::uint64_t site_python_ns = 0;
  /// Sites that are a Python line alone (no native stack read), and their
  /// time.
  std::uint64_t sites_python_alone = 0, site_python_alone_ns = 0;
  LogCounters& operator+=(const LogCounters& o) {
    events_dropped += o.events_dropped;
    stacks_dropped += o.stacks_dropped;
    sites_taken += o.sites_taken;
    site_ns += o.site_ns;
    sites_again += o.sites_again;
    site_again_ns += o.site_again_ns;
    site_python_ns += o.site_python_ns;
    sites_python_alone += o.sites_python_alone;
    site_python_alone_ns += o.site_python_alone_ns;
    return *this;
  }
};

class ThreadLog {
 public:
  static constexpr double kOverflowWait_s = 200e-6;

  ThreadLog(ChunkPool& pool, std::uint32_t thread_index);
  ~ThreadLog();  // gives its chunks back
  ThreadLog(const ThreadLog&) = delete;
  ThreadLog& operator=(const ThreadLog&) = delete;

  std::uint32_t thread_index() const { return thread_; }

  // ---- writer (the owning thread) ----------------------------------------
  /// Brackets one event: set before its timestamp is taken.
  void begin() {
    busy_.store(1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_seq_cst);
  }
  void end() { busy_.store(0, std::memory_order_release); }
  /// The slot of name `s`, its definition appended first if it is new.
  /// Names longer than kMaxName bytes are cut there.
  std::uint32_t name(std::string_view s) {
    if (const std::uint32_t slot = names_.hit(s)) return slot;
    return name_slow(s);
  }
  static constexpr std::size_t kMaxName = 16 * sizeof(EventRecord) * 8;
  /// Room for `n` consecutive records (zeroed) in one chunk, or null if
  /// they had to be dropped.
  EventRecord* reserve(std::uint32_t n = 1);
  /// Publishes the records reserve() returned.
  void commit() { cur_->count.store(pos_, std::memory_order_release); }
  /// Publishes a timed record reserve() returned, at time `t`.
  void commit(double t) {
    last_committed_t_.store(t, std::memory_order_relaxed);
    cur_->count.store(pos_, std::memory_order_release);
  }
  /// No more records will come (the thread is exiting).
  void retire() { retired_.store(true, std::memory_order_release); }

  // ---- sites (writer): what decides whether a stack is captured --------
  /// A call began at `t` (the tracker's id): its length is known at its end.
  void open_call(std::uint64_t id, double t) {
    if (nopen_ < kOpenCalls) open_[nopen_] = OpenCall{id, t};
    ++nopen_;
  }
  /// Call `id` (0: the innermost) ended: when it began, or a negative
  /// number if that is not known (deeper than kOpenCalls, unmatched).
  /// Calls opened after it and still open are forgotten with it.
  double close_call(std::uint64_t id);
  /// Calls open on this thread (the program's Kokkos calls).
  std::uint32_t open_calls() const { return nopen_; }
  /// Whether the kernel symbol at `p` (its address: the runtime keeps one
  /// string per kernel) was seen launched on this thread before in shape
  /// `shape` (a launch_shape_key, 0: unknown); it is seen from now on. A
  /// small direct-mapped table: a pair pushed out reads unseen again (then
  /// first_use() and first_shape() of its name decide).
  bool launch_seen(const void* p, std::uint64_t shape) {
    const std::uint64_t h =
        ((std::uint64_t(reinterpret_cast<std::uintptr_t>(p)) >> 4) ^ shape) *
        0x9e3779b97f4a7c15ull;
    SeenLaunch& e = launches_[h >> 56];
    if (e.symbol == p && e.shape == shape) return true;
    e = SeenLaunch{p, shape};
    return false;
  }
  /// The first time name slot `slot` is asked about in shape `shape` (a
  /// launch_shape_key, not 0): a kernel's first launch in that shape on
  /// this thread. A bounded set: once full, no shape is new.
  bool first_shape(std::uint32_t slot, std::uint64_t shape);
  /// Where this thread last launched its kernels (made at its first
  /// device launch that asks: about 34 KiB; null if that failed).
  LaunchPlaces* places() {
    if (!places_) places_.reset(new (std::nothrow) LaunchPlaces());
    return places_.get();
  }
  /// The first time name slot `slot` is asked about since it took its
  /// text: a kernel's first launch on this thread.
  bool first_use(std::uint32_t slot) {
    if (slot == 0 || slot >= NameCache::kSlots) return false;
    const std::uint64_t bit = std::uint64_t(1) << (slot & 63);
    if (used_[slot >> 6] & bit) return false;
    used_[slot >> 6] |= bit;
    return true;
  }
  /// Appends return addresses (innermost first) as a Stack record: they
  /// belong to the next record of this log, stamped `t` (published with
  /// it; the reader ties them by that time). Left out, never waited for,
  /// when it needs a new chunk and the pool keeps the rest for events
  /// (stacks_dropped()).
  void stack(const std::uint64_t* pcs, std::uint32_t n, double t);
  /// A site taken on this thread (its stack, its Python line), which took
  /// the thread `ns` nanoseconds: the tool's own cost of naming lines.
  /// How its native stack was read: unwound, read again where one was taken
  /// before, or not at all (a Python line alone).
  enum class StackRead { Unwound, Again, None };
  /// `python_ns` of it reading its Python line.
  void site_taken(std::uint64_t ns, StackRead read, std::uint64_t python_ns) {
    // The writer's own counters: plain stores, read by the analyzer.
    const auto add = [](std::atomic<std::uint64_t>& c, std::uint64_t v) {
      c.store(c.load(std::memory_order_relaxed) + v, std::memory_order_relaxed);
    };
    add(sites_taken_, 1);
    add(site_ns_, ns);
    if (python_ns) add(site_python_ns_, python_ns);
    if (read == StackRead::Again) {
      add(sites_again_, 1);
      add(site_again_ns_, ns);
    } else if (read == StackRead::None) {
      add(sites_python_alone_, 1);
      add(site_python_alone_ns_, ns);
    }
  }
  /// Appends the program's own Python line (name slots of its file and
  /// function, and of the package function it called, 0: none) for the
  /// next record, stamped `t`, as stack() does.
  void python_site(std::uint32_t file, std::uint32_t function, int line,
                   std::uint32_t called, double t) {
    if (EventRecord* r = reserve()) {
      r->kind = EventKind::PySite;
      r->t = t;
      r->name = file;
      r->site = function;
      r->correlation = called;
      r->u64 = std::uint64_t(line > 0 ? line : 0);
    }
  }

  // ---- reader (the analyzer) ---------------------------------------------
  /// The next committed record, or null if none is there yet (records of
  /// kind None, padding, are skipped).
  const EventRecord* peek();
  void pop() { ++rpos_; }
  /// At a NameDef record: its text (the records after it), and pops it all.
  std::string_view pop_name_def();
  /// At a Stack record: its addresses (into `out`, at most `max`), and pops
  /// it all; how many.
  std::uint32_t pop_stack(std::uint64_t* out, std::uint32_t max);
  bool busy() const { return busy_.load(std::memory_order_acquire) != 0; }
  /// The time of the last timed record committed (a lower bound of the
  /// time of the one being written while busy()).
  double last_committed_t() const {
    return last_committed_t_.load(std::memory_order_acquire);
  }
  bool retired() const { return retired_.load(std::memory_order_acquire); }
  std::uint64_t dropped() const {
    return dropped_.load(std::memory_order_relaxed);
  }
  /// Stacks left out because the log ran short of room (see stack()).
  std::uint64_t stacks_dropped() const {
    return stacks_dropped_.load(std::memory_order_relaxed);
  }
  /// All of the above so far, and the sites taken (site_taken()).
  LogCounters counters() const {
    LogCounters c;
    c.events_dropped = dropped();
    c.stacks_dropped = stacks_dropped();
    c.sites_taken = sites_taken_.load(std::memory_order_relaxed);
    c.site_ns = site_ns_.load(std::memory_order_relaxed);
    c.sites_again = sites_again_.load(std::memory_order_relaxed);
    c.site_again_ns = site_again_ns_.load(std::memory_order_relaxed);
    c.site_python_ns = site_python_ns_.load(std::memory_order_relaxed);
    c.sites_python_alone = sites_python_alone_.load(std::memory_order_relaxed);
    c.site_python_alone_ns =
        site_python_alone_ns_.load(std::memory_order_relaxed);
    return c;
  }
  /// Slot -> the analyzer's name id (the analyzer's own table).
  std::vector<std::uint32_t>& slot_ids() { return slot_ids_; }

 private:
  std::uint32_t name_slow(std::string_view s);  // a miss by address
  // `for_stack`: a chunk only when the pool does not keep it for events;
  // never waited for.
  bool next_chunk(bool for_stack = false);
  // `n` records at pos_ (they fit in the current chunk), zeroed.
  EventRecord* claim(std::uint32_t n);
  ChunkPool& pool_;
  const std::uint32_t thread_;
  // The writer's, on cache lines of their own: written at every event (and
  // read by the analyzer once a drain), never beside what the analyzer
  // writes at every record it reads.
  alignas(64) std::atomic<std::uint32_t> busy_{0};
  bool dropping_ = false;
  std::uint32_t pos_ = 0;
  LogChunk* cur_ = nullptr;
  std::atomic<double> last_committed_t_{-1e300};
  std::atomic<bool> retired_{false};
  std::atomic<std::uint64_t> dropped_{0};
  std::atomic<std::uint64_t> stacks_dropped_{0};
  std::atomic<std::uint64_t> sites_taken_{0}, site_ns_{0};
  std::atomic<std::uint64_t> sites_again_{0}, site_again_ns_{0};
  std::atomic<std::uint64_t> site_python_ns_{0};
  std::atomic<std::uint64_t> sites_python_alone_{0}, site_python_alone_ns_{0};
  NameCache names_;
  struct OpenCall {
    std::uint64_t id;
    double t;
  };
  static constexpr std::uint32_t kOpenCalls = 16;
  OpenCall open_[kOpenCalls] = {};
  std::uint32_t nopen_ = 0;
  std::uint64_t used_[NameCache::kSlots / 64] = {};
  struct SeenLaunch {
    const void* symbol;
    std::uint64_t shape;
  };
  SeenLaunch launches_[256] = {};  // launch_seen()
  std::unique_ptr<LaunchPlaces> places_;
  static constexpr std::size_t kShapes = 512;
  std::uint64_t shapes_[kShapes] = {};  // first_shape(): open addressing
  // The reader's.
  alignas(64) LogChunk* rd_ = nullptr;
  std::uint32_t rpos_ = 0;
  std::uint32_t rcount_ = 0;  // rd_'s count when last read

 public:
  /// The time of the last timed record the analyzer read.
  double last_t = 0;
  /// The stack read last (a StackTable id) and the time of the record it
  /// belongs to: taken by that record (take_stack), never by another.
  std::uint32_t pending_stack = 0;
  double pending_stack_t = 0;
  std::uint32_t take_stack(double t) {
    const std::uint32_t s = pending_stack_t == t ? pending_stack : 0;
    pending_stack = 0;
    return s;
  }

 private:
  std::string text_;  // pop_name_def()'s
  std::vector<std::uint32_t> slot_ids_;
};

}  // namespace Impl
}  // namespace addscope

#endif
