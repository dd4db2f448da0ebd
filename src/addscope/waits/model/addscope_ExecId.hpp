// addscope — which execution space instance an event belongs to, decoded from
// the device id Kokkos Tools passes with kernels and fences.
//
// Kokkos 4.x encodes  type << 24 | device << 17 | instance  (instances count
// from 1; instance 0 on device 0 is a global fence, device 0x7f with instance
// 0x1ffff Kokkos' deep-copy resource); Kokkos 3.x encodes type << 24 |
// instance with instance 0 for every Cuda instance. Kokkos-free.
#ifndef ADDSCOPE_WAITS_MODEL_EXECID_HPP
#define ADDSCOPE_WAITS_MODEL_EXECID_HPP

#include <cstdint>
#include <string>
#include <string_view>

namespace addscope {

/// Kokkos' device type, the top 8 bits of a Kokkos Tools device id.
enum class DeviceKind : std::uint8_t {
  Serial = 0,
  OpenMP = 1,
  Cuda = 2,
  HIP = 3,
  OpenMPTarget = 4,
  HPX = 5,
  Threads = 6,
  SYCL = 7,
  OpenACC = 8,
  Unknown = 9
};
const char* device_kind_name(DeviceKind k);
/// Are launches on this device asynchronous to the host?
inline bool is_async(DeviceKind k) {
  return k == DeviceKind::Cuda || k == DeviceKind::HIP ||
         k == DeviceKind::SYCL || k == DeviceKind::OpenMPTarget ||
         k == DeviceKind::OpenACC;
}
/// The device kind of a Kokkos memory space name ("Cuda", "CudaUVM",
/// "CudaHostPinned", "HIP", "Host", ...): the device whose work a copy or an
/// allocation there may wait for (Unknown for host spaces).
DeviceKind device_kind_of_space(std::string_view space);

/// One execution space instance as Kokkos Tools names it.
struct ExecId {
  DeviceKind kind = DeviceKind::Unknown;
  std::uint32_t device = 0;    ///< 4.x: the device number
  std::uint32_t instance = 0;  ///< 4.x: 1, 2, ... per instance; 0: none/all

  static ExecId from_tools_id(std::uint32_t dev_id);
  /// A fence with this id waits for every instance of its kind (4.x global
  /// fences; any fence when the instance is not encoded, as on 3.x).
  bool covers_all_instances() const;
  bool covers(const ExecId& launched_on) const;
  std::string to_string() const;  ///< "Cuda", "Cuda instance 2"
};

}  // namespace addscope

#endif
