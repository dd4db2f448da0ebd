#include "waits_flags.hpp"

#include <sys/stat.h>

#include <cstring>

#include "addscope/waits/addscope_WaitsSettings.hpp"
#include "addscope/waits/output/addscope_WaitsOptions.hpp"

namespace addscope {
namespace apps {

namespace {

// waits_options_from_environment() takes a plain function for its lookup:
// the one variable under test.
const char* g_var = nullptr;
const char* g_value = nullptr;
const char* lookup_one(const char* var) {
  return g_var && std::strcmp(var, g_var) == 0 ? g_value : nullptr;
}

// The tool's message, "VAR='v' is invalid; allowed: X (using D)", said of
// the flag: "--flag = 'v' is invalid; allowed: X".
std::string as_flag_message(const std::string& tool_message, const WaitsFlag& f,
                            const std::string& value) {
  std::string allowed;
  const auto a = tool_message.find("allowed: ");
  if (a != std::string::npos) {
    allowed = tool_message.substr(a + 9);
    const auto using_at = allowed.rfind(" (using ");
    if (using_at != std::string::npos) allowed.erase(using_at);
  }
  return std::string(f.flag) + " = '" + value +
         "' is invalid; allowed: " + (allowed.empty() ? "see --help" : allowed);
}

void check_output_path(const WaitsFlag& f, const std::string& value) {
  if (value.empty())
    throw FlagError(std::string(f.flag) +
                    " = '' is invalid; allowed: a file path (%p: the process "
                    "id, %r: the MPI rank)");
  const auto slash = value.rfind('/');
  if (slash == std::string::npos || slash == 0) return;
  const std::string folder = value.substr(0, slash);
  if (folder.find('%') != std::string::npos) return;  // expanded by the tool
  struct stat st;
  if (::stat(folder.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw FlagError(std::string(f.flag) + " = '" + value +
                    "' is invalid: the folder '" + folder +
                    "' does not exist; allowed: a file in an existing folder");
}

}  // namespace

const std::vector<WaitsFlag>& waits_flags() {
  static const std::vector<WaitsFlag> flags = [] {
    std::vector<WaitsFlag> v;
    for (const WaitsSetting& w : waits_settings()) {
      if (!w.flag || !*w.value_name || w.flag[1] != '-')
        continue;  // -v: a switch
      std::string help = w.help;
      if (w.fallback[0] != '(')
        help += std::string(" (default ") + w.fallback + ")";
      v.push_back({w.flag, w.variable, w.value_name, help});
    }
    return v;
  }();
  return flags;
}

void check_flag_value(const WaitsFlag& f, const std::string& value) {
  const std::string var = f.variable;
  if (var == "ADDSCOPE_WAITS_OUTPUT" || var == "ADDSCOPE_WAITS_JSON" ||
      var == "ADDSCOPE_WAITS_TRACE")
    return check_output_path(f, value);
  if (var == "ADDSCOPE_WAITS_DEVICE") {
    if (value != "cupti" && value != "callbacks" && value != "none")
      throw FlagError(std::string(f.flag) + " = '" + value +
                      "' is invalid; allowed: cupti, callbacks, none");
    return;
  }
  if (var == "ADDSCOPE_WAITS_SITES") {
    if (value != "on" && value != "off")
      throw FlagError(std::string(f.flag) + " = '" + value +
                      "' is invalid; allowed: on, off");
    return;
  }
  if (var == "ADDSCOPE_CUPTI_LIB") {
    if (value.empty())
      throw FlagError(std::string(f.flag) +
                      " = '' is invalid; allowed: a path to libcupti.so, or "
                      "a library name such as libcupti.so.13");
    struct stat st;
    if (value.find('/') != std::string::npos &&
        (::stat(value.c_str(), &st) != 0 || !S_ISREG(st.st_mode)))
      throw FlagError(std::string(f.flag) + " = '" + value +
                      "' is invalid: no such file; allowed: a path to "
                      "libcupti.so, or a library name such as libcupti.so.13");
    return;
  }
  // The report's options: exactly what the tool accepts. An empty value
  // counts as unset for the tool: refused here.
  g_var = f.variable;
  g_value = value.c_str();
  std::vector<std::string> warnings;
  addscope::waits_options_from_environment(&warnings, lookup_one);
  g_var = g_value = nullptr;
  if (value.empty() || !warnings.empty()) {
    std::string probe = warnings.empty() ? "" : warnings.front();
    if (probe.empty()) {
      // what the tool says of a value that is surely wrong
      g_var = f.variable;
      g_value = "?";
      std::vector<std::string> w;
      addscope::waits_options_from_environment(&w, lookup_one);
      g_var = g_value = nullptr;
      probe = w.empty() ? "" : w.front();
    }
    throw FlagError(as_flag_message(probe, f, value));
  }
}

LoadWays parse_load(const std::string& value) {
  LoadWays w;
  w.kokkos = w.cuda = false;
  std::string item;
  bool any = false;
  auto take = [&](const std::string& i) {
    if (i.empty()) return;
    if (i == "kokkos")
      w.kokkos = true;
    else if (i == "cuda")
      w.cuda = true;
    else
      throw FlagError("--load = '" + value +
                      "' is invalid; allowed: kokkos, cuda, or both "
                      "(kokkos,cuda)");
    any = true;
  };
  for (char c : value) {
    if (c == ',' || c == ' ' || c == ';') {
      take(item);
      item.clear();
    } else {
      item += c;
    }
  }
  take(item);
  if (!any)
    throw FlagError("--load = '" + value +
                    "' is invalid; allowed: kokkos, cuda, or both "
                    "(kokkos,cuda)");
  return w;
}

LoadingVariables loading_variables(const std::string& tool,
                                   const LoadWays& ways,
                                   KokkosToolsVariable kokkos) {
  LoadingVariables v;
  if (ways.kokkos) {
    const bool profile = kokkos != KokkosToolsVariable::ToolsLibs;
    const bool tools = kokkos != KokkosToolsVariable::ProfileLibrary;
    if (profile) v.set.emplace_back("KOKKOS_PROFILE_LIBRARY", tool);
    if (tools) v.set.emplace_back("KOKKOS_TOOLS_LIBS", tool);
    if (!profile) v.unset.emplace_back("KOKKOS_PROFILE_LIBRARY");
    if (!tools) v.unset.emplace_back("KOKKOS_TOOLS_LIBS");
  }
  if (ways.cuda) v.set.emplace_back("CUDA_INJECTION64_PATH", tool);
  return v;
}

}  // namespace apps
}  // namespace addscope
