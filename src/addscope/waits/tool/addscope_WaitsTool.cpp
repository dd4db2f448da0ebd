// libaddscope_waits.so — the waits tracker as a Kokkos Tools library: the
// host event source (Kokkos' callbacks, a call stack per thread) of the
// process-wide tracker. Load it into any Kokkos program:
//   Kokkos 3.x:  KOKKOS_PROFILE_LIBRARY=/path/libaddscope_waits.so ./app
//   Kokkos 4.x+: KOKKOS_TOOLS_LIBS=/path/libaddscope_waits.so ./app
//                (or ./app --kokkos-tools-libs=/path/libaddscope_waits.so)
// At finalize it prints the calls that waited (hidden waits first), grouped
// by call site, the starved launches and the kernels (README: "Find hidden
// waits in your own Kokkos program" has the table of every variable).
//   ADDSCOPE_WAITS_OUTPUT=path the text report goes there, not to stderr
//   ADDSCOPE_WAITS_JSON=path   also writes the report as JSON
//   ADDSCOPE_WAITS_TRACE=path  writes a Chrome trace (Perfetto,
//   chrome://tracing)
//   (%p in a path: the process id; %r: the MPI rank)
//   ADDSCOPE_WAITS_TOP, _THRESHOLD, _STARVED_THREADS, _STARVED_SHARE,
//   _STARVED_MIN               what the report lists (output/
//                              addscope_WaitsOptions.hpp)
//   ADDSCOPE_WAITS_DEVICE=cupti|callbacks|none  how the device is watched
//   ADDSCOPE_CUPTI_LIB=path    the libcupti to open
// It asks Kokkos for no global fences (requires_global_fencing = false) and
// adds nothing to the program's streams, so launches stay as asynchronous
// as without it.
//
// It never stops the program it watches: every entry point catches what
// the tracker throws (one line on stderr, then the tool goes quiet), and a
// file it cannot write costs one line on stderr. The report and the JSON
// are written at Kokkos::finalize; if the program ends without it, at
// exit() or a return from main (atexit) and at std::quick_exit
// (at_quick_exit). Not after _exit, abort() or a fatal signal.
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "addscope/waits/addscope_SyncTracker.hpp"
#include "addscope/core/addscope_OutputPath.hpp"
#include "addscope/waits/output/addscope_WaitsReport.hpp"
#include "addscope/waits/tool/addscope_ToolCallbacks.hpp"

namespace {

using addscope::Impl::ToolCallbacks;
using addscope::Impl::ToolsSpaceHandle;

// The Kokkos Tools C ABI (Kokkos_Profiling_C_Interface.h), stable since 3.x.
struct ToolSettings {
  bool requires_global_fencing;
  bool padding[255];
};

ToolCallbacks& tool() {
  static ToolCallbacks* c =
      new ToolCallbacks(addscope::SyncTracker::global());  // never destroyed
  return *c;
}

std::atomic<bool> g_quiet{false};     // an internal error: stop watching
std::atomic<bool> g_finished{false};  // the report is written

// Runs f; what it throws is reported once and silences the tool (an
// exception must not cross into Kokkos: it would end the program).
template <class F>
void guarded(const char* where, F&& f) noexcept {
  if (g_quiet.load(std::memory_order_relaxed)) return;
  try {
    f();
  } catch (const std::exception& e) {
    if (!g_quiet.exchange(true))
      std::fprintf(stderr,
                   "addscope waits: internal error in %s (%s); the tool stops "
                   "watching, the program goes on\n",
                   where, e.what());
  } catch (...) {
    if (!g_quiet.exchange(true))
      std::fprintf(stderr,
                   "addscope waits: internal error in %s; the tool stops "
                   "watching, the program goes on\n",
                   where);
  }
}

// The report and JSON, once: at Kokkos::finalize, or at the exit of a
// program that did not call it.
void finish_once(const char* note) noexcept {
  if (g_finished.exchange(true)) return;
  try {
    std::string json;
    if (const char* p = std::getenv("ADDSCOPE_WAITS_JSON"))
      if (*p) json = addscope::expand_output_path(p);
    std::vector<std::string> warnings;
    const addscope::WaitsReportOptions opt =
        addscope::waits_options_from_environment(&warnings);
    for (const auto& w : warnings) std::cerr << "addscope waits: " << w << "\n";
    if (opt.output.empty()) {
      tool().finalize(std::cerr, json, std::cerr, note ? note : "", opt);
    } else {
      std::ostringstream text;
      tool().finalize(text, json, std::cerr, note ? note : "", opt);
      const std::string path = addscope::expand_output_path(opt.output);
      if (addscope::Impl::write_whole_file(path, text.str(),
                                           "ADDSCOPE_WAITS_OUTPUT", std::cerr))
        std::cerr << "addscope waits: report in " << path << "\n";
      else
        std::cerr << text.str();  // never lose the report
    }
  } catch (...) {
    std::fprintf(stderr, "addscope waits: no report (internal error)\n");
  }
}

void exit_hook() {
  finish_once(
      "the program ended without Kokkos::finalize(); report written at exit");
}
void quick_exit_hook() {
  finish_once(
      "the program ended by std::quick_exit() without Kokkos::finalize(); "
      "report written then");
}

}  // namespace

extern "C" {

void kokkosp_init_library(int, std::uint64_t interface_version, std::uint32_t,
                          void*) {
  guarded("kokkosp_init_library", [&] {
    tool().init(interface_version);
    if (const char* p = std::getenv("ADDSCOPE_WAITS_TRACE")) {
      std::string error;
      if (*p &&
          !tool().tracker().open_trace(addscope::expand_output_path(p), &error))
        std::cerr << "addscope waits: " << error
                  << " (ADDSCOPE_WAITS_TRACE); no trace\n";
    }
    // Registered after the device runtime started (Kokkos initializes its
    // backends before its tools), so they run before it shuts down.
    std::atexit(exit_hook);
    std::at_quick_exit(quick_exit_hook);
  });
}

// Kokkos declares its configuration to tools: "Default Device" names its
// default execution space (where Kokkos 3.x's View initializations run when
// it is a host space).
void kokkosp_declare_metadata(const char* key, const char* value) {
  guarded("kokkosp_declare_metadata", [&] {
    if (key && value && std::strcmp(key, "Default Device") == 0)
      tool().tracker().set_default_device(value);
  });
}

void kokkosp_request_tool_settings(std::uint32_t n, ToolSettings* s) {
  // Global fences around every kernel would move the very waits we look for.
  if (n >= 1 && s) s->requires_global_fencing = false;
}

void kokkosp_finalize_library() {
  if (!g_quiet.load()) finish_once(nullptr);
}

void kokkosp_begin_parallel_for(const char* name, std::uint32_t dev,
                                std::uint64_t* id) {
  guarded("kokkosp_begin_parallel_for",
          [&] { tool().begin_kernel(name, dev, id); });
}
void kokkosp_end_parallel_for(std::uint64_t id) {
  guarded("kokkosp_end_parallel_for", [&] { tool().end_kernel(id); });
}
void kokkosp_begin_parallel_reduce(const char* name, std::uint32_t dev,
                                   std::uint64_t* id) {
  guarded("kokkosp_begin_parallel_reduce",
          [&] { tool().begin_kernel(name, dev, id); });
}
void kokkosp_end_parallel_reduce(std::uint64_t id) {
  guarded("kokkosp_end_parallel_reduce", [&] { tool().end_kernel(id); });
}
void kokkosp_begin_parallel_scan(const char* name, std::uint32_t dev,
                                 std::uint64_t* id) {
  guarded("kokkosp_begin_parallel_scan",
          [&] { tool().begin_kernel(name, dev, id); });
}
void kokkosp_end_parallel_scan(std::uint64_t id) {
  guarded("kokkosp_end_parallel_scan", [&] { tool().end_kernel(id); });
}

void kokkosp_begin_fence(const char* name, std::uint32_t dev,
                         std::uint64_t* id) {
  guarded("kokkosp_begin_fence", [&] { tool().begin_fence(name, dev, id); });
}
void kokkosp_end_fence(std::uint64_t id) {
  guarded("kokkosp_end_fence", [&] { tool().end_fence(id); });
}

void kokkosp_push_profile_region(const char* name) {
  guarded("kokkosp_push_profile_region", [&] { tool().push_region(name); });
}
void kokkosp_pop_profile_region() {
  guarded("kokkosp_pop_profile_region", [&] { tool().pop_region(); });
}

void kokkosp_allocate_data(ToolsSpaceHandle h, const char* label, const void*,
                           std::uint64_t size) {
  guarded("kokkosp_allocate_data", [&] { tool().allocate(h, label, size); });
}
void kokkosp_deallocate_data(ToolsSpaceHandle h, const char* label, const void*,
                             std::uint64_t size) {
  guarded("kokkosp_deallocate_data",
          [&] { tool().deallocate(h, label, size); });
}

void kokkosp_begin_deep_copy(ToolsSpaceHandle dst, const char* dst_name,
                             const void*, ToolsSpaceHandle src,
                             const char* src_name, const void*,
                             std::uint64_t size) {
  guarded("kokkosp_begin_deep_copy",
          [&] { tool().begin_deep_copy(dst, dst_name, src, src_name, size); });
}
void kokkosp_end_deep_copy() {
  guarded("kokkosp_end_deep_copy", [&] { tool().end_deep_copy(); });
}

}  // extern "C"
