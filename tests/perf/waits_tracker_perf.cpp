// The waits tracker's own cost per kernel, without a device: the events a
// CUDA program sends it (Kokkos kernel begin/end, the launch's correlation,
// a fence's blocking runtime call), with kernel records delivered in
// batches as CUPTI does. Prints the cost per kernel for the first and the
// last tenth of the run (flat cost, bounded state) and the records held.
// Usage: addscope-waits-tracker-perf [kernels=1000000] [batch=300]
// (batch: kernel records per delivery; CUPTI's 64 KiB buffers hold ~300)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "addscope/waits/addscope_SyncTracker.hpp"

int main(int argc, char** argv) {
  using namespace addscope;
  const long n = argc > 1 ? std::atol(argv[1]) : 1000000;
  const long batch = argc > 2 ? std::atol(argv[2]) : 300;
  TrackerOptions o;
  o.device_records_by_hand = true;
  SyncTracker t(o);
  ExecId cuda;
  cuda.kind = DeviceKind::Cuda;
  std::vector<Impl::DeviceKernelRecord> pending;
  Impl::BlockingBegin sync;
  sync.api = SyncApi::DeviceSynchronize;
  auto now = [] { return std::chrono::steady_clock::now(); };
  const long tenth = n / 10;
  double first = 0, last = 0;
  std::size_t held_max = 0;
  auto t0 = now();
  for (long i = 0; i < n; ++i) {
    if (i == tenth) first = std::chrono::duration<double>(now() - t0).count();
    if (i == n - tenth) t0 = now();
    const double k0 = t.now();
    const auto id = t.kernel_begin("stream::triad", cuda);
    t.on_launch(std::uint32_t(i + 1));
    t.kernel_end(id);
    // The program's fence: on Kokkos 4.x a fence event around the blocking
    // call; every other kernel here, like Kokkos 3.4, a bare one.
    std::uint64_t f = 0;
    if (i % 2)
      f = t.call_begin(CallKind::Fence, "Kokkos::fence: Unnamed Global Fence");
    t.on_blocking_begin(sync);
    Impl::DeviceKernelRecord r;
    r.correlation = std::uint32_t(i + 1);
    r.stream = 7;
    r.start_s = k0;
    r.end_s = t.now();
    r.name = "_Z5triadv";
    pending.push_back(r);
    t.on_blocking_end();
    if (i % 2) t.call_end(f);
    if (long(pending.size()) >= batch) {  // CUPTI delivers a buffer
      held_max = std::max(held_max, t.pending_records());
      t.on_device_kernels(pending);
      pending.clear();
    }
  }
  last = std::chrono::duration<double>(now() - t0).count();
  t.on_device_kernels(pending);
  t.finish();
  const auto w = t.snapshot();
  std::printf(
      "waits tracker: %ld kernels, %.3f us per kernel (first tenth), %.3f us "
      "(last tenth); at most %zu records held; %llu explicit waits\n",
      n, first / double(tenth) * 1e6, last / double(tenth) * 1e6, held_max,
      (unsigned long long)w.totals.explicit_calls);
  return 0;
}
