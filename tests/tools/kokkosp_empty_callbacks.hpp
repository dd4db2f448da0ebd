// The Kokkos Tools entry points registered and left empty by the test tools
// that must cost what an empty tool costs (tests/tools/null_tool.cpp,
// tests/perf/cupti_floor_tool.cpp): the same set as libaddscope_waits.so
// registers, but for init, finalize and the parallel_* pairs, which each
// tool defines itself. One source file per library includes it.
#pragma once
#include <cstdint>

#include "kokkosp_abi.hpp"

extern "C" {
void kokkosp_request_tool_settings(std::uint32_t n, ToolSettings* s) {
  if (n >= 1 && s) s->requires_global_fencing = false;
}
void kokkosp_push_profile_region(const char*) {}
void kokkosp_pop_profile_region() {}
void kokkosp_begin_fence(const char*, std::uint32_t, std::uint64_t* id) {
  *id = 0;
}
void kokkosp_end_fence(std::uint64_t) {}
void kokkosp_allocate_data(SpaceHandle, const char*, const void*,
                           std::uint64_t) {}
void kokkosp_deallocate_data(SpaceHandle, const char*, const void*,
                             std::uint64_t) {}
void kokkosp_begin_deep_copy(SpaceHandle, const char*, const void*, SpaceHandle,
                             const char*, const void*, std::uint64_t) {}
void kokkosp_end_deep_copy() {}
}
