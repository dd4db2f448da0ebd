// addscope — a captured stack (record/addscope_StackCapture.hpp) turned
// into the program's own line of code: its frames symbolized
// (site/addscope_Symbolizer.hpp), the innermost one that is the program's
// own chosen (site/addscope_SiteRules.hpp). Cached by stack; used when a
// report or a trace is written, never on the hot path; not thread-safe.
#ifndef ADDSCOPE_WAITS_SITE_SITERESOLVER_HPP
#define ADDSCOPE_WAITS_SITE_SITERESOLVER_HPP

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "addscope/waits/model/addscope_CodeSite.hpp"
#include "addscope/waits/site/addscope_Symbolizer.hpp"

namespace addscope {
namespace Impl {

class SiteResolver {
 public:
  /// A name id's text (the analyzer's names).
  using NameOf = std::function<std::string(std::uint32_t)>;
  /// The program's own place in `stack` (innermost first); unknown when
  /// every frame is foreign. A stack ending in a Python line
  /// (kPythonFrameTag, analyze/addscope_StackTable.hpp) is at that line.
  const CodeSite& resolve(const std::vector<std::uint64_t>& stack,
                          const NameOf& name_of = nullptr);
  /// Where Python source `file` defines `function` (`def function(`, at
  /// any indentation): its place, text included; unknown when the file
  /// cannot be read, `function` is not a plain name, or the file defines
  /// it at none or at more than one line.
  CodeSite python_def(const std::string& file, const std::string& function);

 private:
  /// `file`'s lines, read once (none when it cannot be read).
  std::vector<std::string>& lines_of(const std::string& file);
  /// Line `line` of `file`, trimmed, at most kMaxText bytes ("" when the
  /// file cannot be read: gone, too large, not text).
  const std::string& line_text(const std::string& file, int line);
  static constexpr std::size_t kMaxText = 120;
  static constexpr std::size_t kMaxFileBytes = std::size_t(8) << 20;
  Symbolizer sym_;
  std::map<std::vector<std::uint64_t>, CodeSite> cache_;
  std::map<std::string, std::vector<std::string>> files_;
};

}  // namespace Impl
}  // namespace addscope

#endif
