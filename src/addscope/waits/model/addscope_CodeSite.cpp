#include "addscope/waits/model/addscope_CodeSite.hpp"

#include <cstdio>

namespace addscope {

namespace {
// The last `dirs` + 1 components of `path` ("src/main.cpp" for dirs 1).
std::string tail(const std::string& path, int dirs) {
  if (dirs <= 0) return path;
  std::size_t at = path.size();
  for (int i = 0; i <= dirs; ++i) {
    const std::size_t slash = path.rfind('/', at == 0 ? 0 : at - 1);
    if (slash == std::string::npos || at == 0) return path;
    at = slash;
  }
  return path.substr(at + 1);
}
}  // namespace

std::string site_text(const CodeSite& s, int dirs) {
  std::string out;
  if (s.line > 0) {
    out = tail(s.file, dirs) + ":" + std::to_string(s.line);
  } else if (!s.module.empty()) {
    char off[32];
    std::snprintf(off, sizeof off, "+0x%llx", (unsigned long long)s.offset);
    const std::size_t slash = s.module.rfind('/');  // the module's own name
    out = (slash == std::string::npos ? s.module : s.module.substr(slash + 1)) +
          off;
  } else {
    return out;
  }
  if (!s.function.empty()) out += " (" + s.function + ")";
  return out;
}

std::string line_key(const CodeSite& s) {
  if (!s.known()) return std::string();
  return s.file + ":" + std::to_string(s.line) + ":" + s.module + "+" +
         std::to_string(s.offset);
}

std::string site_with_text(const CodeSite& s) {
  std::string t = site_text(s);
  if (!t.empty() && !s.text.empty()) t += " `" + s.text + "`";
  return t;
}

std::string site_prefix(const CodeSite& s) {
  const std::string t = site_with_text(s);
  return t.empty() ? t : t + ": ";
}

std::string code_then_call(const CodeSite& s, const std::string& what) {
  std::string out = site_with_text(s);
  if (out.empty()) return what;
  if (!s.called.empty() && s.called != "?") out += " \xe2\x86\x92 " + s.called;
  return out + " \xe2\x86\x92 " + what;
}

}  // namespace addscope
