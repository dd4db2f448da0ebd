// addscope-waits — where libaddscope_waits.so is: --tool if given, else the
// one installed beside the launcher (<bindir>/../<libdir>, ../lib, ../lib64:
// an install, or a bundle with bin/ and lib/), else the one of the build
// tree the launcher was built in (apps/waits/ -> src/).
#ifndef ADDSCOPE_APPS_WAITS_TOOL_PATH_HPP
#define ADDSCOPE_APPS_WAITS_TOOL_PATH_HPP

#include <string>
#include <vector>

namespace addscope {
namespace apps {

/// The folder of the running program (from /proc/self/exe; `argv0`'s if
/// that cannot be read). "" if neither says.
std::string launcher_folder(const char* argv0);

/// The places libaddscope_waits.so is looked for beside `folder`, in order.
std::vector<std::string> tool_candidates(const std::string& folder);

/// The first candidate that is a readable regular file, made absolute;
/// "" if none is.
std::string find_tool(const std::vector<std::string>& candidates);

/// Why `path` cannot be the tool ("" if it can): missing, not a regular
/// file, unreadable.
std::string tool_problem(const std::string& path);

/// The folder of the waits tool's documents: installed beside the
/// launcher (<bindir>/../share/doc/addscope), else the sources' docs/ of
/// the build tree; "" if neither exists.
std::string docs_folder(const std::string& launcher_folder);

/// `path` made absolute (against the working folder), symbolic links
/// resolved when it exists.
std::string absolute_path(const std::string& path);

}  // namespace apps
}  // namespace addscope

#endif
