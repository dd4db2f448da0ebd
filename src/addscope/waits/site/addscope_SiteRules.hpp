// addscope — which frame of a captured stack is the program's own: the
// innermost one outside the tool, the device runtime (CUDA, CUPTI), Kokkos
// and Kokkos Kernels, MPI, the C and C++ runtimes and the interpreter — by
// the module a frame is in and, where debug info names it, its source file
// (Kokkos' templates are compiled into the program's own binary). Pure: no
// symbol lookup here (site/addscope_Symbolizer.hpp makes the frames).
#ifndef ADDSCOPE_WAITS_SITE_SITERULES_HPP
#define ADDSCOPE_WAITS_SITE_SITERULES_HPP

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace addscope {
namespace Impl {

/// One frame as symbolized: an inlined call is a frame of its own.
struct SourceFrame {
  std::string module;        ///< path of the shared object or executable
  std::uint64_t offset = 0;  ///< of the address in `module`
  std::string file;          ///< source file ("": no debug info)
  int line = 0;
  std::string function;             ///< short name ("": unknown)
  std::string language = "native";  ///< "c++", "c", "fortran" from debug info
};

/// A module the program's own code is never in (by its file name; a device
/// file or pseudo-mapping, which holds no code of the program, included).
bool is_foreign_module(std::string_view module_path);
/// A source file the program's own code is never in: Kokkos' and Kokkos
/// Kernels' headers and sources, the C++ standard library's, the tool's.
bool is_foreign_source(std::string_view file);
/// A function the program's own code is never in, by its name (for code
/// linked into the program without debug info: the CUDA runtime linked
/// statically by nvcc, a static Kokkos): the CUDA runtime's and driver's
/// entry points (cudaMemcpy, cuLaunchKernel) and internals (cudart::,
/// __cudart), Kokkos', Kokkos Kernels' and desul's namespaces.
bool is_foreign_function(std::string_view function);
/// The index of the innermost frame of `innermost_first` that is the
/// program's own, or -1.
int choose_program_frame(const std::vector<SourceFrame>& innermost_first);

}  // namespace Impl
}  // namespace addscope

#endif
