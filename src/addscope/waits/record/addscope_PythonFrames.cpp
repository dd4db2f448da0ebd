#include "addscope/waits/record/addscope_PythonFrames.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>

namespace addscope {
namespace Impl {

namespace {

// Where CPython keeps what a walk reads, per version (x86-64, the default
// build: not free-threaded); ../shared/PYTHON-SITES.md has the table.
struct Layout {
  unsigned version;  // 0xMMmm
  // thread state -> innermost frame: tstate + first, then (two-step
  // versions) + second
  int tstate_frame, frame_second;  // second < 0: one step
  int frame_previous, frame_code, frame_instr;
  int frame_owner;           // < 0: none (3.10, 3.11)
  int lasti_unit;  // f_lasti's bytes per unit (3.10: 2, an index of code
                   // units; 3.9: 1, a byte offset); 0: an instruction pointer
  int code_filename, code_name, code_qualname, code_adaptive;
  int str_ascii_data;  // compact ASCII data after the object
  int code_flags;      // co_flags (CO_NESTED 0x10: a function defined in one)
};

constexpr Layout kLayouts[] = {
    // 3.9: tstate->frame (PyFrameObject), f_back, f_code, f_lasti (bytes)
    {0x0309, 24, -1, 24, 32, 104, -1, 1, 104, 112, -1, -1, 48, 36},
    // 3.10: the same, f_lasti in code units
    {0x030a, 24, -1, 24, 32, 96, -1, 2, 104, 112, -1, -1, 48, 36},
    // 3.11: tstate->cframe->current_frame, previous, f_code, prev_instr
    {0x030b, 56, 8, 48, 32, 56, -1, 0, 112, 120, 128, 184, 48, 48},
    // 3.12: the same through cframe, owner (3: a C-stack shim)
    {0x030c, 56, 0, 8, 0, 56, 70, 0, 112, 120, 128, 192, 40, 48},
    // 3.13: tstate->current_frame, f_executable, instr_ptr
    {0x030d, 72, -1, 8, 0, 56, 70, 0, 112, 120, 128, 200, 40, 48},
};

using GetThisThreadState = void* (*)();
using Addr2Line = int (*)(void*, int);

struct Interp {
  const Layout* layout = nullptr;
  GetThisThreadState tstate = nullptr;
  Addr2Line addr2line = nullptr;
  void* code_type = nullptr;  // &PyCode_Type: 3.13's f_executable may be None
  unsigned version = 0;
};
Interp g_py;
bool g_prepared = false;

template <class T>
T load(const void* base, int offset) {
  T v;
  std::memcpy(&v, static_cast<const char*>(base) + offset, sizeof v);
  return v;
}

// A str object's text when it is compact ASCII (ob_type at +8, length at
// +16, state bits at +32: compact 5, ascii 6).
bool ascii_text(const void* s, int data_offset, std::string_view* out) {
  if (!s) return false;
  const auto length = load<std::int64_t>(s, 16);
  const auto state = load<std::uint32_t>(s, 32);
  if (!(state & (1u << 5)) || !(state & (1u << 6))) return false;
  if (length < 0 || length > 4096) return false;
  *out = std::string_view(static_cast<const char*>(s) + data_offset,
                          std::size_t(length));
  return true;
}

bool contains(std::string_view s, std::string_view p) {
  return s.find(p) != std::string_view::npos;
}

}  // namespace

bool is_foreign_python_file(std::string_view file) {
  if (file.empty() || file[0] == '<') return true;  // <frozen ...>, <string>
  if (contains(file, "/site-packages/") || contains(file, "/dist-packages/"))
    return true;
  // The standard library: .../lib/python3.12/x.py (not a package's folder).
  const std::size_t lib = file.find("/lib/python3");
  return lib != std::string_view::npos;
}

void prepare_python_frames() {
  if (g_prepared) return;
  g_prepared = true;
  auto tstate = reinterpret_cast<GetThisThreadState>(
      dlsym(RTLD_DEFAULT, "PyGILState_GetThisThreadState"));
  auto addr2line =
      reinterpret_cast<Addr2Line>(dlsym(RTLD_DEFAULT, "PyCode_Addr2Line"));
  if (!tstate || !addr2line) return;  // no Python here
  unsigned version = 0;
  if (const auto* v =
          static_cast<const unsigned long*>(dlsym(RTLD_DEFAULT, "Py_Version")))
    version = unsigned((*v >> 16) & 0xffff);  // 0xMMmmPPRS
  else if (auto get = reinterpret_cast<const char* (*)()>(
               dlsym(RTLD_DEFAULT, "Py_GetVersion"))) {
    const char* s = get();  // "3.10.13 (main, ...)"
    char* end = nullptr;
    const long major = std::strtol(s, &end, 10);
    const long minor =
        end && *end == '.' ? std::strtol(end + 1, nullptr, 10) : 0;
    version = unsigned(major << 8 | minor);
  }
  // A free-threaded build (3.13t: "3.13.0 experimental free-threading
  // build ...") lays its objects out otherwise.
  if (auto get = reinterpret_cast<const char* (*)()>(
          dlsym(RTLD_DEFAULT, "Py_GetVersion")))
    if (std::strstr(get(), "free-threading")) return;
  for (const Layout& l : kLayouts)
    if (l.version == version) g_py.layout = &l;
  if (!g_py.layout) return;
  g_py.tstate = tstate;
  g_py.addr2line = addr2line;
  g_py.code_type = dlsym(RTLD_DEFAULT, "PyCode_Type");
  g_py.version = version;
}

unsigned python_version() { return g_py.layout ? g_py.version : 0; }

bool python_site(PythonSite* out) {
  const Layout* l = g_py.layout;
  if (!l) return false;
  void* ts = g_py.tstate();
  if (!ts) return false;  // a thread Python never saw
  void* frame = load<void*>(ts, l->tstate_frame);
  if (frame && l->frame_second >= 0)
    frame = load<void*>(frame, l->frame_second);
  std::string_view called;  // the last foreign frame's, innermost first
  for (int depth = 0; frame && depth < 128;
       ++depth, frame = load<void*>(frame, l->frame_previous)) {
    if (l->frame_owner >= 0 && load<std::uint8_t>(frame, l->frame_owner) == 3)
      continue;  // a C-stack shim
    void* code = load<void*>(frame, l->frame_code);
    if (!code) continue;
    if (g_py.code_type && load<void*>(code, 8) != g_py.code_type) continue;
    std::string_view file;
    if (!ascii_text(load<void*>(code, l->code_filename), l->str_ascii_data,
                    &file))
      continue;
    std::string_view name;
    const int name_at = l->code_qualname >= 0 ? l->code_qualname : l->code_name;
    if (is_foreign_python_file(file)) {
      // The package function the line called: the outermost foreign frame,
      // past a decorator's wrapper (a nested function: numba's
      // "require_context.<locals>._require_cuda_context") to the function
      // it wraps.
      constexpr int kCoNested = 0x10;
      const bool nested = load<int>(code, l->code_flags) & kCoNested;
      if (called.empty() || !nested) {
        if (!ascii_text(load<void*>(code, name_at), l->str_ascii_data,
                        &called))
          called = "?";
      }
      continue;
    }
    // The instruction's byte offset in the code.
    int offset = 0;
    if (l->lasti_unit > 0) {
      offset = l->lasti_unit * load<int>(frame, l->frame_instr);
    } else {
      const char* instr = load<const char*>(frame, l->frame_instr);
      const char* start = static_cast<const char*>(code) + l->code_adaptive;
      offset = int(instr - start);
    }
    if (offset < 0) offset = 0;  // a frame just entered
    ascii_text(load<void*>(code, name_at), l->str_ascii_data, &name);
    out->file = file;
    out->function = name;
    out->called = called;
    out->line = g_py.addr2line(code, offset);
    return true;
  }
  return false;
}

}  // namespace Impl
}  // namespace addscope
