#include "addscope/waits/tool/addscope_ToolCallbacks.hpp"

#include <cstring>
#include <exception>
#include <ostream>
#include <string_view>

#include "addscope/waits/tool/addscope_ToolOutputs.hpp"

namespace addscope {
namespace Impl {

namespace {

std::string_view text(const char* s) {
  return s ? std::string_view(s) : std::string_view();
}

// A memory space as the report names it ("HostSpace" is "Host").
std::string_view space(const ToolsSpaceHandle& h) {
  const std::string_view n(h.name, strnlen(h.name, sizeof h.name));
  return n == "HostSpace" ? std::string_view("Host") : n;
}

}  // namespace

void ToolCallbacks::init(std::uint64_t interface_version) {
  t_.set_fed_by_kokkos_tools(true);
  t_.set_kokkos_interface_version(interface_version);
}

void ToolCallbacks::begin_kernel(const char* name, std::uint32_t device_id,
                                 std::uint64_t* id) {
  const std::uint64_t k =
      t_.kernel_begin(text(name), ExecId::from_tools_id(device_id));
  if (id) *id = k;
}

void ToolCallbacks::end_kernel(std::uint64_t id) { t_.kernel_end(id); }

void ToolCallbacks::begin_fence(const char* name, std::uint32_t device_id,
                                std::uint64_t* id) {
  const std::uint64_t f = t_.call_begin(CallKind::Fence, text(name),
                                        ExecId::from_tools_id(device_id));
  if (id) *id = f;
}

void ToolCallbacks::end_fence(std::uint64_t id) { t_.call_end(id); }

void ToolCallbacks::push_region(const char* name) {
  t_.region_push(text(name));
}

void ToolCallbacks::pop_region() { t_.region_pop(); }

void ToolCallbacks::allocate(const ToolsSpaceHandle& h, const char* label,
                             std::uint64_t size) {
  const std::string_view s = space(h);
  t_.device_seen(device_kind_of_space(s));
  t_.instant(CallKind::Alloc, text(label), s, size);
}

void ToolCallbacks::deallocate(const ToolsSpaceHandle& h, const char* label,
                               std::uint64_t size) {
  t_.instant(CallKind::Dealloc, text(label), space(h), size);
}

void ToolCallbacks::begin_deep_copy(const ToolsSpaceHandle& dst,
                                    const char* dst_name,
                                    const ToolsSpaceHandle& src,
                                    const char* src_name, std::uint64_t size) {
  t_.deep_copy_begin(text(dst_name), text(src_name), space(dst), space(src),
                     size);
}

void ToolCallbacks::end_deep_copy() {
  t_.call_end_innermost(CallKind::DeepCopy);
}

bool ToolCallbacks::finalize(std::ostream& report, const std::string& json_path,
                             std::ostream& errors, const std::string& note,
                             const WaitsReportOptions& options) {
  bool ok = true;
  try {
    t_.finish();
    ToolOutputs out;  // the report to `report`, the JSON to `json_path`
    out.json = json_path;
    ok = write_tool_outputs(out, t_.snapshot(), options, note, errors, &report);
  } catch (const std::exception& e) {
    errors << "addscope waits: no report (" << e.what() << ")\n";
    ok = false;
  } catch (...) {
    errors << "addscope waits: no report (unknown error)\n";
    ok = false;
  }
  t_.set_fed_by_kokkos_tools(false);
  return ok;
}

}  // namespace Impl
}  // namespace addscope
