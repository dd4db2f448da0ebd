// libaddscope_waits.so — the sync tracker as a Kokkos Tools library.
// Load it into any Kokkos program:
//   Kokkos 3.x:  KOKKOS_PROFILE_LIBRARY=/path/libaddscope_waits.so ./app
//   Kokkos 4.x+: KOKKOS_TOOLS_LIBS=/path/libaddscope_waits.so ./app
//                (or ./app --kokkos-tools-libs=/path/libaddscope_waits.so)
// At finalize it prints the calls that blocked longest and the kernels they
// waited for; ADDSCOPE_WAITS_JSON=path also writes them as JSON.
// It asks Kokkos for no global fences (requires_global_fencing = false), so
// the launches stay as asynchronous as they are without it.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "addscope/waits/addscope_SyncTracker.hpp"

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

struct State {
  std::vector<std::uint64_t> regions;
  std::vector<std::uint64_t> copies;
};
State& state() {
  static State s;
  return s;
}

std::string space(const SpaceHandle& h) {
  std::string n(h.name, strnlen(h.name, sizeof h.name));
  return n == "HostSpace" ? "Host" : n;
}

std::string human_bytes(std::uint64_t b) {
  char buf[32];
  if (b >= (1ull << 30))
    std::snprintf(buf, sizeof buf, "%.1f GiB", double(b) / (1ull << 30));
  else if (b >= (1ull << 20))
    std::snprintf(buf, sizeof buf, "%.1f MiB", double(b) / (1ull << 20));
  else if (b >= 1024)
    std::snprintf(buf, sizeof buf, "%.1f KiB", double(b) / 1024);
  else
    std::snprintf(buf, sizeof buf, "%llu B", (unsigned long long)b);
  return buf;
}

}  // namespace

extern "C" {

void kokkosp_init_library(int, std::uint64_t, std::uint32_t, void*) {
  tracker().set_fed_by_kokkos_tools(true);
}

void kokkosp_request_tool_settings(std::uint32_t n, ToolSettings* s) {
  // Global fences around every kernel would move the very waits we look for.
  if (n >= 1 && s) s->requires_global_fencing = false;
}

void kokkosp_finalize_library() {
  tracker().poll();
  tracker().write_report(std::cerr);
  if (const char* path = std::getenv("ADDSCOPE_WAITS_JSON")) {
    std::ofstream f(path);
    if (f)
      f << tracker().report_json() << "\n";
    else
      std::cerr << "addscope waits: cannot write ADDSCOPE_WAITS_JSON=" << path
                << "\n";
  }
  tracker().set_fed_by_kokkos_tools(false);
}

void kokkosp_begin_parallel_for(const char* name, std::uint32_t dev,
                                std::uint64_t* id) {
  *id = tracker().kernel_begin(name, addscope::device_kind_from_tools_id(dev));
}
void kokkosp_end_parallel_for(std::uint64_t id) { tracker().kernel_end(id); }
void kokkosp_begin_parallel_reduce(const char* name, std::uint32_t dev,
                                   std::uint64_t* id) {
  *id = tracker().kernel_begin(name, addscope::device_kind_from_tools_id(dev));
}
void kokkosp_end_parallel_reduce(std::uint64_t id) { tracker().kernel_end(id); }
void kokkosp_begin_parallel_scan(const char* name, std::uint32_t dev,
                                 std::uint64_t* id) {
  *id = tracker().kernel_begin(name, addscope::device_kind_from_tools_id(dev));
}
void kokkosp_end_parallel_scan(std::uint64_t id) { tracker().kernel_end(id); }

void kokkosp_begin_fence(const char* name, std::uint32_t, std::uint64_t* id) {
  *id = tracker().call_begin(std::string("fence '") + name + "'", "fence");
}
void kokkosp_end_fence(std::uint64_t id) { tracker().call_end(id); }

void kokkosp_push_profile_region(const char* name) {
  state().regions.push_back(
      tracker().call_begin(std::string("region ") + name, "region"));
}
void kokkosp_pop_profile_region() {
  if (state().regions.empty()) return;
  tracker().call_end(state().regions.back());
  state().regions.pop_back();
}

void kokkosp_allocate_data(SpaceHandle h, const char* label, const void*,
                           std::uint64_t size) {
  tracker().instant("allocate " + std::string(label) + " (" + space(h) + ", " +
                    human_bytes(size) + ")");
}
void kokkosp_deallocate_data(SpaceHandle h, const char* label, const void*,
                             std::uint64_t size) {
  tracker().instant("deallocate " + std::string(label) + " (" + space(h) +
                    ", " + human_bytes(size) + ")");
}

void kokkosp_begin_deep_copy(SpaceHandle dst, const char* dst_name, const void*,
                             SpaceHandle src, const char* src_name, const void*,
                             std::uint64_t size) {
  const std::string what = "deep_copy " + std::string(dst_name) + "<-" +
                           src_name + " (" + space(dst) + "<-" + space(src) +
                           ", " + human_bytes(size) + ")";
  state().copies.push_back(tracker().call_begin(what, "deep_copy"));
}
void kokkosp_end_deep_copy() {
  if (state().copies.empty()) return;
  tracker().call_end(state().copies.back());
  state().copies.pop_back();
}

}  // extern "C"
