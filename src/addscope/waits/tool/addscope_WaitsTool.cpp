// libaddscope_waits.so — the waits tracker as a Kokkos Tools library: the
// host event source (Kokkos' callbacks, a call stack per thread) of the
// process-wide tracker. Load it into any Kokkos program (addscope-waits
// sets the variable the program's Kokkos reads: KOKKOS_TOOLS_LIBS from 3.7,
// KOKKOS_PROFILE_LIBRARY before). At finalize it prints the calls that
// waited (hidden waits first), grouped by call site, the starved launches
// and the kernels. Its settings: addscope_WaitsSettings.hpp, the one table.
// It asks Kokkos for no global fences (requires_global_fencing = false) and
// adds nothing to the program's streams, so launches stay as asynchronous
// as without it.
//
// It never stops the program it watches: every entry point catches what
// the tracker throws (one line on stderr, then the tool goes quiet), and a
// file it cannot write costs one line on stderr. The report, JSON and trace
// are written at Kokkos::finalize, at exit without it, and when the program
// is killed by SIGTERM, SIGINT or SIGHUP or aborts (tool/
// addscope_ToolLifecycle.hpp); where they go is decided once, when the tool
// loads (tool/addscope_ToolOutputs.hpp). ADDSCOPE_WAITS_VERBOSE=1 prints
// one line when it loads (tool/addscope_ToolStart.hpp).
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <mutex>
#include <string>
#include <vector>

#include "addscope/core/addscope_OutputPath.hpp"
#include "addscope/waits/addscope_SyncTracker.hpp"
#include "addscope/waits/addscope_WaitsSettings.hpp"
#include "addscope/waits/output/addscope_WaitsReport.hpp"
#include "addscope/waits/tool/addscope_ToolCallbacks.hpp"
#include "addscope/waits/tool/addscope_ToolLifecycle.hpp"
#include "addscope/waits/tool/addscope_ToolOutputs.hpp"
#include "addscope/waits/tool/addscope_ToolStart.hpp"

// The Kokkos Tools C ABI (Kokkos_Profiling_C_Interface.h), stable since 3.x.
// Outside the anonymous namespace: kokkosp_request_tool_settings takes it,
// and a function of a type with internal linkage has internal linkage too
// (g++ 13 then leaves it out of the library's symbols, and Kokkos fences
// around every kernel for a tool that never said it needs no fences).
struct AddscopeToolSettings {
  bool requires_global_fencing;
  bool padding[255];
};

namespace {

using addscope::Impl::ToolCallbacks;
using addscope::Impl::ToolOutputs;
using addscope::Impl::ToolsSpaceHandle;

ToolCallbacks& tool() {
  static ToolCallbacks* c =
      new ToolCallbacks(addscope::SyncTracker::global());  // never destroyed
  return *c;
}

std::atomic<bool> g_quiet{false};  // an internal error: stop watching
// The outputs, decided when the tool loads (again in a child after fork).
addscope::WaitsReportOptions g_options;
ToolOutputs g_outputs;
// finish_once(): the first caller writes, the others wait for it.
std::mutex& finish_mutex() {
  static std::mutex* m = new std::mutex;  // never destroyed
  return *m;
}
bool g_finished = false;

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

// What is wrong with the outputs, said once: at once, or in a forked child
// at its report (a child that execs, as Python 3.9's subprocess does after
// fork(), says nothing).
bool g_problems_said = true;
void say_output_problems() {
  if (g_problems_said) return;
  g_problems_said = true;
  for (const auto& p : g_outputs.problems)
    std::cerr << "addscope waits: " << p << "\n";
}

// `child`: a forked child, or a later process of the run (`rank_apart`:
// one with an MPI rank of its own); `say_now`: the outputs' problems now,
// else at the report.
void resolve_outputs(bool child, bool rank_apart = false, bool say_now = true) {
  std::vector<std::string> warnings;
  g_options = addscope::waits_options_from_environment(&warnings);
  for (const auto& w : warnings) std::cerr << "addscope waits: " << w << "\n";
  g_outputs = ToolOutputs::resolve(
      g_options, addscope::waits_setting("ADDSCOPE_WAITS_JSON"),
      addscope::waits_setting("ADDSCOPE_WAITS_TRACE"), child,
      addscope::waits_setting("ADDSCOPE_WAITS_CHILDREN"), rank_apart);
  g_problems_said = false;
  if (say_now) say_output_problems();
  if (!g_outputs.trace.empty()) {
    std::string error;
    if (!tool().tracker().open_trace(g_outputs.trace, &error))
      std::cerr << "addscope waits: " << error
                << " (ADDSCOPE_WAITS_TRACE); no trace\n";
  }
}

// The report, JSON and trace, once: at Kokkos::finalize, at the exit of a
// program that did not call it, or when it is killed.
void finish_once(const char* note) noexcept {
  try {
    std::lock_guard<std::mutex> g(finish_mutex());
    if (g_finished) return;
    g_finished = true;
    say_output_problems();
    tool().tracker().finish();
    addscope::Impl::write_tool_outputs(g_outputs, tool().tracker().snapshot(),
                                       g_options, note ? note : "", std::cerr);
    tool().tracker().set_fed_by_kokkos_tools(false);
  } catch (...) {
    std::fprintf(stderr, "addscope waits: no report (internal error)\n");
  }
}

void after_fork_child_hook() {
  g_finished = false;
  resolve_outputs(/*child=*/true, /*rank_apart=*/false, /*say_now=*/false);
  tool().tracker().start_background(&addscope::Impl::on_posted_signal);
}

// The tool's own start, once per process whichever front door comes first:
// outputs, the exit and signal hooks, the analyzer's thread.
bool g_started = false;
void start_tool_once() {
  if (g_started) return;
  g_started = true;
  // A later process of the run writes only the outputs named by its pid
  // (or by its rank: an MPI rank under one launcher).
  const bool later = !addscope::Impl::first_to_start_in_run();
  resolve_outputs(later, later && addscope::rank_from_environment() >= 0);
  addscope::Impl::LifecycleHooks hooks;
  hooks.finish = &finish_once;
  hooks.after_fork_child = &after_fork_child_hook;
  addscope::Impl::install_lifecycle(tool().tracker(), hooks);
  tool().tracker().start_background(&addscope::Impl::on_posted_signal);
}

}  // namespace

extern "C" {

// CUPTI's injection entry point: CUDA loads libaddscope_waits.so through
// CUDA_INJECTION64_PATH into any CUDA program (C++, CuPy, numba, PyTorch)
// when it initializes, and calls this. A Kokkos program loaded both ways
// runs the tool once (the second front door finds it started).
int InitializeInjection(void) {
  guarded("InitializeInjection", [] {
    addscope::Impl::announce_tool_start(
        addscope::Impl::FrontDoor::CudaInjection);
    start_tool_once();
    tool().tracker().trace_any_cuda_program();
  });
  return 1;
}

void kokkosp_init_library(int, std::uint64_t interface_version, std::uint32_t,
                          void*) {
  guarded("kokkosp_init_library", [&] {
    tool().init(interface_version);
    char v[32];
    std::snprintf(v, sizeof v, "%llu", (unsigned long long)interface_version);
    addscope::Impl::announce_tool_start(addscope::Impl::FrontDoor::KokkosTools,
                                        v);
    start_tool_once();
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

void kokkosp_request_tool_settings(std::uint32_t n, AddscopeToolSettings* s) {
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
