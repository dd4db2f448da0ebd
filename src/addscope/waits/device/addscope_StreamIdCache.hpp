// addscope — CUPTI's ids of the streams a thread's calls name, remembered
// per thread: cuptiGetStreamIdEx costs a few hundred nanoseconds a call
// (tests/perf/cupti_streamid_probe.cpp measures it), and the CUPTI source
// needs it in every blocking callback that names a stream (and, without kernel
// records, every launch). A program uses few streams, so a handful of entries
// serve it.
//
// A handle is remembered only for one generation: the source counts a new
// one whenever a stream or context is destroyed (CUPTI's resource callbacks
// *_DESTROY_STARTING) and whenever it starts watching (what was destroyed
// while it was not watching went unseen), so that a new stream created at
// a destroyed one's address is never given the old stream's id. Pure:
// no CUPTI here; the source passes the generation and how to ask CUPTI.
#ifndef ADDSCOPE_WAITS_DEVICE_STREAMIDCACHE_HPP
#define ADDSCOPE_WAITS_DEVICE_STREAMIDCACHE_HPP

#include <cstdint>

namespace addscope {
namespace Impl {

class StreamIdCache {
 public:
  static constexpr int kEntries = 4;

  /// CUPTI's id of `stream` in `ctx` (`per_thread`: the per-thread default
  /// stream, `stream` null) in `*id`: remembered when asked before in this
  /// `generation`, else `ask(id)` (a bool(std::uint32_t*): false when CUPTI
  /// cannot say, which is not remembered). False when not known.
  template <class Ask>
  bool get(void* ctx, void* stream, bool per_thread, std::uint64_t generation,
           std::uint32_t* id, Ask ask) {
    if (generation != generation_) {
      for (Entry& e : entries_) e.used = false;
      generation_ = generation;
    }
    for (const Entry& e : entries_)
      if (e.used && e.ctx == ctx && e.stream == stream &&
          e.per_thread == per_thread) {
        *id = e.id;
        return true;
      }
    if (!ask(id)) return false;
    Entry& e = entries_[next_];
    next_ = (next_ + 1) % kEntries;
    e.ctx = ctx;
    e.stream = stream;
    e.id = *id;
    e.per_thread = per_thread;
    e.used = true;
    return true;
  }

 private:
  struct Entry {
    void* ctx = nullptr;
    void* stream = nullptr;
    std::uint32_t id = 0;
    bool per_thread = false;
    bool used = false;
  };
  Entry entries_[kEntries];
  int next_ = 0;  // the entry a miss replaces (oldest first)
  std::uint64_t generation_ = 0;
};

}  // namespace Impl
}  // namespace addscope

#endif
