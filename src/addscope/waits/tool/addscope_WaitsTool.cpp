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
//   ADDSCOPE_WAITS_DEVICE=none never use CUPTI (waits become bounds)
//   ADDSCOPE_CUPTI_LIB=path    the libcupti to open
// It asks Kokkos for no global fences (requires_global_fencing = false) and
// adds nothing to the program's streams, so launches stay as asynchronous
// as without it.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "addscope/waits/addscope_SyncTracker.hpp"
#include "addscope/waits/output/addscope_OutputPath.hpp"
#include "addscope/waits/output/addscope_WaitsReport.hpp"

namespace {

// The Kokkos Tools C ABI (Kokkos_Profiling_C_Interface.h), stable since 3.x.
struct SpaceHandle {
  char name[64];
};
struct ToolSettings {
  bool requires_global_fencing;
  bool padding[255];
};

addscope::SyncTracker& tracker() { return addscope::SyncTracker::global(); }

// deep_copy's end callback carries no id: each thread ends its own
// innermost copy.
std::vector<std::uint64_t>& copies() {
  thread_local std::vector<std::uint64_t> c;
  return c;
}

std::string space(const SpaceHandle& h) {
  std::string n(h.name, strnlen(h.name, sizeof h.name));
  return n == "HostSpace" ? "Host" : n;
}

void kernel_begin(const char* name, std::uint32_t dev, std::uint64_t* id) {
  *id = tracker().kernel_begin(name ? name : "",
                               addscope::ExecId::from_tools_id(dev));
}

// Writes `text` to `path` whole or not at all.
void write_file(const char* var, const std::string& path,
                const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp);
    if (f) f << text << "\n";
    if (!f) {
      std::cerr << "addscope waits: cannot write " << var << "=" << path
                << "\n";
      std::remove(tmp.c_str());
      return;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::cerr << "addscope waits: cannot write " << var << "=" << path << "\n";
    std::remove(tmp.c_str());
  }
}

}  // namespace

extern "C" {

void kokkosp_init_library(int, std::uint64_t interface_version, std::uint32_t,
                          void*) {
  tracker().set_fed_by_kokkos_tools(true);
  tracker().set_kokkos_interface_version(interface_version);
  if (const char* p = std::getenv("ADDSCOPE_WAITS_TRACE")) {
    std::string error;
    if (*p && !tracker().open_trace(addscope::expand_output_path(p), &error))
      std::cerr << "addscope waits: " << error
                << " (ADDSCOPE_WAITS_TRACE); no trace\n";
  }
}

// Kokkos declares its configuration to tools: "Default Device" names its
// default execution space (where Kokkos 3.x's View initializations run when
// it is a host space).
void kokkosp_declare_metadata(const char* key, const char* value) {
  if (key && value && std::strcmp(key, "Default Device") == 0)
    tracker().set_default_device(value);
}

void kokkosp_request_tool_settings(std::uint32_t n, ToolSettings* s) {
  // Global fences around every kernel would move the very waits we look for.
  if (n >= 1 && s) s->requires_global_fencing = false;
}

void kokkosp_finalize_library() {
  tracker().finish();
  std::vector<std::string> warnings;
  const addscope::WaitsReportOptions opt =
      addscope::waits_options_from_environment(&warnings);
  for (const auto& w : warnings) std::cerr << "addscope waits: " << w << "\n";
  const addscope::WaitsSnapshot snap = tracker().snapshot();
  if (opt.output.empty()) {
    addscope::write_waits_report(std::cerr, snap, opt);
  } else {
    std::ostringstream text;
    addscope::write_waits_report(text, snap, opt);
    const std::string path = addscope::expand_output_path(opt.output);
    write_file("ADDSCOPE_WAITS_OUTPUT", path, text.str());
    std::cerr << "addscope waits: report in " << path << "\n";
  }
  if (const char* p = std::getenv("ADDSCOPE_WAITS_JSON"))
    if (*p)
      write_file("ADDSCOPE_WAITS_JSON", addscope::expand_output_path(p),
                 addscope::waits_json(snap, opt));
  tracker().set_fed_by_kokkos_tools(false);
}

void kokkosp_begin_parallel_for(const char* name, std::uint32_t dev,
                                std::uint64_t* id) {
  kernel_begin(name, dev, id);
}
void kokkosp_end_parallel_for(std::uint64_t id) { tracker().kernel_end(id); }
void kokkosp_begin_parallel_reduce(const char* name, std::uint32_t dev,
                                   std::uint64_t* id) {
  kernel_begin(name, dev, id);
}
void kokkosp_end_parallel_reduce(std::uint64_t id) { tracker().kernel_end(id); }
void kokkosp_begin_parallel_scan(const char* name, std::uint32_t dev,
                                 std::uint64_t* id) {
  kernel_begin(name, dev, id);
}
void kokkosp_end_parallel_scan(std::uint64_t id) { tracker().kernel_end(id); }

void kokkosp_begin_fence(const char* name, std::uint32_t dev,
                         std::uint64_t* id) {
  *id = tracker().call_begin(addscope::CallKind::Fence, name ? name : "",
                             addscope::ExecId::from_tools_id(dev));
}
void kokkosp_end_fence(std::uint64_t id) { tracker().call_end(id); }

void kokkosp_push_profile_region(const char* name) {
  tracker().region_push(name ? name : "");
}
void kokkosp_pop_profile_region() { tracker().region_pop(); }

void kokkosp_allocate_data(SpaceHandle h, const char* label, const void*,
                           std::uint64_t size) {
  const std::string s = space(h);
  tracker().device_seen(addscope::device_kind_of_space(s));
  tracker().instant(addscope::CallKind::Alloc,
                    "allocate " + std::string(label ? label : "") + " (" + s +
                        ", " + addscope::format_bytes(size) + ")");
}
void kokkosp_deallocate_data(SpaceHandle h, const char* label, const void*,
                             std::uint64_t size) {
  tracker().instant(addscope::CallKind::Dealloc,
                    "deallocate " + std::string(label ? label : "") + " (" +
                        space(h) + ", " + addscope::format_bytes(size) + ")");
}

void kokkosp_begin_deep_copy(SpaceHandle dst, const char* dst_name, const void*,
                             SpaceHandle src, const char* src_name, const void*,
                             std::uint64_t size) {
  const std::string ds = space(dst), ss = space(src);
  tracker().device_seen(addscope::device_kind_of_space(ds));
  tracker().device_seen(addscope::device_kind_of_space(ss));
  const std::string site = "deep_copy " +
                           std::string(dst_name ? dst_name : "") + "<-" +
                           (src_name ? src_name : "") + " (" + ds + "<-" + ss;
  copies().push_back(
      tracker().call_begin(addscope::CallKind::DeepCopy,
                           site + ", " + addscope::format_bytes(size) + ")",
                           addscope::ExecId(), site + ")"));
}
void kokkosp_end_deep_copy() {
  if (copies().empty()) return;
  tracker().call_end(copies().back());
  copies().pop_back();
}

}  // extern "C"
