#include "addscope/waits/record/addscope_ThreadLog.hpp"

#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstring>

namespace addscope {
namespace Impl {

ChunkPool::~ChunkPool() {
  for (LogChunk* c : free_) delete c;
}

LogChunk* ChunkPool::take(bool force) { return take_chunk(force, false); }

LogChunk* ChunkPool::take_unless_kept() { return take_chunk(false, true); }

LogChunk* ChunkPool::take_chunk(bool force, bool unless_kept) {
  LogChunk* c = nullptr;
  {
    std::lock_guard<std::mutex> g(mu_);
    if (unless_kept && allocated_ >= max_ - max_ / 4 &&
        free_.size() <= max_ / 8)
      return nullptr;
    if (!free_.empty()) {
      c = free_.back();
      free_.pop_back();
    } else if (allocated_ < max_ || force) {
      ++allocated_;
    } else {
      return nullptr;
    }
  }
  if (!c) return new LogChunk;  // outside the lock
  c->count.store(0, std::memory_order_relaxed);
  c->next.store(nullptr, std::memory_order_relaxed);
  return c;
}

void ChunkPool::give(LogChunk* c) {
  if (!c) return;
  std::lock_guard<std::mutex> g(mu_);
  free_.push_back(c);
}

bool ChunkPool::low() const {
  std::lock_guard<std::mutex> g(mu_);
  return allocated_ >= max_ / 2 && free_.size() < max_ / 4;
}

std::size_t ChunkPool::allocated() const {
  std::lock_guard<std::mutex> g(mu_);
  return allocated_;
}

ThreadLog::ThreadLog(ChunkPool& pool, std::uint32_t thread_index)
    : pool_(pool), thread_(thread_index), slot_ids_(NameCache::kSlots, 0) {
  // The first chunk before the log is published: the reader starts there.
  cur_ = rd_ = pool_.take(true);
}

ThreadLog::~ThreadLog() {
  LogChunk* c = rd_;  // every chunk from the reader's to the writer's
  while (c) {
    LogChunk* n = c->next.load(std::memory_order_acquire);
    pool_.give(c);
    c = n;
  }
}

bool ThreadLog::next_chunk(bool for_stack) {
  LogChunk* n = for_stack ? pool_.take_unless_kept() : pool_.take();
  // Still no room: drop at once; a stack is never waited for.
  if (!n && (dropping_ || for_stack)) return false;
  if (!n) {
    // The analyzer is behind: wake it, wait a bounded time, then drop
    // (and go on dropping at once until a chunk is free again).
    pool_.wake();
    const auto until = std::chrono::steady_clock::now() +
                       std::chrono::duration<double>(kOverflowWait_s);
    while (!n && std::chrono::steady_clock::now() < until) {
      sched_yield();
      n = pool_.take();
    }
    if (!n) {
      dropping_ = true;
      return false;
    }
  }
  dropping_ = false;
  if (pool_.low()) pool_.wake();  // the analyzer should drain soon
  // The rest of the current chunk is padding (kind None), so that the
  // reader moves on; the whole chunk is published, records reserved and
  // not yet committed included (a Stack record before its event's).
  if (pos_ < kChunkRecords) {
    std::memset(static_cast<void*>(&cur_->rec[pos_]), 0,
                (kChunkRecords - pos_) * sizeof(EventRecord));
    pos_ = kChunkRecords;
  }
  cur_->count.store(kChunkRecords, std::memory_order_release);
  cur_->next.store(n, std::memory_order_release);
  cur_ = n;
  pos_ = 0;
  return true;
}

EventRecord* ThreadLog::reserve(std::uint32_t n) {
  if (pos_ + n > kChunkRecords && !next_chunk()) {
    dropped_.fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }
  return claim(n);
}

EventRecord* ThreadLog::claim(std::uint32_t n) {
  EventRecord* r = &cur_->rec[pos_];
  std::memset(static_cast<void*>(r), 0, n * sizeof *r);
  pos_ += n;
  return r;
}

bool ThreadLog::first_shape(std::uint32_t slot, std::uint64_t shape) {
  if (slot == 0 || shape == 0) return false;
  // The pair folded into one non-zero key (two pairs that fold alike read
  // as one: a line not taken, never a wrong one).
  const std::uint64_t key =
      ((shape ^ (std::uint64_t(slot) << 40)) * 0x9e3779b97f4a7c15ull) | 1;
  std::size_t i = std::size_t(key >> 55) & (kShapes - 1);
  for (std::size_t probe = 0; probe < kShapes; ++probe) {
    std::uint64_t& e = shapes_[(i + probe) & (kShapes - 1)];
    if (e == key) return false;
    if (e == 0) {
      e = key;
      return true;
    }
  }
  return false;  // full: no shape is new
}

std::uint32_t ThreadLog::name_slow(std::string_view s) {
  if (s.size() > kMaxName) s = s.substr(0, kMaxName);
  bool is_new = false;
  const std::uint32_t slot = names_.find(s, &is_new);
  if (!is_new) return slot;
  used_[slot >> 6] &= ~(std::uint64_t(1) << (slot & 63));  // a new name
  // The NameDef and its text, whole, in one chunk.
  const auto text_records =
      std::uint32_t((s.size() + sizeof(EventRecord) - 1) / sizeof(EventRecord));
  EventRecord* d = reserve(1 + text_records);
  if (!d) {
    names_.forget(slot);
    return 0;
  }
  d->kind = EventKind::NameDef;
  d->name = slot;
  d->u64 = s.size();
  std::memcpy(static_cast<void*>(d + 1), s.data(), s.size());
  commit();
  return slot;
}

double ThreadLog::close_call(std::uint64_t id) {
  if (nopen_ == 0) return -1;
  if (nopen_ > kOpenCalls) {  // its begin was not kept
    --nopen_;
    return -1;
  }
  for (std::uint32_t i = nopen_; i-- > 0;)
    if (id == 0 || open_[i].id == id) {
      const double t = open_[i].t;
      nopen_ = i;  // with any call above it that never ended
      return t;
    }
  return -1;
}

void ThreadLog::stack(const std::uint64_t* pcs, std::uint32_t n, double t) {
  constexpr std::uint32_t kPerRecord = sizeof(EventRecord) / sizeof *pcs;
  if (n == 0) return;
  const std::uint32_t need = 1 + (n + kPerRecord - 1) / kPerRecord;
  // A stack is what a site costs, not the event it goes with: one that
  // needs a new chunk when the pool keeps its last quarter for events (the
  // analyzer behind) or while events are being dropped is left out and
  // counted, never waited for, so that the events keep their room.
  if (pos_ + need > kChunkRecords && (dropping_ || !next_chunk(true))) {
    stacks_dropped_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  EventRecord* d = claim(need);
  d->kind = EventKind::Stack;
  d->t = t;
  d->u64 = n;
  std::memcpy(static_cast<void*>(d + 1), pcs, n * sizeof *pcs);
}

std::uint32_t ThreadLog::pop_stack(std::uint64_t* out, std::uint32_t max) {
  constexpr std::uint32_t kPerRecord = sizeof(EventRecord) / sizeof *out;
  const EventRecord* d = &rd_->rec[rpos_];
  pending_stack_t = d->t;
  const auto n = std::uint32_t(d->u64);
  std::memcpy(out, d + 1, std::min(n, max) * sizeof *out);
  rpos_ += 1 + (n + kPerRecord - 1) / kPerRecord;
  return std::min(n, max);
}

const EventRecord* ThreadLog::peek() {
  for (;;) {
    if (rpos_ == kChunkRecords) {
      LogChunk* n = rd_->next.load(std::memory_order_acquire);
      if (!n) return nullptr;
      pool_.give(rd_);
      rd_ = n;
      rpos_ = 0;
      rcount_ = 0;
    }
    // The writer's count is read again only once the records it said are
    // read: its cache line is written at every commit, and a read per
    // record would pull it to the analyzer's core that often.
    if (rpos_ >= rcount_) {
      rcount_ = rd_->count.load(std::memory_order_acquire);
      if (rpos_ >= rcount_) return nullptr;
    }
    const EventRecord* r = &rd_->rec[rpos_];
    if (r->kind != EventKind::None) return r;
    ++rpos_;  // padding
  }
}

std::string_view ThreadLog::pop_name_def() {
  const EventRecord* d = &rd_->rec[rpos_];
  const std::size_t len = std::size_t(d->u64);
  const char* text = reinterpret_cast<const char*>(d + 1);
  text_.assign(text, len);
  rpos_ +=
      1 + std::uint32_t((len + sizeof(EventRecord) - 1) / sizeof(EventRecord));
  return text_;
}

}  // namespace Impl
}  // namespace addscope
