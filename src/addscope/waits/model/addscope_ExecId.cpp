#include "addscope/waits/model/addscope_ExecId.hpp"

namespace addscope {

const char* device_kind_name(DeviceKind k) {
  switch (k) {
    case DeviceKind::Serial:
      return "Serial";
    case DeviceKind::OpenMP:
      return "OpenMP";
    case DeviceKind::Cuda:
      return "Cuda";
    case DeviceKind::HIP:
      return "HIP";
    case DeviceKind::OpenMPTarget:
      return "OpenMPTarget";
    case DeviceKind::HPX:
      return "HPX";
    case DeviceKind::Threads:
      return "Threads";
    case DeviceKind::SYCL:
      return "SYCL";
    case DeviceKind::OpenACC:
      return "OpenACC";
    default:
      return "Unknown";
  }
}

DeviceKind device_kind_of_space(std::string_view space) {
  auto starts = [&](std::string_view p) {
    return space.substr(0, p.size()) == p;
  };
  // (on every deep_copy: the first letter rules most spaces out, "Host" too)
  switch (space.empty() ? '\0' : space[0]) {
    case 'C':
      if (starts("Cuda")) return DeviceKind::Cuda;
      break;
    case 'H':
      if (starts("HIP")) return DeviceKind::HIP;
      break;
    case 'S':
      if (starts("SYCL")) return DeviceKind::SYCL;
      break;
    case 'O':
      if (starts("OpenMPTarget")) return DeviceKind::OpenMPTarget;
      if (starts("OpenACC")) return DeviceKind::OpenACC;
      break;
    default:
      break;
  }
  return DeviceKind::Unknown;
}

ExecId ExecId::from_tools_id(std::uint32_t dev_id) {
  ExecId e;
  const std::uint32_t t = dev_id >> 24;
  e.kind = t < std::uint32_t(DeviceKind::Unknown) ? DeviceKind(t)
                                                  : DeviceKind::Unknown;
  e.device = (dev_id >> 17) & 0x7fu;
  e.instance = dev_id & 0x1ffffu;
  return e;
}

bool ExecId::covers_all_instances() const { return instance == 0; }

bool ExecId::covers(const ExecId& launched_on) const {
  if (kind != launched_on.kind && kind != DeviceKind::Unknown) return false;
  if (covers_all_instances() || launched_on.instance == 0) return true;
  // Kokkos' deep-copy resource (device 0x7f, instance 0x1ffff) is an
  // instance of its own: it covers only itself.
  return device == launched_on.device && instance == launched_on.instance;
}

std::string ExecId::to_string() const {
  std::string s = device_kind_name(kind);
  if (device != 0 && device != 0x7f) s += " device " + std::to_string(device);
  if (instance == 0x1ffff && device == 0x7f)
    s += " deep_copy resource";
  else if (instance != 0)
    s += " instance " + std::to_string(instance);
  return s;
}

}  // namespace addscope
