#include "addscope/waits/addscope_WaitsSettings.hpp"

#include <cstdlib>
#include <cstring>

namespace addscope {

const std::vector<WaitsSetting>& waits_settings() {
  static const std::vector<WaitsSetting> settings = {
      {"ADDSCOPE_WAITS_OUTPUT", "--output", "FILE", "(stderr)",
       "write the text report to FILE instead of stderr; `-`: standard output"},
      {"ADDSCOPE_WAITS_JSON", "--json", "FILE", "(none)",
       "also write the report as JSON (its fields: waits-report.md, below)"},
      {"ADDSCOPE_WAITS_TRACE", "--trace", "FILE", "(none)",
       "write a Chrome trace (Perfetto, chrome://tracing; "
       "addscope-waits-plot draws it)"},
      {"ADDSCOPE_WAITS_TOP", "--top", "N", "10",
       "rows per table: call sites per class, kernels, idle rows (1 to "
       "1000000)"},
      {"ADDSCOPE_WAITS_THRESHOLD", "--threshold", "DURATION", "10us",
       "call sites waiting less in all are counted, not listed (10us, 1.5ms, "
       "2s, 0.001 = seconds)"},
      {"ADDSCOPE_WAITS_STARVED_THREADS", "--starved-threads", "FRACTION",
       "0.125",
       "starved: fewer threads in flight than this share of the resident "
       "ones (0 to 1)"},
      {"ADDSCOPE_WAITS_STARVED_SHARE", "--starved-share", "FRACTION", "0.01",
       "... and at least this share of all kernels' device time (0 to 1)"},
      {"ADDSCOPE_WAITS_STARVED_MIN", "--starved-min", "DURATION", "1ms",
       "... and at least this long in all"},
      {"ADDSCOPE_WAITS_DEVICE", "--device", "MODE", "cupti",
       "how the device is watched: cupti (kernel records and callbacks), "
       "callbacks (no kernel records: waits are bounds), none (Kokkos' "
       "events only)"},
      {"ADDSCOPE_CUPTI_LIB", "--cupti-lib", "LIB", "(searched)",
       "the libcupti to open first (a path, or a name the loader finds); "
       "else beside the program's libcudart, pip's and conda's folders, "
       "CUDA_HOME, /usr/local/cuda*, the loader's path"},
      {"ADDSCOPE_WAITS_SITES", "--sites", "MODE", "on",
       "on: name each wait and launch at the program's own line of code (a "
       "stack taken where a call lasted at least the threshold, at each "
       "kernel's first launch, its first in each launch shape and at each "
       "new place it is launched from, and at a launch after 100 us of host "
       "code; -g "
       "gives file:line, else module+offset); off: no stack is taken"},
      {"ADDSCOPE_WAITS_PLACES", nullptr, "0|1", "1",
       "with sites on: 1 places each device launch at its own line (a stack "
       "at a new place, a few loads at one seen before); 0: a launch "
       "without a stack of its own is at its kernel's (or shape's) first "
       "launch (to weigh what places cost)"},
      {"ADDSCOPE_WAITS_VERBOSE", "-v", "", "0",
       "1: say on stderr how the tool came in and what CUPTI delivered"},
      {"ADDSCOPE_WAITS_COPY_RECORDS", nullptr, "0|1", "1",
       "0: no CUPTI memcpy/memset records (cheaper; the device's busy time "
       "then counts kernels only)"},
      {"ADDSCOPE_WAITS_FLUSH_EVERY", nullptr, "DURATION", "20ms",
       "how often, at most, CUPTI's records are asked for while a blocking "
       "call waits for them; 0: never on a timer"},
      {"ADDSCOPE_WAITS_LAUNCHES", nullptr, "callbacks|external", "callbacks",
       "how kernel records are tied to Kokkos launches: the runtime's launch "
       "callbacks, or the Kokkos call's id as CUPTI's external correlation id"},
      {"ADDSCOPE_WAITS_API_RECORDS", nullptr, "all|launches", "all",
       "with ADDSCOPE_WAITS_LAUNCHES=external: every runtime call's API "
       "record, or the launches' only (CUPTI 12 and later)"},
      {"ADDSCOPE_WAITS_CHILDREN", nullptr, "quiet", "(report)",
       "quiet: processes the program forks write nothing (by default each "
       "writes its own outputs)"},
      {"ADDSCOPE_WAITS_EXIT_HOOK_AT_CUDA", nullptr, "0|1", "1",
       "0: no second exit hook at the first CUDA call (for tests)"},
      {"ADDSCOPE_WAITS_STARTED", nullptr, "FILE", "(none)",
       "the file through which each process that starts the tool tells "
       "addscope-waits",
       true},
      {"ADDSCOPE_WAITS_LAUNCHER", nullptr, "1", "(none)",
       "started by addscope-waits: hints name its flags", true},
      {"ADDSCOPE_PYTHON_SITE_PACKAGES", nullptr, "FOLDERS", "(none)",
       "the pip-installed launcher's site-packages, where CUPTI is looked "
       "for too",
       true},
  };
  return settings;
}

const char* waits_setting(const char* variable) {
  for (const WaitsSetting& w : waits_settings())
    if (std::strcmp(w.variable, variable) == 0) return std::getenv(variable);
  return nullptr;
}

std::string waits_settings_markdown() {
  std::string s =
      "| variable | flag | default | meaning |\n|---|---|---|---|\n";
  for (const WaitsSetting& w : waits_settings()) {
    std::string flag = w.flag ? std::string("`") + w.flag +
                                    (*w.value_name && w.flag[1] == '-'
                                         ? std::string(" ") + w.value_name
                                         : std::string()) +
                                    "`"
                              : std::string();
    std::string help = w.help;
    if (w.internal) help = "(set by the launchers) " + help;
    s += std::string("| `") + w.variable + "` | " + flag + " | " + w.fallback +
         " | " + help + " |\n";
  }
  return s;
}

}  // namespace addscope
