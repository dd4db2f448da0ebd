// addscope-waits — which variable the program's Kokkos reads to load a
// Kokkos Tools library: Kokkos 3.7 and later read KOKKOS_TOOLS_LIBS (and
// 4.x warns that KOKKOS_PROFILE_LIBRARY is deprecated when it is set);
// earlier ones read KOKKOS_PROFILE_LIBRARY only. Told by the strings in the
// program and in the libkokkoscore it links (listed by the program's own
// dynamic loader, `ld.so --list`, which runs none of its code); where
// neither holds Kokkos (a script, an interpreter that loads Kokkos later),
// not known: the launcher then sets both.
#ifndef ADDSCOPE_APPS_WAITS_KOKKOS_VARIABLE_HPP
#define ADDSCOPE_APPS_WAITS_KOKKOS_VARIABLE_HPP

#include <string>
#include <vector>

namespace addscope {
namespace apps {

enum class KokkosToolsVariable {
  Unknown,         ///< no Kokkos seen: set both
  ProfileLibrary,  ///< Kokkos before 3.7: KOKKOS_PROFILE_LIBRARY
  ToolsLibs,       ///< Kokkos 3.7 and later: KOKKOS_TOOLS_LIBS
};

/// What the files' contents say (the program and its Kokkos libraries):
/// ToolsLibs if any holds "KOKKOS_TOOLS_LIBS", else ProfileLibrary if any
/// holds "KOKKOS_PROFILE_LIBRARY", else Unknown. Unreadable files count
/// as holding neither.
KokkosToolsVariable kokkos_variable_of_files(
    const std::vector<std::string>& files);

/// The program's: `program` as the launcher will run it (a name is looked
/// up on PATH), and the libraries with "kokkoscore" in their names that
/// its loader lists.
KokkosToolsVariable kokkos_tools_variable(const std::string& program);

/// The variable's name ("" for Unknown).
const char* kokkos_variable_name(KokkosToolsVariable v);

}  // namespace apps
}  // namespace addscope

#endif
