// addscope — asks an asynchronous device, without blocking, whether work
// launched so far has finished, and how long it ran on the device.
// Kokkos-free: on CUDA it records driver-API events on the legacy default
// stream (libcuda is opened at run time, so nothing links against CUDA).
#ifndef ADDSCOPE_WAITS_DEVICEPROBE_HPP
#define ADDSCOPE_WAITS_DEVICEPROBE_HPP

#include <memory>

namespace addscope {
namespace Impl {

/// A marker placed in the device's queue.
struct DeviceMark {
  void* event = nullptr;
};

class DeviceProbe {
 public:
  /// A CUDA probe if libcuda can be opened and a context is current on the
  /// calling thread; otherwise an inert probe (available() == false).
  static std::unique_ptr<DeviceProbe> make_cuda();
  /// An inert probe.
  static std::unique_ptr<DeviceProbe> make_none();
  virtual ~DeviceProbe() = default;
  virtual bool available() const = 0;
  /// Places a marker after everything launched so far.
  virtual DeviceMark mark() = 0;
  /// Non-blocking: has the device passed the marker?
  virtual bool reached(const DeviceMark& m) = 0;
  /// Device time between two reached markers, in seconds (< 0: unknown).
  virtual double elapsed_s(const DeviceMark& a, const DeviceMark& b) = 0;
  /// Returns the marker to the pool.
  virtual void release(DeviceMark& m) = 0;
};

}  // namespace Impl
}  // namespace addscope

#endif
