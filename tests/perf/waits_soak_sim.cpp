// The soak of tests/tools/soak.cpp without a GPU: the events a Kokkos 4.x
// CUDA program sends the waits tracker while it runs (kernel begin/end with
// the launch callback between; every COPY_EVERY kernels a deep_copy of one
// element to the host with FENCES fences, each blocked in a synchronizing
// runtime call), paced to PACE_NS per kernel like the H200's launches, with
// the tracker's analyzer running on its own thread meanwhile (as in the
// tool) and a simulated device source handing over kernel and copy records
// the way CUPTI does: in buffers of BATCH records, once full, or when the
// analyzer flushes. It answers what the GPU soak asks — does the analyzer
// keep up, does anything grow — on any machine.
//
// (On the H200, 2026-12-01, the tool fell behind in Kokkos 4.6.99's soak:
// 20 us per kernel in the last tenth instead of 6, 130 MB more memory,
// events and kernel records dropped.)
//
// Usage: addscope-waits-soak-sim [kernels=1000000] [copy_every=10]
//   [pace_ns=6000] [fences=4] [batch=400]
// SOAK_SIM_VERBOSE=1 also prints what the tracker holds after each tenth.
// Prints one line "soak_sim: ..." (per kernel times of the first and last
// tenth, peak RSS after the first tenth and at the end, the tracker's
// dropped counts and the records it held at most) and exits 1 if the
// tracker dropped anything, lost a kernel, or its memory grew by more than
// 16 MiB after the first tenth; 2 for a usage error.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "addscope/waits/addscope_SyncTracker.hpp"

namespace {

using namespace addscope;

// A device source that gets its records from the "program" (this one's
// main thread) and hands them over as CUPTI does: whole buffers of `batch`
// records when full, the rest on flush().
class SimSource final : public Impl::DeviceSource {
 public:
  explicit SimSource(std::size_t batch) : batch_(batch) {}
  bool start(Impl::DeviceSink&) override { return true; }
  void stop() override { flush(); }
  void flush() override {
    std::lock_guard<std::mutex> g(m_);
    move_all();
  }
  std::string description() const override { return "simulated device"; }
  std::uint64_t records_dropped() const override {
    std::lock_guard<std::mutex> g(m_);
    return dropped_;
  }
  void drain(Impl::DeviceRecordSink& out) override {
    std::vector<Impl::DeviceKernelRecord> k;
    std::vector<Impl::DeviceCopyRecord> c;
    {
      std::lock_guard<std::mutex> g(m_);
      k.swap(ready_k_);
      c.swap(ready_c_);
    }
    if (!k.empty()) out.on_device_kernels(k);
    if (!c.empty()) out.on_device_copies(c);
  }
  // The program's thread: a record the device made.
  void add(const Impl::DeviceKernelRecord& r) {
    std::lock_guard<std::mutex> g(m_);
    pend_k_.push_back(r);
    if (pend_k_.size() + pend_c_.size() >= batch_) move_all();
  }
  void add(const Impl::DeviceCopyRecord& r) {
    std::lock_guard<std::mutex> g(m_);
    pend_c_.push_back(r);
    if (pend_k_.size() + pend_c_.size() >= batch_) move_all();
  }

 private:
  // As CUPTI with the tool's 64 buffers in flight: past that, lost.
  void move_all() {
    if (ready_k_.size() + ready_c_.size() >= 64 * batch_) {
      dropped_ += pend_k_.size() + pend_c_.size();
    } else {
      ready_k_.insert(ready_k_.end(), pend_k_.begin(), pend_k_.end());
      ready_c_.insert(ready_c_.end(), pend_c_.begin(), pend_c_.end());
    }
    pend_k_.clear();
    pend_c_.clear();
  }
  std::size_t batch_;
  mutable std::mutex m_;
  std::uint64_t dropped_ = 0;
  std::vector<Impl::DeviceKernelRecord> pend_k_, ready_k_;
  std::vector<Impl::DeviceCopyRecord> pend_c_, ready_c_;
};

long status_kib(const char* field) {
  std::ifstream f("/proc/self/status");
  std::string line;
  const std::string key = std::string(field) + ":";
  while (std::getline(f, line))
    if (line.compare(0, key.size(), key) == 0)
      return std::atol(line.c_str() + key.size());
  return -1;
}

long arg(int argc, char** argv, int i, long def, long lo, const char* name) {
  if (argc <= i) return def;
  char* end = nullptr;
  const long v = std::strtol(argv[i], &end, 10);
  if (!end || *end || v < lo) {
    std::fprintf(stderr,
                 "addscope-waits-soak-sim: %s = '%s' is invalid; allowed: an "
                 "integer >= %ld\n",
                 name, argv[i], lo);
    std::exit(2);
  }
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  const long n = arg(argc, argv, 1, 1000000, 100, "kernels");
  const long copy_every = arg(argc, argv, 2, 10, 1, "copy_every");
  const long pace_ns = arg(argc, argv, 3, 6000, 0, "pace_ns");
  const long fences = arg(argc, argv, 4, 4, 0, "fences");
  const long batch = arg(argc, argv, 5, 400, 1, "batch");
  // SOAK_SIM_VERBOSE=1: what the tracker holds after each tenth.
  const char* v = std::getenv("SOAK_SIM_VERBOSE");
  const bool verbose = v && std::strcmp(v, "1") == 0;

  SimSource* src = new SimSource(std::size_t(batch));
  TrackerOptions o;
  o.make_device_source = [src] {
    return std::unique_ptr<Impl::DeviceSource>(src);
  };
  SyncTracker t(o);
  if (!t.start_device_tracing()) {
    std::fprintf(stderr, "addscope-waits-soak-sim: no device source\n");
    return 1;
  }
  t.start_background();
  ExecId cuda;
  cuda.kind = DeviceKind::Cuda;
  Impl::BlockingBegin sync;
  sync.api = SyncApi::DeviceSynchronize;
  Impl::BlockingBegin copy;
  copy.api = SyncApi::Memcpy;
  copy.bytes = 4;
  copy.copy_kind = 3;
  static const char kName[] = "_Z4stepv";

  using clock = std::chrono::steady_clock;
  auto ns_since = [](clock::time_point a) {
    return double(
        std::chrono::duration_cast<std::chrono::nanoseconds>(clock::now() - a)
            .count());
  };
  const long tenth = n / 10;
  double first_ns = 0, last_ns = 0;
  long hwm_tenth = -1;
  std::uint32_t corr = 0;
  double device_free = 0;  // when the simulated device is idle again
  // The device runs a record's work for 1 us on stream 7, from `after` or
  // once what it ran before is done; the source hands it over.
  auto run_on_device = [&](auto& rec, double after) {
    rec.stream = 7;
    rec.start_s = std::max(after, device_free);
    rec.end_s = rec.start_s + 1e-6;
    device_free = rec.end_s;
    src->add(rec);
  };
  t.region_push("soak::run");
  const auto t0 = clock::now();
  auto tenth_start = t0;
  for (long i = 0; i < n; ++i) {
    const auto k0 = clock::now();
    const auto id = t.kernel_begin("soak::step", cuda);
    Impl::LaunchBegin l;
    l.correlation = ++corr;
    l.stream_known = true;
    l.stream = 7;
    const double launched = t.now();
    t.on_launch(l);
    t.kernel_end(id);
    Impl::DeviceKernelRecord r;
    r.correlation = corr;
    r.shape.grid[0] = 1;
    r.shape.block[0] = 128;
    r.name = kName;
    run_on_device(r, launched + 2e-6);
    if ((i + 1) % copy_every == 0) {
      t.deep_copy_begin("soak::v_mirror", "soak::v", "Host", "Cuda", 4);
      for (long f = 0; f < fences; ++f) {
        const auto fid =
            t.call_begin(CallKind::Fence,
                         "Kokkos::deep_copy: copy between contiguous views, "
                         "pre view equality check",
                         cuda);
        t.on_blocking_begin(sync);
        t.on_blocking_end();
        t.call_end(fid);
      }
      copy.correlation = ++corr;
      const double c0 = t.now();
      t.on_blocking_begin(copy);
      Impl::DeviceCopyRecord c;
      c.correlation = corr;
      c.bytes = 4;
      c.copy_kind = 3;
      run_on_device(c, c0 + 1e-6);
      t.on_blocking_end();
      t.call_end_innermost(CallKind::DeepCopy);
    }
    while (ns_since(k0) < double(pace_ns)) {
    }
    if (i + 1 == tenth) {
      first_ns = ns_since(tenth_start) / double(tenth);
      hwm_tenth = status_kib("VmHWM");
    }
    if (i + 1 == n - tenth) tenth_start = clock::now();
    if (verbose && (i + 1) % tenth == 0) {
      const TrackerFootprint f = t.footprint();
      std::printf(
          "soak_sim: after %ld kernels: %zu records held, %zu launches "
          "pending, %zu blocking calls kept, %zu open, %zu log chunks\n",
          i + 1, f.pending_records, f.pending_launches, f.blocked_history,
          f.open, f.log_chunks);
    }
  }
  last_ns = ns_since(tenth_start) / double(tenth);
  t.region_pop();
  const double run_s = ns_since(t0) * 1e-9;
  const std::size_t held = t.pending_records();
  t.finish();
  const long hwm_end = status_kib("VmHWM");
  const WaitsSnapshot w = t.snapshot();
  const WaitsDropped& d = w.dropped;
  const std::uint64_t lost = d.device_records + w.kernels_without_device_record;
  std::printf(
      "soak_sim: %ld kernels, deep_copy every %ld with %ld fences, paced %ld "
      "ns, device records in buffers of %ld: %.2f s; per kernel first tenth "
      "%.0f ns, last tenth %.0f ns; peak RSS after the first tenth %ld KiB, "
      "at the end %ld KiB; %zu records held before the end; %llu kernels "
      "reported; dropped: %llu events, %llu settled early, %llu without "
      "record\n",
      n, copy_every, fences, pace_ns, batch, run_s, first_ns, last_ns,
      hwm_tenth, hwm_end, held, (unsigned long long)w.totals.device_kernels,
      (unsigned long long)d.events, (unsigned long long)d.settled_early,
      (unsigned long long)lost);
  const bool ok = d.events == 0 && d.settled_early == 0 && lost == 0 &&
                  hwm_end - hwm_tenth <= 16384;
  if (!ok) std::printf("soak_sim: FAIL\n");
  return ok ? 0 : 1;
}
