#include "addscope/waits/site/addscope_Symbolizer.hpp"

#include <cxxabi.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#ifdef ADDSCOPE_HAVE_LIBDW
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#endif

namespace addscope {
namespace Impl {

// "Foo::run(int) const" -> "Foo::run": a name to read beside a line.
// "(anonymous namespace)::" is dropped wherever it stands: nvcc gives a
// function of an anonymous namespace a linkage name that says so (g++ gives
// none, and its plain name does not), and the line beside it already says
// which file it is in.
std::string short_function(const char* symbol) {
  if (!symbol || !*symbol) return {};
  std::string name = symbol;
  int status = 0;
  if (char* d = abi::__cxa_demangle(symbol, nullptr, nullptr, &status)) {
    name = d;
    std::free(d);
  }
  static constexpr char kAnonymous[] = "(anonymous namespace)::";
  for (std::size_t at = name.find(kAnonymous); at != std::string::npos;
       at = name.find(kAnonymous, at))
    name.erase(at, sizeof(kAnonymous) - 1);
  // Cut the parameter list: the last '(' outside template arguments and
  // other parentheses ("Foo::operator()(int) const" -> "Foo::operator()").
  int angles = 0, parens = 0;
  std::size_t cut = std::string::npos;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (c == '<') ++angles;
    if (c == '>') --angles;
    if (c == ')') --parens;
    if (c == '(') {
      if (angles == 0 && parens == 0 && i > 0) cut = i;
      ++parens;
    }
  }
  return cut == std::string::npos ? name : name.substr(0, cut);
}

namespace {
// The object the dynamic linker loaded at address `a` (dladdr): its file,
// the offset in it and the nearest exported symbol; empty if none.
SourceFrame loaded_object_at(std::uint64_t a) {
  SourceFrame f;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(a), &info) && info.dli_fname &&
      *info.dli_fname) {
    f.module = info.dli_fname;
    f.offset = a - reinterpret_cast<std::uint64_t>(info.dli_fbase);
    f.function = short_function(info.dli_sname);
  }
  return f;
}
}  // namespace

#ifdef ADDSCOPE_HAVE_LIBDW

namespace {
// Whether /proc/self/maps marks the mapped path `name` as deleted.
bool is_deleted(std::string_view name) {
  constexpr std::string_view kDeleted = " (deleted)";
  return name.size() > kDeleted.size() && name.front() == '/' &&
         name.substr(name.size() - kDeleted.size()) == kDeleted;
}

// A mapped file whose path the kernel marks " (deleted)": deleted, or
// replaced by a new build, since it was loaded. Its own contents are still
// there to read — the program's through /proc/self/exe, any file's through
// /proc/self/map_files/<range> where the kernel lets the process open it —
// so its frames keep their lines, from the very file that is mapped (never
// from a new file at its old path). -1 when neither opens.
int open_deleted(const char* mapped) {
  char exe[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = '\0';
    if (std::strcmp(exe, mapped) == 0) {
      const int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
      if (fd >= 0) return fd;
    }
  }
  std::FILE* maps = std::fopen("/proc/self/maps", "re");
  if (!maps) return -1;
  int fd = -1;
  char line[PATH_MAX + 128];
  while (fd < 0 && std::fgets(line, sizeof line, maps)) {
    unsigned long lo = 0, hi = 0;
    int path_at = -1;
    if (std::sscanf(line, "%lx-%lx %*s %*s %*s %*s %n", &lo, &hi, &path_at) <
            2 ||
        path_at < 0)
      continue;
    char* path = line + path_at;
    path[std::strcspn(path, "\n")] = '\0';
    if (std::strcmp(path, mapped) != 0) continue;
    char link[64];
    std::snprintf(link, sizeof link, "/proc/self/map_files/%lx-%lx", lo, hi);
    fd = open(link, O_RDONLY | O_CLOEXEC);
  }
  std::fclose(maps);
  return fd;
}

// elfutils' own finder, but a deleted file read through open_deleted
// (elfutils gives such a file no ELF file when not attached to the process:
// module and offset only).
int find_elf(Dwfl_Module* mod, void** userdata, const char* name,
             Dwarf_Addr base, char** file_name, Elf** elfp) {
  if (name && is_deleted(name)) {
    const int fd = open_deleted(name);
    if (fd >= 0) {
      *file_name = strdup(name);
      return fd;
    }
  }
  return dwfl_linux_proc_find_elf(mod, userdata, name, base, file_name, elfp);
}
}  // namespace

struct Symbolizer::Dw {
  Dwfl_Callbacks callbacks{};
  char* debuginfo_path = nullptr;
  Dwfl* dwfl = nullptr;
  // The mappings are re-read for an address in none of them (a module loaded
  // since: the trace symbolizes while the program still loads libraries), a
  // bounded number of times (an address in no module, JIT code, misses for
  // good; each address is looked up once).
  int rereads_left = 64;

  Dw() {
    callbacks.find_elf = find_elf;
    callbacks.find_debuginfo = dwfl_standard_find_debuginfo;
    callbacks.debuginfo_path = &debuginfo_path;
    dwfl = dwfl_begin(&callbacks);
    report();
  }
  ~Dw() {
    if (dwfl) dwfl_end(dwfl);
  }
  void report() {
    if (!dwfl) return;
    dwfl_report_begin(dwfl);
    dwfl_linux_proc_report(dwfl, getpid());
    dwfl_report_end(dwfl, nullptr, nullptr);
  }
  Dwfl_Module* module_of(Dwarf_Addr a) {
    if (!dwfl) return nullptr;
    Dwfl_Module* m = dwfl_addrmodule(dwfl, a);
    if (!m && rereads_left > 0) {  // loaded after the last reading
      --rereads_left;
      report();
      m = dwfl_addrmodule(dwfl, a);
    }
    return m;
  }
};

namespace {
// A DIE's name, through its abstract origin (inlined calls, out-of-line
// copies): the linkage name demangled, else the plain name.
std::string die_function(Dwarf_Die* die) {
  Dwarf_Attribute a;
  const char* linkage =
      dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &a));
  if (!linkage)
    linkage = dwarf_formstring(
        dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a));
  if (linkage) return short_function(linkage);
  const char* name =
      dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &a));
  return name ? name : "";
}
}  // namespace

const std::vector<SourceFrame>& Symbolizer::frames_at(std::uint64_t pc) {
  auto hit = cache_.find(pc);
  if (hit != cache_.end()) return hit->second;
  std::vector<SourceFrame>& out = cache_[pc];
  const Dwarf_Addr a = pc ? pc - 1 : 0;  // inside the call instruction
  Dwfl_Module* m = dw_->module_of(a);
  if (!m) {
    out.push_back(SourceFrame{});
    return out;
  }
  Dwarf_Addr start = 0, elf_bias = 0;
  // Finds its file: named below. None for a module that is no ELF file:
  // libdw lists every mapped file as a module spanning all its mappings and
  // the anonymous memory between them (the driver maps /dev/nvidiactl many
  // times; code generated between two of its mappings reads as in it): the
  // dynamic linker, which knows only the objects it loaded, names the
  // address if it can.
  // A deleted file that could not be read (open_deleted): its mapped path,
  // marked so, which says more than the name it was loaded by.
  if (!dwfl_module_getelf(m, &elf_bias)) {
    out.push_back(loaded_object_at(a));
    const char* name = dwfl_module_info(m, nullptr, &start, nullptr, nullptr,
                                        nullptr, nullptr, nullptr);
    const std::string mapped = name ? name : "";
    if (out.back().module.empty()) {
      out.back().module = mapped;
      out.back().offset = a - start;
    } else if (is_deleted(mapped)) {
      out.back().module = mapped;
    }
    return out;
  }
  const char* main_file = nullptr;
  const char* name = dwfl_module_info(m, nullptr, &start, nullptr, nullptr,
                                      nullptr, &main_file, nullptr);
  SourceFrame base;
  // The mapped path (/proc/self/maps) names the module as the program does.
  base.module = name && *name == '/' ? name : (main_file ? main_file : "");
  base.offset = a - start;
  const char* symbol = dwfl_module_addrname(m, a);
  base.function = short_function(symbol);

  Dwarf_Addr bias = 0;
  Dwarf_Die* cu = dwfl_module_addrdie(m, a, &bias);
  Dwfl_Line* line = dwfl_module_getsrc(m, a);
  if (!cu || !line) {
    out.push_back(base);
    return out;
  }
  int lineno = 0;
  const char* file =
      dwfl_lineinfo(line, nullptr, &lineno, nullptr, nullptr, nullptr);
  switch (dwarf_srclang(cu)) {
    case DW_LANG_C_plus_plus:
    case DW_LANG_C_plus_plus_03:
    case DW_LANG_C_plus_plus_11:
    case DW_LANG_C_plus_plus_14:
      base.language = "c++";
      break;
    case DW_LANG_C:
    case DW_LANG_C89:
    case DW_LANG_C99:
    case DW_LANG_C11:
      base.language = "c";
      break;
    case DW_LANG_Fortran77:
    case DW_LANG_Fortran90:
    case DW_LANG_Fortran95:
    case DW_LANG_Fortran03:
    case DW_LANG_Fortran08:
      base.language = "fortran";
      break;
    default:
      break;
  }
  SourceFrame f = base;
  f.file = file ? file : "";
  f.line = lineno;
  // The innermost function-like scope at the address, then its concrete
  // parents (dwarf_getscopes stops at the first inlined call: the chain of
  // calls inlined into one another is that DIE's own scopes).
  Dwarf_Die* scopes = nullptr;
  const int n = dwarf_getscopes(cu, a - bias, &scopes);
  Dwarf_Die* chain = nullptr;
  int m_chain = 0;
  for (int i = 0; i < n && !chain; ++i) {
    const int tag = dwarf_tag(&scopes[i]);
    if (tag == DW_TAG_inlined_subroutine || tag == DW_TAG_subprogram)
      m_chain = dwarf_getscopes_die(&scopes[i], &chain);
  }
  Dwarf_Files* files = nullptr;
  if (m_chain > 0) dwarf_getsrcfiles(cu, &files, nullptr);
  for (int i = 0; i < m_chain; ++i) {
    Dwarf_Die* s = &chain[i];
    const int tag = dwarf_tag(s);
    if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram) continue;
    f.function = die_function(s);
    out.push_back(f);
    if (tag == DW_TAG_subprogram) break;
    // The inlined call's own place, in the scope around it.
    Dwarf_Attribute attr;
    Dwarf_Word call_file = 0, call_line = 0;
    const char* cf = nullptr;
    if (files &&
        dwarf_formudata(dwarf_attr(s, DW_AT_call_file, &attr), &call_file) == 0)
      cf = dwarf_filesrc(files, call_file, nullptr, nullptr);
    dwarf_formudata(dwarf_attr(s, DW_AT_call_line, &attr), &call_line);
    f = base;
    f.file = cf ? cf : "";
    f.line = int(call_line);
  }
  std::free(chain);
  std::free(scopes);
  // No function's debug info covers the address (a file built without -g
  // beside ones built with it): a line found for it is not to be trusted.
  if (out.empty()) out.push_back(base);
  return out;
}

#else  // no elfutils: the module and offset alone

struct Symbolizer::Dw {};

const std::vector<SourceFrame>& Symbolizer::frames_at(std::uint64_t pc) {
  auto hit = cache_.find(pc);
  if (hit != cache_.end()) return hit->second;
  std::vector<SourceFrame>& out = cache_[pc];
  out.push_back(loaded_object_at(pc ? pc - 1 : 0));
  return out;
}

#endif

Symbolizer::Symbolizer() : dw_(new Dw) {}
Symbolizer::~Symbolizer() = default;

}  // namespace Impl
}  // namespace addscope
