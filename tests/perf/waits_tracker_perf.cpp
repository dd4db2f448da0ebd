// The waits tracker's own cost, without a device: the events a CUDA program
// sends it (Kokkos kernel begin/end, the launch's correlation, a fence's
// blocking runtime call), with kernel records delivered in batches as CUPTI
// does. Two costs, measured apart on one thread (nothing else running):
//   * the application thread's: recording the events of `batch` kernels
//     (what the program pays: per event and per kernel);
//   * the analyzer's: then analyzing them with their kernel records (what
//     its own thread pays: per kernel), for the first and the last tenth of
//     the run (flat cost, bounded state), and the records held.
// Last: what a site (a stack taken at a call's end) costs, with sites on
// and off, and what sites cost a launch made through CUDA directly.
// Usage: addscope-waits-tracker-perf [kernels=1000000] [batch=300]
// (batch: kernel records per delivery; CUPTI's 64 KiB buffers hold ~300)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "addscope/waits/addscope_SyncTracker.hpp"

namespace {
// Runs f `depth` frames further down the stack.
template <class F>
__attribute__((noinline)) double at_depth(int depth, const F& f) {
  if (depth <= 0) return f();
  const double r = at_depth(depth - 1, f);
  asm volatile("" ::: "memory");  // not a tail call
  return r;
}

// The best of 3 of `run(tracker)` (seconds) with sites on and with sites
// off, each on a tracker of its own configured by `setup(options)`.
struct OnOff {
  double on_s = 1e300, off_s = 1e300;
};
template <class Setup, class Run>
OnOff sites_on_off(const Setup& setup, const Run& run) {
  OnOff r;
  for (int rep = 0; rep < 3; ++rep)
    for (bool sites : {true, false}) {
      addscope::TrackerOptions so;
      setup(so);
      so.sites = sites;
      addscope::SyncTracker st(so);
      st.start_background();
      const double s = run(st);
      st.finish();
      double& best = sites ? r.on_s : r.off_s;
      best = std::min(best, s);
    }
  return r;
}
}  // namespace

int main(int argc, char** argv) {
  using namespace addscope;
  const long n = argc > 1 ? std::atol(argv[1]) : 1000000;
  const long batch = std::max(1L, argc > 2 ? std::atol(argv[2]) : 300);
  if (n < 10) {
    std::fprintf(stderr, "kernels = %ld is invalid; allowed: 10 or more\n", n);
    return 2;
  }
  TrackerOptions o;
  o.device_records_by_hand = true;
  SyncTracker t(o);
  ExecId cuda;
  cuda.kind = DeviceKind::Cuda;
  std::vector<Impl::DeviceKernelRecord> pending;
  Impl::BlockingBegin sync;
  sync.api = SyncApi::DeviceSynchronize;
  using clock = std::chrono::steady_clock;
  auto secs = [](clock::time_point a, clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
  };
  const long tenth = n / 10;
  double app_s = 0, an_first = 0, an_last = 0;
  long events = 0, k_first = 0, k_last = 0;
  std::size_t held_max = 0;
  for (long i0 = 0; i0 < n; i0 += batch) {
    const long i1 = std::min(n, i0 + batch);
    const auto a = clock::now();
    for (long i = i0; i < i1; ++i) {
      const double k0 = t.now();
      const auto id = t.kernel_begin("stream::triad", cuda);
      t.on_launch(std::uint32_t(i + 1));
      t.kernel_end(id);
      // The program's fence: on Kokkos 4.x a fence event around the
      // blocking call; every other kernel here, like Kokkos 3.4, a bare one.
      std::uint64_t f = 0;
      if (i % 2)
        f = t.call_begin(CallKind::Fence,
                         "Kokkos::fence: Unnamed Global Fence");
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
      events += i % 2 ? 7 : 5;
    }
    const auto b = clock::now();
    t.on_device_kernels(pending);  // CUPTI delivers a buffer: analyzed
    const auto c = clock::now();
    pending.clear();
    app_s += secs(a, b);
    if (i0 < tenth) {
      an_first += secs(b, c);
      k_first += i1 - i0;
    }
    if (i1 > n - tenth) {
      an_last += secs(b, c);
      k_last += i1 - i0;
    }
    held_max = std::max(held_max, t.pending_records());
  }
  t.finish();
  const auto w = t.snapshot();
  std::printf(
      "waits tracker: application thread: %.1f ns per event, %.3f us per "
      "kernel (%ld kernels, %.1f events each: kernel begin/end, launch, "
      "blocking call, every other one a fence)\n",
      app_s / double(events) * 1e9, app_s / double(n) * 1e6, n,
      double(events) / double(n));
  std::printf(
      "waits tracker: analyzer: %.3f us per kernel (first tenth), %.3f us "
      "(last tenth); at most %zu records held; %llu explicit waits; %llu "
      "events dropped\n",
      an_first / double(std::max(1L, k_first)) * 1e6,
      an_last / double(std::max(1L, k_last)) * 1e6, held_max,
      (unsigned long long)w.totals.explicit_calls,
      (unsigned long long)w.dropped.events);
  // The program's thread again, with the analyzer draining on its own
  // thread meanwhile, as in a real run: a host backend's events (a kernel
  // and a fence, as Kokkos 4.x sends them) between stretches of the
  // program's own work (a fixed arithmetic loop, timed alone first), so
  // the analyzer keeps up and the cache lines both threads touch cost what
  // they cost. Per event: (the loop with the events - the loop alone) / 4n.
  volatile std::uint64_t sink = 0;
  auto work = [&sink] {
    std::uint64_t x = sink;
    for (int k = 0; k < 200; ++k) x = x * 6364136223846793005ull + 1;
    sink = x;
  };
  TrackerOptions ho;
  SyncTracker h(ho);
  h.start_background();
  ExecId host;
  host.kind = DeviceKind::OpenMP;
  double alone_s = 1e300, with_s = 1e300;
  for (int rep = 0; rep < 3; ++rep) {  // the best of 3 of each, interleaved
    const auto a0 = clock::now();
    for (long i = 0; i < n; ++i) work();
    const auto a1 = clock::now();
    for (long i = 0; i < n; ++i) {
      const auto id = h.kernel_begin("host::kernel", host);
      work();
      h.kernel_end(id);
      const auto f = h.call_begin(CallKind::Fence,
                                  "Kokkos::fence: Unnamed Global Fence", host);
      h.call_end(f);
    }
    const auto a2 = clock::now();
    alone_s = std::min(alone_s, secs(a0, a1));
    with_s = std::min(with_s, secs(a1, a2));
  }
  h.finish();
  const auto hw = h.snapshot();
  std::uint64_t host_kernels = 0;
  for (const auto& k : hw.kernels) host_kernels += k.calls;
  std::printf(
      "waits tracker: application thread with the analyzer on its own "
      "thread: %.1f ns per event (%ld host kernels of %.0f ns of work, best "
      "of 3; 4 events each: kernel begin/end, a fence's begin/end); %llu "
      "events dropped\n",
      (with_s - alone_s) / double(4 * n) * 1e9, n, alone_s / double(n) * 1e9,
      (unsigned long long)hw.dropped.events);
  // What a site costs the program's thread: a fence whose end takes its
  // stack (sites on, every call long enough: site_min_s 0) against the same
  // fence without (sites off), called from `depth` frames down (a program's
  // call is rarely at main's level). Best of 3, per fence.
  const long m = std::max(10L, n / 10);
  for (int depth : {4, 24}) {
    const auto [on_s, off_s] =
        sites_on_off([](TrackerOptions& so) { so.site_min_s = 0; },
                     [&](SyncTracker& st) {
                       return at_depth(depth, [&] {
                         const auto a = clock::now();
                         for (long i = 0; i < m; ++i)
                           st.call_end(st.call_begin(CallKind::Fence,
                                                     "Kokkos::fence: F", host));
                         return secs(a, clock::now());
                       });
                     });
    std::printf(
        "waits tracker: a site (the stack at a call's end): +%.0f ns per "
        "call, %d frames below main (%.0f ns with, %.0f ns without; %ld "
        "fences, best of 3)\n",
        (on_s - off_s) / double(m) * 1e9, depth, on_s / double(m) * 1e9,
        off_s / double(m) * 1e9, m);
  }
  // What sites cost a launch made through CUDA directly (numba, CuPy,
  // PyTorch): the launch callback with the kernel's symbol, outside any
  // Kokkos call, sites on against off; 8 kernels in turn (the first launch
  // of each takes its stack, the others find the symbol seen and, with
  // launch places, their place: record/addscope_LaunchPlaces.hpp). Best of
  // 3, with launch places and without.
  for (const bool places : {true, false}) {
    static const char* const kSymbols[] = {
        "_Z4axpyPfPKff",  "_Z4dotPKfS0_Pf", "_Z5scalePff",       "_Z4fillPff",
        "_Z3addPKfS0_Pf", "_Z4copyPKfPf",   "_Z5triadPfPKfS1_f", "_Z3mulPfPKf"};
    const auto [on_s, off_s] =
        sites_on_off([&](TrackerOptions& so) { so.launch_places = places; },
                     [&](SyncTracker& st) {
                       return at_depth(4, [&] {
                         const auto a = clock::now();
                         Impl::LaunchBegin l;
                         for (long i = 0; i < m; ++i) {
                           l.correlation = std::uint32_t(i + 1);
                           l.symbol = kSymbols[i & 7];
                           st.on_launch(l);
                         }
                         return secs(a, clock::now());
                       });
                     });
    std::printf(
        "waits tracker: sites on a CUDA launch (its symbol, 8 kernels in "
        "turn%s): %+.1f ns per launch (%.1f ns with, %.1f ns without; %ld "
        "launches, best of 3)\n",
        places ? "" : ", launch places off", (on_s - off_s) / double(m) * 1e9,
        on_s / double(m) * 1e9, off_s / double(m) * 1e9, m);
  }
  return w.totals.explicit_calls == std::uint64_t(n) &&
                 host_kernels == 3 * std::uint64_t(n)
             ? 0
             : 1;
}
