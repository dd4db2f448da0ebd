// A program linked against a stand-in libkokkoscore.so (or, with
// ADDSCOPE_FAKE_NO_KOKKOS, none): prints the two variables that load a
// Kokkos Tools library, as it was given them. Their names are spelled
// backwards here: the launcher reads the program's own bytes for them.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#ifdef ADDSCOPE_FAKE_NO_KOKKOS
extern "C" const char* addscope_fake_kokkos_tools_variable() { return ""; }
#else
extern "C" const char* addscope_fake_kokkos_tools_variable();
#endif

int main() {
  for (std::string v : {"SBIL_SLOOT_SOKKOK", "YRARBIL_ELIFORP_SOKKOK"}) {
    std::reverse(v.begin(), v.end());
    const char* s = std::getenv(v.c_str());
    std::printf("%s=%s\n", v.c_str(), s ? s : "(unset)");
  }
  std::printf("reads: '%s'\n", addscope_fake_kokkos_tools_variable());
  return 0;
}
