// addscope — the one answer to "what kind of execution space is this?".
// Asked of Kokkos' own device type (the one Kokkos Tools sees), so it knows
// every backend by the same name on Kokkos 3.4 and 4.x: Cuda, HIP, SYCL and
// OpenMPTarget are GPUs; Serial, OpenMP, Threads and HPX are hosts.
#ifndef ADDSCOPE_CORE_SPACEKIND_HPP
#define ADDSCOPE_CORE_SPACEKIND_HPP

#include <Kokkos_Core.hpp>
#include <cstdint>

namespace addscope {

/// Kokkos' device type of an execution space type, as a number (the top bits
/// of a Kokkos Tools device id): Serial 0, OpenMP 1, Cuda 2, HIP 3,
/// OpenMPTarget 4, HPX 5, Threads 6, SYCL 7 (and OpenACC 8 on Kokkos 4.x).
template <class ExecSpace>
constexpr std::uint32_t kokkos_device_type() {
  return static_cast<std::uint32_t>(
      Kokkos::Tools::Experimental::DeviceTypeTraits<ExecSpace>::id);
}

/// Is ExecSpace a GPU: launches return before the work is done, and its
/// default memory is not the host's? True for Cuda, HIP, SYCL, OpenMPTarget.
template <class ExecSpace>
constexpr bool is_gpu_space() {
  using Kokkos::Tools::Experimental::DeviceType;
  constexpr auto id = Kokkos::Tools::Experimental::DeviceTypeTraits<
      typename ExecSpace::execution_space>::id;
  return id == DeviceType::Cuda || id == DeviceType::HIP ||
         id == DeviceType::SYCL || id == DeviceType::OpenMPTarget;
}

/// Launches on this space return before the work is done (a GPU).
template <class ExecSpace>
constexpr bool launches_are_async() {
  return is_gpu_space<ExecSpace>();
}

}  // namespace addscope

#endif
