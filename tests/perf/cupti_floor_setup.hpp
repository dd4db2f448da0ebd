// The CUPTI set-ups of tests/perf/cupti_floor.cpp and what a minimal tool
// does in CUPTI's callbacks and buffers, shared by the floor program and the
// floor tool (tests/perf/cupti_floor_tool.cpp: the same set-ups inside a
// Kokkos program). Included by one source file each: everything here has
// internal linkage.
#pragma once
#include <cupti.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <mutex>
#include <string>
#include <vector>

namespace {

// ---- set-ups ---------------------------------------------------------------

struct Setup {
  const char* name;
  const char* what;
  bool activity;        // CONCURRENT_KERNEL records
  bool ext;             // EXTERNAL_CORRELATION records, push/pop per launch
  bool api_records;     // RUNTIME API activity records
  bool blocking_cbs;    // callbacks on the blocking runtime calls
  bool launch_cbs;      // callbacks on the launch runtime calls
  bool copies = false;  // MEMCPY + MEMSET activity records
};

const Setup kSetups[] = {
    {"none", "no CUPTI", false, false, false, false, false},
    {"activity", "kernel activity records alone", true, false, false, false,
     false},
    {"blocking", "activity + callbacks on the blocking calls", true, false,
     false, true, false},
    {"extcorr",
     "activity + external correlation push/pop around each launch + "
     "blocking callbacks",
     true, true, false, true, false},
    {"extcorr-rt",
     "extcorr + runtime API records (what external correlation records "
     "precede)",
     true, true, true, true, false},
    {"records",
     "activity + runtime API records + external correlation, no callbacks",
     true, true, true, false, false},
    {"launch",
     "activity + runtime callbacks on the launches and the blocking calls",
     true, false, false, true, true},
    {"tool",
     "launch + memcpy/memset activity records (the waits tool's set-up)", true,
     false, false, true, true, true},
};

const Setup* find_setup(const std::string& n) {
  for (const auto& s : kSetups)
    if (n == s.name) return &s;
  return nullptr;
}

std::string setup_names() {
  std::string r;
  for (const auto& s : kSetups)
    r += std::string(r.empty() ? "" : ", ") + s.name;
  return r;
}

// The runtime calls that can block the host (those the waits tool watches),
// and the launches.
const CUpti_CallbackId kBlockingIds[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaThreadSynchronize_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_ptds_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2D_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2D_ptds_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3D_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3D_ptds_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbol_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbol_ptds_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromSymbol_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromSymbol_ptds_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyPeer_v4000,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaFree_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaFreeHost_v3020,
};
const CUpti_CallbackId kLaunchIds[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
};

template <std::size_t N>
bool listed(const CUpti_CallbackId (&ids)[N], CUpti_CallbackId id) {
  return std::find(std::begin(ids), std::end(ids), id) != std::end(ids);
}

// ---- CUPTI, opened with dlopen
// -----------------------------------------------

// Where a failure is told: the program's stdout ("floor_fail ...", read by
// its parent), or the floor tool's stderr.
inline const char* g_fail_prefix = "floor_fail";
inline FILE* g_fail_stream = stdout;

[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(g_fail_stream, "%s %s\n", g_fail_prefix, what.c_str());
  std::fflush(g_fail_stream);
  std::exit(1);
}

struct Cupti {
  void* lib = nullptr;
  std::string path;
  decltype(&cuptiGetVersion) GetVersion = nullptr;
  decltype(&cuptiGetResultString) GetResultString = nullptr;
  decltype(&cuptiSubscribe) Subscribe = nullptr;
  decltype(&cuptiEnableCallback) EnableCallback = nullptr;
  decltype(&cuptiActivityEnable) ActivityEnable = nullptr;
  decltype(&cuptiActivityRegisterCallbacks) ActivityRegisterCallbacks = nullptr;
  decltype(&cuptiActivityGetNextRecord) ActivityGetNextRecord = nullptr;
  decltype(&cuptiActivityFlushAll) ActivityFlushAll = nullptr;
  decltype(&cuptiActivityGetNumDroppedRecords) ActivityGetNumDroppedRecords =
      nullptr;
  decltype(&cuptiActivityPushExternalCorrelationId) Push = nullptr;
  decltype(&cuptiActivityPopExternalCorrelationId) Pop = nullptr;
};
Cupti api;

void cupti_check(CUptiResult r, const char* what) {
  if (r == CUPTI_SUCCESS) return;
  const char* s = nullptr;
  if (api.GetResultString) api.GetResultString(r, &s);
  fail(std::string(what) + ": " + (s ? s : "CUPTI error " + std::to_string(r)));
}

template <class F>
void sym(const char* name, F& f) {
  f = reinterpret_cast<F>(dlsym(api.lib, name));
  if (!f) fail(std::string("no ") + name + " in " + api.path);
}

// runtime_version: the program's CUDA runtime (cudaRuntimeGetVersion), 0
// when unknown; its CUPTI is tried first.
inline void load_cupti(int runtime_version) {
  std::vector<std::string> c;
  if (const char* env = std::getenv("ADDSCOPE_CUPTI_LIB"))
    if (*env) c.push_back(env);
  const int rt = runtime_version;
  if (rt > 0) {
    c.push_back("libcupti.so." + std::to_string(rt / 1000) + "." +
                std::to_string(rt % 1000 / 10));
    c.push_back("libcupti.so." + std::to_string(rt / 1000));
  }
  for (const char* s :
       {"libcupti.so", "libcupti.so.13", "libcupti.so.12", "libcupti.so.11.8",
        "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so",
        "/usr/local/cuda/lib64/libcupti.so"})
    c.push_back(s);
  std::string tried;
  for (const auto& p : c) {
    api.lib = dlopen(p.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (api.lib) {
      api.path = p;
      break;
    }
    tried += (tried.empty() ? "" : ", ") + p;
  }
  if (!api.lib)
    fail("no libcupti found (tried " + tried +
         "; set ADDSCOPE_CUPTI_LIB to its path)");
  sym("cuptiGetVersion", api.GetVersion);
  sym("cuptiGetResultString", api.GetResultString);
  sym("cuptiSubscribe", api.Subscribe);
  sym("cuptiEnableCallback", api.EnableCallback);
  sym("cuptiActivityEnable", api.ActivityEnable);
  sym("cuptiActivityRegisterCallbacks", api.ActivityRegisterCallbacks);
  sym("cuptiActivityGetNextRecord", api.ActivityGetNextRecord);
  sym("cuptiActivityFlushAll", api.ActivityFlushAll);
  sym("cuptiActivityGetNumDroppedRecords", api.ActivityGetNumDroppedRecords);
  sym("cuptiActivityPushExternalCorrelationId", api.Push);
  sym("cuptiActivityPopExternalCorrelationId", api.Pop);
}

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// What a tool's callback does at least: read the clock and append a
// fixed-size record to its thread's log (a ring here; nothing is analysed).
struct HostEvent {
  std::int64_t t_ns;
  std::uint32_t cbid;
  std::uint32_t correlation;
};
struct ThreadLog {
  static constexpr std::size_t kSize = 1 << 14;
  HostEvent ring[kSize];
  std::uint64_t n = 0;
  std::uint64_t blocking_enter = 0, blocking_exit = 0, launch_enter = 0;
  void add(std::uint32_t cbid, std::uint32_t corr) {
    ring[n++ % kSize] = HostEvent{now_ns(), cbid, corr};
  }
};
thread_local ThreadLog* tlog = nullptr;

void CUPTIAPI on_callback(void*, CUpti_CallbackDomain domain,
                          CUpti_CallbackId cbid, const void* data) {
  if (domain != CUPTI_CB_DOMAIN_RUNTIME_API) return;
  const auto* cd = static_cast<const CUpti_CallbackData*>(data);
  if (!tlog) tlog = new ThreadLog;  // never freed: CUPTI may call until exit
  const bool enter = cd->callbackSite == CUPTI_API_ENTER;
  if (listed(kLaunchIds, cbid)) {
    if (!enter) return;
    ++tlog->launch_enter;
  } else {
    ++(enter ? tlog->blocking_enter : tlog->blocking_exit);
  }
  tlog->add(cbid, cd->correlationId);
}

// What CUPTI hands over, counted on its thread.
struct Received {
  std::mutex m;
  std::vector<std::uint32_t> kernel_corr;  // correlation ids of kernel records
  std::vector<std::pair<std::uint32_t, std::uint64_t>> ext;  // corr, ext id
  std::uint64_t ext_other_kind = 0;
  std::uint64_t api_blocking = 0, api_launch = 0, api_other = 0;
  std::uint64_t copies = 0;  // MEMCPY + MEMSET records
  std::size_t dropped = 0;
  std::uint64_t buffers = 0;
  std::vector<std::uint8_t*> spare;
  std::size_t buffer_bytes = 64 << 10;
};
Received got;

// A kernel record's correlation id: at the same offset in every
// CUpti_ActivityKernel since 4 (the waits tool checks the same).
static_assert(offsetof(CUpti_ActivityKernel4, correlationId) ==
                  offsetof(CUpti_ActivityKernel8, correlationId),
              "kernel record layout");

void CUPTIAPI buffer_requested(std::uint8_t** buf, std::size_t* size,
                               std::size_t* max_records) {
  std::uint8_t* b = nullptr;
  {
    std::lock_guard<std::mutex> l(got.m);
    if (!got.spare.empty()) {
      b = got.spare.back();
      got.spare.pop_back();
    }
  }
  if (!b)
    b = static_cast<std::uint8_t*>(std::aligned_alloc(8, got.buffer_bytes));
  *buf = b;
  *size = b ? got.buffer_bytes : 0;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext ctx, std::uint32_t stream,
                               std::uint8_t* buf, std::size_t,
                               std::size_t valid) {
  std::lock_guard<std::mutex> l(got.m);
  ++got.buffers;
  CUpti_Activity* r = nullptr;
  while (api.ActivityGetNextRecord(buf, valid, &r) == CUPTI_SUCCESS) {
    switch (r->kind) {
      case CUPTI_ACTIVITY_KIND_KERNEL:
      case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
        got.kernel_corr.push_back(
            reinterpret_cast<const CUpti_ActivityKernel4*>(r)->correlationId);
        break;
      case CUPTI_ACTIVITY_KIND_MEMCPY:
      case CUPTI_ACTIVITY_KIND_MEMSET:
        ++got.copies;
        break;
      case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: {
        const auto* e =
            reinterpret_cast<const CUpti_ActivityExternalCorrelation*>(r);
        if (e->externalKind == CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0)
          got.ext.emplace_back(e->correlationId, e->externalId);
        else
          ++got.ext_other_kind;
        break;
      }
      case CUPTI_ACTIVITY_KIND_RUNTIME: {
        const auto* a = reinterpret_cast<const CUpti_ActivityAPI*>(r);
        if (listed(kBlockingIds, a->cbid))
          ++got.api_blocking;
        else if (listed(kLaunchIds, a->cbid))
          ++got.api_launch;
        else
          ++got.api_other;
        break;
      }
      default:
        break;
    }
  }
  std::size_t dropped = 0;
  if (api.ActivityGetNumDroppedRecords(ctx, stream, &dropped) == CUPTI_SUCCESS)
    got.dropped += dropped;
  got.spare.push_back(buf);
}

// Sets CUPTI up as set-up s asks (nothing for "none"): callbacks on the
// runtime's blocking calls and launches, the activity kinds. Returns CUPTI's
// API version (0 without CUPTI).
std::uint32_t enable_setup(const Setup& s, int runtime_version) {
  const bool cupti = s.activity || s.ext || s.api_records || s.blocking_cbs ||
                     s.launch_cbs || s.copies;
  if (!cupti) return 0;
  std::uint32_t cupti_version = 0;
  load_cupti(runtime_version);
  cupti_check(api.GetVersion(&cupti_version), "cuptiGetVersion");
  if (s.blocking_cbs || s.launch_cbs) {
    CUpti_SubscriberHandle sub;
    cupti_check(api.Subscribe(&sub, on_callback, nullptr), "cuptiSubscribe");
    // An id this CUDA no longer has may be refused: noted, not fatal (the
    // checks count what was seen); the ones this program calls must work.
    auto enable = [&](CUpti_CallbackId id, bool needed) {
      const CUptiResult r =
          api.EnableCallback(1, sub, CUPTI_CB_DOMAIN_RUNTIME_API, id);
      if (r == CUPTI_SUCCESS) return;
      if (needed) cupti_check(r, "cuptiEnableCallback");
      std::fprintf(g_fail_stream, "floor_info refused callback id %u\n",
                   unsigned(id));
    };
    if (s.blocking_cbs)
      for (auto id : kBlockingIds)
        enable(id, id == CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020 ||
                       id == CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020 ||
                       id == CUPTI_RUNTIME_TRACE_CBID_cudaFree_v3020);
    if (s.launch_cbs)
      for (auto id : kLaunchIds)
        enable(id, id == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000);
  }
  cupti_check(api.ActivityRegisterCallbacks(buffer_requested, buffer_completed),
              "cuptiActivityRegisterCallbacks");
  if (s.activity)
    cupti_check(api.ActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL),
                "cuptiActivityEnable(CONCURRENT_KERNEL)");
  if (s.ext)
    cupti_check(api.ActivityEnable(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION),
                "cuptiActivityEnable(EXTERNAL_CORRELATION)");
  if (s.api_records)
    cupti_check(api.ActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME),
                "cuptiActivityEnable(RUNTIME)");
  if (s.copies) {
    cupti_check(api.ActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY),
                "cuptiActivityEnable(MEMCPY)");
    cupti_check(api.ActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET),
                "cuptiActivityEnable(MEMSET)");
  }
  return cupti_version;
}

}  // namespace
