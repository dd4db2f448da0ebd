// A synthetic timeline for the waits tracker: a hand-set clock, kernels
// whose device times the test decides, and blocking runtime calls — what
// Kokkos Tools and CUPTI would report, without a device.
#ifndef ADDSCOPE_TEST_WAITS_SIM_HPP
#define ADDSCOPE_TEST_WAITS_SIM_HPP

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "addscope/waits/addscope_SyncTracker.hpp"

namespace addscope_test {

/// What the CUDA driver reports for an NVIDIA H200 (sm_90).
inline addscope::DeviceCapacity h200() {
  addscope::DeviceCapacity d;
  d.device = 0;
  d.name = "NVIDIA H200";
  d.cc_major = 9;
  d.cc_minor = 0;
  d.sms = 132;
  d.warp_size = 32;
  d.max_threads_per_sm = 2048;
  d.max_threads_per_block = 1024;
  d.max_blocks_per_sm = 32;
  d.registers_per_sm = 65536;
  d.registers_per_block = 65536;
  d.shared_per_sm = 233472;           // 228 KiB
  d.shared_per_block_optin = 232448;  // 227 KiB
  d.reserved_shared_per_block = 1024;
  return d;
}

inline addscope::ExecId cuda(std::uint32_t instance = 0) {
  addscope::ExecId e;
  e.kind = addscope::DeviceKind::Cuda;
  e.instance = instance;
  return e;
}

struct WaitsSim {
  std::shared_ptr<addscope::ManualWaitsClock> clock =
      std::make_shared<addscope::ManualWaitsClock>();
  std::unique_ptr<addscope::SyncTracker> t;
  std::uint32_t next_corr = 1;

  /// device_records: CUPTI-like device records come (by hand); otherwise
  /// the tracker only has Kokkos' events.
  explicit WaitsSim(bool device_records = true,
                    addscope::LedgerLimits limits = addscope::LedgerLimits(),
                    std::size_t settle_every = 256) {
    addscope::TrackerOptions o;
    o.clock = clock;
    o.device_records_by_hand = device_records;
    o.limits = limits;
    o.settle_every = settle_every;
    o.sites = false;  // the attribution alone (test_waits_sites.cpp: sites)
    t.reset(new addscope::SyncTracker(o));
  }
  /// With options of the test's own (their clock, if a manual one, is
  /// the one at() sets).
  explicit WaitsSim(addscope::TrackerOptions o) {
    if (auto c = std::dynamic_pointer_cast<addscope::ManualWaitsClock>(o.clock))
      clock = c;
    o.clock = clock;
    t.reset(new addscope::SyncTracker(o));
  }
  void at(double s) { clock->set(s); }

  struct Launched {
    std::uint64_t id;
    std::uint32_t corr;
  };
  /// A Kokkos kernel launch on `exec` from t0 to t1 (one device kernel).
  Launched launch(const std::string& name, double t0, double t1,
                  addscope::ExecId exec = cuda()) {
    at(t0);
    const auto id = t->kernel_begin(name, exec);
    const std::uint32_t corr = next_corr++;
    if (exec.kind == addscope::DeviceKind::Cuda) t->on_launch(corr);
    at(t1);
    t->kernel_end(id);
    return {id, corr};
  }
  /// The device ran launch `l` on `stream` from start to end.
  void ran(const Launched& l, std::uint32_t stream, double start, double end,
           int grid = 1, int block = 1) {
    addscope::Impl::DeviceKernelRecord r;
    r.correlation = l.corr;
    r.stream = stream;
    r.start_s = start;
    r.end_s = end;
    r.shape.grid[0] = grid;
    r.shape.grid[1] = r.shape.grid[2] = 1;
    r.shape.block[0] = block;
    r.shape.block[1] = r.shape.block[2] = 1;
    r.shape.registers = 16;
    r.name = "_Z6kernelv";
    std::vector<addscope::Impl::DeviceKernelRecord> v{r};
    t->on_device_kernels(v);
  }
  /// A blocking runtime call from t0 to t1 (all streams, or `stream`;
  /// `correlation`: the runtime's id its device record carries, a copy's).
  void block(addscope::SyncApi api, double t0, double t1, int stream = -1,
             std::uint64_t bytes = 0, int copy_kind = 0,
             std::uint32_t correlation = 0) {
    addscope::Impl::BlockingBegin b;
    b.api = api;
    b.all_streams = stream < 0;
    b.stream = stream < 0 ? 0 : std::uint32_t(stream);
    b.bytes = bytes;
    b.copy_kind = copy_kind;
    b.correlation = correlation;
    at(t0);
    t->on_blocking_begin(b);
    at(t1);
    t->on_blocking_end();
  }
  /// The device ran the copy (or memset) of call `correlation` on `stream`
  /// from start to end.
  void copied(std::uint32_t correlation, std::uint32_t stream, double start,
              double end, std::uint64_t bytes, bool memset = false) {
    addscope::Impl::DeviceCopyRecord r;
    r.correlation = correlation;
    r.stream = stream;
    r.start_s = start;
    r.end_s = end;
    r.bytes = bytes;
    r.memset = memset;
    std::vector<addscope::Impl::DeviceCopyRecord> v{r};
    t->on_device_copies(v);
  }
  /// A Kokkos call from t0 to t1; `inside` runs in between.
  void call(addscope::CallKind kind, const std::string& what, double t0,
            double t1, const std::function<void()>& inside = {},
            addscope::ExecId exec = addscope::ExecId()) {
    at(t0);
    const auto id = t->call_begin(kind, what, exec);
    if (inside) inside();
    at(t1);
    t->call_end(id);
  }
  addscope::WaitsSnapshot done() {
    t->finish();
    return t->snapshot();
  }
};

/// A thread that runs posted work in order: lets a test interleave two host
/// threads' events deterministically.
class Actor {
 public:
  Actor() : th_([this] { loop(); }) {}
  ~Actor() {
    post({});
    th_.join();
  }
  /// Runs f on the actor's thread and waits for it.
  void run(std::function<void()> f) {
    std::unique_lock<std::mutex> l(mu_);
    bool done = false;
    q_.push_back([&] {
      f();
      std::lock_guard<std::mutex> g(mu_);
      done = true;
      cv_.notify_all();
    });
    cv_.notify_all();
    cv_.wait(l, [&] { return done; });
  }

 private:
  void post(std::function<void()> f) {
    std::lock_guard<std::mutex> g(mu_);
    q_.push_back(std::move(f));
    cv_.notify_all();
  }
  void loop() {
    for (;;) {
      std::function<void()> f;
      {
        std::unique_lock<std::mutex> l(mu_);
        cv_.wait(l, [&] { return !q_.empty(); });
        f = std::move(q_.front());
        q_.pop_front();
      }
      if (!f) return;
      f();
    }
  }
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> q_;
  std::thread th_;
};

}  // namespace addscope_test

#endif
