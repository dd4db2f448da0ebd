#include "addscope/waits/attribution/addscope_KernelName.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <memory>
#include <vector>

namespace addscope {

namespace {

bool looks_mangled(const std::string& s) {
  if (s.size() < 2) return false;
  if (s.compare(0, 2, "_Z") == 0) return true;
  // typeid(T).name(): N...E nested names, Z...E_ local (lambda) types, or a
  // length-prefixed identifier; never spaces or scopes.
  const bool lead = s[0] == 'N' || s[0] == 'Z' ||
                    std::isdigit(static_cast<unsigned char>(s[0]));
  return lead && s.find_first_of(" :<>()[]") == std::string::npos;
}

// Splits the template arguments of the '<' at `open` (top level only).
std::vector<std::string> template_args(const std::string& s, std::size_t open,
                                       std::size_t* close = nullptr) {
  std::vector<std::string> args;
  int depth = 0;
  std::size_t from = open + 1;
  for (std::size_t i = open; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '<' || c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == '>' || c == ')' || c == ']' || c == '}') {
      if (--depth == 0) {
        args.push_back(s.substr(from, i - from));
        if (close) *close = i;
        break;
      }
    } else if (c == ',' && depth == 1) {
      args.push_back(s.substr(from, i - from));
      from = i + 1;
    }
  }
  for (auto& a : args) {
    const auto b = a.find_first_not_of(' ');
    const auto e = a.find_last_not_of(' ');
    a = b == std::string::npos ? "" : a.substr(b, e - b + 1);
  }
  return args;
}

std::string lambda_suffix(std::string index) {
  // nvcc writes the index as an unsigned literal: "1u".
  while (!index.empty() && (index.back() == 'u' || index.back() == 'U' ||
                            index.back() == 'l' || index.back() == 'L'))
    index.pop_back();
  return index.empty() || index == "1" ? " (lambda)"
                                       : " (lambda #" + index + ")";
}

// "__nv_dl_tag<void (A<float>::*)(), &A<float>::add, 1>" -> "A<float>::add".
bool from_nv_tag(const std::string& s, std::string* out) {
  auto p = s.find("__nv_dl_tag<");
  if (p == std::string::npos) p = s.find("__nv_hdl_tag<");
  if (p == std::string::npos) return false;
  const auto args = template_args(s, s.find('<', p));
  if (args.size() < 2) return false;
  std::string f = args[1];
  if (!f.empty() && f[0] == '&') f.erase(0, 1);
  if (f.empty()) return false;
  *out = f + lambda_suffix(args.size() > 2 ? args[2] : "");
  return true;
}

// "A<float>::add()::{lambda(int)#2}" -> "A<float>::add (lambda #2)";
// "main::{lambda(int)#1}" -> "main (lambda)".
// Kokkos 4.x names functors itself, as GCC's __PRETTY_FUNCTION__ does:
// "A<float>::add()::<lambda(long int)>" -> "A<float>::add (lambda)".
std::string collapse_templates(const std::string& s, std::size_t max_len);

// "A::f(int)" -> "A::f", "void A::f" -> "A::f": a function's name alone.
std::string function_name(std::string fn) {
  // Drop the function's parameter list.
  if (!fn.empty() && fn.back() == ')') {
    int depth = 0;
    for (std::size_t i = fn.size(); i-- > 0;) {
      if (fn[i] == ')') ++depth;
      if (fn[i] == '(' && --depth == 0) {
        fn.erase(i);
        break;
      }
    }
  }
  // A return type in front ("void A::f()") is not part of the name.
  int depth = 0;
  for (std::size_t i = 0; i < fn.size(); ++i) {
    if (fn[i] == '<' || fn[i] == '(') ++depth;
    if (fn[i] == '>' || fn[i] == ')') --depth;
    if (fn[i] == ' ' && depth == 0 && fn.compare(i + 1, 8, "operator") != 0) {
      fn.erase(0, i + 1);
      i = 0;
    }
  }
  return fn;
}

bool from_local_lambda(const std::string& s, std::string* out) {
  auto p = s.find("::{lambda(");
  if (p == std::string::npos) p = s.find("::<lambda(");
  if (p == std::string::npos) return false;
  std::string index;
  const auto h = s.find('#', p);
  if (h != std::string::npos)
    while (h + 1 + index.size() < s.size() &&
           std::isdigit(static_cast<unsigned char>(s[h + 1 + index.size()])))
      index += s[h + 1 + index.size()];
  // Where the lambda stands: the kernel itself ("main::{lambda(int)#1}"),
  // or inside the kernel's template arguments, as PyTorch's kernels take
  // the lambda they apply ("at::native::vectorized_elementwise_kernel<4,
  // at::native::mse_kernel_cuda(...)::{lambda(float, float)#1}, ...>").
  int nest = 0;
  std::size_t open = std::string::npos;  // the kernel's own '<'
  for (std::size_t i = 0; i < p; ++i) {
    if (s[i] == '<' && nest++ == 0) open = i;
    if (s[i] == '(') ++nest;
    if (s[i] == '>' || s[i] == ')') --nest;
  }
  if (nest == 0) {
    *out = function_name(s.substr(0, p)) + lambda_suffix(index);
    return true;
  }
  if (open == std::string::npos) return false;  // inside parameters only
  // The kernel's name, and the function the lambda is local to: from the
  // last ',' or '<' open around the lambda ("at::native::mse_kernel_cuda").
  std::size_t from = p;
  for (int depth = 0; from-- > open + 1;) {
    const char c = s[from];
    if (c == '>' || c == ')') ++depth;
    if ((c == '<' || c == '(') && depth-- == 0) break;
    if (c == ',' && depth == 0) break;
  }
  std::string local = function_name(s.substr(from + 1, p - from - 1));
  while (!local.empty() && local.front() == ' ') local.erase(0, 1);
  if (local.size() >= 10 &&
      local.compare(local.size() - 10, 10, "::operator") == 0)
    local += "()";
  // The kernel's numbers before it (a block size, a vector width) tell two
  // instances apart: "reduce_kernel<512, 1, ...>", "<128, 4, ...>".
  std::string numbers;
  for (std::size_t a = open + 1; a < from;) {
    std::size_t e = s.find(',', a);
    if (e == std::string::npos || e > from) e = from;
    std::string arg = s.substr(a, e - a);
    while (!arg.empty() && arg.front() == ' ') arg.erase(0, 1);
    if (arg.empty() || !std::all_of(arg.begin(), arg.end(), [](char c) {
          return std::isdigit(static_cast<unsigned char>(c));
        }))
      break;
    numbers += arg + ", ";
    a = e + 1;
  }
  *out = function_name(s.substr(0, open)) + "<" + numbers +
         collapse_templates(local, 80) + lambda_suffix(index) + ">";
  return true;
}

// The functor of a Kokkos closure type or launch entry point:
// "Kokkos::Impl::ParallelFor<F, Kokkos::RangePolicy<>, Kokkos::Cuda>" -> F.
bool from_kokkos_closure(const std::string& s, std::string* out) {
  for (const char* k :
       {"Kokkos::Impl::ParallelFor<", "Kokkos::Impl::ParallelReduce<",
        "Kokkos::Impl::ParallelScan<",
        "Kokkos::Impl::ParallelScanWithTotal<"}) {
    const auto p = s.find(k);
    if (p == std::string::npos) continue;
    auto args = template_args(s, s.find('<', p));
    if (args.empty()) continue;
    *out = short_kernel_name(args[0]);
    return true;
  }
  // 4.x wraps reductions: CombinedFunctorReducer<F, R>.
  std::size_t c = std::string::npos;
  if (s.rfind("CombinedFunctorReducer<", 0) == 0)
    c = 0;
  else if (s.rfind("Kokkos::Impl::CombinedFunctorReducer<", 0) == 0)
    c = 14;
  if (c != std::string::npos) {
    const auto inner = template_args(s, s.find('<', c));
    if (!inner.empty()) {
      *out = short_kernel_name(inner[0]);
      return true;
    }
  }
  return false;
}

// Long template argument lists collapse to "<...>" below the top level;
// then, if the name is still over twice `max_len`, its parameter list (the
// last group in parentheses) to "(...)".
std::string collapse_templates(const std::string& s, std::size_t max_len) {
  if (s.size() <= max_len) return s;
  std::string out;
  int depth = 0;
  for (char c : s) {
    if (c == '<') {
      if (depth++ == 0) out += "<...";
      continue;
    }
    if (c == '>') {
      if (--depth == 0) out += '>';
      continue;
    }
    if (depth == 0) out += c;
  }
  if (out.size() > 2 * max_len && !out.empty() && out.back() == ')') {
    int parens = 0;
    for (std::size_t i = out.size(); i-- > 0;) {
      if (out[i] == ')') ++parens;
      if (out[i] == '(' && --parens == 0) {
        out.replace(i, std::string::npos, "(...)");
        break;
      }
    }
  }
  return out;
}

// numba names a kernel module::function[abi:v<N>][abi:<closure tag>](<its
// argument types>), its Python qualified name's parts joined by "::" and
// characters outside identifiers escaped as _XX ("<locals>" reads
// "_3clocals_3e"): the name as Python spells it, qualified by its module
// unless that is the script itself (__main__).
std::string python_qualname(const std::string& numba) {
  std::string out;
  for (std::size_t i = 0; i < numba.size();) {
    if (numba.compare(i, 2, "::") == 0) {
      out += '.';
      i += 2;
      continue;
    }
    // "_3c" identifier "_3e": <locals>, <lambda>
    if (numba.compare(i, 3, "_3c") == 0) {
      const std::size_t close = numba.find("_3e", i + 3);
      if (close != std::string::npos && close > i + 3 &&
          std::all_of(numba.begin() + long(i + 3), numba.begin() + long(close),
                      [](char c) {
                        return std::isalnum(static_cast<unsigned char>(c)) ||
                               c == '_';
                      })) {
        out += '<' + numba.substr(i + 3, close - i - 3) + '>';
        i = close + 3;
        continue;
      }
    }
    out += numba[i++];
  }
  return out;
}

bool from_numba(const std::string& s, std::string* out) {
  const auto tag = s.find("[abi:v");
  if (tag == std::string::npos || tag == 0) return false;
  std::size_t i = tag + 6;
  if (i >= s.size() || !std::isdigit(static_cast<unsigned char>(s[i])))
    return false;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  if (i >= s.size() || s[i] != ']') return false;
  std::string name = s.substr(0, tag);
  if (name.rfind("__main__::", 0) == 0) name.erase(0, 10);
  if (name.empty()) return false;
  *out = python_qualname(name);
  return true;
}

}  // namespace

std::string demangle(const std::string& raw) {
  if (!looks_mangled(raw)) return raw;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> d(
      abi::__cxa_demangle(raw.c_str(), nullptr, nullptr, &status), std::free);
  if (status != 0 || !d) return raw;
  return d.get();
}

std::string short_kernel_name(const std::string& raw) {
  // Kokkos names a tagged functor "typeid(F).name()/typeid(Tag).name()".
  const auto slash = raw.find('/');
  if (slash != std::string::npos && raw.find(' ') == std::string::npos &&
      looks_mangled(raw.substr(0, slash)))
    return short_kernel_name(raw.substr(0, slash)) + "/" +
           short_kernel_name(raw.substr(slash + 1));
  const std::string s = demangle(raw);
  std::string out;
  if (from_numba(s, &out)) return out;
  if (from_nv_tag(s, &out)) return out;
  if (from_kokkos_closure(s, &out)) return out;
  if (from_local_lambda(s, &out)) return out;
  // A typeid name Kokkos appended a work tag to: "Functor/Tag".
  if (s != raw) return collapse_templates(s, 80);
  return s.size() > 160 ? collapse_templates(s, 80) : s;
}

}  // namespace addscope
