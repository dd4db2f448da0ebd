// addscope — what moving data between host and device costs: whole arrays
// both ways and single elements back, through Kokkos::deep_copy and, on
// CUDA, the raw runtime (cudaMemcpy), pageable or pinned on the host side.
// Each copy is timed alone: earlier work fenced first, both arrays
// allocated beforehand (allocation is not transfer).
#ifndef ADDSCOPE_BENCH_HOSTTRANSFERS_HPP
#define ADDSCOPE_BENCH_HOSTTRANSFERS_HPP

#include <Kokkos_Core.hpp>
#include <string>
#include <type_traits>
#include <vector>

#include "addscope/bench/addscope_References.hpp"
#include "addscope/timing/addscope_Measure.hpp"

namespace addscope {

/// A host<->device copy, and the API that made it.
struct HostTransfer {
  std::string api;  ///< "Kokkos::deep_copy" | "cudaMemcpy"
  TransferResult result;
};

/// Copies between the device array `d` (in exec's memory) and the host
/// array `h` of the same length (its kind: `memory`): host to device, then
/// device to host (only device to host with `to_device` false), through
/// Kokkos::deep_copy and, on CUDA, cudaMemcpy. Each result is named by its
/// direction and `what`: "H2D whole", "D2H dev[2]".
template <class ExecSpace, class DView, class HView>
std::vector<HostTransfer> measure_host_transfers(
    const ExecSpace& exec, const DView& d, const HView& h, MemoryKind memory,
    const std::string& what, bool to_device,
    const MeasureOptions& opt = MeasureOptions()) {
  using T = typename DView::non_const_value_type;
  const auto h2d = CopyDirection::HostToDevice;
  const auto d2h = CopyDirection::DeviceToHost;
  const std::int64_t n = std::int64_t(d.extent(0));
  std::vector<HostTransfer> out;
  if (to_device)
    out.push_back({"Kokkos::deep_copy",
                   measure_copy(exec, "H2D " + what, h2d, memory, d, h, opt)});
  out.push_back({"Kokkos::deep_copy",
                 measure_copy(exec, "D2H " + what, d2h, memory, h, d, opt)});
#if defined(KOKKOS_ENABLE_CUDA)
  if (std::is_same<ExecSpace, Kokkos::Cuda>::value) {
    exec.fence();
    if (to_device)
      out.push_back({"cudaMemcpy",
                     measure_cuda_memcpy("H2D " + what, h2d, memory, d.data(),
                                         h.data(), n, sizeof(T), opt)});
    out.push_back(
        {"cudaMemcpy", measure_cuda_memcpy("D2H " + what, d2h, memory, h.data(),
                                           d.data(), n, sizeof(T), opt)});
  }
#else
  (void)n;
#endif
  return out;
}

}  // namespace addscope

#endif
