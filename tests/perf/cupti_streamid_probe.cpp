// What CUPTI's stream id costs: cuptiGetStreamIdEx asked inside CUPTI's
// callback on cudaStreamSynchronize (where the waits tool needed it in every
// blocking call that names a stream, before it kept the ids per thread:
// src/addscope/waits/device/addscope_StreamIdCache.hpp), and asked directly;
// cuptiGetDeviceId beside it. Plain CUDA, no Kokkos. On the H200 (CUDA 13,
// 2026-12-02): 173-226 ns inside the callback, 143-159 ns directly;
// cuptiGetDeviceId 123-150 ns (an ad-hoc version of this probe, then this
// program).
// Usage: addscope-cupti-streamid-probe [calls=100000] [passes=3]
// Prints one line per pass and kind: the synchronize's time per call without
// and with the question, the question's own time per call.
#include <cuda_runtime.h>
#include <cupti.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace {

using Clock = std::chrono::steady_clock;
double ns_since(Clock::time_point a) {
  return std::chrono::duration<double, std::nano>(Clock::now() - a).count();
}

struct State {
  bool ask = false;
  CUstream stream = nullptr;
  CUcontext ctx = nullptr;
  long calls = 0;
  double ns = 0;
} g;

void CUPTIAPI on_callback(void*, CUpti_CallbackDomain, CUpti_CallbackId,
                          const void* data) {
  const auto* cd = static_cast<const CUpti_CallbackData*>(data);
  if (cd->callbackSite != CUPTI_API_ENTER) return;
  g.ctx = cd->context;
  if (!g.ask) return;
  std::uint32_t id = 0;
  const auto a = Clock::now();
  cuptiGetStreamIdEx(cd->context, g.stream, 0, &id);
  g.ns += ns_since(a);
  ++g.calls;
}

void check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "cupti_streamid_probe: %s failed\n", what);
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  const long n = argc > 1 ? std::atol(argv[1]) : 100000;
  const int passes = argc > 2 ? std::atoi(argv[2]) : 3;
  if (n < 1 || passes < 1) {
    std::fprintf(stderr,
                 "calls = '%s' and passes = '%s': allowed: integers >= 1\n",
                 argc > 1 ? argv[1] : "", argc > 2 ? argv[2] : "");
    return 2;
  }
  cudaStream_t s = nullptr;
  check(cudaStreamCreate(&s) == cudaSuccess, "cudaStreamCreate");
  g.stream = reinterpret_cast<CUstream>(s);
  CUpti_SubscriberHandle sub;
  check(cuptiSubscribe(&sub, on_callback, nullptr) == CUPTI_SUCCESS,
        "cuptiSubscribe");
  check(cuptiEnableCallback(
            1, sub, CUPTI_CB_DOMAIN_RUNTIME_API,
            CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020) ==
            CUPTI_SUCCESS,
        "cuptiEnableCallback");
  for (int pass = 0; pass < passes; ++pass) {
    double per[2] = {0, 0};
    for (int ask = 0; ask < 2; ++ask) {
      g.ask = ask;
      g.calls = 0;
      g.ns = 0;
      const auto a = Clock::now();
      for (long i = 0; i < n; ++i) cudaStreamSynchronize(s);
      per[ask] = ns_since(a) / double(n);
    }
    std::printf(
        "streamid_probe pass=%d sync_ns=%.1f sync_with_question_ns=%.1f "
        "question_in_callback_ns=%.1f\n",
        pass, per[0], per[1], g.calls ? g.ns / double(g.calls) : 0.0);
    check(g.calls == n, "one question per synchronize");
  }
  check(g.ctx != nullptr, "the callback's context");
  std::uint32_t id = 0, dev = 0;
  auto a = Clock::now();
  for (long i = 0; i < n; ++i) cuptiGetStreamIdEx(g.ctx, g.stream, 0, &id);
  const double direct = ns_since(a) / double(n);
  a = Clock::now();
  for (long i = 0; i < n; ++i) cuptiGetDeviceId(g.ctx, &dev);
  const double device = ns_since(a) / double(n);
  std::printf(
      "streamid_probe direct_question_ns=%.1f device_id_ns=%.1f stream_id=%u "
      "device=%u\n",
      direct, device, id, dev);
  cuptiUnsubscribe(sub);
  cudaStreamDestroy(s);
  return 0;
}
