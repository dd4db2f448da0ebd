#include "waits_kokkos_variable.hpp"

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

namespace addscope {
namespace apps {

namespace {

constexpr const char* kToolsLibs = "KOKKOS_TOOLS_LIBS";
constexpr const char* kProfileLibrary = "KOKKOS_PROFILE_LIBRARY";

// Which of the two names the file holds (bit 1: KOKKOS_TOOLS_LIBS, bit 2:
// KOKKOS_PROFILE_LIBRARY), read in chunks that overlap by a name's length.
int names_in(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return 0;
  const std::string a = kToolsLibs, b = kProfileLibrary;
  const std::size_t keep = b.size();
  std::string buf;
  std::vector<char> chunk(1 << 20);
  int found = 0;
  while (in) {
    in.read(chunk.data(), std::streamsize(chunk.size()));
    const std::streamsize n = in.gcount();
    if (n <= 0) break;
    buf.append(chunk.data(), std::size_t(n));
    if (buf.find(a) != std::string::npos) found |= 1;
    if (buf.find(b) != std::string::npos) found |= 2;
    if (found & 1) break;  // the answer
    if (buf.size() > keep) buf.erase(0, buf.size() - keep);
  }
  return found;
}

bool executable_file(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
         ::access(p.c_str(), X_OK) == 0;
}

std::string on_path(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  std::string all = path ? path : "/usr/local/bin:/usr/bin:/bin";
  std::size_t i = 0;
  while (i <= all.size()) {
    const std::size_t j = std::min(all.find(':', i), all.size());
    const std::string dir = j > i ? all.substr(i, j - i) : ".";
    if (executable_file(dir + "/" + name)) return dir + "/" + name;
    i = j + 1;
  }
  return "";
}

// The ELF program's interpreter (PT_INTERP), "" for anything else (a
// script, a static program).
std::string interpreter_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  Elf64_Ehdr eh{};
  if (!in.read(reinterpret_cast<char*>(&eh), sizeof eh)) return "";
  if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
      eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(Elf64_Phdr))
    return "";
  for (int i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph{};
    in.seekg(std::streamoff(eh.e_phoff + std::uint64_t(i) * sizeof ph));
    if (!in.read(reinterpret_cast<char*>(&ph), sizeof ph)) return "";
    if (ph.p_type != PT_INTERP || ph.p_filesz == 0 || ph.p_filesz > 4096)
      continue;
    std::string s(ph.p_filesz, '\0');
    in.seekg(std::streamoff(ph.p_offset));
    if (!in.read(&s[0], std::streamsize(s.size()))) return "";
    s.resize(std::strlen(s.c_str()));
    return s;
  }
  return "";
}

// The libraries the loader lists for the program ("name => path (addr)"
// lines of `ld.so --list`): only those named *kokkoscore*.
std::vector<std::string> kokkos_libraries(const std::string& interp,
                                          const std::string& program) {
  std::vector<std::string> libs;
  int fds[2];
  if (::pipe(fds) != 0) return libs;
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return libs;
  }
  if (pid == 0) {
    ::dup2(fds[1], 1);
    const int null = ::open("/dev/null", O_WRONLY);
    if (null >= 0) ::dup2(null, 2);
    ::close(fds[0]);
    ::close(fds[1]);
    ::execl(interp.c_str(), interp.c_str(), "--list", program.c_str(),
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(fds[1]);
  std::string out;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fds[0], buf, sizeof buf)) > 0) out.append(buf, std::size_t(n));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  std::size_t i = 0;
  while (i < out.size()) {
    std::size_t j = out.find('\n', i);
    if (j == std::string::npos) j = out.size();
    const std::string line = out.substr(i, j - i);
    i = j + 1;
    const auto arrow = line.find("=> ");
    if (arrow == std::string::npos || line.find("kokkoscore") == std::string::npos)
      continue;
    std::string p = line.substr(arrow + 3);
    p = p.substr(0, p.find(" ("));
    if (!p.empty() && p[0] == '/') libs.push_back(p);
  }
  return libs;
}

}  // namespace

KokkosToolsVariable kokkos_variable_of_files(
    const std::vector<std::string>& files) {
  int found = 0;
  for (const auto& f : files) {
    found |= names_in(f);
    if (found & 1) return KokkosToolsVariable::ToolsLibs;
  }
  return (found & 2) ? KokkosToolsVariable::ProfileLibrary
                     : KokkosToolsVariable::Unknown;
}

KokkosToolsVariable kokkos_tools_variable(const std::string& program) {
  const std::string path = on_path(program);
  if (path.empty()) return KokkosToolsVariable::Unknown;
  std::vector<std::string> files = {path};
  const std::string interp = interpreter_of(path);
  if (!interp.empty() && executable_file(interp)) {
    const auto libs = kokkos_libraries(interp, path);
    files.insert(files.end(), libs.begin(), libs.end());
  }
  return kokkos_variable_of_files(files);
}

const char* kokkos_variable_name(KokkosToolsVariable v) {
  switch (v) {
    case KokkosToolsVariable::ToolsLibs:
      return kToolsLibs;
    case KokkosToolsVariable::ProfileLibrary:
      return kProfileLibrary;
    case KokkosToolsVariable::Unknown:
      break;
  }
  return "";
}

}  // namespace apps
}  // namespace addscope
