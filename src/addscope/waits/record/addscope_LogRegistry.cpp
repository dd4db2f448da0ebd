#include "addscope/waits/record/addscope_LogRegistry.hpp"

#include <algorithm>
#include <atomic>
#include <unordered_map>

namespace addscope {
namespace Impl {

namespace {
std::atomic<std::uint32_t> g_next_thread{0};
std::atomic<std::uint64_t> g_next_serial{1};
// Live registries by serial. Never destroyed: threads may exit during the
// static destruction.
std::mutex& registries_mutex() {
  static std::mutex* m = new std::mutex;
  return *m;
}
std::unordered_map<std::uint64_t, LogRegistry*>& registries() {
  static auto* r = new std::unordered_map<std::uint64_t, LogRegistry*>;
  return *r;
}
}  // namespace

std::uint32_t this_thread_index() {
  thread_local const std::uint32_t idx = g_next_thread.fetch_add(1);
  return idx;
}

// The hot path's look-up: the log this thread used last and its registry's
// serial, plain (trivially initialized, no destructor) thread_locals of this
// file, so a look-up costs neither a TLS wrapper call nor a guard; `exiting`
// outlives ThreadLogs' destructor (plain storage lasts as long as the
// thread).
namespace {
struct LastLog {
  std::uint64_t serial = 0;  // (0 is no registry's)
  ThreadLog* log = nullptr;
  bool exiting = false;
};
thread_local LastLog t_last;  // one TLS access a look-up
}  // namespace

// A thread's logs, one per tracker it recorded for; retired when the thread
// exits.
struct ThreadLogs {
  std::vector<std::pair<std::uint64_t, ThreadLog*>> all;
  ~ThreadLogs() {
    // Past this a call of this thread (a CUDA callback from the exit's
    // teardown, a later thread_local's destructor) records nothing: its
    // logs are retired, and the analyzer deletes them once read.
    t_last = LastLog{0, nullptr, true};
    std::lock_guard<std::mutex> g(registries_mutex());
    for (const auto& e : all) {
      auto it = registries().find(e.first);
      if (it != registries().end()) it->second->thread_exiting(e.second);
    }
  }
};

namespace {
ThreadLogs& tls() {
  thread_local ThreadLogs t;
  return t;
}
}  // namespace

LogRegistry::LogRegistry(std::size_t max_chunks)
    : pool_(max_chunks), serial_(g_next_serial++) {
  std::lock_guard<std::mutex> g(registries_mutex());
  registries()[serial_] = this;
}

LogRegistry::~LogRegistry() {
  {
    std::lock_guard<std::mutex> g(registries_mutex());
    registries().erase(serial_);
  }
  std::lock_guard<std::mutex> g(mu_);
  for (ThreadLog* l : logs_) delete l;
  logs_.clear();
}

ThreadLog* LogRegistry::this_thread() {
  LastLog& last = t_last;
  if (last.serial == serial_) return last.log;
  if (last.exiting) {
    late_.fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }
  ThreadLogs& t = tls();
  for (const auto& e : t.all)
    if (e.first == serial_) {
      last = LastLog{serial_, e.second, false};
      return e.second;
    }
  auto* log = new ThreadLog(pool_, this_thread_index());
  {
    std::lock_guard<std::mutex> g(mu_);
    logs_.push_back(log);
  }
  // A thread that records for many trackers (tests make one after another)
  // keeps the 16 it used last; an older one's log is retired with no exit
  // record (its tracker counts what it left open at its report).
  if (t.all.size() >= 16) {
    std::lock_guard<std::mutex> g(registries_mutex());
    auto it = registries().find(t.all.front().first);
    if (it != registries().end()) t.all.front().second->retire();
    t.all.erase(t.all.begin());
  }
  t.all.emplace_back(serial_, log);
  last = LastLog{serial_, log, false};
  return log;
}

void LogRegistry::thread_exiting(ThreadLog* log) {
  // (registries_mutex() held: this registry is alive)
  if (on_exit_) on_exit_(on_exit_arg_, *log);
  log->retire();
}

void LogRegistry::remove(ThreadLog* log) {
  auto it = std::find(logs_.begin(), logs_.end(), log);
  if (it == logs_.end()) return;
  logs_.erase(it);
  delete log;
}

std::mutex& LogRegistry::global_mutex() { return registries_mutex(); }

void LogRegistry::reset_after_fork() {
  // (the fork handlers hold registries_mutex() and mu_ for the child)
  registries().erase(serial_);
  serial_ = g_next_serial++;
  registries()[serial_] = this;
  for (ThreadLog* l : logs_) delete l;
  logs_.clear();
}

}  // namespace Impl
}  // namespace addscope
