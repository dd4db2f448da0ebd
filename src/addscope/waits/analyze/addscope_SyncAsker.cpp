#include "addscope/waits/analyze/addscope_SyncAsker.hpp"

#include <dlfcn.h>

#include <cctype>

#include "addscope/waits/analyze/addscope_StackTable.hpp"

namespace addscope {
namespace Impl {

std::string loaded_module_of(std::uint64_t pc) {
  Dl_info info;
  // A return address: the call is the byte before it.
  if (pc == 0 || dladdr(reinterpret_cast<void*>(pc - 1), &info) == 0 ||
      !info.dli_fname)
    return std::string();
  return info.dli_fname;
}

bool is_synchronize_function(std::string_view qualname) {
  const std::size_t dot = qualname.rfind('.');
  if (dot != std::string_view::npos) qualname.remove_prefix(dot + 1);
  constexpr std::string_view kSync = "synchronize";
  if (qualname.size() < kSync.size()) return false;
  qualname.remove_prefix(qualname.size() - kSync.size());
  for (std::size_t i = 0; i < kSync.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(qualname[i])) != kSync[i])
      return false;
  return true;
}

namespace {
// The file name of a module's path, and whether it begins with `prefix`.
bool named(std::string_view path, std::string_view prefix) {
  const std::size_t slash = path.rfind('/');
  if (slash != std::string_view::npos) path.remove_prefix(slash + 1);
  return path.substr(0, prefix.size()) == prefix;
}
}  // namespace

bool is_interpreter_module(std::string_view path) {
  return named(path, "libpython") || named(path, "python");
}

bool is_framework_module(std::string_view path) {
  return named(path, "libtorch") || named(path, "libc10");
}

SyncAsker sync_asker(const std::vector<std::uint64_t>& stack,
                     std::string_view called, const ModuleOf& module_of) {
  if (!called.empty())
    return is_synchronize_function(called) ? SyncAsker::Program
                                           : SyncAsker::Framework;
  if (module_of) {
    // The native code between the CUDA call and the interpreter: what the
    // Python line called (frames outside the interpreter's are its callers').
    const std::size_t n = native_depth(stack);
    for (std::size_t i = 0; i < n; ++i) {
      const std::string m = module_of(stack[i]);
      if (is_framework_module(m)) return SyncAsker::Framework;
      if (is_interpreter_module(m)) break;
    }
  }
  return SyncAsker::Unknown;
}

}  // namespace Impl
}  // namespace addscope
