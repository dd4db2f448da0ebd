// addscope — a tracker's thread logs: each program thread gets its own log
// the first time it records for that tracker (the only moment the
// registry's lock is taken on its behalf), and retires it when it exits;
// the analyzer visits the logs and frees a retired one once it has read it
// to the end. Also the host threads' indices (0: the first thread that
// recorded anything in this process).
#ifndef ADDSCOPE_WAITS_RECORD_LOGREGISTRY_HPP
#define ADDSCOPE_WAITS_RECORD_LOGREGISTRY_HPP

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "addscope/waits/record/addscope_ThreadLog.hpp"

namespace addscope {
namespace Impl {

/// This thread's index, the same for every tracker.
std::uint32_t this_thread_index();

class LogRegistry {
 public:
  /// `max_chunks`: the cap of the chunk pool shared by its logs.
  explicit LogRegistry(std::size_t max_chunks);
  ~LogRegistry();
  LogRegistry(const LogRegistry&) = delete;
  LogRegistry& operator=(const LogRegistry&) = delete;

  /// Called on a thread as it exits, for its log (which it may still append
  /// a last record to before the registry retires it).
  void set_on_thread_exit(void (*f)(void*, ThreadLog&), void* arg) {
    on_exit_ = f;
    on_exit_arg_ = arg;
  }

  /// This thread's log, registered on first use; null once this thread is
  /// exiting (its destructors run after its log was retired), each such
  /// event counted in late().
  ThreadLog* this_thread();
  /// Events of threads whose logs were gone (counted as dropped).
  std::uint64_t late() const { return late_.load(std::memory_order_relaxed); }

  /// The analyzer's view of the logs (the caller holds mutex()).
  std::vector<ThreadLog*>& logs() { return logs_; }
  std::mutex& mutex() { return mu_; }
  /// Frees a retired log the analyzer has read to the end (mutex() held).
  void remove(ThreadLog* log);
  ChunkPool& pool() { return pool_; }

  /// In a child after fork(): every log belongs to the parent's threads;
  /// drop them all and give this registry a new identity, so that this
  /// thread registers a new log at its next event.
  void reset_after_fork();
  /// The lock of the process-wide list of registries (fork handlers hold
  /// it across fork(), so that the child finds it free).
  static std::mutex& global_mutex();

 private:
  friend struct ThreadLogs;
  void thread_exiting(ThreadLog* log);
  ChunkPool pool_;
  std::mutex mu_;
  std::vector<ThreadLog*> logs_;
  std::uint64_t serial_;
  std::atomic<std::uint64_t> late_{0};
  void (*on_exit_)(void*, ThreadLog&) = nullptr;
  void* on_exit_arg_ = nullptr;
};

}  // namespace Impl
}  // namespace addscope

#endif
