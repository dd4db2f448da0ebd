#include "addscope/waits/site/addscope_SiteResolver.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <fstream>

#include "addscope/waits/analyze/addscope_StackTable.hpp"

namespace addscope {
namespace Impl {

const CodeSite& SiteResolver::resolve(const std::vector<std::uint64_t>& stack,
                                      const NameOf& name_of) {
  auto hit = cache_.find(stack);
  if (hit != cache_.end()) return hit->second;
  CodeSite& site = cache_[stack];
  PythonTail py;
  if (python_tail(stack, &py)) {
    // The program is Python: its line, whatever the native frames say.
    site.language = "python";
    if (name_of) {
      site.file = name_of(py.file);
      site.function = name_of(py.function);
      if (py.called) site.called = name_of(py.called);
    }
    site.line = py.line;
    if (site.file.empty() || site.line <= 0) site = CodeSite();
    if (site.line > 0) site.text = line_text(site.file, site.line);
    return site;
  }
  std::vector<SourceFrame> frames;
  for (std::uint64_t pc : stack)
    for (const SourceFrame& f : sym_.frames_at(pc)) frames.push_back(f);
  const int i = choose_program_frame(frames);
  if (i < 0) return site;
  const SourceFrame& f = frames[std::size_t(i)];
  site.function = f.function;
  site.language = f.language;
  if (f.line > 0) {
    site.file = f.file;
    site.line = f.line;
    site.text = line_text(f.file, f.line);
  } else {
    site.module = f.module;
    site.offset = f.offset;
  }
  return site;
}

std::vector<std::string>& SiteResolver::lines_of(const std::string& file) {
  auto it = files_.find(file);
  if (it != files_.end()) return it->second;
  std::vector<std::string>& lines = files_[file];
  struct stat st;
  if (!file.empty() && ::stat(file.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
      std::size_t(st.st_size) <= kMaxFileBytes) {
    std::ifstream in(file);
    for (std::string l; std::getline(in, l);) lines.push_back(std::move(l));
  }
  return lines;
}

CodeSite SiteResolver::python_def(const std::string& file,
                                  const std::string& function) {
  CodeSite def;
  const bool plain =
      !function.empty() && !std::isdigit((unsigned char)function[0]) &&
      std::all_of(function.begin(), function.end(), [](char c) {
        return std::isalnum((unsigned char)c) || c == '_';
      });
  if (!plain) return def;
  const std::string head = "def " + function;
  const std::vector<std::string>& lines = lines_of(file);
  int at = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    const std::size_t b = l.find_first_not_of(" \t");
    if (b == std::string::npos || l.compare(b, head.size(), head) != 0)
      continue;
    const std::size_t p = l.find_first_not_of(" \t", b + head.size());
    if (p == std::string::npos || l[p] != '(') continue;
    if (at) return def;  // defined twice: which one ran is not known
    at = int(i) + 1;
  }
  if (!at) return def;
  def.file = file;
  def.line = at;
  def.function = function;
  def.language = "python";
  def.text = line_text(file, at);
  return def;
}

const std::string& SiteResolver::line_text(const std::string& file, int line) {
  static const std::string kNone;
  std::vector<std::string>& lines = lines_of(file);
  if (line <= 0 || std::size_t(line) > lines.size()) return kNone;
  std::string& l = lines[std::size_t(line) - 1];
  // Trimmed once (lines are kept trimmed after their first use).
  const std::size_t b = l.find_first_not_of(" \t\r");
  const std::size_t e = l.find_last_not_of(" \t\r");
  l = b == std::string::npos ? std::string() : l.substr(b, e - b + 1);
  bool text = true;
  for (char c : l) text = text && (c == '\t' || (unsigned char)c >= 0x20);
  if (!text) l.clear();
  if (l.size() > kMaxText) {  // cut at a character's start (UTF-8)
    std::size_t cut = kMaxText - 3;
    while (cut > 0 && (static_cast<unsigned char>(l[cut]) & 0xC0) == 0x80)
      --cut;
    l = l.substr(0, cut) + "...";
  }
  return l;
}

}  // namespace Impl
}  // namespace addscope
