#include "addscope/waits/addscope_DeviceProbe.hpp"

#include <dlfcn.h>

#include <vector>

namespace addscope {
namespace Impl {

namespace {

// The few CUDA driver API entry points the probe uses (stable C ABI).
using CUresult = int;
using CUcontext = void*;
using CUevent = void*;
using CUstream = void*;
constexpr CUresult CUDA_SUCCESS = 0;

struct CudaDriver {
  CUresult (*ctx_get_current)(CUcontext*) = nullptr;
  CUresult (*event_create)(CUevent*, unsigned) = nullptr;
  CUresult (*event_record)(CUevent, CUstream) = nullptr;
  CUresult (*event_query)(CUevent) = nullptr;
  CUresult (*event_elapsed)(float*, CUevent, CUevent) = nullptr;
  CUresult (*event_destroy)(CUevent) = nullptr;
  bool ok = false;

  CudaDriver() {
    void* h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (!h) return;  // only if the program itself already uses CUDA
    ctx_get_current = reinterpret_cast<decltype(ctx_get_current)>(
        dlsym(h, "cuCtxGetCurrent"));
    event_create =
        reinterpret_cast<decltype(event_create)>(dlsym(h, "cuEventCreate"));
    event_record =
        reinterpret_cast<decltype(event_record)>(dlsym(h, "cuEventRecord"));
    event_query =
        reinterpret_cast<decltype(event_query)>(dlsym(h, "cuEventQuery"));
    event_elapsed = reinterpret_cast<decltype(event_elapsed)>(
        dlsym(h, "cuEventElapsedTime"));
    if (!event_elapsed)
      event_elapsed = reinterpret_cast<decltype(event_elapsed)>(
          dlsym(h, "cuEventElapsedTime_v2"));
    event_destroy = reinterpret_cast<decltype(event_destroy)>(
        dlsym(h, "cuEventDestroy_v2"));
    ok = ctx_get_current && event_create && event_record && event_query &&
         event_elapsed && event_destroy;
  }
};

class CudaProbe final : public DeviceProbe {
 public:
  explicit CudaProbe(const CudaDriver& d) : d_(d) {}
  ~CudaProbe() override {
    for (void* e : pool_) d_.event_destroy(e);
  }
  bool available() const override { return true; }
  DeviceMark mark() override {
    CUevent e = nullptr;
    if (!pool_.empty()) {
      e = pool_.back();
      pool_.pop_back();
    } else if (d_.event_create(&e, 0) != CUDA_SUCCESS) {
      return {};
    }
    // Stream 0 is the legacy default stream: the event completes after all
    // work queued so far in every blocking stream (Kokkos' streams are).
    if (d_.event_record(e, nullptr) != CUDA_SUCCESS) {
      pool_.push_back(e);
      return {};
    }
    return {e};
  }
  bool reached(const DeviceMark& m) override {
    return m.event == nullptr || d_.event_query(m.event) == CUDA_SUCCESS;
  }
  double elapsed_s(const DeviceMark& a, const DeviceMark& b) override {
    float ms = -1.f;
    if (!a.event || !b.event ||
        d_.event_elapsed(&ms, a.event, b.event) != CUDA_SUCCESS)
      return -1.0;
    return ms * 1e-3;
  }
  void release(DeviceMark& m) override {
    if (m.event) pool_.push_back(m.event);
    m.event = nullptr;
  }

 private:
  const CudaDriver& d_;
  std::vector<void*> pool_;
};

class NoProbe final : public DeviceProbe {
 public:
  bool available() const override { return false; }
  DeviceMark mark() override { return {}; }
  bool reached(const DeviceMark&) override { return true; }
  double elapsed_s(const DeviceMark&, const DeviceMark&) override {
    return -1.0;
  }
  void release(DeviceMark& m) override { m.event = nullptr; }
};

}  // namespace

std::unique_ptr<DeviceProbe> DeviceProbe::make_cuda() {
  static const CudaDriver driver;
  CUcontext ctx = nullptr;
  if (driver.ok && driver.ctx_get_current(&ctx) == CUDA_SUCCESS && ctx)
    return std::unique_ptr<DeviceProbe>(new CudaProbe(driver));
  return std::unique_ptr<DeviceProbe>(new NoProbe());
}

std::unique_ptr<DeviceProbe> DeviceProbe::make_none() {
  return std::unique_ptr<DeviceProbe>(new NoProbe());
}

}  // namespace Impl
}  // namespace addscope
