// The waits tool's entry points, as Kokkos and CUDA find them: by name in
// the library's dynamic symbols (dlsym). One missing is silently not
// called — kokkosp_request_tool_settings missing, Kokkos fences around every
// kernel and the tool reports each launch as a wait.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdint>

TEST(WaitsEntryPoints, EveryKokkosToolsAndInjectionEntryPointIsExported) {
  for (const char* name :
       {"kokkosp_init_library", "kokkosp_finalize_library",
        "kokkosp_request_tool_settings", "kokkosp_declare_metadata",
        "kokkosp_begin_parallel_for", "kokkosp_end_parallel_for",
        "kokkosp_begin_parallel_reduce", "kokkosp_end_parallel_reduce",
        "kokkosp_begin_parallel_scan", "kokkosp_end_parallel_scan",
        "kokkosp_begin_fence", "kokkosp_end_fence",
        "kokkosp_push_profile_region", "kokkosp_pop_profile_region",
        "kokkosp_allocate_data", "kokkosp_deallocate_data",
        "kokkosp_begin_deep_copy", "kokkosp_end_deep_copy",
        "InitializeInjection"})
    EXPECT_NE(dlsym(RTLD_DEFAULT, name), nullptr) << name << " not exported";
}

TEST(WaitsEntryPoints, TheToolAsksKokkosForNoGlobalFences) {
  // Kokkos_Profiling_C_Interface.h's Kokkos_Tools_ToolSettings.
  struct {
    bool requires_global_fencing;
    bool padding[255];
  } s{};
  s.requires_global_fencing = true;  // Kokkos' default
  using Fn = void (*)(std::uint32_t, void*);
  const auto f =
      reinterpret_cast<Fn>(dlsym(RTLD_DEFAULT, "kokkosp_request_tool_settings"));
  ASSERT_NE(f, nullptr);
  f(1, &s);
  EXPECT_FALSE(s.requires_global_fencing);
  // No settings asked for (0 of them): nothing written.
  s.requires_global_fencing = true;
  f(0, &s);
  EXPECT_TRUE(s.requires_global_fencing);
}
