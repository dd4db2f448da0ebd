#include "addscope/waits/device/addscope_CuptiSource.hpp"

#include <dlfcn.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>

#include "addscope/waits/device/addscope_CuptiAbi.hpp"

#if defined(__has_include)
#if __has_include(<cupti.h>) && __has_include(<cuda.h>)
#define ADDSCOPE_CHECK_CUPTI_ABI 1
#include <cupti.h>
#endif
#endif

namespace addscope {
namespace Impl {

#ifdef ADDSCOPE_CHECK_CUPTI_ABI
// Our declarations against CUPTI's own (compiled where the headers are).
namespace cupti {
#define ADDSCOPE_SAME_OFFSET(ours, theirs, field) \
  static_assert(offsetof(ours, field) == offsetof(theirs, field), #field)
ADDSCOPE_SAME_OFFSET(CallbackData, CUpti_CallbackData, callbackSite);
ADDSCOPE_SAME_OFFSET(CallbackData, CUpti_CallbackData, functionParams);
ADDSCOPE_SAME_OFFSET(CallbackData, CUpti_CallbackData, functionReturnValue);
ADDSCOPE_SAME_OFFSET(CallbackData, CUpti_CallbackData, context);
ADDSCOPE_SAME_OFFSET(CallbackData, CUpti_CallbackData, correlationId);
#define ADDSCOPE_KERNEL_PREFIX(K)                                   \
  ADDSCOPE_SAME_OFFSET(KernelRecordPrefix, K, registersPerThread);  \
  ADDSCOPE_SAME_OFFSET(KernelRecordPrefix, K, start);               \
  ADDSCOPE_SAME_OFFSET(KernelRecordPrefix, K, end);                 \
  ADDSCOPE_SAME_OFFSET(KernelRecordPrefix, K, deviceId);            \
  ADDSCOPE_SAME_OFFSET(KernelRecordPrefix, K, streamId);            \
  ADDSCOPE_SAME_OFFSET(KernelRecordPrefix, K, gridX);               \
  ADDSCOPE_SAME_OFFSET(KernelRecordPrefix, K, blockZ);              \
  ADDSCOPE_SAME_OFFSET(KernelRecordPrefix, K, staticSharedMemory);  \
  ADDSCOPE_SAME_OFFSET(KernelRecordPrefix, K, dynamicSharedMemory); \
  ADDSCOPE_SAME_OFFSET(KernelRecordPrefix, K, correlationId);       \
  ADDSCOPE_SAME_OFFSET(KernelRecordPrefix, K, name)
ADDSCOPE_SAME_OFFSET(ExternalCorrelationRecord,
                     CUpti_ActivityExternalCorrelation, externalKind);
ADDSCOPE_SAME_OFFSET(ExternalCorrelationRecord,
                     CUpti_ActivityExternalCorrelation, externalId);
ADDSCOPE_SAME_OFFSET(ExternalCorrelationRecord,
                     CUpti_ActivityExternalCorrelation, correlationId);
static_assert(kActivityRuntime == CUPTI_ACTIVITY_KIND_RUNTIME, "");
static_assert(kActivityExternalCorrelation ==
                  CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION,
              "");
static_assert(kExternalKindCustom0 == CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0,
              "");
ADDSCOPE_KERNEL_PREFIX(CUpti_ActivityKernel4);
ADDSCOPE_KERNEL_PREFIX(CUpti_ActivityKernel5);
ADDSCOPE_KERNEL_PREFIX(CUpti_ActivityKernel6);
ADDSCOPE_KERNEL_PREFIX(CUpti_ActivityKernel7);
#if CUPTI_API_VERSION >= 17
ADDSCOPE_KERNEL_PREFIX(CUpti_ActivityKernel8);
#endif
static_assert(kDomainRuntimeApi == CUPTI_CB_DOMAIN_RUNTIME_API, "");
static_assert(kApiEnter == CUPTI_API_ENTER && kApiExit == CUPTI_API_EXIT, "");
static_assert(kActivityConcurrentKernel ==
                  CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
              "");
static_assert(kFlushForced == CUPTI_ACTIVITY_FLAG_FLUSH_FORCED, "");
#define ADDSCOPE_SAME_CBID(name)                                              \
  static_assert(                                                              \
      CallbackId(k##name) == CallbackId(CUPTI_RUNTIME_TRACE_CBID_cuda##name), \
      #name)
ADDSCOPE_SAME_CBID(Launch_v3020);
ADDSCOPE_SAME_CBID(Free_v3020);
ADDSCOPE_SAME_CBID(FreeHost_v3020);
ADDSCOPE_SAME_CBID(Memcpy_v3020);
ADDSCOPE_SAME_CBID(Memcpy2D_v3020);
ADDSCOPE_SAME_CBID(MemcpyToSymbol_v3020);
ADDSCOPE_SAME_CBID(MemcpyFromSymbol_v3020);
ADDSCOPE_SAME_CBID(MemcpyAsync_v3020);
ADDSCOPE_SAME_CBID(ThreadSynchronize_v3020);
ADDSCOPE_SAME_CBID(StreamSynchronize_v3020);
ADDSCOPE_SAME_CBID(EventRecord_v3020);
ADDSCOPE_SAME_CBID(EventSynchronize_v3020);
ADDSCOPE_SAME_CBID(Memcpy3D_v3020);
ADDSCOPE_SAME_CBID(MemcpyPeer_v4000);
ADDSCOPE_SAME_CBID(DeviceSynchronize_v3020);
ADDSCOPE_SAME_CBID(LaunchKernel_v7000);
ADDSCOPE_SAME_CBID(Launch_ptsz_v7000);
ADDSCOPE_SAME_CBID(LaunchKernel_ptsz_v7000);
ADDSCOPE_SAME_CBID(Memcpy_ptds_v7000);
ADDSCOPE_SAME_CBID(Memcpy2D_ptds_v7000);
ADDSCOPE_SAME_CBID(MemcpyToSymbol_ptds_v7000);
ADDSCOPE_SAME_CBID(MemcpyFromSymbol_ptds_v7000);
ADDSCOPE_SAME_CBID(MemcpyAsync_ptsz_v7000);
ADDSCOPE_SAME_CBID(StreamSynchronize_ptsz_v7000);
ADDSCOPE_SAME_CBID(EventRecord_ptsz_v7000);
ADDSCOPE_SAME_CBID(Memcpy3D_ptds_v7000);
ADDSCOPE_SAME_CBID(LaunchCooperativeKernel_v9000);
ADDSCOPE_SAME_CBID(LaunchCooperativeKernel_ptsz_v9000);
ADDSCOPE_SAME_CBID(EventRecordWithFlags_v11010);
ADDSCOPE_SAME_CBID(EventRecordWithFlags_ptsz_v11010);
ADDSCOPE_SAME_CBID(LaunchKernelExC_v11060);
ADDSCOPE_SAME_CBID(LaunchKernelExC_ptsz_v11060);
ADDSCOPE_SAME_OFFSET(MemcpyParams, cudaMemcpy_v3020_params, count);
ADDSCOPE_SAME_OFFSET(MemcpyParams, cudaMemcpy_v3020_params, kind);
ADDSCOPE_SAME_OFFSET(MemcpyAsyncParams, cudaMemcpyAsync_v3020_params, stream);
ADDSCOPE_SAME_OFFSET(MemcpyAsyncParams, cudaMemcpyAsync_ptsz_v7000_params,
                     stream);
ADDSCOPE_SAME_OFFSET(StreamParams, cudaStreamSynchronize_v3020_params, stream);
ADDSCOPE_SAME_OFFSET(EventRecordParams, cudaEventRecord_v3020_params, stream);
ADDSCOPE_SAME_OFFSET(EventParams, cudaEventSynchronize_v3020_params, event);
ADDSCOPE_SAME_OFFSET(LaunchKernelParams, cudaLaunchKernel_v7000_params, stream);
ADDSCOPE_SAME_OFFSET(LaunchKernelParams, cudaLaunchKernel_ptsz_v7000_params,
                     stream);
ADDSCOPE_SAME_OFFSET(LaunchKernelParams,
                     cudaLaunchCooperativeKernel_v9000_params, stream);
ADDSCOPE_SAME_OFFSET(LaunchKernelParams,
                     cudaLaunchCooperativeKernel_ptsz_v9000_params, stream);
ADDSCOPE_SAME_OFFSET(LaunchKernelExCParams, cudaLaunchKernelExC_v11060_params,
                     config);
ADDSCOPE_SAME_OFFSET(LaunchConfig, cudaLaunchConfig_t, stream);
static_assert(sizeof(Dim3) == sizeof(dim3), "");
#undef ADDSCOPE_SAME_CBID
#undef ADDSCOPE_KERNEL_PREFIX
#undef ADDSCOPE_SAME_OFFSET
}  // namespace cupti
#endif

namespace {

using namespace cupti;

std::int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// The CUPTI entry points, looked up in the opened library.
struct Api {
  void* lib = nullptr;
  std::string path;
  Result (*GetVersion)(std::uint32_t*) = nullptr;
  Result (*GetResultString)(Result, const char**) = nullptr;
  Result (*Subscribe)(Subscriber*, CallbackFunc, void*) = nullptr;
  Result (*Unsubscribe)(Subscriber) = nullptr;
  Result (*EnableCallback)(std::uint32_t, Subscriber, int,
                           CallbackId) = nullptr;
  Result (*ActivityEnable)(int) = nullptr;
  Result (*ActivityDisable)(int) = nullptr;
  Result (*ActivityRegisterCallbacks)(BufferRequestFunc,
                                      BufferCompleteFunc) = nullptr;
  Result (*ActivityGetNextRecord)(std::uint8_t*, std::size_t,
                                  Activity**) = nullptr;
  Result (*ActivityFlushAll)(std::uint32_t) = nullptr;
  Result (*GetTimestamp)(std::uint64_t*) = nullptr;
  Result (*GetStreamIdEx)(Context, Stream, std::uint8_t,
                          std::uint32_t*) = nullptr;
  Result (*GetStreamId)(Context, Stream, std::uint32_t*) = nullptr;
  Result (*GetDeviceId)(Context, std::uint32_t*) = nullptr;
  Result (*ActivityGetNumDroppedRecords)(Context, std::uint32_t,
                                         std::size_t*) = nullptr;
  // Kernels tied to the tracker's calls (FullByCall):
  Result (*PushExternalCorrelationId)(int, std::uint64_t) = nullptr;
  Result (*PopExternalCorrelationId)(int, std::uint64_t*) = nullptr;
  // CUPTI 12.x+: runtime-API records for chosen calls only.
  Result (*ActivityEnableRuntimeApi)(CallbackId, std::uint8_t) = nullptr;

  std::string error(Result r) const {
    const char* s = nullptr;
    if (GetResultString && GetResultString(r, &s) == kSuccess && s) return s;
    return "CUPTI error " + std::to_string(r);
  }
};

template <class F>
bool find(void* lib, const char* name, F& f) {
  f = reinterpret_cast<F>(dlsym(lib, name));
  return f != nullptr;
}

int cuda_runtime_version() {
  // The program's CUDA runtime, if it is a shared library (it is for Kokkos'
  // default build); 0 when unknown.
  using Fn = int (*)(int*);
  auto fn = reinterpret_cast<Fn>(dlsym(RTLD_DEFAULT, "cudaRuntimeGetVersion"));
  int v = 0;
  if (fn && fn(&v) == 0) return v;
  return 0;
}

bool load(Api& a, std::string* why) {
  std::string tried;
  for (const auto& p : cupti_library_candidates(cuda_runtime_version())) {
    a.lib = dlopen(p.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (a.lib) {
      a.path = p;
      break;
    }
    if (!tried.empty()) tried += ", ";
    tried += p;
  }
  if (!a.lib) {
    *why = "no libcupti found (tried " + tried +
           "; set ADDSCOPE_CUPTI_LIB to its path)";
    return false;
  }
  bool ok =
      find(a.lib, "cuptiGetVersion", a.GetVersion) &&
      find(a.lib, "cuptiGetResultString", a.GetResultString) &&
      find(a.lib, "cuptiSubscribe", a.Subscribe) &&
      find(a.lib, "cuptiUnsubscribe", a.Unsubscribe) &&
      find(a.lib, "cuptiEnableCallback", a.EnableCallback) &&
      find(a.lib, "cuptiActivityEnable", a.ActivityEnable) &&
      find(a.lib, "cuptiActivityDisable", a.ActivityDisable) &&
      find(a.lib, "cuptiActivityRegisterCallbacks",
           a.ActivityRegisterCallbacks) &&
      find(a.lib, "cuptiActivityGetNextRecord", a.ActivityGetNextRecord) &&
      find(a.lib, "cuptiActivityFlushAll", a.ActivityFlushAll) &&
      find(a.lib, "cuptiGetTimestamp", a.GetTimestamp) &&
      find(a.lib, "cuptiGetDeviceId", a.GetDeviceId);
  // Streams of blocking calls; without these, a stream synchronization
  // counts as waiting for every stream.
  find(a.lib, "cuptiGetStreamIdEx", a.GetStreamIdEx);
  find(a.lib, "cuptiGetStreamId", a.GetStreamId);
  find(a.lib, "cuptiActivityGetNumDroppedRecords",
       a.ActivityGetNumDroppedRecords);
  find(a.lib, "cuptiActivityPushExternalCorrelationId",
       a.PushExternalCorrelationId);
  find(a.lib, "cuptiActivityPopExternalCorrelationId",
       a.PopExternalCorrelationId);
  find(a.lib, "cuptiActivityEnableRuntimeApi", a.ActivityEnableRuntimeApi);
  if (!ok) *why = a.path + " lacks a CUPTI entry point addscope needs";
  return ok;
}

// Small buffers: CUPTI hands each one over when full, so records (and the
// tracker's work on them) come in steps of ~300 kernels; what the tracker
// holds until then stays small. At most kMaxBuffers are out at once (4 MiB):
// past that CUPTI is refused a buffer and drops records, which it counts.
constexpr std::size_t kBufferBytes = std::size_t(64) << 10;
constexpr std::size_t kMaxBuffers = 64;
constexpr std::size_t kSpareBuffers = 8;

// Buffers are reused: CUPTI asks for one per ~300 kernels.
class BufferPool {
 public:
  std::uint8_t* take() {
    std::lock_guard<std::mutex> g(mu_);
    if (out_ >= kMaxBuffers) {
      ++refused_;
      return nullptr;
    }
    std::uint8_t* b = nullptr;
    if (!spare_.empty()) {
      b = spare_.back();
      spare_.pop_back();
    } else {
      b = static_cast<std::uint8_t*>(std::aligned_alloc(8, kBufferBytes));
      if (!b) return nullptr;
    }
    ++out_;
    return b;
  }
  void give_back(std::uint8_t* b) {
    if (!b) return;
    std::lock_guard<std::mutex> g(mu_);
    if (out_ > 0) --out_;
    if (spare_.size() < kSpareBuffers)
      spare_.push_back(b);
    else
      std::free(b);
  }
  std::uint64_t refused() const {
    std::lock_guard<std::mutex> g(mu_);
    return refused_;
  }

 private:
  mutable std::mutex mu_;
  std::vector<std::uint8_t*> spare_;
  std::size_t out_ = 0;
  std::uint64_t refused_ = 0;
};
BufferPool& buffers() {
  static BufferPool* p = new BufferPool;  // CUPTI may call until exit
  return *p;
}

class CuptiSource;
std::atomic<CuptiSource*> g_active{nullptr};

class CuptiSource final : public DeviceSource {
 public:
  explicit CuptiSource(CuptiMode mode) : mode_(mode) {}
  ~CuptiSource() override { stop(); }

  bool start(DeviceSink& sink) override {
    std::lock_guard<std::mutex> g(mu_);
    if (running_) return true;
    if (!loaded_) {
      std::string why;
      if (!load(api_, &why)) {
        desc_ = "CUPTI not loaded: " + why;
        return false;
      }
      loaded_ = true;
      std::uint32_t v = 0;
      api_.GetVersion(&v);
      version_ = v;
    }
    CuptiSource* expected = nullptr;
    if (!g_active.compare_exchange_strong(expected, this)) {
      desc_ = "CUPTI in use by another addscope device source";
      return false;
    }
    sink_ = &sink;
    calibrate();
    // Kernels tied to the tracker's calls: only where CUPTI can push ids.
    by_call_ = mode_ == CuptiMode::FullByCall &&
               api_.PushExternalCorrelationId && api_.PopExternalCorrelationId;
    Result r = api_.Subscribe(&sub_, &CuptiSource::on_callback, this);
    if (r != kSuccess) {
      // CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED: another tool (a
      // profiler) holds CUPTI.
      desc_ = "CUPTI refused (" + api_.error(r) + "), from " + api_.path;
      g_active = nullptr;
      return false;
    }
    for (CallbackId id : blocking_callbacks())
      api_.EnableCallback(1, sub_, kDomainRuntimeApi, id);
    if (!by_call_)
      for (CallbackId id : launch_callbacks())
        api_.EnableCallback(1, sub_, kDomainRuntimeApi, id);
    std::string how;
    if (mode_ != CuptiMode::Callbacks) {
      static std::once_flag registered;
      Result reg = kSuccess;
      std::call_once(registered, [&] {
        reg = api_.ActivityRegisterCallbacks(&CuptiSource::on_buffer_request,
                                             &CuptiSource::on_buffer_complete);
      });
      if (reg == kSuccess) reg = api_.ActivityEnable(kActivityConcurrentKernel);
      if (reg == kSuccess && by_call_) reg = enable_call_records(&how);
      if (reg != kSuccess) {
        desc_ = "CUPTI kernel records refused (" + api_.error(reg) +
                "), from " + api_.path;
        api_.Unsubscribe(sub_);
        g_active = nullptr;
        return false;
      }
      desc_ = "CUPTI (" + api_.path + ", API version " +
              std::to_string(version_) + "; kernels tied to " +
              (by_call_ ? "the Kokkos calls by external correlation" + how
                        : std::string("launches by launch callbacks")) +
              ")";
    } else {
      desc_ = "CUPTI callbacks only (" + api_.path + ", API version " +
              std::to_string(version_) +
              "; ADDSCOPE_WAITS_DEVICE=callbacks): launches and blocking "
              "calls, no kernel records";
    }
    running_ = true;
    return true;
  }

  void stop() override {
    std::lock_guard<std::mutex> g(mu_);
    if (!running_) return;
    if (mode_ != CuptiMode::Callbacks) {
      api_.ActivityFlushAll(kFlushForced);
      api_.ActivityDisable(kActivityConcurrentKernel);
      if (by_call_) {
        api_.ActivityDisable(kActivityExternalCorrelation);
        if (runtime_all_) api_.ActivityDisable(kActivityRuntime);
      }
    }
    api_.Unsubscribe(sub_);
    if (mode_ != CuptiMode::Callbacks) api_.ActivityFlushAll(kFlushForced);
    running_ = false;
    g_active = nullptr;
  }

  void flush() override {
    std::lock_guard<std::mutex> g(mu_);
    if (running_ && mode_ != CuptiMode::Callbacks) api_.ActivityFlushAll(0);
  }

  bool kernel_records() const override { return mode_ != CuptiMode::Callbacks; }
  bool ties_by_call() const override { return by_call_; }
  void push_call(std::uint64_t id) override {
    api_.PushExternalCorrelationId(kExternalKindCustom0, id);
  }
  void pop_call() override {
    std::uint64_t last = 0;
    api_.PopExternalCorrelationId(kExternalKindCustom0, &last);
  }
  std::uint64_t records_dropped() const override {
    return dropped_.load() + buffers().refused();
  }

  // The analyzer's thread: the buffers CUPTI completed, decoded now.
  void drain(DeviceRecordSink& out) override {
    std::vector<Completed> ready;
    {
      std::lock_guard<std::mutex> g(ready_mu_);
      ready.swap(ready_);
    }
    std::vector<DeviceKernelRecord>& kernels = scratch_;
    for (const Completed& c : ready) {
      // Two passes: which calls the runtime calls belong to, then the
      // kernels (a kernel's record may come first in a buffer).
      Activity* rec = nullptr;
      if (by_call_)
        while (api_.ActivityGetNextRecord(c.buffer, c.valid, &rec) == kSuccess)
          if (rec->kind == kActivityExternalCorrelation) {
            const auto* e =
                reinterpret_cast<const ExternalCorrelationRecord*>(rec);
            if (e->externalKind == kExternalKindCustom0)
              out.on_external_correlation(e->correlationId, e->externalId);
          }
      kernels.clear();
      rec = nullptr;
      while (api_.ActivityGetNextRecord(c.buffer, c.valid, &rec) == kSuccess) {
        DeviceKernelRecord k;
        if (decode_kernel_record(rec, offset_ns_, *sink_, &k))
          kernels.push_back(k);
      }
      if (!kernels.empty()) out.on_device_kernels(kernels);
      buffers().give_back(c.buffer);
    }
  }

  std::string description() const override { return desc_; }

 private:
  static const std::vector<CallbackId>& launch_callbacks() {
    static const std::vector<CallbackId> ids = {
        kLaunch_v3020,
        kLaunchKernel_v7000,
        kLaunch_ptsz_v7000,
        kLaunchKernel_ptsz_v7000,
        kLaunchCooperativeKernel_v9000,
        kLaunchCooperativeKernel_ptsz_v9000,
        kLaunchKernelExC_v11060,
        kLaunchKernelExC_ptsz_v11060};
    return ids;
  }
  static const std::vector<CallbackId>& blocking_callbacks() {
    static const std::vector<CallbackId> ids = {
        kDeviceSynchronize_v3020, kThreadSynchronize_v3020,
        kStreamSynchronize_v3020, kStreamSynchronize_ptsz_v7000,
        kEventSynchronize_v3020, kMemcpy_v3020, kMemcpy_ptds_v7000,
        kMemcpy2D_v3020, kMemcpy2D_ptds_v7000, kMemcpy3D_v3020,
        kMemcpy3D_ptds_v7000, kMemcpyToSymbol_v3020, kMemcpyToSymbol_ptds_v7000,
        kMemcpyFromSymbol_v3020, kMemcpyFromSymbol_ptds_v7000,
        kMemcpyPeer_v4000, kMemcpyAsync_v3020, kMemcpyAsync_ptsz_v7000,
        kFree_v3020, kFreeHost_v3020,
        // which stream an event was recorded on
        kEventRecord_v3020, kEventRecord_ptsz_v7000,
        kEventRecordWithFlags_v11010, kEventRecordWithFlags_ptsz_v11010};
    return ids;
  }

  // External correlation records are made only for runtime calls that make
  // an API record: with CUPTI 12.x+ only the launch entries make one; older
  // ones record every runtime call.
  Result enable_call_records(std::string* how) {
    Result r = api_.ActivityEnable(kActivityExternalCorrelation);
    if (r != kSuccess) return r;
    if (api_.ActivityEnableRuntimeApi) {
      bool ok = true;
      for (CallbackId id : launch_callbacks())
        ok = api_.ActivityEnableRuntimeApi(id, 1) == kSuccess && ok;
      if (ok) {
        *how = ", API records of launches only";
        return kSuccess;
      }
    }
    runtime_all_ = true;
    *how = ", API records of every runtime call";
    return api_.ActivityEnable(kActivityRuntime);
  }

  void calibrate() {
    // CUPTI's clock (CLOCK_REALTIME on Linux) minus the steady clock, from
    // the closest of several back-to-back readings.
    std::int64_t best = -1;
    for (int i = 0; i < 16; ++i) {
      const std::int64_t a = steady_ns();
      std::uint64_t c = 0;
      api_.GetTimestamp(&c);
      const std::int64_t b = steady_ns();
      if (best < 0 || b - a < best) {
        best = b - a;
        offset_ns_ = std::int64_t(c) - (a + (b - a) / 2);
      }
    }
  }

  // CUPTI's id of a stream (the one its kernel records carry); false when
  // CUPTI cannot say.
  bool stream_id(Context ctx, Stream s, std::uint32_t* id) {
    if (api_.GetStreamIdEx)
      return api_.GetStreamIdEx(ctx, s, 0, id) == kSuccess;
    if (api_.GetStreamId) return api_.GetStreamId(ctx, s, id) == kSuccess;
    return false;
  }
  std::uint32_t device_id(Context ctx) {
    // One context per device is the rule: the last answer is kept.
    thread_local Context last_ctx = nullptr;
    thread_local std::uint32_t last_id = 0;
    if (ctx && ctx == last_ctx) return last_id;
    std::uint32_t id = 0;
    api_.GetDeviceId(ctx, &id);
    last_ctx = ctx;
    last_id = id;
    return id;
  }
  // Callbacks-only: the stream a launch goes to (no kernel record will say).
  void launch_stream(CallbackId cbid, const CallbackData* cd, LaunchBegin* l) {
    Stream st = nullptr;
    if (!cd->functionParams) return;
    switch (cbid) {
      case kLaunchKernel_v7000:
      case kLaunchKernel_ptsz_v7000:
      case kLaunchCooperativeKernel_v9000:
      case kLaunchCooperativeKernel_ptsz_v9000:
        st = static_cast<const LaunchKernelParams*>(cd->functionParams)->stream;
        break;
      case kLaunchKernelExC_v11060:
      case kLaunchKernelExC_ptsz_v11060: {
        const auto* p =
            static_cast<const LaunchKernelExCParams*>(cd->functionParams);
        if (p->config) st = p->config->stream;
        break;
      }
      default:
        return;  // cudaLaunch: the stream was configured earlier
    }
    l->device = device_id(cd->context);
    // The legacy default stream (null): waited for by everything.
    if (st) l->stream_known = stream_id(cd->context, st, &l->stream);
  }

  // CUPTI calls these from inside the program's runtime calls: nothing may
  // leave them (one line on stderr, once; the program goes on).
  static void on_callback(void* user, int domain, CallbackId cbid,
                          const void* data) noexcept {
    try {
      callback(user, domain, cbid, data);
    } catch (...) {
      internal_error("a CUPTI callback");
    }
  }
  static void internal_error(const char* where) noexcept {
    static std::atomic<bool> said{false};
    if (!said.exchange(true))
      std::fprintf(stderr,
                   "addscope waits: internal error in %s; the program goes "
                   "on\n",
                   where);
  }
  static void callback(void* user, int domain, CallbackId cbid,
                       const void* data) {
    if (domain != kDomainRuntimeApi) return;
    auto* self = static_cast<CuptiSource*>(user);
    DeviceSink* sink = self->sink_;
    const auto* cd = static_cast<const CallbackData*>(data);
    const bool enter = cd->callbackSite == kApiEnter;
    switch (cbid) {
      case kLaunch_v3020:
      case kLaunchKernel_v7000:
      case kLaunch_ptsz_v7000:
      case kLaunchKernel_ptsz_v7000:
      case kLaunchCooperativeKernel_v9000:
      case kLaunchCooperativeKernel_ptsz_v9000:
      case kLaunchKernelExC_v11060:
      case kLaunchKernelExC_ptsz_v11060: {
        // A launch longer than this was blocked (behind the legacy stream,
        // a full queue, ...): reported as a blocking call.
        constexpr std::int64_t kSlowLaunchNs = 20000;
        thread_local std::int64_t entered = 0;
        if (enter) {
          LaunchBegin l;
          l.correlation = cd->correlationId;
          if (self->mode_ == CuptiMode::Callbacks)
            self->launch_stream(cbid, cd, &l);
          sink->on_launch(l);
          entered = steady_ns();  // after the tool's own work
        } else if (cd->functionReturnValue &&
                   *static_cast<const int*>(cd->functionReturnValue) != 0) {
          sink->on_launch_failed(cd->correlationId);
        } else {
          const std::int64_t left = steady_ns();
          if (entered > 0 && left - entered > kSlowLaunchNs)
            sink->on_slow_launch(sink->seconds_from_steady_ns(entered),
                                 sink->seconds_from_steady_ns(left));
        }
        return;
      }
      case kEventRecord_v3020:
      case kEventRecord_ptsz_v7000:
      case kEventRecordWithFlags_v11010:
      case kEventRecordWithFlags_ptsz_v11010:
        if (enter) {
          const auto* p =
              static_cast<const EventRecordParams*>(cd->functionParams);
          std::lock_guard<std::mutex> g(self->events_mu_);
          std::uint32_t id = 0;
          const bool one =
              p->stream && self->stream_id(cd->context, p->stream, &id);
          // At most 65536 events told apart (an event synchronized past
          // that counts as waiting for every stream).
          if (self->event_stream_.size() < 65536 ||
              self->event_stream_.count(p->event))
            self->event_stream_[p->event] = {one, id};
        }
        return;
      default:
        break;
    }
    if (!enter) {
      sink->on_blocking_end();
      return;
    }
    BlockingBegin b;
    b.device = self->device_id(cd->context);
    switch (cbid) {
      case kDeviceSynchronize_v3020:
      case kThreadSynchronize_v3020:
        b.api = SyncApi::DeviceSynchronize;
        break;
      case kStreamSynchronize_v3020:
      case kStreamSynchronize_ptsz_v7000: {
        b.api = SyncApi::StreamSynchronize;
        const auto* p = static_cast<const StreamParams*>(cd->functionParams);
        // The legacy default stream waits for every blocking stream.
        if (p->stream && self->stream_id(cd->context, p->stream, &b.stream))
          b.all_streams = false;
        break;
      }
      case kEventSynchronize_v3020: {
        b.api = SyncApi::EventSynchronize;
        const auto* p = static_cast<const EventParams*>(cd->functionParams);
        std::lock_guard<std::mutex> g(self->events_mu_);
        auto it = self->event_stream_.find(p->event);
        if (it != self->event_stream_.end() && it->second.first) {
          b.all_streams = false;
          b.stream = it->second.second;
        }
        break;
      }
      case kMemcpy_v3020:
      case kMemcpy_ptds_v7000: {
        b.api = SyncApi::Memcpy;
        const auto* p = static_cast<const MemcpyParams*>(cd->functionParams);
        b.bytes = p->count;
        b.copy_kind = p->kind >= 0 && p->kind <= 3 ? p->kind + 1 : 0;
        break;
      }
      case kMemcpyAsync_v3020:
      case kMemcpyAsync_ptsz_v7000: {
        b.api = SyncApi::MemcpyAsync;
        const auto* p =
            static_cast<const MemcpyAsyncParams*>(cd->functionParams);
        b.bytes = p->count;
        b.copy_kind = p->kind >= 0 && p->kind <= 3 ? p->kind + 1 : 0;
        if (p->stream && self->stream_id(cd->context, p->stream, &b.stream))
          b.all_streams = false;
        break;
      }
      case kFree_v3020:
        b.api = SyncApi::Free;
        break;
      case kFreeHost_v3020:
        b.api = SyncApi::FreeHost;
        break;
      default:
        b.api = SyncApi::Memcpy;  // 2D/3D/symbol/peer copies
        break;
    }
    sink->on_blocking_begin(b);
  }

  static void on_buffer_request(std::uint8_t** buffer, std::size_t* size,
                                std::size_t* max_records) noexcept {
    *buffer = nullptr;
    try {
      *buffer = buffers().take();
    } catch (...) {
      internal_error("CUPTI's buffer request");
    }
    *size = *buffer ? kBufferBytes : 0;
    *max_records = 0;
  }

  // CUPTI's thread (or the one in cuptiActivityFlushAll): hands the buffer
  // over to the analyzer, nothing more.
  static void on_buffer_complete(Context ctx, std::uint32_t stream,
                                 std::uint8_t* buffer, std::size_t size,
                                 std::size_t valid) noexcept {
    try {
      buffer_complete(ctx, stream, buffer, size, valid);
    } catch (...) {
      internal_error("CUPTI's buffer completion");
    }
  }
  static void buffer_complete(Context ctx, std::uint32_t stream,
                              std::uint8_t* buffer, std::size_t,
                              std::size_t valid) {
    CuptiSource* self = g_active.load();
    if (self && self->api_.ActivityGetNumDroppedRecords) {
      std::size_t n = 0;
      if (self->api_.ActivityGetNumDroppedRecords(ctx, stream, &n) ==
              kSuccess &&
          n > 0)
        self->dropped_ += n;
    }
    if (!self || valid == 0) {
      buffers().give_back(buffer);
      return;
    }
    std::lock_guard<std::mutex> g(self->ready_mu_);
    self->ready_.push_back({buffer, valid});
  }

  const CuptiMode mode_;
  std::atomic<std::uint64_t> dropped_{0};
  std::mutex mu_;
  Api api_;
  bool loaded_ = false, running_ = false;
  std::uint32_t version_ = 0;
  Subscriber sub_ = nullptr;
  DeviceSink* sink_ = nullptr;
  std::int64_t offset_ns_ = 0;
  std::string desc_ = "CUPTI not started";
  std::mutex events_mu_;
  std::unordered_map<void*, std::pair<bool, std::uint32_t>> event_stream_;
  bool by_call_ = false, runtime_all_ = false;
  struct Completed {
    std::uint8_t* buffer;
    std::size_t valid;
  };
  std::mutex ready_mu_;
  std::vector<Completed> ready_;
  std::vector<DeviceKernelRecord> scratch_;
};

}  // namespace

bool decode_kernel_record(const void* record, std::int64_t offset_ns,
                          const DeviceSink& sink, DeviceKernelRecord* out) {
  const auto* k = static_cast<const KernelRecordPrefix*>(record);
  if (k->kind != kActivityConcurrentKernel) return false;
  if (k->start == 0 || k->end < k->start) return false;  // incomplete
  out->correlation = k->correlationId;
  out->device = k->deviceId;
  out->stream = k->streamId;
  // Modulo 2^64, like the clocks (a record that makes no sense must not
  // overflow).
  const auto steady = [&](std::uint64_t t) {
    return std::int64_t(t - std::uint64_t(offset_ns));
  };
  out->start_s = sink.seconds_from_steady_ns(steady(k->start));
  out->end_s = sink.seconds_from_steady_ns(steady(k->end));
  out->shape.grid[0] = k->gridX;
  out->shape.grid[1] = k->gridY;
  out->shape.grid[2] = k->gridZ;
  out->shape.block[0] = k->blockX;
  out->shape.block[1] = k->blockY;
  out->shape.block[2] = k->blockZ;
  out->shape.registers = k->registersPerThread;
  out->shape.shared_static = k->staticSharedMemory;
  out->shape.shared_dynamic = k->dynamicSharedMemory;
  out->name = k->name ? k->name : "";
  return true;
}

std::vector<std::string> cupti_library_candidates(int runtime_version) {
  std::vector<std::string> c;
  if (const char* env = std::getenv("ADDSCOPE_CUPTI_LIB"))
    if (*env) c.push_back(env);
  if (runtime_version > 0) {
    const int major = runtime_version / 1000;
    const int minor = (runtime_version % 1000) / 10;
    c.push_back("libcupti.so." + std::to_string(major) + "." +
                std::to_string(minor));
    c.push_back("libcupti.so." + std::to_string(major));
  }
  for (const char* s :
       {"libcupti.so", "libcupti.so.13", "libcupti.so.12", "libcupti.so.11.8"})
    c.push_back(s);
  for (const char* d : {"/usr/local/cuda/extras/CUPTI/lib64/libcupti.so",
                        "/usr/local/cuda/lib64/libcupti.so",
                        "/usr/local/cuda/targets/x86_64-linux/lib/libcupti.so"})
    c.push_back(d);
  return c;
}

std::unique_ptr<DeviceSource> make_cupti_source(CuptiMode mode) {
  return std::unique_ptr<DeviceSource>(new CuptiSource(mode));
}

bool cupti_source_built() { return true; }

}  // namespace Impl
}  // namespace addscope
