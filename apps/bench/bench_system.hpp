// addscope-bench — what the machine is (device, memory, caches), how large a
// sweep fits in it, and the raw CUDA runtime references (cudaMemcpy), which
// exist only where Kokkos runs on CUDA.
#ifndef ADDSCOPE_APPS_BENCH_BENCH_SYSTEM_HPP_
#define ADDSCOPE_APPS_BENCH_BENCH_SYSTEM_HPP_

#include <cstddef>
#include <cstdint>
#include <string>

#include "bench_types.hpp"

namespace addscope {
namespace bench {

/// The default execution space's device (call after Kokkos::initialize).
DeviceInfo query_device();

/// Largest log2 size for the default sweep: on a GPU 2^28, shrunk until three
/// arrays of `elem_size` bytes fit in 80% of the free device memory; on the
/// host 2^26, shrunk until three arrays fit in 1/8 of the available RAM.
/// `why` says which limit applied.
int default_max_log2(const DeviceInfo& dev, std::size_t elem_size,
                     std::string* why);

/// Bytes the sweep needs at size n (three arrays of elem_size).
std::uint64_t sweep_bytes(std::int64_t n, std::size_t elem_size);

/// Full path of `program` on PATH ("" if not found).
std::string find_program(const std::string& program);

/// Raw CUDA runtime references. Without CUDA, available() is false and the
/// others throw RuntimeError.
namespace cuda_ref {
bool available();
/// Times cudaMemcpy(dst, src, n * elem_size) (direction "H2D", "D2H" or
/// "D2D"): device synchronised before, host clock until
/// cudaDeviceSynchronize returns after, median of `repeat` (after `warmup`
/// untimed copies). Bytes as measure_copy counts them (D2D: read + write).
TransferResult memcpy_timed(const std::string& what,
                            const std::string& direction,
                            const std::string& memory, void* dst,
                            const void* src, std::int64_t n,
                            std::size_t elem_size, int warmup, int repeat);
}  // namespace cuda_ref

}  // namespace bench
}  // namespace addscope

#endif  // ADDSCOPE_APPS_BENCH_BENCH_SYSTEM_HPP_
