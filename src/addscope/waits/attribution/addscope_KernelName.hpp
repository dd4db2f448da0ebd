// addscope — readable kernel names. Kokkos names an unlabelled kernel after
// its functor's type; with CUDA lambdas that is
//   __nv_hdl_wrapper_t<false, false, __nv_dl_tag<void
//   (KokkosStream<float>::*)(),
//                      &KokkosStream<float>::add, 1>, ...>
// and the device names kernels by their mangled entry points. This turns
// them into "KokkosStream<float>::add (lambda)" — and numba's
// "__main__::add[abi:v1][abi:cw51c...](Array<float, 1, A, mutable,
// aligned>, ...)" into "add". Kokkos-free.
#ifndef ADDSCOPE_WAITS_ATTRIBUTION_KERNELNAME_HPP
#define ADDSCOPE_WAITS_ATTRIBUTION_KERNELNAME_HPP

#include <string>

namespace addscope {

/// The readable form of a kernel name (labels the program chose come back
/// unchanged).
std::string short_kernel_name(const std::string& raw);

/// Itanium-ABI demangling of a mangled symbol ("_Z...") or type name
/// ("N6Kokkos4CudaE"); `raw` itself when it is not one.
std::string demangle(const std::string& raw);

}  // namespace addscope

#endif
