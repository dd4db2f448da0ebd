#include "addscope/waits/site/addscope_SiteResolver.hpp"

#include "addscope/waits/analyze/addscope_StackTable.hpp"

namespace addscope {
namespace Impl {

const CodeSite& SiteResolver::resolve(const std::vector<std::uint64_t>& stack,
                                      const NameOf& name_of) {
  auto hit = cache_.find(stack);
  if (hit != cache_.end()) return hit->second;
  CodeSite& site = cache_[stack];
  const std::size_t n = stack.size();
  if (n >= 4 && stack[n - 4] == kPythonFrameTag) {
    // The program is Python: its line, whatever the native frames say.
    site.language = "python";
    if (name_of) {
      site.file = name_of(std::uint32_t(stack[n - 3]));
      site.function = name_of(std::uint32_t(stack[n - 2]));
    }
    site.line = int(stack[n - 1]);
    if (site.file.empty() || site.line <= 0) site = CodeSite();
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
  } else {
    site.module = f.module;
    site.offset = f.offset;
  }
  return site;
}

}  // namespace Impl
}  // namespace addscope
