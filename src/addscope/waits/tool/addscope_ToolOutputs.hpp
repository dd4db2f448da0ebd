// addscope — where the waits tool writes its report, JSON and trace:
// resolved once, when the tool starts (placeholders expanded, made absolute
// against the working folder of that moment, so a later chdir moves
// nothing), with every problem said then in one line each: a path that is
// not a regular file (core/addscope_OutputFile.hpp refuses it), two outputs
// naming the same file. In a child after fork() the patterns are resolved
// again with the child's pid; an output whose pattern has no %p would name
// the parent's file, so the child does not write it (its report goes to
// stderr) — or writes nothing at all with ADDSCOPE_WAITS_CHILDREN=quiet.
#ifndef ADDSCOPE_WAITS_TOOL_TOOLOUTPUTS_HPP
#define ADDSCOPE_WAITS_TOOL_TOOLOUTPUTS_HPP

#include <iosfwd>
#include <string>
#include <vector>

#include "addscope/waits/addscope_WaitsSnapshot.hpp"
#include "addscope/waits/output/addscope_WaitsOptions.hpp"

namespace addscope {
namespace Impl {

struct ToolOutputs {
  std::string report;  ///< "" : stderr; "-" : stdout; else an absolute path
  std::string json;    ///< "" : none
  std::string trace;   ///< "" : none
  bool quiet = false;  ///< write nothing (a child, ADDSCOPE_WAITS_CHILDREN)
  /// What is wrong with the patterns, a line each (said at start-up).
  std::vector<std::string> problems;

  /// From the report pattern in `opt` and the JSON and trace patterns (null
  /// or "" for none). `child`: in a child process after fork(), or a process
  /// that was not the first of the run to start the tool
  /// (first_to_start_in_run()): it writes only the paths that are its own,
  /// those with %p — and with %r too when `rank_apart` (another MPI rank of
  /// the run, not a forked child of one).
  static ToolOutputs resolve(const WaitsReportOptions& opt,
                             const char* json_pattern,
                             const char* trace_pattern, bool child,
                             const char* children = nullptr,
                             bool rank_apart = false);
};

/// Writes the report of `snap` (after `note`, if any) and its JSON where
/// `out` says (a report with no file goes to `console`, stderr by default);
/// never throws. A file that cannot be written costs one line on `errors`
/// (and the report then goes to the console: it is never lost). False if
/// anything could not be written. The one way the tool's outputs are
/// written: at the end of a run, and by ToolCallbacks::finalize.
bool write_tool_outputs(const ToolOutputs& out, const WaitsSnapshot& snap,
                        const WaitsReportOptions& opt, const std::string& note,
                        std::ostream& errors, std::ostream* console = nullptr);

}  // namespace Impl
}  // namespace addscope

#endif
