// A Kokkos Tools library that counts the events Kokkos sends, for the cost
// benchmark (tests/perf/waits_cost.sh): how many events one iteration of
// each loop of tests/tools/event_overhead.cpp is, so that a time per
// iteration becomes a time per event. A region whose name starts with
// "cost::" marks a phase (its own push and pop are not counted); at
// finalize it prints, on stdout,
//   count_tool: phase NAME parallel_for N parallel_reduce N parallel_scan N
//               fence N deep_copy N region N alloc N total N
//   count_tool: calls kokkosp_begin_parallel_for N ... (the whole run)
// (N: events, a begin and an end counted as two; NAME without "cost::").
// Counting is one increment per callback: it is not the empty tool
// (tests/tools/null_tool.cpp), never time a run with it.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>

#include "kokkosp_abi.hpp"

namespace {

enum Kind {
  kParallelFor,
  kParallelReduce,
  kParallelScan,
  kFence,
  kDeepCopy,
  kRegion,
  kAlloc,
  kKinds
};
const char* const kKindNames[kKinds] = {
    "parallel_for", "parallel_reduce", "parallel_scan", "fence",
    "deep_copy",    "region",          "alloc"};

struct Counts {
  std::uint64_t n[kKinds] = {};
};

// Kokkos calls from any thread; the benchmark's programs use one, so plain
// counters do (a race could only lose counts, never crash).
std::map<std::string, Counts>* phases = nullptr;
Counts* current = nullptr;  // the open phase, or the "-" bucket
std::string current_name = "-";
std::uint64_t begin_pf = 0, end_pf = 0, begin_pr = 0, end_pr = 0, begin_ps = 0,
              end_ps = 0, begin_fence = 0, end_fence = 0, begin_dc = 0,
              end_dc = 0, push = 0, pop = 0, alloc = 0, dealloc = 0;
int marker_depth = -1;  // region depth of the open phase marker
int depth = 0;

void count(Kind k) { ++current->n[k]; }

}  // namespace

extern "C" {
void kokkosp_init_library(int, std::uint64_t, std::uint32_t, void*) {
  phases = new std::map<std::string, Counts>;
  current = &(*phases)["-"];
}
void kokkosp_finalize_library() {
  if (!phases) return;
  for (const auto& p : *phases) {
    if (p.first == "-") continue;
    std::uint64_t total = 0;
    std::printf("count_tool: phase %s", p.first.c_str());
    for (int k = 0; k < kKinds; ++k) {
      std::printf(" %s %llu", kKindNames[k], (unsigned long long)p.second.n[k]);
      total += p.second.n[k];
    }
    std::printf(" total %llu\n", (unsigned long long)total);
  }
  std::printf(
      "count_tool: calls kokkosp_begin_parallel_for %llu "
      "kokkosp_end_parallel_for %llu kokkosp_begin_parallel_reduce %llu "
      "kokkosp_end_parallel_reduce %llu kokkosp_begin_parallel_scan %llu "
      "kokkosp_end_parallel_scan %llu kokkosp_begin_fence %llu "
      "kokkosp_end_fence %llu kokkosp_begin_deep_copy %llu "
      "kokkosp_end_deep_copy %llu kokkosp_push_profile_region %llu "
      "kokkosp_pop_profile_region %llu kokkosp_allocate_data %llu "
      "kokkosp_deallocate_data %llu\n",
      (unsigned long long)begin_pf, (unsigned long long)end_pf,
      (unsigned long long)begin_pr, (unsigned long long)end_pr,
      (unsigned long long)begin_ps, (unsigned long long)end_ps,
      (unsigned long long)begin_fence, (unsigned long long)end_fence,
      (unsigned long long)begin_dc, (unsigned long long)end_dc,
      (unsigned long long)push, (unsigned long long)pop,
      (unsigned long long)alloc, (unsigned long long)dealloc);
  std::fflush(stdout);
}
void kokkosp_request_tool_settings(std::uint32_t n, ToolSettings* s) {
  if (n >= 1 && s) s->requires_global_fencing = false;
}
void kokkosp_begin_parallel_for(const char*, std::uint32_t, std::uint64_t* id) {
  *id = 0;
  ++begin_pf;
  count(kParallelFor);
}
void kokkosp_end_parallel_for(std::uint64_t) {
  ++end_pf;
  count(kParallelFor);
}
void kokkosp_begin_parallel_reduce(const char*, std::uint32_t,
                                   std::uint64_t* id) {
  *id = 0;
  ++begin_pr;
  count(kParallelReduce);
}
void kokkosp_end_parallel_reduce(std::uint64_t) {
  ++end_pr;
  count(kParallelReduce);
}
void kokkosp_begin_parallel_scan(const char*, std::uint32_t,
                                 std::uint64_t* id) {
  *id = 0;
  ++begin_ps;
  count(kParallelScan);
}
void kokkosp_end_parallel_scan(std::uint64_t) {
  ++end_ps;
  count(kParallelScan);
}
void kokkosp_push_profile_region(const char* name) {
  ++push;
  ++depth;
  if (marker_depth < 0 && name && std::strncmp(name, "cost::", 6) == 0) {
    marker_depth = depth;
    current_name = name + 6;
    current = &(*phases)[current_name];
    return;
  }
  count(kRegion);
}
void kokkosp_pop_profile_region() {
  ++pop;
  if (depth == marker_depth) {
    marker_depth = -1;
    current = &(*phases)["-"];
    --depth;
    return;
  }
  --depth;
  count(kRegion);
}
void kokkosp_begin_fence(const char*, std::uint32_t, std::uint64_t* id) {
  *id = 0;
  ++begin_fence;
  count(kFence);
}
void kokkosp_end_fence(std::uint64_t) {
  ++end_fence;
  count(kFence);
}
void kokkosp_allocate_data(SpaceHandle, const char*, const void*,
                           std::uint64_t) {
  ++alloc;
  count(kAlloc);
}
void kokkosp_deallocate_data(SpaceHandle, const char*, const void*,
                             std::uint64_t) {
  ++dealloc;
  count(kAlloc);
}
void kokkosp_begin_deep_copy(SpaceHandle, const char*, const void*, SpaceHandle,
                             const char*, const void*, std::uint64_t) {
  ++begin_dc;
  count(kDeepCopy);
}
void kokkosp_end_deep_copy() {
  ++end_dc;
  count(kDeepCopy);
}
}
