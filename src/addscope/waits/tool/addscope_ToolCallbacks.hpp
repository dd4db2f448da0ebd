// addscope — the Kokkos Tools events as the waits tracker takes them: what
// libaddscope_waits.so's entry points (kokkosp_*) do, on any tracker, so
// that tests and the fuzzer drive the same code with a tracker of their own.
// Kokkos-free (the Kokkos Tools C ABI is declared here). Builds no string
// per event: names go to the tracker as they come (its log keeps each
// thread's names), text is made by the analyzer.
#ifndef ADDSCOPE_WAITS_TOOL_TOOLCALLBACKS_HPP
#define ADDSCOPE_WAITS_TOOL_TOOLCALLBACKS_HPP

#include <cstdint>
#include <iosfwd>
#include <string>

#include "addscope/waits/addscope_SyncTracker.hpp"
#include "addscope/waits/output/addscope_WaitsOptions.hpp"

namespace addscope {
namespace Impl {

/// Kokkos_Profiling_SpaceHandle (Kokkos_Profiling_C_Interface.h).
struct ToolsSpaceHandle {
  char name[64];
};

class ToolCallbacks {
 public:
  explicit ToolCallbacks(SyncTracker& tracker) : t_(tracker) {}

  void init(std::uint64_t interface_version);
  void begin_kernel(const char* name, std::uint32_t device_id,
                    std::uint64_t* id);
  void end_kernel(std::uint64_t id);
  void begin_fence(const char* name, std::uint32_t device_id,
                   std::uint64_t* id);
  void end_fence(std::uint64_t id);
  void push_region(const char* name);
  void pop_region();
  void allocate(const ToolsSpaceHandle& h, const char* label,
                std::uint64_t size);
  void deallocate(const ToolsSpaceHandle& h, const char* label,
                  std::uint64_t size);
  void begin_deep_copy(const ToolsSpaceHandle& dst, const char* dst_name,
                       const ToolsSpaceHandle& src, const char* src_name,
                       std::uint64_t size);
  /// Kokkos' end of a deep_copy names none: the thread's innermost one ends.
  void end_deep_copy();

  /// The end of the run: attributes what is pending, writes the report to
  /// `report` and, if `json_path` is not empty, the JSON report there
  /// (whole or not at all). Returns false, with one line on `errors`, if a
  /// file could not be written; never throws.
  bool finalize(std::ostream& report, const std::string& json_path,
                std::ostream& errors, const std::string& note = "",
                const WaitsReportOptions& options = WaitsReportOptions());

  SyncTracker& tracker() { return t_; }

 private:
  SyncTracker& t_;
};

}  // namespace Impl
}  // namespace addscope

#endif
