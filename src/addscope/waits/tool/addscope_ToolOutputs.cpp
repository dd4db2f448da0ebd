#include "addscope/waits/tool/addscope_ToolOutputs.hpp"

#include <cstring>
#include <iostream>
#include <sstream>

#include "addscope/core/addscope_OutputFile.hpp"
#include "addscope/waits/output/addscope_WaitsReport.hpp"

namespace addscope {
namespace Impl {

namespace {
bool has_pid(const char* pattern) {
  return pattern && std::strstr(pattern, "%p") != nullptr;
}
}  // namespace

ToolOutputs ToolOutputs::resolve(const WaitsReportOptions& opt,
                                 const char* json_pattern,
                                 const char* trace_pattern, bool child,
                                 const char* children, bool rank_apart) {
  ToolOutputs o;
  if (child && children && std::strcmp(children, "quiet") == 0) {
    o.quiet = true;
    return o;
  }
  struct Out {
    const char* var;
    const char* pattern;
    std::string* path;
    const char* instead;  // what happens when it cannot be written
  };
  const Out outs[] = {
      {"ADDSCOPE_WAITS_OUTPUT", opt.output.c_str(), &o.report,
       "the report goes to stderr"},
      {"ADDSCOPE_WAITS_JSON", json_pattern, &o.json, "no JSON report"},
      {"ADDSCOPE_WAITS_TRACE", trace_pattern, &o.trace, "no trace"},
  };
  std::vector<std::pair<std::string, const char*>> taken;  // path, var
  for (const Out& x : outs) {
    if (!x.pattern || !*x.pattern) continue;
    if (std::strcmp(x.pattern, "-") == 0) {
      if (x.path == &o.report) {
        o.report = "-";  // standard output
        continue;
      }
      o.problems.push_back(std::string(x.var) +
                           "='-' is invalid (standard output is for the "
                           "report only); " +
                           x.instead);
      continue;
    }
    if (child && !has_pid(x.pattern) &&
        !(rank_apart && std::strstr(x.pattern, "%r"))) {
      // It would name the parent's file.
      if (x.path != &o.report)
        o.problems.push_back(std::string(x.var) + "='" + x.pattern +
                             "' has no %p: this process (a child, or not "
                             "the first of the run to start the tool) "
                             "does not write it; " +
                             x.instead);
      continue;
    }
    const std::string p = resolve_output_path(x.pattern);
    bool dup = false;
    for (const auto& t : taken)
      if (t.first == p) {
        o.problems.push_back(std::string(x.var) + "='" + x.pattern +
                             "' names the same file as " + t.second + " ('" +
                             p + "'); " + x.instead);
        dup = true;
      }
    if (dup) continue;
    const std::string problem = output_path_problem(p);
    if (!problem.empty()) {
      o.problems.push_back(std::string("cannot write ") + x.var + ": " +
                           problem + "; " + x.instead);
      continue;
    }
    *x.path = p;
    taken.emplace_back(p, x.var);
  }
  return o;
}

bool write_tool_outputs(const ToolOutputs& out, const WaitsSnapshot& snap,
                        const WaitsReportOptions& opt, const std::string& note,
                        std::ostream& errors, std::ostream* console) {
  std::ostream& err_console = console ? *console : std::cerr;
  if (out.quiet) return true;
  bool ok = true;
  try {
    std::ostringstream text;
    if (!note.empty()) text << "addscope waits: " << note << "\n";
    write_waits_report(text, snap, opt);
    std::string why;
    if (out.report.empty()) {
      err_console << text.str() << std::flush;
    } else if (out.report == "-") {
      std::cout << text.str() << std::flush;
    } else if (write_file_atomically(out.report, text.str(), &why)) {
      errors << "addscope waits: report in " << out.report << "\n";
    } else {
      errors << "addscope waits: " << why
             << " (ADDSCOPE_WAITS_OUTPUT); the report follows on stderr\n";
      err_console << text.str() << std::flush;
      ok = false;
    }
    if (!out.json.empty() &&
        !write_file_atomically(out.json, waits_json(snap, opt) + "\n", &why)) {
      errors << "addscope waits: " << why
             << " (ADDSCOPE_WAITS_JSON); no JSON report\n";
      ok = false;
    }
  } catch (const std::exception& e) {
    errors << "addscope waits: no report (" << e.what() << ")\n";
    ok = false;
  } catch (...) {
    errors << "addscope waits: no report (unknown error)\n";
    ok = false;
  }
  errors.flush();
  return ok;
}

}  // namespace Impl
}  // namespace addscope
