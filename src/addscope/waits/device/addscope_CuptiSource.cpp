#include "addscope/waits/device/addscope_CuptiSource.hpp"

#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>

#include "addscope/waits/addscope_WaitsSettings.hpp"
#include "addscope/waits/device/addscope_CuptiAbi.hpp"
#include "addscope/waits/device/addscope_CuptiCalls.hpp"
#include "addscope/waits/device/addscope_CuptiLibrary.hpp"
#include "addscope/waits/device/addscope_StreamIdCache.hpp"


namespace addscope {
namespace Impl {


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
  GetVersionFn GetVersion = nullptr;
  GetResultStringFn GetResultString = nullptr;
  SubscribeFn Subscribe = nullptr;
  UnsubscribeFn Unsubscribe = nullptr;
  EnableCallbackFn EnableCallback = nullptr;
  ActivityEnableFn ActivityEnable = nullptr;
  ActivityEnableFn ActivityDisable = nullptr;
  ActivityRegisterCallbacksFn ActivityRegisterCallbacks = nullptr;
  ActivityGetNextRecordFn ActivityGetNextRecord = nullptr;
  ActivityFlushAllFn ActivityFlushAll = nullptr;
  GetTimestampFn GetTimestamp = nullptr;
  GetStreamIdExFn GetStreamIdEx = nullptr;
  GetStreamIdFn GetStreamId = nullptr;
  GetDeviceIdFn GetDeviceId = nullptr;
  ActivityGetNumDroppedRecordsFn ActivityGetNumDroppedRecords = nullptr;
  // Kernels tied to the tracker's calls (FullByCall):
  PushExternalCorrelationIdFn PushExternalCorrelationId = nullptr;
  PopExternalCorrelationIdFn PopExternalCorrelationId = nullptr;
  // CUPTI 12.x+: runtime-API records for chosen calls only.
  ActivityEnableRuntimeApiFn ActivityEnableRuntimeApi = nullptr;

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

// The path the loader opened (a bare name resolved on its path), for the
// report; `asked` when it cannot tell.
std::string opened_path(void* lib, const std::string& asked) {
  link_map* lm = nullptr;
  if (dlinfo(lib, RTLD_DI_LINKMAP, &lm) == 0 && lm && lm->l_name &&
      lm->l_name[0] == '/')
    return lm->l_name;
  return asked;
}

bool load(Api& a, bool ask_runtime, std::string* why) {
  const CuptiSearchInputs in =
      cupti_search_inputs(cuda_runtime_version(ask_runtime));
  for (const auto& p : cupti_library_candidates(in)) {
    // A path with a folder is tried only where there is a file: most of
    // the folders looked in hold none.
    if (p.find('/') != std::string::npos && ::access(p.c_str(), F_OK) != 0)
      continue;
    a.lib = dlopen(p.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (a.lib) {
      a.path = opened_path(a.lib, p);
      break;
    }
  }
  if (!a.lib) {
    *why = cupti_not_found_message(in);
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
std::atomic<void (*)()> g_cuda_started{nullptr};
// The generation of the threads' stream-id caches (StreamIdCache): a new
// one at every stream or context destroyed and at every start.
std::atomic<std::uint64_t> g_stream_generation{1};

class CuptiSource final : public DeviceSource {
 public:
  CuptiSource(CuptiMode mode, bool any_program)
      : mode_(mode), any_program_(any_program) {}
  ~CuptiSource() override { stop(); }

  bool start(DeviceSink& sink) override {
    std::lock_guard<std::mutex> g(mu_);
    if (running_) return true;
    if (!loaded_) {
      std::string why;
      if (!load(api_, !any_program_, &why)) {
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
    // Streams destroyed while no source watched went unseen.
    g_stream_generation.fetch_add(1, std::memory_order_acq_rel);
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
    enable_callbacks();
    std::string how;
    if (mode_ != CuptiMode::Callbacks) {
      static std::once_flag registered;
      Result reg = kSuccess;
      std::call_once(registered, [&] {
        reg = api_.ActivityRegisterCallbacks(&CuptiSource::on_buffer_request,
                                             &CuptiSource::on_buffer_complete);
      });
      if (reg == kSuccess) reg = api_.ActivityEnable(kActivityConcurrentKernel);
      // Copies and memsets keep the device busy (the idle blame's). Their
      // records cost CUPTI microseconds per copy (tests/perf/cupti_floor.cpp):
      // ADDSCOPE_WAITS_COPY_RECORDS=0 leaves them out.
      const char* cr = waits_setting("ADDSCOPE_WAITS_COPY_RECORDS");
      no_copies_ = cr && std::strcmp(cr, "0") == 0;
      if (reg == kSuccess && !no_copies_)
        copies_ = api_.ActivityEnable(kActivityMemcpy) == kSuccess &&
                  api_.ActivityEnable(kActivityMemset) == kSuccess;
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
              (no_copies_ ? "; no copy records (ADDSCOPE_WAITS_COPY_RECORDS=0)"
                          : "") +
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
    stopped_ = true;
    if (mode_ != CuptiMode::Callbacks) {
      api_.ActivityFlushAll(kFlushForced);
      api_.ActivityDisable(kActivityConcurrentKernel);
      if (copies_) {
        api_.ActivityDisable(kActivityMemcpy);
        api_.ActivityDisable(kActivityMemset);
      }
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
    std::vector<DeviceCopyRecord>& copies = scratch_copies_;
    for (const Completed& c : ready) {
      // Two passes: which calls the runtime calls belong to, then the
      // kernels (a kernel's record may come first in a buffer).
      Activity* rec = nullptr;
      if (by_call_)
        while (api_.ActivityGetNextRecord(c.buffer, c.valid, &rec) == kSuccess)
          if (rec->kind == kActivityExternalCorrelation) {
            const auto* e =
                reinterpret_cast<const ExternalCorrelationRecord*>(rec);
            ++seen_.external;
            if (e->externalKind == kExternalKindCustom0)
              out.on_external_correlation(e->correlationId, e->externalId);
          } else if (rec->kind == kActivityRuntime) {
            ++seen_.api;
          }
      kernels.clear();
      copies.clear();
      rec = nullptr;
      while (api_.ActivityGetNextRecord(c.buffer, c.valid, &rec) == kSuccess) {
        DeviceKernelRecord k;
        DeviceCopyRecord cp;
        if (decode_kernel_record(rec, offset_ns_, *sink_, &k))
          kernels.push_back(k);
        else if (decode_copy_record(rec, offset_ns_, *sink_, &cp))
          copies.push_back(cp);
      }
      seen_.kernels += kernels.size();
      seen_.copies += copies.size();
      ++seen_.buffers;
      if (!kernels.empty()) out.on_device_kernels(kernels);
      if (!copies.empty()) out.on_device_copies(copies);
      buffers().give_back(c.buffer);
    }
    if (stopped_ && !said_) {
      said_ = true;
      const char* v = waits_setting("ADDSCOPE_WAITS_VERBOSE");
      if (v && *v && std::strcmp(v, "0") != 0)
        std::fprintf(
            stderr,
            "addscope waits: CUPTI delivered %llu buffers: %llu "
            "kernel, %llu copy/memset, %llu external-correlation, "
            "%llu runtime API records\n",
            (unsigned long long)seen_.buffers,
            (unsigned long long)seen_.kernels, (unsigned long long)seen_.copies,
            (unsigned long long)seen_.external, (unsigned long long)seen_.api);
    }
  }

  std::string description() const override { return desc_; }

 private:
  // The ids this source enables in `domain` whose calls are of `kind`
  // (device/addscope_CuptiCalls.hpp lists what it decodes).
  static std::vector<CallbackId> ids_of(int domain, ApiCallKind kind) {
    std::vector<CallbackId> out;
    for (CallbackId id : cupti_enabled_callbacks(domain))
      if (decode_cupti_call(domain, id, nullptr).kind == kind)
        out.push_back(id);
    return out;
  }
  // Subscribe only to what is needed: the runtime's blocking calls and
  // event records always; its launches unless kernels are tied to the
  // tracker's calls; the driver's too in a program that may call it
  // directly (any CUDA program, not Kokkos).
  void enable_callbacks() {
    // A context going away: its records are handed over (below), and with
    // a stream going away the stream ids remembered are forgotten.
    api_.EnableCallback(1, sub_, kDomainResource, kContextDestroyStarting);
    api_.EnableCallback(1, sub_, kDomainResource, kStreamDestroyStarting);
    for (int domain : {kDomainRuntimeApi, kDomainDriverApi}) {
      if (domain == kDomainDriverApi && !any_program_) continue;
      for (ApiCallKind k : {ApiCallKind::Blocking, ApiCallKind::EventRecord,
                            ApiCallKind::Launch}) {
        if (k == ApiCallKind::Launch && by_call_) continue;
        for (CallbackId id : ids_of(domain, k))
          api_.EnableCallback(1, sub_, domain, id);  // newer ids: refused
      }
    }
  }

  // External correlation records are made only for runtime calls that make
  // an API record: with CUPTI 12.x+ only the launch entries make one; older
  // ones record every runtime call.
  Result enable_call_records(std::string* how) {
    Result r = api_.ActivityEnable(kActivityExternalCorrelation);
    if (r != kSuccess) return r;
    // ADDSCOPE_WAITS_API_RECORDS=launches: only the launches' API records
    // (CUPTI 12.x+); default: every runtime call's.
    const char* which = waits_setting("ADDSCOPE_WAITS_API_RECORDS");
    if (which && std::strcmp(which, "launches") == 0 &&
        api_.ActivityEnableRuntimeApi) {
      bool ok = true;
      for (CallbackId id : ids_of(kDomainRuntimeApi, ApiCallKind::Launch))
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

  // CUPTI's id of a stream (the one its kernel records carry; `per_thread`:
  // the per-thread default stream, `s` null), remembered per thread
  // (StreamIdCache); false when CUPTI cannot say.
  bool stream_id(Context ctx, Stream s, bool per_thread, std::uint32_t* id) {
    thread_local StreamIdCache cache;
    return cache.get(ctx, s, per_thread,
                     g_stream_generation.load(std::memory_order_acquire), id,
                     [&](std::uint32_t* out) {
                       if (api_.GetStreamIdEx)
                         return api_.GetStreamIdEx(ctx, s, per_thread ? 1 : 0,
                                                   out) == kSuccess;
                       if (api_.GetStreamId && !per_thread)
                         return api_.GetStreamId(ctx, s, out) == kSuccess;
                       return false;
                     });
  }
  std::uint32_t device_id(Context ctx) {
    // One context per device is the rule: the last answer is kept (for
    // one generation: a context destroyed may leave its handle to another).
    thread_local Context last_ctx = nullptr;
    thread_local std::uint32_t last_id = 0;
    thread_local std::uint64_t last_generation = 0;
    const std::uint64_t g = g_stream_generation.load(std::memory_order_acquire);
    if (ctx && ctx == last_ctx && g == last_generation) return last_id;
    std::uint32_t id = 0;
    api_.GetDeviceId(ctx, &id);
    last_ctx = ctx;
    last_id = id;
    last_generation = g;
    return id;
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
  // CUPTI's id of the stream a decoded call names; false when it names
  // none (or the legacy default stream: every stream) or CUPTI cannot say.
  bool stream_of(Context ctx, const ApiCall& c, std::uint32_t* id) {
    if (c.stream_ref == StreamRef::Handle)
      return stream_id(ctx, c.stream, false, id);
    if (c.stream_ref == StreamRef::PerThreadDefault)
      return stream_id(ctx, nullptr, true, id);
    return false;
  }

  // The calls this source follows, both API domains (tool/
  // addscope_CuptiCalls.hpp decodes them): the outermost on each thread is
  // what the program called; a call nested in it is skipped.
  static void callback(void* user, int domain, CallbackId cbid,
                       const void* data) {
    auto* self = static_cast<CuptiSource*>(user);
    if (domain == kDomainResource) {
      // A stream or context goes away: a new one may take its handle, so
      // no thread may keep the stream ids it remembers.
      if (cbid == kStreamDestroyStarting || cbid == kContextDestroyStarting)
        g_stream_generation.fetch_add(1, std::memory_order_acq_rel);
      // A context goes away (a program's exit tears its CUDA runtime down,
      // perhaps before the tool's own exit hook runs): its kernels' records
      // are handed over now.
      if (cbid == kContextDestroyStarting &&
          self->mode_ != CuptiMode::Callbacks)
        self->api_.ActivityFlushAll(kFlushForced);
      return;
    }
    if (g_cuda_started.load(std::memory_order_relaxed))
      if (void (*h)() = g_cuda_started.exchange(nullptr)) h();
    DeviceSink* sink = self->sink_;
    // CUDA is initialized by the first call reported (never inside cuInit).
    if (!self->in_use_said_.load(std::memory_order_relaxed) &&
        !self->in_use_said_.exchange(true))
      sink->on_cuda_in_use();
    const auto* cd = static_cast<const CallbackData*>(data);
    const bool enter = cd->callbackSite == kApiEnter;
    thread_local ApiCallNesting nesting;
    thread_local ApiCallKind open_kind = ApiCallKind::None;
    thread_local std::int64_t entered = 0;
    if (!enter) {
      if (!nesting.exit()) return;
      if (open_kind == ApiCallKind::Blocking) {
        sink->on_blocking_end();
      } else if (open_kind == ApiCallKind::Launch) {
        const int* rv = static_cast<const int*>(cd->functionReturnValue);
        if (rv && *rv != 0) {
          sink->on_launch_failed(cd->correlationId);
        } else {
          // A launch longer than this was blocked (behind the legacy
          // stream, a full queue, ...): reported as a blocking call.
          constexpr std::int64_t kSlowLaunchNs = 20000;
          const std::int64_t left = steady_ns();
          if (entered > 0 && left - entered > kSlowLaunchNs)
            sink->on_slow_launch(sink->seconds_from_steady_ns(entered),
                                 sink->seconds_from_steady_ns(left),
                                 cd->correlationId);
        }
      }
      open_kind = ApiCallKind::None;
      return;
    }
    const ApiCall c = decode_cupti_call(domain, cbid, cd->functionParams);
    if (c.kind == ApiCallKind::None) return;
    if (!nesting.enter()) return;  // inside a call being reported
    open_kind = c.kind;
    switch (c.kind) {
      case ApiCallKind::Launch: {
        LaunchBegin l;
        l.correlation = cd->correlationId;
        l.symbol = cd->symbolName;
        if (c.shape_known) l.shape_key = launch_shape_key(c.grid, c.block);
        if (self->mode_ == CuptiMode::Callbacks) {
          // No kernel record will say which stream: its launch does.
          l.device = self->device_id(cd->context);
          l.stream_known = self->stream_of(cd->context, c, &l.stream);
        }
        sink->on_launch(l);
        entered = steady_ns();  // after the tool's own work
        return;
      }
      case ApiCallKind::EventRecord: {
        std::uint32_t id = 0;
        const bool one = self->stream_of(cd->context, c, &id);
        std::lock_guard<std::mutex> g(self->events_mu_);
        // At most 65536 events told apart (an event synchronized past
        // that counts as waiting for every stream).
        if (self->event_stream_.size() < 65536 ||
            self->event_stream_.count(c.event))
          self->event_stream_[c.event] = {one, id};
        return;
      }
      case ApiCallKind::Blocking: {
        BlockingBegin b;
        b.api = c.api;
        b.device = self->device_id(cd->context);
        b.bytes = c.bytes;
        b.copy_kind = c.copy_kind;
        b.correlation = cd->correlationId;
        // A driver call by its own name (numba's read: cuMemcpyDtoHAsync).
        if (domain == kDomainDriverApi) b.name = c.name;
        if (c.api == SyncApi::EventSynchronize) {
          std::lock_guard<std::mutex> g(self->events_mu_);
          auto it = self->event_stream_.find(c.event);
          if (it != self->event_stream_.end() && it->second.first) {
            b.all_streams = false;
            b.stream = it->second.second;
          }
        } else if (!c.all_streams() &&
                   self->stream_of(cd->context, c, &b.stream)) {
          b.all_streams = false;
        }
        sink->on_blocking_begin(b);
        return;
      }
      case ApiCallKind::None:
        return;
    }
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

  // What CUPTI delivered (the analyzer's thread only): said at stop with
  // ADDSCOPE_WAITS_VERBOSE=1.
  struct Seen {
    std::uint64_t buffers = 0, kernels = 0, copies = 0, external = 0, api = 0;
  } seen_;
  std::atomic<bool> stopped_{false};
  bool said_ = false;
  const CuptiMode mode_;
  const bool any_program_;
  std::atomic<std::uint64_t> dropped_{0};
  std::atomic<bool> in_use_said_{false};  // on_cuda_in_use told
  bool no_copies_ = false;                // ADDSCOPE_WAITS_COPY_RECORDS=0
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
  std::vector<DeviceCopyRecord> scratch_copies_;
  bool copies_ = false;
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

bool decode_copy_record(const void* record, std::int64_t offset_ns,
                        const DeviceSink& sink, DeviceCopyRecord* out) {
  const auto* c = static_cast<const CopyRecordPrefix*>(record);
  if (c->kind != kActivityMemcpy && c->kind != kActivityMemset) return false;
  if (c->start == 0 || c->end < c->start) return false;  // incomplete
  out->correlation = c->correlationId;
  out->device = c->deviceId;
  out->stream = c->streamId;
  const auto steady = [&](std::uint64_t t) {
    return std::int64_t(t - std::uint64_t(offset_ns));
  };
  out->start_s = sink.seconds_from_steady_ns(steady(c->start));
  out->end_s = sink.seconds_from_steady_ns(steady(c->end));
  out->bytes = c->bytes;
  out->memset = c->kind == kActivityMemset;
  // CUpti_ActivityMemcpyKind: 1 HtoD, 2 DtoH, 8 DtoD, 9 HtoH.
  out->copy_kind = 0;
  if (!out->memset) switch (c->copyKind) {
      case 1:
        out->copy_kind = 2;
        break;
      case 2:
        out->copy_kind = 3;
        break;
      case 8:
        out->copy_kind = 4;
        break;
      case 9:
        out->copy_kind = 1;
        break;
      default:
        break;
    }
  return true;
}

std::unique_ptr<DeviceSource> make_cupti_source(CuptiMode mode,
                                                bool any_program) {
  return std::unique_ptr<DeviceSource>(new CuptiSource(mode, any_program));
}

bool cupti_source_built() { return true; }

void set_cuda_started_hook(void (*hook)()) { g_cuda_started.store(hook); }

}  // namespace Impl
}  // namespace addscope
