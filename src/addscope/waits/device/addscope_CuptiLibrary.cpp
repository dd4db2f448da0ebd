#include "addscope/waits/device/addscope_CuptiLibrary.hpp"

#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <string.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "addscope/waits/addscope_WaitsSettings.hpp"

namespace addscope {
namespace Impl {

namespace {

// A path with "." and ".." taken out, as text (no file system look-up):
// folders derived from others ("<cudart>/../extras/CUPTI/lib64") read as
// the folder they are and compare equal.
std::string normalize(const std::string& path) {
  std::vector<std::string> parts;
  std::size_t i = 0;
  while (i <= path.size()) {
    const std::size_t j = std::min(path.find('/', i), path.size());
    const std::string p = path.substr(i, j - i);
    if (p == "..") {
      if (!parts.empty()) parts.pop_back();
    } else if (!p.empty() && p != ".") {
      parts.push_back(p);
    }
    i = j + 1;
  }
  std::string out;
  for (const auto& p : parts) out += "/" + p;
  return out.empty() ? "/" : out;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() &&
         s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// libcupti names a loader finds: the runtime's own version first, then
// unversioned, then every major this tool knows (newest first).
const std::vector<std::string>& generic_names() {
  static const std::vector<std::string> names = {
      "libcupti.so", "libcupti.so.13", "libcupti.so.12", "libcupti.so.11.8"};
  return names;
}

std::string folder_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

bool exists(const std::string& path) {
  return ::access(path.c_str(), F_OK) == 0;
}

}  // namespace

std::vector<std::string> cupti_search_folders(const CuptiSearchInputs& in) {
  std::vector<std::string> f;
  auto add = [&](const std::string& folder) {
    if (folder.empty()) return;
    const std::string n = normalize(folder);
    if (std::find(f.begin(), f.end(), n) == f.end()) f.push_back(n);
  };
  auto add_root = [&](const std::string& root) {
    add(root + "/extras/CUPTI/lib64");
    add(root + "/lib64");
    add(root + "/targets/x86_64-linux/lib");
    add(root + "/targets/sbsa-linux/lib");
  };
  const std::string& d = in.cudart_dir;
  if (!d.empty()) {
    add(d);  // conda's lib, pip's CUDA 13 nvidia/cu13/lib, a toolkit's lib64
    add(d + "/../extras/CUPTI/lib64");  // a toolkit: <root>/lib64
    if (ends_with(normalize(d), "/targets/x86_64-linux/lib") ||
        ends_with(normalize(d), "/targets/sbsa-linux/lib"))
      add_root(d + "/../../..");  // a toolkit: <root>/targets/<arch>/lib
    if (ends_with(normalize(d), "/nvidia/cuda_runtime/lib"))
      add(d + "/../../cuda_cupti/lib");  // pip: nvidia-cuda-cupti-cu12
  }
  for (const auto& sp : in.site_packages) {
    add(sp + "/nvidia/cuda_cupti/lib");
    add(sp + "/nvidia/cu13/lib");
    add(sp + "/torch/lib");
  }
  if (!in.conda_prefix.empty()) add(in.conda_prefix + "/lib");
  for (const auto& r : in.cuda_roots)
    if (!r.empty()) add_root(r);
  return f;
}

std::vector<std::string> cupti_library_candidates(const CuptiSearchInputs& in) {
  std::vector<std::string> c;
  auto add = [&](const std::string& p) {
    if (std::find(c.begin(), c.end(), p) == c.end()) c.push_back(p);
  };
  if (!in.env_lib.empty()) add(in.env_lib);
  const auto folders = cupti_search_folders(in);
  std::vector<std::string> own, other;
  if (in.runtime_version > 0) {
    const int major = in.runtime_version / 1000;
    const int minor = (in.runtime_version % 1000) / 10;
    const std::string m = "libcupti.so." + std::to_string(major);
    own = {m + "." + std::to_string(minor), m};
    // That major's generic names (libcudart.so.11.0 names no minor:
    // Debian's CUPTI is libcupti.so.11.8).
    for (const auto& g : generic_names())
      if (g.compare(0, m.size() + 1, m + ".") == 0 &&
          std::find(own.begin(), own.end(), g) == own.end())
        own.push_back(g);
  }
  for (const auto& g : generic_names())
    if (std::find(own.begin(), own.end(), g) == own.end()) other.push_back(g);
  for (const auto* names : {&own, &other}) {
    for (const auto& folder : folders)
      for (const auto& n : *names) add(folder + "/" + n);
    for (const auto& n : *names) add(n);
  }
  return c;
}

CuptiSearchInputs cupti_search_inputs(int runtime_version) {
  CuptiSearchInputs in;
  in.runtime_version = runtime_version;
  if (const char* e = waits_setting("ADDSCOPE_CUPTI_LIB")) in.env_lib = e;
  if (const char* e = std::getenv("CONDA_PREFIX")) in.conda_prefix = e;
  // The site-packages folders of the Python that started the program (set
  // by the pip-installed launcher), after those of what it loaded.
  std::vector<std::string> told;
  if (const char* e = waits_setting("ADDSCOPE_PYTHON_SITE_PACKAGES")) {
    std::string all = e;
    std::size_t i = 0;
    while (i <= all.size()) {
      const std::size_t j = std::min(all.find(':', i), all.size());
      if (j > i) told.push_back(all.substr(i, j - i));
      i = j + 1;
    }
  }
  for (const char* v : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* e = std::getenv(v))
      if (*e) in.cuda_roots.push_back(e);
  // The loaded objects: the libcudart (its real folder: a toolkit's
  // lib64 is a link into targets/<arch>/lib) and the site-packages folders
  // that extension modules came from.
  struct Seen {
    CuptiSearchInputs* in;
  } seen{&in};
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) -> int {
        auto* in = static_cast<Seen*>(data)->in;
        const std::string name = info->dlpi_name ? info->dlpi_name : "";
        if (name.empty()) return 0;
        if (in->cudart_dir.empty() &&
            cuda_runtime_version_from_name(name.c_str()) > 0) {
          char full[PATH_MAX];
          in->cudart_dir = folder_of(
              ::realpath(name.c_str(), full) ? std::string(full) : name);
        }
        for (const char* key : {"/site-packages/", "/dist-packages/"}) {
          const auto at = name.find(key);
          if (at == std::string::npos) continue;
          const std::string sp = name.substr(0, at + std::strlen(key) - 1);
          auto& v = in->site_packages;
          if (std::find(v.begin(), v.end(), sp) == v.end()) v.push_back(sp);
        }
        return 0;
      },
      &seen);
  for (const auto& sp : told)
    if (std::find(in.site_packages.begin(), in.site_packages.end(), sp) ==
        in.site_packages.end())
      in.site_packages.push_back(sp);
  // /usr/local/cuda first (the machine's default), then cuda-X.Y, newest
  // first.
  std::vector<std::string> versions;
  if (DIR* dir = ::opendir("/usr/local")) {
    while (const dirent* e = ::readdir(dir))
      if (std::strncmp(e->d_name, "cuda-", 5) == 0)
        versions.push_back(e->d_name);
    ::closedir(dir);
  }
  std::sort(versions.begin(), versions.end(),
            [](const std::string& a, const std::string& b) {
              return ::strverscmp(a.c_str(), b.c_str()) > 0;
            });
  in.cuda_roots.push_back("/usr/local/cuda");
  for (const auto& v : versions) in.cuda_roots.push_back("/usr/local/" + v);
  return in;
}

std::string cupti_not_found_message(const CuptiSearchInputs& in) {
  std::string m = "no libcupti found";
  if (in.runtime_version > 0)
    m += " for CUDA " + std::to_string(in.runtime_version / 1000) + "." +
         std::to_string((in.runtime_version % 1000) / 10);
  m += " (looked at ";
  m += in.env_lib.empty() ? "ADDSCOPE_CUPTI_LIB (unset)"
                          : "ADDSCOPE_CUPTI_LIB = '" + in.env_lib + "'";
  std::size_t existing = 0;
  std::string folders;
  for (const auto& f : cupti_search_folders(in)) {
    if (!exists(f)) continue;
    folders += ", " + f;
    ++existing;
  }
  m += folders;
  m += existing ? "" : ", no CUDA toolkit, pip or conda CUPTI folder";
  const int major = in.runtime_version / 1000;
  const std::string wheel =
      major >= 13
          ? "nvidia-cuda-cupti"
          : "nvidia-cuda-cupti-cu" + std::to_string(major > 0 ? major : 12);
  m += " and the loader's path); set ADDSCOPE_CUPTI_LIB to a libcupti.so (a "
       "CUDA toolkit's extras/CUPTI/lib64) or pip install " +
       wheel + " to see the device";
  return m;
}

// The program's CUDA runtime, if it is a shared library (it is for Kokkos'
// default build); 0 when unknown. `ask`: by cudaRuntimeGetVersion; else only
// by the name of the libcudart loaded — CUDA injection runs inside the
// program's cuInit, where the runtime may hold its own initialization lock
// (a Kokkos 3.4 program, libcudart.so.11.0, hung there when the tool called
// into the runtime: docs/waits-limits.md).
int cuda_runtime_version(bool ask) {
  if (ask) {
    using Fn = int (*)(int*);
    auto fn =
        reinterpret_cast<Fn>(dlsym(RTLD_DEFAULT, "cudaRuntimeGetVersion"));
    int v = 0;
    if (fn && fn(&v) == 0) return v;
  }
  int v = 0;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) -> int {
        const char* n = info->dlpi_name;
        int r = cuda_runtime_version_from_name(n);
        if (r == 0) return 0;  // no libcudart.so.X[.Y]
        char full[PATH_MAX];
        if (realpath(n, full))
          r = std::max(r, cuda_runtime_version_from_name(full));
        *static_cast<int*>(data) = r;
        return r > 0;
      },
      &v);
  return v;
}

int cuda_runtime_version_from_name(const char* path) {
  if (!path) return 0;
  const char* b = std::strrchr(path, '/');
  b = b ? b + 1 : path;
  static const char kPrefix[] = "libcudart.so.";
  if (std::strncmp(b, kPrefix, sizeof kPrefix - 1) != 0) return 0;
  const char* d = b + sizeof kPrefix - 1;
  char* end = nullptr;
  const long major = std::strtol(d, &end, 10);
  if (end == d || major <= 0 || major > 99) return 0;
  long minor = 0;
  if (*end == '.') {
    const char* m = end + 1;
    minor = std::strtol(m, &end, 10);
    if (end == m || minor < 0 || minor > 99) minor = 0;
  }
  return int(major * 1000 + minor * 10);
}

}  // namespace Impl
}  // namespace addscope
