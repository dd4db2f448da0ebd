// libFuzzer target for the waits tool's entry points.
//
// Each input is a program of events, as Kokkos Tools and the device source
// would send them, in any order and with any names, ids, device ids, sizes,
// streams and times: kernel, fence, region, allocation and deep_copy
// callbacks (through ToolCallbacks, the code behind kokkosp_*), launches
// and blocking calls (the DeviceSink calls the CUPTI source makes), kernel
// records (raw CUPTI record prefixes through decode_kernel_record, the path
// the CUPTI source feeds, and decoded ones with any times), and the
// results (snapshot, report, JSON, recent waits). A few opcodes call the
// library's extern "C" kokkosp_* entry points themselves, on the process'
// tracker, which lives across inputs.
//
// The tracker runs with small caps so that every one is reached. Findings:
// a crash, undefined behaviour (ASan/UBSan), an exception out of an entry
// point, a report or JSON that does not parse, or a broken invariant after
// the end of the run (records left pending, a cap exceeded, a wait longer
// than its call or negative).
//
// Needs no Kokkos and no CUDA: the waits sources are compiled straight in
// (see tests/fuzz/CMakeLists.txt).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "addscope/waits/addscope_SyncTracker.hpp"
#include "addscope/waits/device/addscope_CuptiAbi.hpp"
#include "addscope/waits/device/addscope_CuptiSource.hpp"
#include "addscope/waits/output/addscope_WaitsReport.hpp"
#include "addscope/waits/tool/addscope_ToolCallbacks.hpp"

extern "C" {
// libaddscope_waits.so's entry points (tool/addscope_WaitsTool.cpp).
void kokkosp_init_library(int, std::uint64_t, std::uint32_t, void*);
void kokkosp_begin_parallel_for(const char*, std::uint32_t, std::uint64_t*);
void kokkosp_end_parallel_for(std::uint64_t);
void kokkosp_begin_fence(const char*, std::uint32_t, std::uint64_t*);
void kokkosp_end_fence(std::uint64_t);
void kokkosp_push_profile_region(const char*);
void kokkosp_pop_profile_region();
void kokkosp_begin_deep_copy(addscope::Impl::ToolsSpaceHandle, const char*,
                             const void*, addscope::Impl::ToolsSpaceHandle,
                             const char*, const void*, std::uint64_t);
void kokkosp_end_deep_copy();
void kokkosp_allocate_data(addscope::Impl::ToolsSpaceHandle, const char*,
                           const void*, std::uint64_t);
}

namespace {

using namespace addscope;

[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "fuzz_waits_tool: FINDING: %s\n", what.c_str());
  std::abort();  // libFuzzer saves the input as a crash artifact
}

// Reads the input as a stream of values; zeros once it is used up.
class Input {
 public:
  Input(const std::uint8_t* d, std::size_t n) : d_(d), n_(n) {}
  bool more() const { return i_ < n_; }
  std::uint8_t byte() { return i_ < n_ ? d_[i_++] : 0; }
  std::uint32_t u32() {
    std::uint32_t v = 0;
    for (int k = 0; k < 4; ++k) v = (v << 8) | byte();
    return v;
  }
  std::uint64_t u64() { return (std::uint64_t(u32()) << 32) | u32(); }
  // Small values mostly, so that ids and names repeat.
  std::uint32_t small(std::uint32_t n) { return byte() % n; }
  double any_double() {
    std::uint64_t b = u64();
    double d;
    std::memcpy(&d, &b, sizeof d);
    return d;
  }
  // A time: near the clock mostly, anything sometimes.
  double time_near(double now) {
    const std::uint8_t k = byte();
    if (k < 200) return now + (double(std::int8_t(byte())) * 1e-4);
    if (k < 250) return now + double(u32()) * 1e-6;
    return any_double();
  }
  std::string name() {
    static const char* common[] = {
        "Kokkos::fence: Unnamed Global Fence",
        "Kokkos::View::initialization [x] via memset",
        "Kokkos::parallel_reduce: fence due to result being value, not view",
        "Kokkos::deep_copy: copy between contiguous views, pre view "
        "equality check",
        "user::k",
        "Kokkos::View::initialization [y]",
        "__nv_hdl_wrapper_t<false, false, __nv_dl_tag<void "
        "(KokkosStream<float>::*)(), &KokkosStream<float>::add, 1>, "
        "void (int), KokkosStream<float> *>",
        "_ZN6Kokkos4Impl33cuda_parallel_launch_local_memoryEv",
        ""};
    const std::uint8_t k = byte();
    if (k < 160) return common[k % (sizeof common / sizeof *common)];
    const std::size_t len = byte() % 48;
    std::string s;
    for (std::size_t j = 0; j < len; ++j) s += char(byte());
    return s;
  }
  Impl::ToolsSpaceHandle space() {
    static const char* spaces[] = {"HostSpace",      "Cuda", "CudaUVM",
                                   "CudaHostPinned", "HIP",  "SYCLDeviceUSM"};
    Impl::ToolsSpaceHandle h{};
    const std::uint8_t k = byte();
    if (k < 220) {
      std::strncpy(h.name, spaces[k % 6], sizeof h.name);
    } else {
      for (char& c : h.name) c = char(byte());  // not 0-terminated at all
    }
    return h;
  }

 private:
  const std::uint8_t* d_;
  std::size_t n_, i_ = 0;
};

std::uint32_t device_id(Input& in) {
  const std::uint8_t k = in.byte();
  if (k < 100) return 0x2000000u | in.small(4);               // Cuda, instances
  if (k < 160) return 0x1000000u;                             // OpenMP
  if (k < 200) return 0;                                      // Serial
  if (k < 220) return 0x2000000u | (0x7fu << 17) | 0x1ffffu;  // deep-copy
  return in.u32();
}

void check_snapshot(const WaitsSnapshot& w, const TrackerOptions& o,
                    bool outputs) {
  if (w.waits.size() > o.limits.top_waits) finding("more top waits than kept");
  if (w.kernels.size() > o.limits.kernels + 1)
    finding("more kernel entries than the cap");
  if (w.sites.size() > o.limits.sites + 1)
    finding("more call sites than the cap");
  if (w.streams.size() > o.limits.streams + 1)
    finding("more streams than the cap");
  if (w.threads.size() > o.limits.threads + 1)
    finding("more threads than the cap");
  for (const auto& c : w.waits) {
    if (!(c.wait_s > 0) || !std::isfinite(c.wait_s))
      finding("a kept wait of " + std::to_string(c.wait_s) + " s");
    if (c.wait_s > c.duration_s() + 1e-9)
      finding("a wait longer than its call: " + std::to_string(c.wait_s) +
              " > " + std::to_string(c.duration_s()));
    if (c.waited_for.empty()) finding("a wait for no kernel");
  }
  const auto& t = w.totals;
  for (double v : {t.hidden_s, t.explicit_s})
    if (!(v >= 0) || !std::isfinite(v))
      finding("a total wait of " + std::to_string(v));
  if (!outputs) return;
  std::ostringstream os;
  write_waits_report(os, w);
  try {
    (void)nlohmann::json::parse(waits_json(w));
  } catch (const std::exception& e) {
    finding(std::string("the JSON report does not parse: ") + e.what());
  }
}

// Events through the library's own C entry points (the process' tracker,
// kept across inputs: its caps are reached over a long fuzzing run).
void global_event(Input& in) {
  static bool inited = [] {
    kokkosp_init_library(0, 20211015, 0, nullptr);
    return true;
  }();
  (void)inited;
  static std::vector<std::uint64_t> ids;
  const std::string n = in.name();
  switch (in.small(6)) {
    case 0: {
      std::uint64_t id = 0;
      kokkosp_begin_parallel_for(n.c_str(), device_id(in), &id);
      if (ids.size() < 64) ids.push_back(id);
      break;
    }
    case 1:
      kokkosp_end_parallel_for(ids.empty() ? in.u64() : ids.back());
      if (!ids.empty()) ids.pop_back();
      break;
    case 2: {
      std::uint64_t id = 0;
      kokkosp_begin_fence(n.c_str(), device_id(in), &id);
      kokkosp_end_fence(in.byte() < 200 ? id : in.u64());
      break;
    }
    case 3:
      if (in.byte() & 1)
        kokkosp_push_profile_region(n.c_str());
      else
        kokkosp_pop_profile_region();
      break;
    case 4:
      kokkosp_begin_deep_copy(in.space(), n.c_str(), nullptr, in.space(),
                              in.name().c_str(), nullptr, in.u64());
      if (in.byte() < 200) kokkosp_end_deep_copy();
      break;
    default:
      kokkosp_allocate_data(in.space(), n.c_str(), nullptr, in.u64());
  }
}

void run(Input& in) {
  TrackerOptions o;
  auto clock = std::make_shared<ManualWaitsClock>();
  o.clock = clock;
  const std::uint8_t flags = in.byte();
  const std::uint8_t mode = flags % 3;
  // The report and JSON (and their parse) for a quarter of the inputs:
  // they cost more than the rest of a run.
  const bool outputs = (flags & 0x30) == 0;
  o.device_records_by_hand = mode == 0;
  o.callbacks_by_hand = mode == 1;
  o.settle_every = 1 + in.small(16);
  o.tracker_limits.pending_records = 64;
  o.tracker_limits.names = 64;
  o.tracker_limits.name_bytes = 4096;
  o.tracker_limits.open_per_thread = 8;
  o.tracker_limits.region_depth = 4;
  o.tracker_limits.pending_launches = 16;
  o.tracker_limits.streams = 8;
  o.limits.top_waits = 4;
  o.limits.recent_waits = 4;
  o.limits.kernels = 8;
  o.limits.sites = 8;
  o.limits.streams = 4;
  o.limits.threads = 4;
  SyncTracker t(o);
  Impl::ToolCallbacks cb(t);
  cb.init(in.byte() & 1 ? 20211015 : 20200202);
  if (in.byte() == 0xff) t.open_trace("/dev/null");
  double now = 0;
  std::vector<std::uint64_t> ids;
  std::uint32_t corr = 1;
  std::vector<std::uint32_t> corrs;
  int threads = 0;
  int outputs_left = 2;
  for (int step = 0; step < 512 && in.more(); ++step) {
    const std::uint8_t op = in.small(24);
    now += double(in.byte()) * 1e-5;  // the clock moves forward
    clock->set(now);
    switch (op) {
      case 0:
      case 1: {
        std::uint64_t id = 0;
        cb.begin_kernel(in.name().c_str(), device_id(in), &id);
        ids.push_back(id);
        break;
      }
      case 2:
      case 3:
        if (!ids.empty() && in.byte() < 220) {
          cb.end_kernel(ids.back());
          ids.pop_back();
        } else {
          cb.end_kernel(in.u64());
        }
        break;
      case 4: {
        std::uint64_t id = 0;
        cb.begin_fence(in.name().c_str(), device_id(in), &id);
        ids.push_back(id);
        break;
      }
      case 5:
        if (!ids.empty()) {
          const std::size_t k = in.byte() % ids.size();
          cb.end_fence(ids[k]);  // any open one: out of order
          ids.erase(ids.begin() + std::ptrdiff_t(k));
        }
        break;
      case 6:
        cb.push_region(in.byte() < 20 ? nullptr : in.name().c_str());
        break;
      case 7:
        cb.pop_region();
        break;
      case 8: {
        const auto h = in.space();
        cb.allocate(h, in.name().c_str(), in.u64());
        break;
      }
      case 9: {
        const auto h = in.space();
        cb.deallocate(h, in.name().c_str(), in.u64());
        break;
      }
      case 10: {
        const auto d = in.space(), s = in.space();
        const std::string dn = in.name(), sn = in.name();
        cb.begin_deep_copy(d, dn.c_str(), s, sn.c_str(), in.u64());
        break;
      }
      case 11:
        cb.end_deep_copy();
        break;
      case 12: {
        Impl::LaunchBegin l;
        l.correlation = in.byte() < 240 ? corr++ : in.u32();
        l.stream_known = in.byte() & 1;
        l.device = in.small(3);
        l.stream = in.small(6);
        t.on_launch(l);
        if (corrs.size() < 256) corrs.push_back(l.correlation);
        break;
      }
      case 13:
        t.on_launch_failed(corrs.empty() ? in.u32()
                                         : corrs[in.byte() % corrs.size()]);
        break;
      case 14: {
        Impl::BlockingBegin b;
        b.api = SyncApi(in.small(9));
        b.all_streams = in.byte() & 1;
        b.device = in.small(3);
        b.stream = in.small(6);
        b.bytes = in.byte() < 200 ? in.small(64) : in.u64();
        b.copy_kind = int(in.small(6));
        t.on_blocking_begin(b);
        break;
      }
      case 15:
        t.on_blocking_end();
        break;
      case 16: {
        const double a = in.time_near(now), b = in.time_near(now);
        t.on_slow_launch(a, b);
        break;
      }
      case 17:
      case 18: {
        // Kernel records: decoded ones with any times and correlations...
        std::vector<Impl::DeviceKernelRecord> recs;
        std::vector<std::string> names;  // alive during the delivery
        const int n = 1 + in.small(8);
        names.reserve(std::size_t(n));
        for (int k = 0; k < n; ++k) {
          Impl::DeviceKernelRecord r;
          r.correlation = !corrs.empty() && in.byte() < 230
                              ? corrs[in.byte() % corrs.size()]
                              : in.u32();
          r.device = in.small(3);
          r.stream = in.small(6);
          r.start_s = in.time_near(now);
          r.end_s = in.byte() < 230 ? r.start_s + double(in.byte()) * 1e-5
                                    : in.time_near(now);
          r.shape.grid[0] = std::int32_t(in.u32());
          r.shape.block[0] = std::int32_t(in.small(255));
          names.push_back(in.name());
          r.name = names.back().c_str();
          recs.push_back(r);
        }
        t.on_device_kernels(recs);
        break;
      }
      case 19: {
        // ... and raw CUPTI record prefixes, decoded as the source does.
        Impl::cupti::KernelRecordPrefix raw{};
        raw.kind = in.byte() < 230 ? Impl::cupti::kActivityConcurrentKernel
                                   : int(in.u32());
        raw.start = in.u64() >> in.small(64);
        raw.end = in.byte() < 230 ? raw.start + in.small(255) * 1000 : in.u64();
        raw.deviceId = in.small(3);
        raw.streamId = in.small(6);
        raw.gridX = std::int32_t(in.u32());
        raw.correlationId =
            !corrs.empty() ? corrs[in.byte() % corrs.size()] : in.u32();
        const std::string nm = in.name();
        raw.name = in.byte() < 20 ? nullptr : nm.c_str();
        Impl::DeviceKernelRecord r;
        const std::int64_t offset = std::int64_t(in.u64() >> in.small(64));
        if (Impl::decode_kernel_record(&raw, offset, t, &r)) {
          std::vector<Impl::DeviceKernelRecord> v{r};
          t.on_device_kernels(v);
        }
        break;
      }
      case 20:
        t.flush();
        if (in.byte() & 1) (void)t.waits_since(t.mark() - in.small(8));
        break;
      case 21:
        if (in.byte() & 1)
          t.start_device_tracing();
        else
          t.stop_device_tracing();
        break;
      case 22:
        if (threads < 2 && in.byte() < 16) {
          // Events from a thread that exits (what it leaves open too).
          ++threads;
          const std::string n = in.name();
          const std::uint32_t dev = device_id(in);
          std::thread th([&] {
            std::uint64_t id = 0;
            cb.push_region(n.c_str());
            cb.begin_kernel(n.c_str(), dev, &id);
            t.on_launch(corr + 100000);
            if (dev & 1) cb.end_kernel(id);
          });
          th.join();
        } else {
          // The report and JSON (and their parse) at most twice within an
          // input: dozens of them made inputs of 0.5 s (slow units).
          check_snapshot(t.snapshot(), o, outputs && outputs_left > 0);
          --outputs_left;
        }
        break;
      default:
        // Rarely: the process' tracker keeps what it is given across
        // inputs, and libFuzzer checks for leaks after every input that
        // allocated more than it freed.
        if (in.byte() < 8) global_event(in);
    }
  }
  std::ostringstream report, errors;
  if (outputs) {
    cb.finalize(report, "", errors);
    if (!errors.str().empty()) finding("finalize: " + errors.str());
  } else {
    t.finish();
  }
  const auto w = t.snapshot();
  check_snapshot(w, o, outputs);
  const auto f = t.footprint();
  if (f.pending_records != f.pending_launches)
    finding("records still pending after the end: " +
            std::to_string(f.pending_records));
  if (f.names > o.tracker_limits.names) finding("names past the cap");
  if (f.pending_launches > o.tracker_limits.pending_launches)
    finding("pending launches past the cap");
  if (f.open > o.tracker_limits.open_per_thread * f.threads)
    finding("open calls past the cap");
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // The process' tracker (C entry points) never opens CUPTI here, and its
  // exit-time report goes nowhere.
  setenv("ADDSCOPE_WAITS_DEVICE", "none", 1);
  unsetenv("ADDSCOPE_WAITS_JSON");
  unsetenv("ADDSCOPE_WAITS_TRACE");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  Input in(data, size);
  try {
    run(in);
  } catch (const std::exception& e) {
    finding(std::string("exception: ") + e.what());
  } catch (...) {
    finding("a non-standard exception");
  }
  return 0;
}
