#include "addscope/waits/site/addscope_Symbolizer.hpp"

#include <cxxabi.h>
#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

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
    callbacks.find_elf = dwfl_linux_proc_find_elf;
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
  if (!dwfl_module_getelf(m, &elf_bias)) {
    out.push_back(loaded_object_at(a));
    if (out.back().module.empty()) {
      const char* name = dwfl_module_info(m, nullptr, &start, nullptr, nullptr,
                                          nullptr, nullptr, nullptr);
      out.back().module = name ? name : "";
      out.back().offset = a - start;
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
