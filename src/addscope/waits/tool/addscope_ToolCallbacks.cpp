#include "addscope/waits/tool/addscope_ToolCallbacks.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <ostream>
#include <string_view>

#include "addscope/core/addscope_Format.hpp"
#include "addscope/waits/output/addscope_WaitsReport.hpp"

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

// "4 B", "38.1 MiB": made again only when the size changes.
std::string_view bytes_text(std::uint64_t size) {
  thread_local std::uint64_t last = ~std::uint64_t(0);
  thread_local std::string s;
  if (size != last) {
    s = format_bytes(size);
    last = size;
  }
  return s;
}

// "<verb> <label> (<space>, <bytes>)", in a thread's scratch buffer.
std::string_view instant_text(const char* verb, const ToolsSpaceHandle& h,
                              const char* label, std::uint64_t size) {
  thread_local std::string s;
  s.assign(verb);
  s.append(text(label));
  s.append(" (");
  s.append(space(h));
  s.append(", ");
  s.append(bytes_text(size));
  s.append(")");
  return s;
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
  t_.instant(CallKind::Alloc, instant_text("allocate ", h, label, size));
}

void ToolCallbacks::deallocate(const ToolsSpaceHandle& h, const char* label,
                               std::uint64_t size) {
  t_.instant(CallKind::Dealloc, instant_text("deallocate ", h, label, size));
}

void ToolCallbacks::begin_deep_copy(const ToolsSpaceHandle& dst,
                                    const char* dst_name,
                                    const ToolsSpaceHandle& src,
                                    const char* src_name, std::uint64_t size) {
  const std::string_view ds = space(dst), ss = space(src);
  t_.device_seen(device_kind_of_space(ds));
  t_.device_seen(device_kind_of_space(ss));
  // "deep_copy dst<-src (Dst<-Src, 4 B)"; its site without the size.
  thread_local std::string what, site;
  site.assign("deep_copy ");
  site.append(text(dst_name));
  site.append("<-");
  site.append(text(src_name));
  site.append(" (");
  site.append(ds);
  site.append("<-");
  site.append(ss);
  what.assign(site);
  what.append(", ");
  what.append(bytes_text(size));
  what.append(")");
  site.append(")");
  t_.call_begin(CallKind::DeepCopy, what, ExecId(), site);
}

void ToolCallbacks::end_deep_copy() {
  t_.call_end_innermost(CallKind::DeepCopy);
}

bool write_whole_file(const std::string& path, const std::string& text,
                      const char* what, std::ostream& errors) {
  const std::string tmp = path + ".tmp";
  bool ok = false;
  {
    std::ofstream f(tmp);
    if (f) f << text << "\n";
    f.flush();
    ok = bool(f);
  }
  if (ok && std::rename(tmp.c_str(), path.c_str()) == 0) return true;
  std::remove(tmp.c_str());
  errors << "addscope waits: cannot write " << what << "=" << path
         << (errno ? std::string(" (") + std::strerror(errno) + ")" : "")
         << (std::string_view(what) == "ADDSCOPE_WAITS_JSON"
                 ? "; no JSON report"
                 : "; the report follows on stderr")
         << "\n";
  return false;
}

bool ToolCallbacks::finalize(std::ostream& report, const std::string& json_path,
                             std::ostream& errors, const std::string& note,
                             const WaitsReportOptions& options) {
  bool ok = true;
  try {
    t_.finish();
    if (!note.empty()) report << "addscope waits: " << note << "\n";
    const WaitsSnapshot snap = t_.snapshot();
    write_waits_report(report, snap, options);
    report.flush();
    if (!json_path.empty()) {
      errno = 0;
      ok = write_whole_file(json_path, waits_json(snap, options),
                            "ADDSCOPE_WAITS_JSON", errors);
    }
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
