#include "addscope/waits/site/addscope_SiteRules.hpp"

#include <array>

#include "addscope/waits/analyze/addscope_SyncAsker.hpp"

namespace addscope {
namespace Impl {

namespace {
std::string_view base_name(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}
bool starts_with(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}
bool contains(std::string_view s, std::string_view p) {
  return s.find(p) != std::string_view::npos;
}
}  // namespace

bool is_foreign_module(std::string_view module_path) {
  if (module_path.empty()) return true;  // no module: generated code
  // A device file mapped into memory (/dev/nvidiactl, /dev/nvidia0,
  // /dev/nvidia-uvm: the driver's mappings, which libdw also lists as
  // modules) or a pseudo-mapping ([vdso], [anon:...]): never the program's
  // code.
  if (starts_with(module_path, "/dev/") || starts_with(module_path, "["))
    return true;
  // A framework's own binaries (CuPy, PyTorch, numba) live in its package.
  if (contains(module_path, "/site-packages/") ||
      contains(module_path, "/dist-packages/"))
    return true;
  // The interpreter itself (libpython3.12.so, python3.12): its frames are
  // the interpreter's; the program's Python line is read apart.
  if (is_interpreter_module(module_path)) return true;
  static constexpr std::array<std::string_view, 25> kPrefixes = {
      "libaddscope_waits",
      "libcuda.",
      "libcudart",
      "libcupti",
      "libnvidia",
      "libnvrtc",
      "libcublas",
      "libcusparse",
      "libkokkos",
      "libc.so",
      "libc-",
      "libstdc++",
      "libgcc_s",
      "libm.so",
      "libm-",
      "ld-linux",
      "libpthread",
      "libdl.",
      "libgomp",
      "libunwind",
      "libdw",
      "libelf",
      "libmpi",
      "libopen-pal",
      "libopen-rte"};
  const std::string_view name = base_name(module_path);
  for (std::string_view p : kPrefixes)
    if (starts_with(name, p)) return true;
  return false;
}

bool is_foreign_source(std::string_view file) {
  if (file.empty()) return false;  // judged by its module alone
  const std::string_view name = base_name(file);
  // Kokkos_Parallel.hpp, KokkosExp_MDRangePolicy.hpp, KokkosBlas1_axpby.hpp,
  // KokkosKernels_Handle.hpp, Kokkos_Core.cpp ...
  if (starts_with(name, "Kokkos")) return true;
  // The CUDA toolkit's headers (a <<<...>>> launch runs through
  // crt/device_functions.h) and what nvcc generates (x.cudafe1.stub.c).
  if (contains(file, "/include/crt/") || starts_with(file, "crt/") ||
      starts_with(name, "cuda_runtime") || contains(name, ".cudafe1."))
    return true;
  return contains(file, "/desul/") || contains(file, "/mdspan/") ||
         contains(file, "/__p0009_bits/") || contains(file, "/include/c++/") ||
         starts_with(file, "/usr/include/") ||
         contains(file, "/addscope/waits/");
}

bool is_foreign_function(std::string_view function) {
  // The qualified name: before its template arguments or parameters, after
  // a return type ("void Kokkos::parallel_for<...>").
  std::string_view name = function.substr(0, function.find_first_of("<("));
  const std::size_t space = name.rfind(' ');
  if (space != std::string_view::npos) name = name.substr(space + 1);
  // nvcc's launch code: __cudaLaunchKernel_helper, __cudaPushCall...,
  // __device_stub__Z3addPKfS0_Pfx.
  if (starts_with(name, "cudart::") || starts_with(name, "__cuda") ||
      starts_with(name, "__device_stub__") || starts_with(name, "Kokkos::") ||
      starts_with(name, "KokkosBlas") || starts_with(name, "KokkosSparse") ||
      starts_with(name, "KokkosKernels") || starts_with(name, "KokkosGraph") ||
      starts_with(name, "KokkosBatched") || starts_with(name, "desul::"))
    return true;
  // cudaMemcpy, cudaStreamSynchronize, cuLaunchKernel, cuMemcpyDtoH_v2
  const auto upper = [](char c) { return c >= 'A' && c <= 'Z'; };
  if (starts_with(name, "cuda") && name.size() > 4 && upper(name[4]))
    return true;
  return starts_with(name, "cu") && name.size() > 2 && upper(name[2]);
}

int choose_program_frame(const std::vector<SourceFrame>& innermost_first) {
  for (std::size_t i = 0; i < innermost_first.size(); ++i) {
    const SourceFrame& f = innermost_first[i];
    // A __global__ function's host side, nvcc's wrapper around its stub,
    // carries the kernel's own name and definition line: the launch is the
    // frame outside it.
    if (i > 0 &&
        starts_with(innermost_first[i - 1].function, "__device_stub__"))
      continue;
    if (!is_foreign_module(f.module) && !is_foreign_source(f.file) &&
        !is_foreign_function(f.function))
      return int(i);
  }
  return -1;
}

}  // namespace Impl
}  // namespace addscope
