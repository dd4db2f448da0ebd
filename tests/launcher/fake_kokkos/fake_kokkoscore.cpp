// A stand-in libkokkoscore.so for the launcher's tests: holds the name of
// the variable a Kokkos of that age reads to load a tool (KOKKOS_TOOLS_LIBS
// from 3.7, KOKKOS_PROFILE_LIBRARY before), as Kokkos' own does.
#include <cstdlib>

extern "C" const char* addscope_fake_kokkos_tools_variable() {
  return std::getenv(ADDSCOPE_FAKE_KOKKOS_VARIABLE) ? ADDSCOPE_FAKE_KOKKOS_VARIABLE
                                                    : "";
}
