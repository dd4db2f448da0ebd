// addscope — addresses of this process turned into source frames: module,
// file, line and function, with each inlined call as a frame of its own
// (elfutils' libdwfl over the process's own mappings and debug info). An
// address in a module without debug info gives its module, offset and ELF
// symbol; one in no module, only its address. Built without elfutils
// (ADDSCOPE_HAVE_LIBDW unset): the module and offset by dladdr.
// Not for the hot path: used when a report or a trace is written (on the
// analyzer's thread, under its lock); not thread-safe.
#ifndef ADDSCOPE_WAITS_SITE_SYMBOLIZER_HPP
#define ADDSCOPE_WAITS_SITE_SYMBOLIZER_HPP

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "addscope/waits/site/addscope_SiteRules.hpp"

namespace addscope {
namespace Impl {

/// A symbol (mangled or not) as a function's name to read beside its line:
/// demangled, without its parameter list or "(anonymous namespace)::".
std::string short_function(const char* symbol);

class Symbolizer {
 public:
  Symbolizer();
  ~Symbolizer();
  Symbolizer(const Symbolizer&) = delete;
  Symbolizer& operator=(const Symbolizer&) = delete;
  /// The frames at code address `pc` (a return address: looked up at
  /// pc - 1), innermost inlined call first. Cached by address.
  const std::vector<SourceFrame>& frames_at(std::uint64_t pc);

 private:
  struct Dw;
  std::unique_ptr<Dw> dw_;
  std::unordered_map<std::uint64_t, std::vector<SourceFrame>> cache_;
};

}  // namespace Impl
}  // namespace addscope

#endif
