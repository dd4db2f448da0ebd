// addscope — a place in the program's own code: where a call waited, where
// a kernel was launched. Plain data, resolved from a captured stack
// (site/addscope_SiteResolver.hpp) before anything is written.
#ifndef ADDSCOPE_WAITS_MODEL_CODESITE_HPP
#define ADDSCOPE_WAITS_MODEL_CODESITE_HPP

#include <cstdint>
#include <string>

namespace addscope {

struct CodeSite {
  std::string file;      ///< source file as the debug info names it ("": none)
  int line = 0;          ///< 0: unknown
  std::string function;  ///< "main", "step" ("": unknown)
  std::string language;  ///< "c++", "python" ("": not known)
  /// The line's own text, trimmed ("": the file was not readable).
  std::string text;
  /// Python: the package function the line called ("Event.synchronize",
  /// "random_sample"; "": it called native code directly).
  std::string called;
  /// Without a source line (no debug info): the module and the offset of
  /// the address in it.
  std::string module;
  std::uint64_t offset = 0;
  bool known() const { return line > 0 || !module.empty(); }
  bool operator==(const CodeSite& o) const {
    return file == o.file && line == o.line && function == o.function &&
           text == o.text && called == o.called && language == o.language &&
           module == o.module && offset == o.offset;
  }
};

/// "main.cpp:42 (main)", "libapp.so+0x1a2b (solve)", "" when unknown. The
/// file by its last `dirs` components (0: its whole path).
std::string site_text(const CodeSite& s, int dirs = 1);
/// The place `s` names, as a key: its file and line, or its module and
/// offset ("" when unknown). Two stacks reaching one line have one key
/// (their function, text or called package may still differ).
std::string line_key(const CodeSite& s);
/// "seed.py:39 (main) `v = out[2]`": the place and the line's text when it
/// is known; "" if unknown.
std::string site_with_text(const CodeSite& s);
/// "seed.py:39 (main) `v = out[2]`: " to put before what happened there
/// (the line's text when it is known); "" if unknown.
std::string site_prefix(const CodeSite& s);
/// A call at a line, the line first, for a program whose own words are its
/// code (no Kokkos label names the call): "train.py:21 (main) `total +=
/// loss.item()` → cudaStreamSynchronize", the package function the line
/// called between them when known ("… → Event.synchronize →
/// cudaEventSynchronize"); `what` alone when the line is unknown.
std::string code_then_call(const CodeSite& s, const std::string& what);

}  // namespace addscope

#endif
