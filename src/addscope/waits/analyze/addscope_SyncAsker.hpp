// addscope — who asked for the synchronization a blocking runtime call
// made: the program's own code (a synchronize it called), or a framework
// inside another call (PyTorch's `.item()`, numba's `copy_to_host`). Read
// from the call's stack (analyze/addscope_StackTable.hpp), in this order:
//   1. a Python line that called a package function: the program's when
//      that function is a synchronize (`torch.cuda.synchronize`,
//      `Event.synchronize`, numba's `cuda.synchronize`), else the
//      framework's (the package synchronized inside something else);
//   2. a native frame in PyTorch's libraries (libtorch*, libc10*) inside
//      the interpreter's (between the CUDA call and Python): the
//      framework's — PyTorch synchronizes inside its operations, and its
//      own synchronize functions are Python (rule 1);
//   3. else unknown: the runtime call's own kind decides (a
//      cuda*Synchronize is the program's: CuPy's Cython synchronize
//      methods, a native program's own calls).
// Runs on the analyzer's thread, never on the program's.
#ifndef ADDSCOPE_WAITS_ANALYZE_SYNCASKER_HPP
#define ADDSCOPE_WAITS_ANALYZE_SYNCASKER_HPP

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace addscope {
namespace Impl {

enum class SyncAsker : std::uint8_t { Unknown, Program, Framework };

/// The file of the module an address is in ("" when none).
using ModuleOf = std::function<std::string(std::uint64_t pc)>;
/// This process's module at `pc` (the dynamic loader's, dladdr).
std::string loaded_module_of(std::uint64_t pc);

/// A Python function that only waits: its qualified name's last part ends
/// in "synchronize" (any case).
bool is_synchronize_function(std::string_view qualname);
/// A native library of a framework that synchronizes inside its
/// operations (PyTorch's libtorch*, libc10*), by its file name.
bool is_framework_module(std::string_view path);
/// The Python interpreter (libpython*, python3.12), by its file name.
bool is_interpreter_module(std::string_view path);

/// Who asked, for a call whose stack is `stack` (native addresses, then
/// perhaps a Python line) and whose Python line called `called` ("" when
/// it called native code directly, or there is no Python line).
SyncAsker sync_asker(const std::vector<std::uint64_t>& stack,
                     std::string_view called, const ModuleOf& module_of);

}  // namespace Impl
}  // namespace addscope

#endif
