#include "addscope/waits/output/addscope_LaunchLine.hpp"

#include <regex>

namespace addscope {

namespace {

bool one_dimensional(const LaunchShape& s) {
  return s.known() && s.grid[1] == 1 && s.grid[2] == 1 && s.block[1] == 1 &&
         s.block[2] == 1;
}

// The code before the line's comment (`#` in Python, `//` in C++), outside
// string literals; trailing blanks trimmed.
std::string without_comment(const std::string& text, bool python) {
  char quote = 0;
  std::size_t end = text.size();
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote) {
      if (c == '\\') {
        ++i;
      } else if (c == quote) {
        quote = 0;
      }
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (python ? c == '#'
                      : c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      end = i;
      break;
    }
  }
  while (end > 0 && (text[end - 1] == ' ' || text[end - 1] == '\t')) --end;
  return text.substr(0, end);
}

}  // namespace

std::string launch_line_as(const CodeSite& at, const LaunchShape& ran,
                           const LaunchShape& fill) {
  if (at.text.empty() || !one_dimensional(ran) || !one_dimensional(fill))
    return std::string();
  const bool python = at.language == "python";
  const std::string code = without_comment(at.text, python);
  const std::string g = std::to_string(ran.grid[0]);
  const std::string b = std::to_string(ran.block[0]);
  const std::string G = std::to_string(fill.grid[0]);
  const std::string B = std::to_string(fill.block[0]);
  // Each form: the configuration's numbers as groups 2 and 4, what comes
  // around them (groups 1, 3, 5) kept.
  static const std::regex numba(R"((\w\s*\[\s*)(\d+)(\s*,\s*)(\d+)(\s*\]\s*\())");
  static const std::regex rawkernel(
      R"((\w\s*\(\s*\(\s*)(\d+)(\s*,?\s*\)\s*,\s*\(\s*)(\d+)(\s*,?\s*\)\s*,))");
  static const std::regex chevrons(R"((<<<\s*)(\d+)(\s*,\s*)(\d+)(\s*[,>]))");
  const std::regex* forms[] = {python ? &numba : &chevrons,
                               python ? &rawkernel : nullptr};
  for (const std::regex* re : forms) {
    if (!re) continue;
    std::smatch m;
    if (!std::regex_search(code, m, *re)) continue;
    if (m[2].str() != g || m[4].str() != b) return std::string();
    return m.prefix().str() + m[1].str() + G + m[3].str() + B + m[5].str() +
           m.suffix().str();
  }
  return std::string();
}

}  // namespace addscope
