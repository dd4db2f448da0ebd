#include "addscope/waits/record/addscope_PythonFrames.hpp"

#include <dlfcn.h>
#include <sys/uio.h>
#include <unistd.h>

#include <atomic>
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
  int frame_owner;  // < 0: none (3.10, 3.11)
  int lasti_unit;   // f_lasti's bytes per unit (3.10: 2, an index of code
                    // units; 3.9: 1, a byte offset); 0: an instruction pointer
  int code_filename, code_name, code_qualname, code_adaptive;
  int str_ascii_data;  // compact ASCII data after the object
  int code_flags;      // co_flags (CO_NESTED 0x10: a function defined in one)
  // What PyCode_Addr2Line reads, for a copy of another thread's code object:
  // its fixed part's size (up to the bytecode), the line table (a bytes
  // object: co_lnotab in 3.9), and a cache it would read first (3.11's
  // _co_linearray; 3.12+'s _co_monitoring), cleared in the copy.
  int code_size, code_linetable, code_cache;
};

constexpr Layout kLayouts[] = {
    // 3.9: tstate->frame (PyFrameObject), f_back, f_code, f_lasti (bytes)
    {0x0309, 24, -1, 24, 32, 104, -1, 1, 104, 112, -1, -1, 48, 36, 176, 120,
     -1},
    // 3.10: the same, f_lasti in code units
    {0x030a, 24, -1, 24, 32, 96, -1, 2, 104, 112, -1, -1, 48, 36, 176, 120,
     -1},
    // 3.11: tstate->cframe->current_frame, previous, f_code, prev_instr
    {0x030b, 56, 8, 48, 32, 56, -1, 0, 112, 120, 128, 184, 48, 48, 184, 136,
     160},
    // 3.12: the same through cframe, owner (3: a C-stack shim)
    {0x030c, 56, 0, 8, 0, 56, 70, 0, 112, 120, 128, 192, 40, 48, 192, 136,
     168},
    // 3.13: tstate->current_frame, f_executable, instr_ptr
    {0x030d, 72, -1, 8, 0, 56, 70, 0, 112, 120, 128, 200, 40, 48, 200, 136,
     176},
};

using GetThisThreadState = void* (*)();
using Addr2Line = int (*)(void*, int);

struct Interp {
  const Layout* layout = nullptr;
  GetThisThreadState tstate = nullptr;
  Addr2Line addr2line = nullptr;
  void* code_type = nullptr;  // &PyCode_Type: 3.13's f_executable may be None
  void* bytes_type = nullptr;  // &PyBytes_Type: the line table's
  unsigned version = 0;
};
Interp g_py;
bool g_prepared = false;

// The last thread state a program's line was read on (what a thread with
// none, a framework's own C++ thread, reads instead: python_site).
std::atomic<void*> g_last_tstate{nullptr};

// How a walk reads the interpreter's memory. The calling thread's own
// frames: plain loads (they cannot change while it is in our callback).
struct OwnFrames {
  template <class T>
  bool get(const void* base, int offset, T* v) {
    std::memcpy(v, static_cast<const char*>(base) + offset, sizeof *v);
    return true;
  }
  bool text(const char* at, std::size_t n, int /*slot*/,
            std::string_view* out) {
    *out = std::string_view(at, n);
    return true;
  }
  int line(void* code, int offset) { return g_py.addr2line(code, offset); }
};

// Another thread's frames, which may change under the read: copied through
// process_vm_readv on this process, which fails where a plain load would
// fault (a frame popped, a thread state freed); the text into the caller's
// room (PythonText).
constexpr std::size_t kMaxText = 4096;

// This process's id, for process_vm_readv (getpid() is a system call at
// every copy otherwise): set when the interpreter is found, again in a
// child after fork().
pid_t g_pid = 0;

// Copies `n` bytes at `from` in this process into `to`, or as many as lie
// before the first page that cannot be read (the read is split at page
// boundaries: process_vm_readv moves whole pieces or none). How many.
std::size_t copy_some(const void* from, void* to, std::size_t n) {
  if (!from || n == 0) return 0;
  constexpr std::uintptr_t kPage = 4096;
  const auto a = reinterpret_cast<std::uintptr_t>(from);
  const std::uintptr_t cut = (a | (kPage - 1)) + 1;  // the next page's start
  iovec local{to, n};
  iovec remote[2];
  int pieces = 1;
  remote[0] = {const_cast<void*>(from), n};
  if (a + n > cut) {
    remote[0].iov_len = cut - a;
    remote[1] = {reinterpret_cast<void*>(cut), n - (cut - a)};
    pieces = 2;
  }
  const ssize_t r =
      process_vm_readv(g_pid ? g_pid : getpid(), &local, 1, remote, pieces, 0);
  return r > 0 ? std::size_t(r) : 0;
}

bool copy_in(const void* from, void* to, std::size_t n) {
  return from && copy_some(from, to, n) == n;
}

struct OtherFrames {
  PythonText* room;
  // The last objects read, a window of each: a frame's, a code object's or
  // a string's fields come from one copy, not a system call each (their
  // fixed parts are under kWindow bytes). Cleared when the walk ends.
  static constexpr std::size_t kWindow = 256;
  struct Window {
    const char* base = nullptr;
    std::size_t n = 0;
    alignas(8) char bytes[kWindow];
  };
  Window windows[3];
  unsigned next = 0;

  // [at, at + n) in a window read before; null if in none.
  const char* held(const char* at, std::size_t n) const {
    for (const Window& w : windows)
      if (w.base && at >= w.base && at + n <= w.base + w.n)
        return w.bytes + (at - w.base);
    return nullptr;
  }
  // The window holding [at, at + n), read at `base` when none does (`at`
  // from `base` on); null when those bytes cannot be read.
  const char* window(const char* base, const char* at, std::size_t n) {
    if (const char* in = held(at, n)) return in;
    if (at < base || at + n > base + kWindow) return nullptr;
    Window& w = windows[next];
    next = (next + 1) % 3;
    w.base = base;
    w.n = copy_some(base, w.bytes, kWindow);
    if (at + n > base + w.n) return nullptr;
    return w.bytes + (at - base);
  }
  template <class T>
  bool get(const void* base, int offset, T* v) {
    if (!base) return false;
    const char* b = static_cast<const char*>(base);
    if (const char* in = window(b, b + offset, sizeof *v)) {
      std::memcpy(v, in, sizeof *v);
      return true;
    }
    return copy_in(b + offset, v, sizeof *v);
  }
  bool text(const char* at, std::size_t n, int slot, std::string_view* out) {
    char* to = slot == 0   ? room->file
               : slot == 1 ? room->function
                           : room->called;
    const std::size_t cap = slot == 0   ? sizeof room->file
                            : slot == 1 ? sizeof room->function
                                        : sizeof room->called;
    if (n > cap) return false;
    // A short string's text is in the window its fields were read from.
    if (const char* in = held(at, n))
      std::memcpy(to, in, n);
    else if (!copy_in(at, to, n))
      return false;
    *out = std::string_view(to, n);
    return true;
  }
  // CPython's own decoder on copies: the code object's fixed part and its
  // line table, copied into the room and the copy pointed at the copy, so
  // that nothing it reads can be freed or reused under it (a frame popped
  // and its code object freed between the copies above and this call).
  int line(const void* code, int offset) {
    const Layout* l = g_py.layout;
    static_assert(sizeof room->code >= 256, "the largest code object's part");
    if (std::size_t(l->code_size) > sizeof room->code) return -1;
    const char* c = static_cast<const char*>(code);
    if (const char* in = window(c, c, std::size_t(l->code_size)))
      std::memcpy(room->code, in, std::size_t(l->code_size));
    else if (!copy_in(code, room->code, std::size_t(l->code_size)))
      return -1;
    // The copy is still a code object (checked before on the live one).
    void* code_type = nullptr;
    std::memcpy(&code_type, room->code + 8, sizeof code_type);
    if (g_py.code_type && code_type != g_py.code_type) return -1;
    void* table = nullptr;
    std::memcpy(&table, room->code + l->code_linetable, sizeof table);
    constexpr int kBytesData = 32;  // PyBytesObject's ob_sval
    void* type = nullptr;
    std::int64_t size = 0;
    if (!get(table, 8, &type) || type != g_py.bytes_type ||
        !get(table, 16, &size) || size < 0)
      return -1;
    // A table larger than the room: no line (3.9's decoder would read a
    // table cut short as the last line it holds, a wrong one).
    if (size > std::int64_t(sizeof room->lines - kBytesData)) return -1;
    const std::size_t whole = kBytesData + std::size_t(size);
    const char* t = static_cast<const char*>(table);
    if (const char* in = window(t, t, whole))
      std::memcpy(room->lines, in, whole);
    else if (!copy_in(table, room->lines, whole))
      return -1;
    void* lines = room->lines;
    std::memcpy(room->code + l->code_linetable, &lines, sizeof lines);
    if (l->code_cache >= 0) {
      void* none = nullptr;
      std::memcpy(room->code + l->code_cache, &none, sizeof none);
    }
    return g_py.addr2line(room->code, offset);
  }
};

// A str object's text when it is compact ASCII (ob_type at +8, length at
// +16, state bits at +32: compact 5, ascii 6).
template <class Mem>
bool ascii_text(Mem& m, const void* s, int data_offset, int slot,
                std::string_view* out) {
  std::int64_t length = 0;
  std::uint32_t state = 0;
  if (!s || !m.get(s, 16, &length) || !m.get(s, 32, &state)) return false;
  if (!(state & (1u << 5)) || !(state & (1u << 6))) return false;
  if (length < 0 || length > std::int64_t(kMaxText)) return false;
  return m.text(static_cast<const char*>(s) + data_offset, std::size_t(length),
                slot, out);
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
  g_py.bytes_type = dlsym(RTLD_DEFAULT, "PyBytes_Type");
  g_py.version = version;
  g_pid = getpid();
}

unsigned python_version() { return g_py.layout ? g_py.version : 0; }

namespace {

constexpr int kMaxDepth = 128;  // frames a walk reads, innermost first

// The innermost frame on thread state `ts` (the first a walk reads).
template <class Mem>
bool innermost_frame(Mem& m, void* ts, void** frame) {
  const Layout* l = g_py.layout;
  *frame = nullptr;
  if (!m.get(ts, l->tstate_frame, frame)) return false;
  return !*frame || l->frame_second < 0 ||
         m.get(*frame, l->frame_second, frame);
}

// Frame `here`'s code object; null when it has none to read (a C-stack
// shim, 3.13's None for a frame that runs no code object).
template <class Mem>
void* frame_code(Mem& m, void* here) {
  const Layout* l = g_py.layout;
  std::uint8_t owner = 0;
  if (l->frame_owner >= 0 && m.get(here, l->frame_owner, &owner) && owner == 3)
    return nullptr;  // a C-stack shim
  void* code = nullptr;
  void* type = nullptr;
  if (!m.get(here, l->frame_code, &code) || !code) return nullptr;
  if (g_py.code_type && (!m.get(code, 8, &type) || type != g_py.code_type))
    return nullptr;
  return code;
}

// The byte offset in `code` of frame `here`'s instruction.
template <class Mem>
bool instr_offset(Mem& m, void* here, void* code, int* out) {
  const Layout* l = g_py.layout;
  if (l->lasti_unit > 0) {
    int lasti = 0;
    if (!m.get(here, l->frame_instr, &lasti)) return false;
    *out = l->lasti_unit * lasti;
  } else {
    const char* instr = nullptr;
    if (!m.get(here, l->frame_instr, &instr)) return false;
    const char* start = static_cast<const char*>(code) + l->code_adaptive;
    *out = int(instr - start);
  }
  if (*out < 0) *out = 0;  // a frame just entered
  return true;
}

// The innermost frame of the program's own on thread state `ts`.
template <class Mem>
bool walk(Mem& m, void* ts, PythonSite* out) {
  const Layout* l = g_py.layout;
  void* frame = nullptr;
  if (!innermost_frame(m, ts, &frame)) return false;
  enum { kFile, kName, kCalled };
  std::string_view called;  // the last foreign frame's, innermost first
  for (int depth = 0; frame && depth < kMaxDepth; ++depth) {
    void* here = frame;
    if (!m.get(here, l->frame_previous, &frame)) return false;
    void* code = frame_code(m, here);
    if (!code) continue;
    void* str = nullptr;
    std::string_view file;
    if (!m.get(code, l->code_filename, &str) ||
        !ascii_text(m, str, l->str_ascii_data, kFile, &file))
      continue;
    const int name_at = l->code_qualname >= 0 ? l->code_qualname : l->code_name;
    if (is_foreign_python_file(file)) {
      // The package function the line called: the outermost foreign frame,
      // past a decorator's wrapper (a nested function: numba's
      // "require_context.<locals>._require_cuda_context") to the function
      // it wraps.
      constexpr int kCoNested = 0x10;
      int flags = 0;
      const bool nested =
          m.get(code, l->code_flags, &flags) && (flags & kCoNested);
      if (called.empty() || !nested) {
        if (!m.get(code, name_at, &str) ||
            !ascii_text(m, str, l->str_ascii_data, kCalled, &called))
          called = "?";
      }
      continue;
    }
    int offset = 0;
    if (!instr_offset(m, here, code, &offset)) return false;
    std::string_view name;
    if (m.get(code, name_at, &str))
      ascii_text(m, str, l->str_ascii_data, kName, &name);
    out->file = file;
    out->function = name;
    out->called = called;
    out->line = m.line(code, offset);
    return true;
  }
  return false;
}

}  // namespace

bool python_site(PythonSite* out, PythonText* room) {
  if (!g_py.layout) return false;
  void* ts = g_py.tstate();
  if (ts) {
    OwnFrames own;
    if (walk(own, ts, out)) {
      if (g_last_tstate.load(std::memory_order_relaxed) != ts)
        g_last_tstate.store(ts, std::memory_order_relaxed);
      return true;
    }
  }
  // A thread Python never saw, or with no line of the program's own
  // (PyTorch's autograd thread, a library's own worker): what the program
  // was doing then, the line the last thread a program's line was read on
  // is at now (the one that called `loss.backward()`).
  void* last = g_last_tstate.load(std::memory_order_relaxed);
  if (!last || last == ts || !room) return false;
  OtherFrames other{room};
  // A line table cut short, or unread: no line trusted.
  return walk(other, last, out) && out->line >= 1;
}

bool python_place(PythonFiles& files, std::uint64_t* out) {
  if (!g_py.layout) return false;
  void* ts = g_py.tstate();
  if (!ts) return false;
  const Layout* l = g_py.layout;
  OwnFrames m;
  void* frame = nullptr;
  if (!innermost_frame(m, ts, &frame)) return false;
  for (int depth = 0; frame && depth < kMaxDepth; ++depth) {
    void* here = frame;
    m.get(here, l->frame_previous, &frame);
    void* code = frame_code(m, here);
    void* file = nullptr;
    if (!code || !m.get(code, l->code_filename, &file) || !file) continue;
    // The file's kind, from its object's address once seen: two code
    // objects of one module share their file's string.
    const auto a = reinterpret_cast<std::uintptr_t>(file);
    const std::size_t slot =
        std::size_t((a >> 4) * 0x9e3779b97f4a7c15ull >> 58) %
        PythonFiles::kSlots;
    if (files.file[slot] != file) {
      std::string_view name;
      if (!ascii_text(m, file, l->str_ascii_data, 0, &name)) continue;
      files.file[slot] = file;
      files.foreign[slot] = is_foreign_python_file(name);
    }
    if (files.foreign[slot]) continue;
    int offset = 0;
    if (!instr_offset(m, here, code, &offset)) return false;
    *out = (std::uint64_t(reinterpret_cast<std::uintptr_t>(code)) << 16) ^
           std::uint64_t(offset);
    return true;
  }
  return false;
}

void forget_python_threads() {
  g_last_tstate.store(nullptr, std::memory_order_relaxed);
  if (g_pid) g_pid = getpid();  // the child's own
}

}  // namespace Impl
}  // namespace addscope
