// addscope — a call that waited, as JSON: the one form of a CallRecord, in
// the waits tool's JSON (waits[], docs/waits-report.md) and in the apps'
// (the seed experiment's attribution[], docs/json.md).
#ifndef ADDSCOPE_WAITS_OUTPUT_WAITSJSON_HPP
#define ADDSCOPE_WAITS_OUTPUT_WAITSJSON_HPP

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "addscope/waits/model/addscope_WaitRecords.hpp"

namespace addscope {

/// What the waits report's analysis knows of a kernel a call waited for:
/// how it was launched ("" unknown) and whether that launch starved the
/// device.
struct WaitedKernelShape {
  std::string launched_as;  ///< e.g. "1 x 1"; "" when unknown
  bool starved = false;
  /// Where the program launched it: the launch waited for where a stack
  /// was taken there, else the first launch in its shape, else the
  /// kernel's first launch.
  CodeSite launched_at;
};
using WaitedKernelShapes = std::function<WaitedKernelShape(const WaitShare&)>;

/// Where in the program's code (file, line, function, language; module and
/// offset where there is no line); null when unknown.
nlohmann::json code_site_json(const CodeSite& s);

/// `c` as JSON: id, what, site, code, kind, class, thread, begin_s, duration_s,
/// wait_s, own_s, wait_is_bound, regions, context, via, waited_for[]
/// (kernel, kernel_raw, wait_s, stream, launched_as, starved, launched_at:
/// its launch's line as WaitedKernelShape says, null unknown) and line.
/// `line` is the call in one line of text (empty: format_attribution(c));
/// `shapes` says how each kernel was launched (none: launched_as null,
/// starved false).
nlohmann::json call_record_json(const CallRecord& c,
                                const std::string& line = std::string(),
                                const WaitedKernelShapes& shapes = nullptr);

}  // namespace addscope

#endif
