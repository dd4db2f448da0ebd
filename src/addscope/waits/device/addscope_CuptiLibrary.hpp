// addscope — where libcupti is looked for, and which CUDA runtime the
// program loaded. CUPTI is opened at run time from wherever the program's
// users have it: a CUDA toolkit, pip's nvidia-* wheels, conda, PyTorch's own
// lib folder, or the loader's path. The search itself is a pure function of
// what the process shows (cupti_search_inputs), so that it can be tested on
// made-up layouts.
#ifndef ADDSCOPE_WAITS_DEVICE_CUPTILIBRARY_HPP
#define ADDSCOPE_WAITS_DEVICE_CUPTILIBRARY_HPP

#include <string>
#include <vector>

namespace addscope {
namespace Impl {

/// What the search for libcupti starts from.
struct CuptiSearchInputs {
  std::string env_lib;      ///< ADDSCOPE_CUPTI_LIB ("" when unset)
  int runtime_version = 0;  ///< the program's CUDA runtime (11080), 0: unknown
  std::string cudart_dir;   ///< folder of the libcudart loaded ("" if none)
  std::vector<std::string> site_packages;  ///< the running Python's
  std::string conda_prefix;                ///< CONDA_PREFIX
  std::vector<std::string> cuda_roots;  ///< CUDA_HOME, CUDA_PATH, /usr/local/cuda*
};

/// The folders looked in, in order: beside the libcudart the program loaded
/// (and that toolkit's or pip layout's CUPTI folder), the running Python's
/// site-packages (nvidia-cuda-cupti wheels, torch/lib), conda's lib, then
/// each CUDA root's CUPTI and library folders. No folder twice.
std::vector<std::string> cupti_search_folders(const CuptiSearchInputs& in);

/// Every path to try, in order: ADDSCOPE_CUPTI_LIB; when the runtime's
/// version is known, first the libcupti files of its major in each folder
/// and then those names for the loader (a CUPTI of another major does not
/// work with that runtime); then every other name (libcupti.so, other
/// majors) in each folder and for the loader. Paths with a folder are tried
/// only where the file exists.
std::vector<std::string> cupti_library_candidates(const CuptiSearchInputs& in);

/// The inputs of this process: its environment, the libcudart and the
/// site-packages folders of the objects it has loaded, /usr/local/cuda*
/// (newest version first).
CuptiSearchInputs cupti_search_inputs(int runtime_version);

/// One line for a report when no libcupti was found: where it looked and
/// how to fix it.
std::string cupti_not_found_message(const CuptiSearchInputs& in);

/// The CUDA runtime version a libcudart file name says ("libcudart.so.11.0"
/// -> 11000, ".../libcudart.so.11.8.89" -> 11080, "libcudart.so.13" ->
/// 13000); 0 for any other name.
int cuda_runtime_version_from_name(const char* path);

/// The program's CUDA runtime version (e.g. 11080), 0 when unknown: `ask`,
/// by its cudaRuntimeGetVersion, else only by the name of the libcudart
/// loaded (CUDA injection: inside the program's cuInit, where the runtime
/// may hold its initialization lock).
int cuda_runtime_version(bool ask);

}  // namespace Impl
}  // namespace addscope

#endif
